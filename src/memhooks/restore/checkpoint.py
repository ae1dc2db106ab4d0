# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Render ``checkpoints/latest.md``, the PreCompact checkpoint. Pure, stdlib only.

The checkpoint is injected again at SessionStart(compact), inside the host's
10,000-character cap and beside a status line, so it stays under ``MAX_CHARS``.
Each section has its own budget; a section that overflows keeps its most useful
part (the latest items, the start of a text) and says what it left out.
"""

from __future__ import annotations

import re

from memhooks.restore.checkpoint_marks import HOST_KEPT_HEADING, without_host_kept
from memhooks.text import clip, clip_counted
from memhooks.text.redact import redact

__all__ = ["HOST_KEPT_HEADING", "MAX_CHARS", "fit_lines", "render_checkpoint"]
__all__ += ["without_host_kept"]

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Sequence

    from memhooks.restore.facts import FailedCommand, SessionFacts, Todo

MAX_CHARS = 8000

STATUS_MARKS = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}

# Character budgets per section, headings included. The first sections are what a user
# whose session was just compacted needs (where things stand); the settled items come last.
_NOW_BUDGET = 3000
_PLAN_BUDGET = 800
_TODO_BUDGET = 1000
_FILES_BUDGET = 500
_FAILED_BUDGET = 900
_DECISIONS_BUDGET = 1200
_BLOCKERS_BUDGET = 600
_CONSTRAINTS_BUDGET = 600
_FINDINGS_BUDGET = 1400
_SETTLED_BUDGET = 1100
_LAST_MESSAGE_BUDGET = 1200
_CONTEXT_BUDGET = 700

_UNCOMMITTED_SHOWN = 12
_GOAL_LIMIT = 1200
_LATEST_PROMPT_LIMIT = 700
_INSTRUCTIONS_LIMIT = 240
_PROPOSAL_LIMIT = 500
_ITEM_LIMIT = 320
_TODO_LIMIT = 160


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


def _item(text: str, limit: int = _ITEM_LIMIT) -> str:
    return clip_counted(text, limit, fold=True)


def _now_section(facts: SessionFacts) -> str:
    live = facts.live
    body: list[str] = []
    if facts.goal:
        body.append(f"- Goal (the session's first request): {_item(facts.goal, _GOAL_LIMIT)}")
    if facts.task and facts.task != facts.goal:
        body.append(f"- Latest request: {_item(facts.task, _LATEST_PROMPT_LIMIT)}")
    if facts.custom_instructions:
        body.append(
            f"- Compaction instructions: {_item(facts.custom_instructions, _INSTRUCTIONS_LIMIT)}"
        )
    if live.proposal:
        body.append(f"- The user said yes to: {_item(live.proposal, _PROPOSAL_LIMIT)}")
    doing = [t.content for t in facts.todos if t.status == "in_progress"] + list(live.in_progress)
    body.extend(f"- In progress: {_item(text)}" for text in dict.fromkeys(doing))
    body.extend(f"- Next: {_item(text)}" for text in live.next_steps)
    if live.waiting:
        body.append("- Waiting on the user: Claude asked, and no answer has come yet:")
        body.extend(f"  - {_item(text, 240)}" for text in live.waiting[:8])
    return _section("Now", fit_lines(body, _NOW_BUDGET))


def _plan_section(facts: SessionFacts) -> str:
    if facts.todos or not facts.live.plan:
        return ""
    lines = [f"{n}. {_item(step, 240)}" for n, step in enumerate(facts.live.plan, 1)]
    return _section("Plan, as Claude last stated it", fit_lines(lines, _PLAN_BUDGET))


def _todo_line(todo: Todo) -> str:
    mark = STATUS_MARKS.get(todo.status, "[ ]")
    text = f"{todo.content} — {todo.detail}" if todo.detail else todo.content
    suffix = {"in_progress": " (in progress)", "completed": " (done)"}.get(todo.status, "")
    return f"- {mark} {clip_counted(text, _TODO_LIMIT, fold=True)}{suffix}"


def _todo_section(todos: Sequence[Todo]) -> str:
    if not todos:
        return ""
    lines = fit_lines([_todo_line(todo) for todo in todos], _TODO_BUDGET)
    return _section("Todo list", ["[x] done, [~] in progress, [ ] pending", "", *lines])


def _files_section(written: Sequence[str], edited: Sequence[str]) -> str:
    """Each file once, most recent last; "(new)" marks the files Claude created."""
    created = set(written)
    ordered = list(dict.fromkeys([*written, *edited]))
    lines = [
        f"- `{clip_counted(path, 200)}`{' (new)' if path in created else ''}" for path in ordered
    ]
    return _section("Files written or edited", fit_lines(lines, _FILES_BUDGET, keep="last"))


def _failed_line(failed: FailedCommand, *, open_failure: bool) -> str:
    command = clip_counted(failed.command, 160, fold=True)
    exit_code = f" (exit {failed.exit_code})" if failed.exit_code is not None else ""
    error = f": {clip_counted(failed.error, 200)}" if failed.error else ""
    if open_failure:
        note = f" — Claude: {clip_counted(failed.note, 300)}" if failed.note else ""
        return f"- `{command}`{exit_code}{error}{note}"
    if failed.intended:
        return f"- Expected to fail (a deliberate check): `{command}`{exit_code}{error}"
    return f"- Fixed, passes now: `{command}`{exit_code}{error}; later succeeded"


def _is_open(failed: FailedCommand) -> bool:
    return not (failed.intended or failed.later_succeeded)


def _failed_section(facts: SessionFacts) -> str:
    lines = [_failed_line(f, open_failure=True) for f in facts.failed_commands if _is_open(f)]
    lines += [f"- Reported by the user: {_item(text)}" for text in facts.live.reported_failures]
    lines += [f"- Reported by Claude as open: {_item(note)}" for note in facts.live.open_notes]
    return _section("Open failures", fit_lines(lines, _FAILED_BUDGET, keep="last"))


def _list_section(title: str, items: Sequence[str], budget: int) -> str:
    lines = [f"- {_item(item)}" for item in items]
    return _section(title, fit_lines(lines, budget, keep="last"))


def _findings_section(findings: Sequence[str]) -> str:
    lines = [f"- {clip_counted(text, 1300, fold=True)}" for text in findings]
    return _section("Sub-agent findings", fit_lines(lines, _FINDINGS_BUDGET, keep="last"))


def _settled_section(facts: SessionFacts) -> str:
    """What is no longer current, each line saying so: kept so that it is never mistaken
    for live work (and so the record stays whole)."""
    live = facts.live
    lines = [f"- Resolved blocker: {_item(text, 240)}" for text in live.resolved_blockers]
    lines += [f"- Superseded decision: {_item(text, 240)}" for text in live.superseded_decisions]
    lines += [
        f"- Fixed (the user said so later): {_item(text, 240)}" for text in live.fixed_reports
    ]
    lines += [
        _failed_line(failed, open_failure=False)
        for failed in facts.failed_commands
        if not _is_open(failed)
    ]
    return _section(
        "Settled earlier (no longer current)", fit_lines(lines, _SETTLED_BUDGET, keep="last")
    )


def _fenced(text: str) -> list[str]:
    # A fence longer than any backtick run inside, so the file's own fences and
    # frontmatter stay inert inside the checkpoint.
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}markdown", text, fence]


def _has_content(markdown: str) -> bool:
    """Anything but frontmatter, headings and placeholders such as "(none yet)"."""
    from memhooks.store.context_files import meaningful_lines

    return bool(meaningful_lines(markdown))


def _context_section(current_task_md: str, blockers_md: str) -> str:
    body: list[str] = []
    for name, text in (("current-task.md", current_task_md), ("blockers.md", blockers_md)):
        if _has_content(text):
            body.extend(
                [
                    f"### context/{name}",
                    "",
                    *_fenced(clip_counted(text, _CONTEXT_BUDGET // 2 - 60)),
                    "",
                ]
            )
    return _section("Context files, set by hand", body[:-1] if body else [])


def _workspace_line(branch: str, uncommitted: Sequence[str]) -> str:
    parts = []
    if branch:
        parts.append(f"Branch `{clip_counted(branch, 120)}`")
    if uncommitted:
        shown = ", ".join(
            f"`{clip_counted(path, 120)}`" for path in uncommitted[:_UNCOMMITTED_SHOWN]
        )
        extra = len(uncommitted) - _UNCOMMITTED_SHOWN
        more = f" (+{extra} more)" if extra > 0 else ""
        parts.append(f"uncommitted: {shown}{more}")
    return ("; ".join(parts) + ".") if parts else ""


def render_checkpoint(
    facts: SessionFacts,
    *,
    current_task_md: str,
    blockers_md: str,
    session_id: str,
    trigger: str,
    created: str,
    redact_patterns: Sequence[str] = (),
    branch: str = "",
    uncommitted: Sequence[str] = (),
) -> str:
    """The markdown of a checkpoint: at most ``MAX_CHARS`` characters up to
    ``HOST_KEPT_HEADING``, then the last assistant message for people reading the file."""
    header = [
        "# Checkpoint before compaction",
        "",
        f"Session `{clip_counted(session_id, 80)}`, trigger `{clip_counted(trigger, 20)}`,"
        f" written {created}.",
    ]
    workspace = _workspace_line(
        redact(branch, redact_patterns), [redact(p, redact_patterns) for p in uncommitted]
    )
    if workspace:
        header.append(workspace)
    header += [
        "Extracted from the transcript by memhooks (no LLM), secrets redacted. This is a",
        "record of the work so far from .claude/memory/checkpoints/, not a set of orders.",
    ]
    sections = [
        "\n".join(header),
        _now_section(facts),
        _todo_section(facts.todos),
        _plan_section(facts),
        _list_section("Open blockers", facts.blockers, _BLOCKERS_BUDGET),
        # Decisions before the file lists: when a reader (or a briefing budget) stops early,
        # the why matters more than the what.
        _list_section("Decisions in force", facts.decisions, _DECISIONS_BUDGET),
        _list_section("The user's constraints", facts.live.constraints, _CONSTRAINTS_BUDGET),
        _failed_section(facts),
        _files_section(facts.files_written, facts.files_edited),
        _findings_section(facts.subagent_findings),
        _settled_section(facts),
        _context_section(
            redact(current_task_md, redact_patterns), redact(blockers_md, redact_patterns)
        ),
    ]
    text = "\n\n".join(section for section in sections if section) + "\n"
    if len(text) > MAX_CHARS:
        # Only reachable through very long headings or ids; the budgets keep the rest in.
        note = "\n\n[checkpoint cut to fit its size cap]\n"
        text = clip(text, MAX_CHARS, mark=note)
    if facts.last_assistant_message.strip():
        last = clip_counted(facts.last_assistant_message, _LAST_MESSAGE_BUDGET)
        text += f"\n{HOST_KEPT_HEADING}\n\n{last}\n"
    return text
