"""The JSON a hook prints: the host parses stdout as JSON only when it starts with `{`."""

from __future__ import annotations

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def context_output(event: str, text: str) -> dict[str, Any] | None:
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
