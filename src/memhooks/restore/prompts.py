# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Which user records are genuine requests, and their text without injected reminders.

Pure, stdlib only.
"""

from __future__ import annotations

import re

from memhooks.restore.transcript_records import Record, TextBlock
from memhooks.text.lazy_re import LazyPattern

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms


#: Slash-command echoes (either tag may come first), local command output, background-task
#: notifications and `!` shell input: none of them is a request from the user.
_NOT_A_PROMPT = (
    "<command-name>",
    "<command-message>",
    "<local-command-",
    "<task-notification>",
    "<bash-",
)
_SYSTEM_REMINDER = LazyPattern(r"<system-reminder>.*?</system-reminder>", re.DOTALL)


def prompt_text(record: Record) -> str | None:
    """The text of a genuine user request, or None (tool results, meta, summaries, echoes)."""
    if (
        record.type != "user"
        or record.is_meta
        or record.is_compact_summary
        or record.is_visible_in_transcript_only
        or record.is_sidechain
        or record.has_tool_use_result
    ):
        return None
    if record.text is not None:
        text = record.text
    else:
        if any(not isinstance(block, TextBlock) for block in record.blocks):
            return None
        text = "\n".join(block.text for block in record.blocks if isinstance(block, TextBlock))
    return clean_prompt(text)


def clean_prompt(text: str) -> str | None:
    """A prompt without injected reminders; None when it is a command echo or notification."""
    if "<system-reminder>" in text:
        text = _SYSTEM_REMINDER.sub("", text)
    text = text.strip()
    if not text or text.startswith(_NOT_A_PROMPT):
        return None
    return text


def assistant_text(record: Record) -> str:
    if record.type != "assistant":
        return ""
    return "\n".join(block.text for block in record.blocks if isinstance(block, TextBlock)).strip()
