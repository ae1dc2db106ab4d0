"""Read a hook payload with a deadline: some host builds never close stdin."""

from __future__ import annotations

import json
import os
import sys
import time

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

MAX_PAYLOAD_BYTES = 8 * 1024 * 1024
_CHUNK = 65536


def read_payload(timeout: float = 2.0) -> tuple[dict[str, Any], str]:
    """(payload, problem): an empty dict with the reason when the input is unusable."""
    raw = _read_with_deadline(timeout)
    if raw is None:
        return {}, "stdin is a terminal"
    if not raw.strip():
        return {}, "empty stdin"
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError as exc:
        return {}, f"stdin is not JSON ({exc})"
    if not isinstance(data, dict):
        return {}, "stdin is not a JSON object"
    return data, ""


def _read_with_deadline(timeout: float) -> bytes | None:
    stream = sys.stdin
    if stream is None:
        return b""
    try:
        if stream.isatty():
            return None
        fd = stream.fileno()
    except (OSError, ValueError):
        return b""
    if sys.platform == "win32":
        return _read_in_thread(fd, timeout)
    import select

    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + timeout
    while size < MAX_PAYLOAD_BYTES:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            break
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        # A complete JSON object is all the host sends: stop without waiting for EOF.
        if chunk.rstrip().endswith(b"}") and _complete(b"".join(chunks)):
            break
    return b"".join(chunks)


def _complete(data: bytes) -> bool:
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def _read_in_thread(fd: int, timeout: float) -> bytes:
    import threading  # Windows only: select() does not work on pipes there

    result: list[bytes] = []

    def reader() -> None:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            chunks.append(chunk)
            if _complete(b"".join(chunks)):
                break
        result.append(b"".join(chunks))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(timeout)
    return result[0] if result else b""
