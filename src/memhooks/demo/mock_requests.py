# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""What the `claude` CLI sent the mock: the text of a Messages request, and the hook contexts in it.

Standard library only. The host puts each hook's additionalContext into a request behind a
"<Event> hook additional context: " label; the e2e tests and the demo look for it there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memhooks.demo.mock_replies import JsonDict, text_block

if TYPE_CHECKING:
    from collections.abc import Iterator


#: The host writes hook output into the request behind this label.
HOOK_CONTEXT_LABEL = " hook additional context: "
# Where the host's own text resumes after the hook contexts in the same block.
_HOST_TRAILERS = ("\n\n# Environment\n", "\n\nToday's date is ")


@dataclass(frozen=True)
class HookContext:
    """Text a hook injected, as found in a request: `event` is e.g. SessionStart."""

    event: str
    text: str


def last_user_text(body: JsonDict) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            return json.dumps(message.get("content"), ensure_ascii=False)
    return ""


def request_texts(body: object) -> Iterator[tuple[str, str]]:
    """(role, text) of every text block of a Messages request, system prompt included."""
    if not isinstance(body, dict):
        return
    system = body.get("system")
    blocks = [text_block(system)] if isinstance(system, str) else system or []
    for block in blocks:
        yield "system-prompt", str(block.get("text", ""))
    for message in body.get("messages") or []:
        content = message.get("content")
        parts = [text_block(content)] if isinstance(content, str) else content or []
        for part in parts:
            if part.get("type") == "text":
                yield str(message.get("role")), str(part.get("text", ""))
            else:
                yield str(message.get("role")), json.dumps(part, ensure_ascii=False)


def hook_contexts(body: object) -> list[HookContext]:
    """Every "<Event> hook additional context: …" segment the host put into a request.

    The host joins several hooks' contexts with blank lines and may append its own
    environment text to the same block, so a segment ends at the next label or trailer.
    """
    found: list[HookContext] = []
    for _role, text in request_texts(body):
        start = text.find(HOOK_CONTEXT_LABEL)
        while start != -1:
            line_start = text.rfind("\n", 0, start) + 1
            event = text[line_start:start].strip()
            body_start = start + len(HOOK_CONTEXT_LABEL)
            nxt = text.find(HOOK_CONTEXT_LABEL, body_start)
            end = text.rfind("\n\n", body_start, nxt) if nxt != -1 else len(text)
            for trailer in _HOST_TRAILERS:
                cut = text.find(trailer, body_start, end)
                if cut != -1:
                    end = cut
            found.append(HookContext(event.rsplit(" ", 1)[-1], text[body_start:end].strip()))
            start = nxt
    return found
