"""The JSON a hook prints: the host parses stdout as JSON only when it starts with `{`."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from typing import Any


def context_output(event: str, text: str) -> dict[str, Any] | None:
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
