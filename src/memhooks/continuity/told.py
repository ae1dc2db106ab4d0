"""The user's own words that reach Claude in a tool result. Pure, stdlib only.

Two kinds: the options the user picked in Claude's question tool (AskUserQuestion: its
result reads `User has answered your questions: "question"="option"`) and the reason the
user typed when refusing a tool call (the host's error result). Each is read only from the
result the host itself writes, from its first words: a command's or a sub-agent's output, or a
file Claude reads, may print the same phrases. They decide as a prompt does ("Free tier, reseed at
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

#: The host's result of Claude's question tool, from its first words: the answer's pairs (up
#: to the host's closing words). Only that tool's result is read with it.
_ANSWER = LazyPattern(
    r"\s*(?:User has answered your questions|Your questions have been answered):\s*(.+?)"
    r"(?:\.\s*You can now continue\b|$)",
    re.DOTALL,
)
#: The host's error result of a call the user refused, from its first words: the reason the
#: user typed. A command's output cannot start so (a failed command's starts "Exit code N").
_REFUSAL = LazyPattern(
    r"\s*The user doesn't want to proceed with this tool use\.[^\n]{0,400}?"
    r"reason for the rejection:\s*(.+)",
    re.DOTALL,
)
CAP = 600
#: Kept per turn at most: the newest.
MAX_TOLD = 4


def words(text: str, *, asked: bool, failed: bool) -> str:
    """The user's words in a tool result's `text`, on one line ('' when it holds none): the
    answer when the call was Claude's question tool (`asked`), the reason when the result is
    an error (`failed`), each only where the host's own words begin the text, so that no
    output a command or a file prints can pass for the user's."""
    for pattern, wanted in ((_ANSWER, asked), (_REFUSAL, failed)):
        found = pattern.compiled.match(text) if wanted else None
        if found:
            return clip(flat(found.group(1)), CAP)
    return ""


def note(turn: dict[str, Any], text: str, *, asked: bool, failed: bool) -> None:
    """The user's words in a tool result (redacted by the caller), kept on `turn`."""
    said = words(text, asked=asked, failed=failed)
    if said:
        kept = turn.setdefault("told", [])
        kept.append(said)
        del kept[:-MAX_TOLD]
