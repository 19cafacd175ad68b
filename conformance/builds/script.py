"""Running harness/build.sh: its step lines passed on as progress, with a heartbeat while a step is long.

A cold compile of Kubernetes spends minutes in one `go build` that prints nothing; the heartbeat says
every HEARTBEAT seconds which step runs and for how long, so CI logs and terminals never go quiet.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

from ..core.progress import say

HEARTBEAT = 30.0
_WORK = (": go build", ": go install", "preparing module")  # build.sh lines that start real work


def run_build_script(argv: list[str | Path], *, prefix: str, cwd: Path | None = None) -> tuple[int, str]:
    """Run build.sh `argv`; its `[build.sh ...]` lines go to progress as `[prefix] ...`. Returns the exit code
    and everything it wrote on stderr (the Go errors of a failed build)."""
    lines: queue.Queue[str | None] = queue.Queue()
    output: list[str] = []
    start = time.monotonic()
    step = "starting"
    proc = subprocess.Popen([str(a) for a in argv], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    # A build with nothing to do stays silent: its lines are held back until a step compiles something
    # or the heartbeat fires (a slow download is work too).
    held: list[str] = []
    working = False
    try:
        while True:
            try:
                line = lines.get(timeout=HEARTBEAT)
            except queue.Empty:
                working = True
                for text in held:
                    say(f"[{prefix}] {text}")
                held.clear()
                say(f"[{prefix}] still at {step} ({time.monotonic() - start:.0f} s elapsed)")
                continue
            if line is None:
                break
            output.append(line)
            if line.startswith("[build.sh"):
                text = line.rstrip()
                if "] step " in text:
                    step = "step " + text.split("] step ", 1)[1].split(":", 1)[0]
                working = working or any(work in text for work in _WORK)
                if working:
                    for earlier in held:
                        say(f"[{prefix}] {earlier}")
                    held.clear()
                    say(f"[{prefix}] {text}")
                else:
                    held.append(text)
        return proc.wait(), "".join(output)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)  # Ctrl-C: the compiles go with build.sh
        proc.wait()
        raise
    finally:
        if proc.stderr is not None:
            proc.stderr.close()


__all__ = ["HEARTBEAT", "run_build_script"]
