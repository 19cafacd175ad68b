"""The HTTP trace collector: Go probe plugins POST their records to http://HOST:PORT/trace
(HOST 127.0.0.1, or the Docker network gateway for a scheduler in a kind node).

A body is one JSON record, a JSON list of records, or JSON lines. Each record is stamped with the
collector's arrival time, because the probes in a long-lived scheduler cannot know when a scenario
started; the backend turns that into the record's `t` (seconds since its scenario started).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PATH = "/trace"
MAX_BODY = 8 * 1024 * 1024
ARRIVAL = "_arrival"


class TraceCollector:
    def __init__(self, host: str = "127.0.0.1") -> None:
        # A scheduler in a kind node reaches this machine at its Docker network's gateway, not 127.0.0.1.
        self.host = host
        self._records: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.rejected = 0
        self.last_arrival = 0.0

    def start(self) -> str:
        if self._httpd is None:
            httpd = ThreadingHTTPServer((self.host, 0), _Handler)
            httpd.daemon_threads = True
            httpd.collector = self  # type: ignore[attr-defined]
            self._httpd = httpd
            self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                            name="trace-collector", daemon=True)
            self._thread.start()
        return self.url

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the trace collector is not started; call start() first")
        return f"http://{self.host}:{self._httpd.server_address[1]}{PATH}"

    def add(self, records: list[dict[str, Any]]) -> None:
        now = time.time()
        with self._lock:
            self.last_arrival = now
            for r in records:
                self._records.append({**r, ARRIVAL: now})

    def peek(self, pods: set[str]) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self._records if r.get("pod") in pods]

    def take(self, pods: set[str]) -> list[dict[str, Any]]:
        """Remove and return the records of `pods` (cluster keys); others stay for their own scenario."""
        with self._lock:
            mine = [r for r in self._records if r.get("pod") in pods]
            self._records = [r for r in self._records if r.get("pod") not in pods]
        return mine

    def drop_all(self) -> None:
        with self._lock:
            self._records.clear()


def parse_body(body: bytes) -> list[dict[str, Any]]:
    """A record, a list of records, or JSON lines; raises ValueError naming what is wrong."""
    text = body.decode("utf-8").strip()
    if not text:
        return []
    try:
        data = json.loads(text)
        items = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
    for item in items:
        if not isinstance(item, dict) or "pod" not in item or "point" not in item:
            raise ValueError(f"trace record {str(item)[:80]!r} is not an object with 'pod' and 'point'")
    return items


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        collector: TraceCollector = self.server.collector  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        if self.path != PATH or length > MAX_BODY:
            collector.rejected += 1
            self._answer(404 if self.path != PATH else 413, f"POST trace records to {PATH} (at most {MAX_BODY} bytes)")
            return
        try:
            records = parse_body(self.rfile.read(length))
        except (ValueError, UnicodeDecodeError) as exc:
            collector.rejected += 1
            self._answer(400, str(exc))
            return
        collector.add(records)
        self._answer(204, "")

    def _answer(self, code: int, message: str) -> None:
        body = (message + "\n").encode() if message else b""
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet; errors are counted instead
        pass


__all__ = ["ARRIVAL", "PATH", "TraceCollector", "parse_body"]
