"""Progress lines of slow work (builds, image builds, cluster start): where they go.

On stderr by default. Under pytest the output of fixtures and tests is captured, so the pytest plugin
points the sink at the terminal past the capture: a 9-minute `-race` build inside a test is not silent.
"""

from __future__ import annotations

import sys
from typing import Callable

_sink: Callable[[str], None] | None = None


def say(line: str) -> None:
    if _sink is not None:
        _sink(line)
    else:
        print(line, file=sys.stderr, flush=True)


def set_sink(sink: Callable[[str], None] | None) -> None:
    """Send progress lines to `sink` (None: back to stderr)."""
    global _sink
    _sink = sink


__all__ = ["say", "set_sink"]
