"""Reading a child process's output up to a marker, without blocking past a deadline."""

from __future__ import annotations

import os
import select
import time


def read_until(stream: int, marker: bytes, timeout: float) -> bytes:
    """Read file descriptor ``stream`` until ``marker`` shows, it closes, or ``timeout`` s pass.

    Returns everything read; the caller asserts on it, so a child that never
    prints the marker fails the test instead of hanging it.
    """
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.2)
        if ready:
            chunk = os.read(stream, 4096)
            if not chunk:
                break
            seen += chunk
    return seen
