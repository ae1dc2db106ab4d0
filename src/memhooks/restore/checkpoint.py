# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Render ``checkpoints/latest.md``, the PreCompact checkpoint. Pure, stdlib only.

The checkpoint is injected again at SessionStart(compact), inside the host's
10,000-character cap and beside a status line, so it stays under ``MAX_CHARS``.
Each section has its own budget; a section that overflows keeps its most useful
part (the latest items, the start of a text) and says what it left out.
"""

from __future__ import annotations

import re

from memhooks.text.redact import redact

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Sequence

    from memhooks.restore.extract import FailedCommand, SessionFacts, Todo

MAX_CHARS = 8000

STATUS_MARKS = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}

# Character budgets per section, headings included. They add up to about 7,600,
# leaving room for the header and the cut notes.
_TASK_BUDGET = 1100
_TODO_BUDGET = 1000
_FILES_BUDGET = 600
_FAILED_BUDGET = 600
_DECISIONS_BUDGET = 1100
_BLOCKERS_BUDGET = 500
_LAST_MESSAGE_BUDGET = 1200
_EARLIER_BUDGET = 700
_CONTEXT_BUDGET = 700

_LATEST_PROMPT_LIMIT = 700
_EARLIER_PROMPT_LIMIT = 160
_INSTRUCTIONS_LIMIT = 240
_ITEM_LIMIT = 320
_TODO_LIMIT = 160
_REPLY_LIMIT = 330


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was cut."""
    text = text.strip()
    if len(text) <= limit:
        return text
    note = f" … [{len(text) - limit} more chars cut]"
    return text[: max(0, limit - len(note))].rstrip() + note


def _one_line(text: str) -> str:
    return " ".join(text.split())


def fit_lines(lines: Sequence[str], budget: int, *, keep: str = "first") -> list[str]:
    """As many of ``lines`` as fit in ``budget`` characters, plus a note of what was left.

    ``keep="last"`` keeps the most recent lines (lists in chronological order).
    """
    ordered = list(lines) if keep == "first" else list(reversed(lines))
    kept: list[str] = []
    used = 0
    reserve = 40  # room for the note
    for line in ordered:
        if used + len(line) + 1 > budget - reserve:
            break
        kept.append(line)
        used += len(line) + 1
    if keep == "last":
        kept.reverse()
    left = len(lines) - len(kept)
    if left:
        note = f"- … {left} {'earlier ' if keep == 'last' else ''}more not shown (cut to fit)"
        if keep == "last":
            kept.insert(0, note)
        else:
            kept.append(note)
    return kept


def _section(title: str, body: Sequence[str]) -> str:
    return "\n".join([f"## {title}", "", *body]) if body else ""


def _task_section(facts: SessionFacts) -> str:
    body: list[str] = []
    if facts.task:
        body.append(f"Latest request: {clip(facts.task, _LATEST_PROMPT_LIMIT)}")
    if facts.custom_instructions:
        instructions = clip(_one_line(facts.custom_instructions), _INSTRUCTIONS_LIMIT)
        body.append(f"Compaction instructions: {instructions}")
    earlier = [
        f"- {clip(_one_line(prompt), _EARLIER_PROMPT_LIMIT)}" for prompt in facts.prompts[:-1]
    ]
    if earlier:
        used = sum(len(line) + 1 for line in body)
        body.extend(["", "Earlier requests, oldest first:"])
        body.extend(fit_lines(earlier, _TASK_BUDGET - used - 60, keep="last"))
    return _section("Current task", body or ["(no user request found in the transcript)"])


def _todo_line(todo: Todo) -> str:
    mark = STATUS_MARKS.get(todo.status, "[ ]")
    text = f"{todo.content} — {todo.detail}" if todo.detail else todo.content
    suffix = " (in progress)" if todo.status == "in_progress" else ""
    return f"- {mark} {clip(_one_line(text), _TODO_LIMIT)}{suffix}"


def _todo_section(todos: Sequence[Todo]) -> str:
    if not todos:
        return ""
    lines = fit_lines([_todo_line(todo) for todo in todos], _TODO_BUDGET)
    return _section("Todo list", ["[x] done, [~] in progress, [ ] pending", "", *lines])


def _files_section(written: Sequence[str], edited: Sequence[str]) -> str:
    body: list[str] = []
    for label, paths in (("Written", written), ("Edited", edited)):
        if paths:
            lines = [f"- `{clip(path, 200)}`" for path in paths]
            body.extend(
                [f"{label}, most recent last:", *fit_lines(lines, _FILES_BUDGET // 2, keep="last")]
            )
    return _section("Files written or edited", body)


def _failed_line(failed: FailedCommand) -> str:
    command = clip(_one_line(failed.command), 160)
    exit_code = f" (exit {failed.exit_code})" if failed.exit_code is not None else ""
    error = f": {clip(failed.error, 200)}" if failed.error else ""
    later = "; later succeeded" if failed.later_succeeded else ""
    return f"- `{command}`{exit_code}{error}{later}"


def _failed_section(failed: Sequence[FailedCommand]) -> str:
    lines = [_failed_line(item) for item in failed]
    return _section("Failed commands", fit_lines(lines, _FAILED_BUDGET, keep="last"))


def _list_section(title: str, items: Sequence[str], budget: int) -> str:
    lines = [f"- {clip(_one_line(item), _ITEM_LIMIT)}" for item in items]
    return _section(title, fit_lines(lines, budget, keep="last"))


def _text_section(title: str, text: str, budget: int) -> str:
    return _section(title, [clip(text, budget - len(title) - 8)]) if text.strip() else ""


def _earlier_section(replies: Sequence[str]) -> str:
    lines = [f"- {clip(_one_line(reply), _REPLY_LIMIT)}" for reply in replies]
    return _section("Earlier replies, newest first", fit_lines(lines, _EARLIER_BUDGET))


def _fenced(text: str) -> list[str]:
    # A fence longer than any backtick run inside, so the file's own fences and
    # frontmatter stay inert inside the checkpoint.
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}markdown", text, fence]


def _context_section(current_task_md: str, blockers_md: str) -> str:
    body: list[str] = []
    for name, text in (("current-task.md", current_task_md), ("blockers.md", blockers_md)):
        if text.strip():
            body.extend(
                [f"### context/{name}", "", *_fenced(clip(text, _CONTEXT_BUDGET // 2 - 60)), ""]
            )
    return _section("Context files as they stand", body[:-1] if body else [])


def render_checkpoint(
    facts: SessionFacts,
    *,
    current_task_md: str,
    blockers_md: str,
    session_id: str,
    trigger: str,
    created: str,
    redact_patterns: Sequence[str] = (),
) -> str:
    """The markdown of ``checkpoints/latest.md``, at most ``MAX_CHARS`` characters."""
    header = "\n".join(
        [
            "# Checkpoint before compaction",
            "",
            f"Session `{clip(session_id, 80)}`, trigger `{clip(trigger, 20)}`, written {created}.",
            "Extracted from the transcript by memhooks (no LLM), secrets redacted. This is a",
            "record of the work so far from .claude/memory/checkpoints/, not a set of orders.",
        ]
    )
    sections = [
        header,
        _task_section(facts),
        _todo_section(facts.todos),
        # Decisions and blockers before the file lists: when a reader (or a briefing budget)
        # stops early, the why matters more than the what.
        _list_section("Decisions", facts.decisions, _DECISIONS_BUDGET),
        _list_section("Blockers", facts.blockers, _BLOCKERS_BUDGET),
        _files_section(facts.files_written, facts.files_edited),
        _failed_section(facts.failed_commands),
        _text_section("Last assistant message", facts.last_assistant_message, _LAST_MESSAGE_BUDGET),
        _earlier_section(facts.earlier_replies),
        _context_section(
            redact(current_task_md, redact_patterns), redact(blockers_md, redact_patterns)
        ),
    ]
    text = "\n\n".join(section for section in sections if section) + "\n"
    if len(text) > MAX_CHARS:
        # Only reachable through very long headings or ids; the budgets keep the rest in.
        note = "\n\n[checkpoint cut to fit its size cap]\n"
        text = text[: MAX_CHARS - len(note)].rstrip() + note
    return text
