# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Render the Stop hook's automatic journal entry. Pure, stdlib only.

The Stop hook reads the transcript records added since its saved offset and appends one
short entry to ``sessions/<session-id>.md``: what the user asked, which files Claude's tools
changed, which commands failed, and the gist of the reply. An increment with none of those
(bookkeeping only, a bare reply) gives no entry.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity.evidence import Evidence, relative
from memhooks.continuity.excerpt import flat
from memhooks.text import clip_counted

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from memhooks.continuity.transcript_records import Record

_PROMPT_LIMIT = 200
_REPLY_LIMIT = 200
_ITEM_LIMIT = 160
_MAX_FILES = 8
_MAX_ITEMS = 3


def render_journal_entry(
    records: Iterable[Record],
    *,
    last_assistant_message: str | None,
    when: str,
    redact_patterns: Sequence[str] = (),
) -> str:
    """A markdown entry for the new ``records``, or ``""`` when nothing is worth writing."""
    evidence = Evidence(redact_patterns=redact_patterns).add_all(records)
    state = evidence.state
    turns = state["turns"]
    lines = [
        f"- Asked: {clip_counted(flat(turn['prompt']), _PROMPT_LIMIT)}"
        for turn in turns
        if turn["prompt"]
    ]
    # Calls whose results are not in the file yet (it is written with a lag) count.
    waiting = [relative(c["file"], state["cwd"]) for c in state["pending"].values() if "file" in c]
    files = list(dict.fromkeys([*state["files"], *waiting]))
    if files:
        shown = ", ".join(f"`{clip_counted(path, 120)}`" for path in files[-_MAX_FILES:])
        more = f" (+{len(files) - _MAX_FILES} more)" if len(files) > _MAX_FILES else ""
        lines.append(f"- Changed: {shown}{more}")
    failed = [run for turn in turns for run in turn["ran"] if "cmd" in run and not run["ok"]]
    lines += [
        f"- Failed: `{clip_counted(flat(run['cmd']), _ITEM_LIMIT)}`"
        + (f": {clip_counted(flat(run['error']), _ITEM_LIMIT)}" if run["error"] else "")
        for run in failed[-_MAX_ITEMS:]
    ]
    if not lines:
        return ""
    if last_assistant_message and last_assistant_message.strip():
        evidence.reply(last_assistant_message)
    reply = (turns[-1]["last"] or turns[-1]["first"]) if turns else ""
    if reply:
        lines.append(f"- Replied: {clip_counted(flat(reply), _REPLY_LIMIT)}")
    return "\n".join([f"### {when}", "", *lines]) + "\n"
