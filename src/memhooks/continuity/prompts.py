# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Which user records are genuine requests, and their text without injected reminders.

Pure, stdlib only.
"""

from __future__ import annotations

import re

from memhooks.continuity.transcript import iter_records
from memhooks.continuity.transcript_records import Record, TextBlock
from memhooks.text.lazy_re import LazyPattern

#: Slash-command echoes (either tag may come first), local command output, background-task
#: notifications and `!` shell input: none of them is a request from the user.
_NOT_A_PROMPT = (
    "<command-name>",
    "<command-message>",
    "<local-command-",
    "<task-notification>",
    "<bash-",
)
#: The host's mark of the user stopping Claude: written as a prompt, not the user's words.
_INTERRUPTED = LazyPattern(r"\[Request interrupted by user[^\]\n]{0,40}\]")
_SYSTEM_REMINDER = LazyPattern(r"<system-reminder>.*?</system-reminder>", re.DOTALL)


def prompt_text(record: Record, *, side_chain: bool = False) -> str | None:
    """The text of a genuine user request, or None (tool results, meta, summaries, echoes).

    A side-chain record (a sub-agent's) counts only with `side_chain`: in a sub-agent's own
    transcript every record is one."""
    if (
        record.type != "user"
        or record.is_meta
        or record.is_compact_summary
        or record.is_visible_in_transcript_only
        or (record.is_sidechain and not side_chain)
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


def first_request(transcript: str, limit: int) -> str:
    """A sub-agent's task: the first request in the first `limit` bytes of its own
    transcript, or "" (no transcript, none there)."""
    if not transcript:
        return ""
    for record in iter_records(transcript, 0, limit):
        text = prompt_text(record, side_chain=True)
        if text:
            return text
    return ""


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


def interruption(text: str) -> bool:
    """Whether a prompt's `text` is the host's mark that the user interrupted Claude."""
    return _INTERRUPTED.compiled.fullmatch(text.strip()) is not None
