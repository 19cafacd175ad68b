"""The user's own extenders in the scenarios: a recording proxy in front of each, and the backend
wrapper that routes a scenario's extenders through it.

A scenario names the user's extender `i` as `${USER_EXTENDER_URL}/i` (so that a reproducer replays
anywhere); the wrapper points that at the proxy, which forwards each call to the extender's real
urlPrefix, returns its answer unchanged, and records the exchange with what `contract.check` finds
wrong in it. An extender that is down or too slow gets the scheduler an HTTP 502 (as a refused
connection or a timeout would get it an error) and a recorded exchange; nothing hangs: the proxy
gives up one second after the extender's own httpTimeout.
"""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Mapping, Sequence

from reference.duration import parse_duration
from reference.scenario import Scenario

from ..core.errors import ConformanceError
from ..core.outcome import Outcome
from .contract import Exchange, check, verb_kinds

USER_EXTENDER_PLACEHOLDER = "${USER_EXTENDER_URL}"
DEFAULT_TIMEOUT = 5.0


class UserExtenderError(ConformanceError):
    """A user extender entry the proxy cannot stand in front of; one line naming it and the fix."""


def placeholder_config(config: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The config with every extender's urlPrefix replaced by the placeholder, and the original entries."""
    out = dict(config)
    originals = [dict(e) for e in config.get("extenders") or ()]
    for i, entry in enumerate(originals):
        if entry.get("enableHTTPS"):
            raise UserExtenderError(f"extenders[{i}] ({entry.get('urlPrefix')}): enableHTTPS is not supported "
                                    "through the suite's recording proxy; serve the extender over http on a test "
                                    "address for the suite")
        if not str(entry.get("urlPrefix", "")).startswith("http://"):
            raise UserExtenderError(f"extenders[{i}]: urlPrefix {entry.get('urlPrefix')!r} is not an http:// URL")
    if originals:
        out["extenders"] = [{**e, "urlPrefix": f"{USER_EXTENDER_PLACEHOLDER}/{i}"} for i, e in enumerate(originals)]
    return out, originals


class ExtenderProxy:
    """Forwards `/<i>/<verb>` to extender i's urlPrefix + `/<verb>`; records every exchange."""

    def __init__(self, extenders: Sequence[Mapping[str, Any]]) -> None:
        self.extenders = [dict(e) for e in extenders]
        self._lock = threading.Lock()
        self._exchanges: list[Exchange] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, answer = proxy._forward(self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="extender-proxy", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def take(self) -> list[Exchange]:
        """The exchanges recorded since the last take."""
        with self._lock:
            out, self._exchanges = self._exchanges, []
        return out

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _forward(self, path: str, body: bytes) -> tuple[int, bytes]:
        index, _, verb = path.strip("/").partition("/")
        if not index.isdigit() or int(index) >= len(self.extenders):
            return 404, b'"unknown extender"'
        entry = self.extenders[int(index)]
        kind = verb_kinds(entry).get(verb, "")
        exchange = Exchange(extender=entry["urlPrefix"], verb=verb, kind=kind, request=body, path=f"/{index}/{verb}",
                            ignorable=bool(entry.get("ignorable")))
        timeout = _timeout(entry) + 1.0
        start = time.monotonic()
        request = urllib.request.Request(entry["urlPrefix"].rstrip("/") + "/" + verb, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                exchange.status, exchange.response = response.status, response.read()
        except urllib.error.HTTPError as exc:
            exchange.status, exchange.response = exc.code, exc.read()
        except (OSError, ValueError) as exc:
            exchange.error = str(getattr(exc, "reason", exc))
        exchange.seconds = time.monotonic() - start
        exchange.problems = check(exchange) if kind else [f"called with verb {verb!r}, which the config does not set"]
        with self._lock:
            self._exchanges.append(exchange)
        if exchange.status is None:
            return 502, exchange.error.encode()
        return exchange.status, exchange.response


def _timeout(entry: Mapping[str, Any]) -> float:
    text = entry.get("httpTimeout")
    return parse_duration(text) if text else DEFAULT_TIMEOUT


class UserExtenderBackend:
    """A backend whose scenarios reach the user's extenders through the proxy; outcomes carry the exchanges."""

    def __init__(self, inner: Any, proxy: ExtenderProxy) -> None:
        self.inner, self.proxy = inner, proxy
        self.name = inner.name
        self.capabilities = frozenset(inner.capabilities) | {"extender-exchanges"}
        self.kubernetes_version = inner.kubernetes_version
        self.notes = (*getattr(inner, "notes", ()), f"your extenders through the recording proxy {proxy.base_url}")

    def run(self, scenario: Scenario) -> Outcome:
        config = scenario.config
        if config and config.get("extenders"):
            config = {**config, "extenders": [
                {**e, "urlPrefix": str(e.get("urlPrefix", "")).replace(USER_EXTENDER_PLACEHOLDER, self.proxy.base_url)}
                for e in config["extenders"]]}
            scenario = replace(scenario, config=config)
        self.proxy.take()
        outcome = self.inner.run(scenario)
        return replace(outcome, exchanges=tuple(e.to_dict() for e in self.proxy.take()))

    def close(self) -> None:
        self.inner.close()
        self.proxy.close()


__all__ = ["ExtenderProxy", "USER_EXTENDER_PLACEHOLDER", "UserExtenderBackend", "UserExtenderError",
           "placeholder_config"]
