"""The suite's scripted HTTP extender server (docs/scenario.md, "Extenders").

Requests arrive at `/<extender name>/<verb>` on 127.0.0.1; each pod's annotation
`sched-conformance.io/extender-script` decides the answers, and every call of a known verb is
recorded in `server.trace`. Unknown paths and unreadable requests get HTTP 400 with one line naming
the problem. A backend uses it like this:

    with ExtenderServer(trace=trace, binder=bind) as server:   # or server.start() ... server.stop()
        config = with_extender_url(config, server.base_url)
        server.set_scripts({"default/pod-0": script})           # once per scenario
        server.trace = Trace(clock)                             # swap per scenario

The bind request carries no Pod, so its script comes from `set_scripts` or, failing that, from the
last filter/prioritize/preempt request that carried the pod. Preemption requests of node-cache-capable
extenders carry victim UIDs only; a script names victims by pod key, so the server maps UIDs it has
seen on whole pods in earlier requests, plus those registered with `set_pod_uids`.

`binder(namespace, name, uid, node)` binds the pod in the backend's store and returns an error
string or None. It and the trace are called from the server's request threads. Methods other than
POST get http.server's own 501.
"""

from __future__ import annotations

import selectors
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Iterable, Mapping, NamedTuple

from reference.probe.trace import Trace
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION

from ..core.errors import ConformanceError
from .script import VERBS, ExtenderScriptError, Script, action_for, parse_script
from .verbs import (Answer, Binder, bind_answer, error_answer, filter_answer, preempt_answer,
                             prioritize_answer)
from .wire import PodRef, RequestError, Victim, binding_args, extender_args, preemption_args, read_json

DEFAULT_MAX_BODY = 32 * 1024 * 1024
DEFAULT_READ_TIMEOUT = 10.0


class ExtenderServer:
    """Serves every extender name at once; start() binds an ephemeral port on 127.0.0.1."""

    def __init__(self, *, trace: Trace | None = None, binder: Binder | None = None,
                 max_body_bytes: int = DEFAULT_MAX_BODY, read_timeout: float = DEFAULT_READ_TIMEOUT) -> None:
        self.trace = trace if trace is not None else Trace()
        self.binder = binder
        self.max_body_bytes = max_body_bytes
        self.read_timeout = read_timeout
        self._lock = threading.Lock()
        self._registered: dict[str, Script] = {}
        self._seen: dict[str, str | None] = {}  # pod key -> last script annotation seen (None: none)
        self._registered_uids: dict[str, str] = {}
        self._seen_uids: dict[str, str] = {}  # pod UID -> pod key, from whole pods in requests
        self._running: _Running | None = None

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> str:
        if self._running is not None:
            raise ConformanceError(f"extender server already serves {self.base_url}; stop() it first")
        httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        wake, waker = socket.socketpair()
        thread = threading.Thread(target=_serve, args=(httpd, wake), name="extender-server", daemon=True)
        self._running = _Running(httpd, thread, wake, waker)
        thread.start()
        return self.base_url

    def stop(self) -> None:
        running, self._running = self._running, None
        if running is None:
            return
        running.waker.send(b"\0")
        running.thread.join()
        running.httpd.server_close()
        running.wake.close()
        running.waker.close()

    @property
    def base_url(self) -> str:
        """What backends substitute for `${EXTENDER_URL}`."""
        if self._running is None:
            raise ConformanceError("extender server is not running; call start() or use it as a context manager")
        return f"http://127.0.0.1:{self._running.httpd.server_address[1]}"

    def __enter__(self) -> "ExtenderServer":
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    # --- per scenario ---------------------------------------------------------------------------

    def set_scripts(self, scripts: Mapping[str, str | Mapping[str, Any]]) -> None:
        """Pod key -> script (annotation text or decoded JSON) for the next scenario.

        Replaces the registered scripts and forgets what earlier requests taught the server (scripts
        and pod UIDs), so nothing leaks from one scenario into the next. Registered scripts win over
        annotations.
        """
        parsed = {}
        for key, raw in scripts.items():
            try:
                parsed[key] = parse_script(raw)
            except ExtenderScriptError as exc:
                raise ExtenderScriptError(f"extender script of pod {key}: {exc}") from None
        with self._lock:
            self._registered, self._seen, self._seen_uids = parsed, {}, {}

    def set_pod_uids(self, uids: Mapping[str, str]) -> None:
        """Pod UID -> pod key, for victims that node-cache-capable preemption requests name by UID only.

        Replaces the registered UIDs; they win over UIDs learned from requests.
        """
        with self._lock:
            self._registered_uids = dict(uids)

    # --- answering ------------------------------------------------------------------------------

    def answer(self, extender: str, verb: str, body: bytes) -> Answer:
        """Answer one request body to `/<extender>/<verb>` and record it, as over HTTP; never raises."""
        trace, pod = self.trace, ""
        try:
            value = read_json(body)
            if verb == "bind":
                bind = binding_args(value)
                pod = bind.key
                self._learn([(bind.uid, pod)])
                result = bind_answer(bind, action_for(self._script(pod), extender, verb), self.binder)
            elif verb == "preempt":
                preempt = preemption_args(value)
                pod = preempt.pod.key
                self._learn([(v.uid, v.key) for c in preempt.candidates.values() for v in c.victims])
                action = action_for(self._script(pod, preempt.pod), extender, verb)
                result = preempt_answer(preempt, action, self._key_of)
            else:
                args = extender_args(value)
                pod = args.pod.key
                respond = filter_answer if verb == "filter" else prioritize_answer
                result = respond(args, action_for(self._script(pod, args.pod), extender, verb))
        except RequestError as exc:
            result = error_answer(400, str(exc))
        except Exception as exc:  # noqa: BLE001 - a server bug must reach the scheduler as an answer
            result = error_answer(500, f"extender server bug: {type(exc).__name__}: {exc}")
        trace.record(f"extender.{verb}", pod, extender=extender, **result.fields)
        return result

    def _script(self, key: str, pod: PodRef | None = None) -> Script:
        """The registered script, else the pod's annotation (remembered for requests without a pod)."""
        if pod is not None:
            self._learn([(pod.uid, key)])
        with self._lock:
            if pod is not None:
                self._seen[key] = pod.script
            if key in self._registered:
                return self._registered[key]
            text = self._seen.get(key)
        try:
            return parse_script(text)
        except ExtenderScriptError as exc:
            raise RequestError(f"pod {key}: invalid annotation {EXTENDER_SCRIPT_ANNOTATION}: {exc}") from None

    def _learn(self, uids: Iterable[tuple[str, str | None]]) -> None:
        with self._lock:
            self._seen_uids.update((uid, key) for uid, key in uids if uid and key)

    def _key_of(self, victim: Victim) -> str:
        if victim.key:
            return victim.key
        with self._lock:
            return self._registered_uids.get(victim.uid) or self._seen_uids.get(victim.uid, victim.uid)


def route(path: str) -> tuple[str, str]:
    """`/<extender>/<verb>` -> (extender, verb); RequestError for anything else."""
    parts = path.split("?", 1)[0].split("/")
    if len(parts) != 3 or parts[0] or not parts[1] or parts[2] not in VERBS:
        raise RequestError(f"unknown path {path[:200]!r}; use /<extender>/<verb> with verb one of "
                           f"{', '.join(VERBS)}")
    return parts[1], parts[2]


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default 5 drops bursts of concurrent scheduler calls into SYN retries
    timeout = 0  # handle_request() is only called once a connection is waiting
    owner: ExtenderServer


class _Running(NamedTuple):
    httpd: _HTTPServer
    thread: threading.Thread
    wake: socket.socket
    waker: socket.socket


def _serve(httpd: _HTTPServer, wake: socket.socket) -> None:
    """serve_forever without its polling: idle costs nothing, and a byte on `wake` stops it at once."""
    with selectors.DefaultSelector() as selector:
        selector.register(httpd, selectors.EVENT_READ)
        selector.register(wake, selectors.EVENT_READ)
        while True:
            if any(key.fileobj is wake for key, _ in selector.select()):
                return
            httpd.handle_request()


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer

    def setup(self) -> None:
        # A client that stops sending mid-request must not hold a thread forever.
        self.timeout = self.server.owner.read_timeout
        super().setup()

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        owner = self.server.owner
        try:
            extender, verb = route(self.path)
        except RequestError as exc:
            self._send(error_answer(400, str(exc)))
            return
        try:
            body = self._read_body(owner.max_body_bytes)
        except RequestError as exc:
            answer = error_answer(400, str(exc))
            owner.trace.record(f"extender.{verb}", "", extender=extender, **answer.fields)
            self._send(answer)
            return
        self._send(owner.answer(extender, verb, body))

    def _read_body(self, limit: int) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raise RequestError("chunked request bodies are not supported; send Content-Length")
        raw = self.headers.get("Content-Length")
        if raw is None:
            raise RequestError("Content-Length header missing; the body must have a declared length")
        if not raw.strip().isdigit():
            raise RequestError(f"Content-Length {raw[:40]!r} is not a byte count")
        length = int(raw)
        if length > limit:
            self.close_connection = True
            raise RequestError(f"body of {length} bytes is over the limit of {limit}; raise max_body_bytes")
        try:
            body = self.rfile.read(length)
        except TimeoutError:
            raise RequestError(f"timed out after {self.timeout}s reading a body of {length} bytes") from None
        if len(body) < length:
            raise RequestError(f"body ended after {len(body)} of {length} bytes")
        return body

    def _send(self, answer: Answer) -> None:
        kind = "application/json" if answer.status == 200 else "text/plain; charset=utf-8"
        try:
            self.send_response(answer.status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)
        except OSError:
            self.close_connection = True  # the client went away; nothing left to tell it

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        """Silent: answers carry their errors and the trace records every call."""


__all__ = ["DEFAULT_MAX_BODY", "DEFAULT_READ_TIMEOUT", "ExtenderServer", "route"]
