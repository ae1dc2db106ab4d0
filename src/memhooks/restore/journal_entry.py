# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Render the Stop hook's automatic journal entry. Pure, stdlib only.

The Stop hook reads the transcript records added since its saved offset and appends
one short entry to ``sessions/<session-id>.md``: what the user asked, which files
changed, which commands failed, what was decided, and the gist of the reply. An
increment with none of those (bookkeeping only, a bare reply) gives no entry.
"""

from __future__ import annotations

from memhooks.restore.extract import extract_facts
from memhooks.text import clip_counted

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from memhooks.restore.transcript_records import Record

_PROMPT_LIMIT = 200
_REPLY_LIMIT = 200
_ITEM_LIMIT = 160
_MAX_FILES = 8
_MAX_ITEMS = 3


def _paths(label: str, paths: Sequence[str]) -> list[str]:
    if not paths:
        return []
    shown = ", ".join(f"`{clip_counted(path, 120)}`" for path in paths[-_MAX_FILES:])
    more = f" (+{len(paths) - _MAX_FILES} more)" if len(paths) > _MAX_FILES else ""
    return [f"- {label}: {shown}{more}"]


def render_journal_entry(
    records: Iterable[Record],
    *,
    last_assistant_message: str | None,
    when: str,
    redact_patterns: Sequence[str] = (),
) -> str:
    """A markdown entry for the new ``records``, or ``""`` when nothing is worth writing."""
    facts = extract_facts(
        records, last_assistant_message=last_assistant_message, redact_patterns=redact_patterns
    )
    lines = [
        f"- Asked: {clip_counted(prompt, _PROMPT_LIMIT, fold=True)}" for prompt in facts.prompts
    ]
    lines += _paths("Wrote", facts.files_written)
    lines += _paths("Edited", facts.files_edited)
    lines += [
        f"- Failed: `{clip_counted(failed.command, _ITEM_LIMIT, fold=True)}`"
        + (f": {clip_counted(failed.error, _ITEM_LIMIT, fold=True)}" if failed.error else "")
        for failed in facts.failed_commands[-_MAX_ITEMS:]
    ]
    lines += [
        f"- Decided: {clip_counted(item, _ITEM_LIMIT, fold=True)}"
        for item in facts.decisions[-_MAX_ITEMS:]
    ]
    lines += [
        f"- Blocked: {clip_counted(item, _ITEM_LIMIT, fold=True)}"
        for item in facts.blockers[-_MAX_ITEMS:]
    ]
    if not lines:
        return ""
    if facts.last_assistant_message:
        lines.append(
            f"- Replied: {clip_counted(facts.last_assistant_message, _REPLY_LIMIT, fold=True)}"
        )
    return "\n".join([f"### {when}", "", *lines]) + "\n"
