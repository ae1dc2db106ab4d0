"""The user's own words that reach Claude in a tool result. Pure, stdlib only.

Two kinds: the options the user picked in Claude's question tool (AskUserQuestion: its
result reads `User has answered your questions: "question"="option"`) and the reason the
user typed when refusing a tool call. They decide as a prompt does ("Free tier, reseed at
every boot"), so the evidence keeps them on their turn (`turn["told"]`), and the restore
shows them as the user's words (continuity/thread_parts.py for an earlier session).
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.continuity.excerpt import flat
from memhooks.text import clip
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from typing import Any

#: An answer's pairs (up to the host's closing words), or a refusal's reason.
_TOLD = LazyPattern(
    r"(?:answered your questions|questions have been answered):\s*(.+?)"
    r"(?:\.\s*You can now continue\b|$)|reason for the rejection:\s*(.+)",
    re.DOTALL,
)
CAP = 600
#: Kept per turn at most: the newest.
MAX_TOLD = 4


def words(text: str) -> str:
    """The user's words in a tool result's `text`, on one line ('' when it holds none)."""
    found = _TOLD.compiled.search(text)
    said = flat(next((g for g in found.groups() if g), "")) if found else ""
    return clip(said, CAP)


def note(turn: dict[str, Any], text: str) -> None:
    """The user's words in a tool result (redacted by the caller), kept on `turn`."""
    said = words(text)
    if said:
        kept = turn.setdefault("told", [])
        kept.append(said)
        del kept[:-MAX_TOLD]
