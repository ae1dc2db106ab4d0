"""The handover a reader can continue from, rendered from a session's evidence. Pure, stdlib only.

Two parts, never mixed:

- **What the record proves**, stated as current: the files Claude's tools changed, the last
  outcome of each check, the todo list, and Claude's question no prompt has answered yet.
- **What was said**, oldest first, each line with its turn and who said it: the user's prompts
  verbatim (pastes trimmed), Claude's first and last words of each turn, what ran. Older turns
  are shortened by selection, the newest kept fullest. Nothing in it is sorted into "in force"
  on a guess: its heading says that later turns supersede earlier ones.

`next_session` is what a new session on the project gets (and a compaction whose host summary
is missing); `after_compaction` is the few lines that complement the host's own summary.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity.evidence import unanswered_question
from memhooks.continuity.excerpt import head_tail
from memhooks.text import clip, one_line

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

#: Per level of detail: characters of the prompt, of Claude's first, middle and last words
#: of the turn, and whether what ran is listed. The newest turns get the fullest.
LEVELS = (
    (120, 0, 0, 0, False),
    (240, 0, 0, 200, False),
    (600, 260, 0, 200, False),
    (600, 400, 0, 900, True),
    (1000, 600, 400, 900, True),
    (4000, 3000, 1500, 4000, True),
)
FIRST_HEAD = 0.7
#: The fullest level a turn may get, by its age (0 = the latest turn).
MAX_LEVEL_BY_AGE = (4, 4, 3, 3, 3)
OLD_MAX_LEVEL = 2
GOAL_LEVEL = 2
RUNS_SHOWN = 6
FILES_SHOWN = 25
CHECKS_SHOWN = 8
COMMITS_SHOWN = 8
EARLIER_ERROR = 80
TODO_LIMIT = 160
#: Characters of each prompt after a compaction (the user's own words, beside the summary).
PROMPT_WORDS_CAP = 220

RECORD_HEADING = (
    "## What was said, oldest first ([turn] who: words; later turns supersede earlier ones)"
)
PROVEN_HEADING = "## What the record proves (tool calls and their results)"
CHECKS_HEADING = (
    "## Last outcome of each check Claude ran, newest first (a result from before later "
    "edits may be superseded)"
)
STATUS = {"completed": "done:", "in_progress": "in progress:", "pending": "to do:"}


# ---------------------------------------------------------------- what the record proves


def _code(text: str, limit: int = 160) -> str:
    return "`" + clip(one_line(text).replace("`", "'"), limit) + "`"


def _paths(items: Sequence[tuple[str, str]]) -> str:
    """`path` (how), the latest FILES_SHOWN, with how many more there were."""
    shown = ", ".join(
        f"{_code(path, 160)}{'' if how == 'edited' else f' ({how})'}"
        for path, how in items[-FILES_SHOWN:]
    )
    more = len(items) - FILES_SHOWN
    return shown + (f" (+{more} more)" if more > 0 else "")


def _tool_files(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(path, info.get("how") or "edited") for path, info in state.get("files", {}).items()]


def git_lines(git: dict[str, Any], tool_files: list[tuple[str, str]]) -> list[str]:
    """git's view (see continuity/git_changes.py): what changed since the session began (tool
    files git shows unchanged left out), what is uncommitted, what was committed."""
    at = f"git, {git.get('at') or 'at the restore'}"
    changed = git.get("changed")
    lines = []
    if changed is None:  # no baseline: the tools' record is all there is
        if tool_files:
            lines.append(f"- Files changed by Claude's tools this session: {_paths(tool_files)}")
    else:
        items = list(changed.items())
        lines.append(
            f"- Changed since the session began ({at}): {_paths(items)}"
            if items
            else f"- Nothing differs from the session's start ({at})"
        )
        kept = set(git.get("tools_only") or ())
        outside = [item for item in tool_files if item[0] in kept]
        if outside:
            lines.append(f"- Also changed by Claude's tools, not seen by git: {_paths(outside)}")
    dirty = list((git.get("uncommitted") or {}).items())
    if dirty and changed is not None and dict(dirty) == changed:
        lines.append("- Uncommitted now: all of those")
    elif dirty:
        lines.append(f"- Uncommitted now ({at}): {_paths(dirty)}")
    commits = git.get("commits") or []
    if commits:
        more = len(commits) - COMMITS_SHOWN
        shown = "; ".join(_code(line, 120) for line in commits[:COMMITS_SHOWN])
        more_note = f" (+{more} more)" if more > 0 else ""
        lines.append(f"- Committed this session: {shown}{more_note}")
    return lines


def file_lines(state: dict[str, Any]) -> list[str]:
    """The changed files: git's view when the restore had one, else those Claude's tools
    changed, in the order they were last changed; "(new)" for those created."""
    tool_files = _tool_files(state)
    git = (state.get("git") or {}).get("now")
    if isinstance(git, dict):
        return git_lines(git, tool_files)
    if not tool_files:
        return []
    return [f"- Files changed by Claude's tools this session: {_paths(tool_files)}"]


def _changed_after(state: dict[str, Any], seq: int) -> bool:
    return any(info.get("seq", 0) > seq for info in state.get("files", {}).values())


def check_lines(state: dict[str, Any]) -> list[str]:
    """The last outcome of each check, newest first; a failure followed by changes to the
    files is "earlier" (not re-run since), never "failing now"."""
    lines = []
    entries = list(state.get("checks", {}).values())[::-1][:CHECKS_SHOWN]
    for entry in entries:
        cmd = _code(entry["cmd"], 160)
        if entry["ok"]:
            closed = entry.get("closed_by")
            lines.append(
                f"- passed (turn {entry.get('closed_turn', entry['turn'])}): {cmd}"
                if not closed
                else f"- fixed, passes now (turn {entry['closed_turn']}): {cmd}"
            )
            continue
        error = f": {clip(entry['error'], 140)}" if entry.get("error") else ""
        if _changed_after(state, entry.get("seq", 0)):  # likely superseded: kept short
            short = f": {clip(entry['error'], EARLIER_ERROR)}" if entry.get("error") else ""
            lines.append(
                f"- earlier failure, files changed since, not re-run (turn {entry['turn']}): "
                f"{_code(entry['cmd'], EARLIER_ERROR)}{short}"
            )
        else:
            lines.append(f"- FAILING at its last run (turn {entry['turn']}): {cmd}{error}")
    return lines


def todo_lines(state: dict[str, Any]) -> list[str]:
    todos = state.get("todos") or []
    return [
        f"- todo {STATUS.get(item['status'], 'to do:')} "
        + clip(one_line(item["content"]), TODO_LIMIT)
        for item in todos
    ]


def proven_section(state: dict[str, Any]) -> str:
    lines = file_lines(state)
    todos = todo_lines(state)
    if todos:
        lines.append("- The todo list as Claude last wrote it:")
        lines += ["  " + line for line in todos]
    question = unanswered_question(state)
    if question:
        lines.append(f"- Claude asked, and no prompt has answered yet: {question}")
    parts = ["\n".join([PROVEN_HEADING, *lines])] if lines else []
    checks = check_lines(state)
    if checks:
        parts.append("\n".join([CHECKS_HEADING, *checks]))
    return "\n\n".join(parts)


# ---------------------------------------------------------------- what was said


def _runs(turn: dict[str, Any]) -> str:
    parts = []
    for run in turn.get("ran", [])[-RUNS_SHOWN:]:
        if "agent" in run:
            parts.append(f"a sub-agent reported: {clip(run['agent'], 400)}")
        elif run["ok"]:
            parts.append(f"{_code(run['cmd'], 100)} ok")
        else:
            error = f" ({clip(run['error'], 160)})" if run.get("error") else ""
            parts.append(f"{_code(run['cmd'], 100)} failed{error}")
    return "; ".join(parts)


def turn_lines(turn: dict[str, Any], level: int) -> list[str]:
    prompt_cap, first_cap, mid_cap, last_cap, with_runs = LEVELS[level]
    n = turn["n"]
    lines = []
    if turn["prompt"]:
        lines.append(f"[{n}] user: {head_tail(turn['prompt'], prompt_cap, head_share=0.6)}")
    first, last = turn["first"], turn["last"]
    if first and first_cap:
        lines.append(f"[{n}] Claude: {head_tail(first, first_cap, head_share=FIRST_HEAD)}")
    if mid_cap:
        lines += [f"[{n}] Claude: {head_tail(text, mid_cap)}" for text in turn.get("mid", [])]
    final = last or ("" if first_cap else first)
    if final and last_cap:
        label = "Claude, ending the turn" if last else "Claude"
        lines.append(f"[{n}] {label}: {head_tail(final, last_cap, head_share=0.5)}")
    if with_runs:
        runs = _runs(turn)
        if runs:
            lines.append(f"[{n}] ran: {runs}")
    return lines


def _size(lines: Sequence[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _top_level(i: int, count: int, goal: int = 0) -> int:
    age = count - 1 - i
    if i == goal and age:
        return GOAL_LEVEL
    return MAX_LEVEL_BY_AGE[age] if age < len(MAX_LEVEL_BY_AGE) else OLD_MAX_LEVEL


def _fitting(turns: Sequence[dict[str, Any]], goal: int, budget: int) -> list[int]:
    """The goal's and the newest turns' indexes that fit `budget` at their shortest: a long
    session's older turns are left out before any detail is chosen (a flat cost)."""
    keep = [goal]
    used = _size(turn_lines(turns[goal], 0))
    for i in range(len(turns) - 1, -1, -1):
        size = _size(turn_lines(turns[i], 0))
        if i != goal:
            if used + size > budget:
                break
            keep.append(i)
            used += size
    return sorted(keep)


def record_lines(turns: Sequence[dict[str, Any]], budget: int) -> list[str]:
    """The turns, oldest first, as detailed as `budget` allows: the first prompt's turn (the
    goal) and the newest get the most; every turn shown keeps at least its prompt's head, and
    one line counts those that do not fit even so."""
    if not turns:
        return []
    goal = next((i for i, turn in enumerate(turns) if turn["prompt"]), 0)
    kept = _fitting(turns, goal, budget)
    gap = ""
    if len(kept) < len(turns):
        gap = f"[… {len(turns) - len(kept) + 1} more turns not shown]"  # counted below
        kept = _fitting(turns, goal, budget - len(gap) - 1)
        gap = f"[… {len(turns) - len(kept)} more turns not shown]"
    room = budget - len(gap) - 1 if gap else budget
    lines = _detailed([turns[i] for i in kept], kept.index(goal), room)
    if gap:
        prefix = f"[{turns[goal]['n']}] "
        at = next((i for i, line in enumerate(lines) if not line.startswith(prefix)), len(lines))
        lines.insert(at, gap)
    return lines


def _detailed(turns: Sequence[dict[str, Any]], goal: int, budget: int) -> list[str]:
    levels = [0] * len(turns)
    rendered = [turn_lines(turn, 0) for turn in turns]
    used = sum(_size(lines) for lines in rendered)
    newest_first = [len(turns) - 1 - age for age in range(len(turns))]
    order = [goal, *[i for i in newest_first if i != goal]]
    passes = [(level, True) for level in range(1, len(LEVELS))]
    passes += [(level, False) for level in range(1, len(LEVELS))]  # what room is left
    for level, capped in passes:
        for i in order:
            if level <= levels[i] or (capped and level > _top_level(i, len(turns), goal)):
                continue
            lines = turn_lines(turns[i], level)
            if used - _size(rendered[i]) + _size(lines) <= budget:
                used += _size(lines) - _size(rendered[i])
                rendered[i], levels[i] = lines, level
    out = [line for lines in rendered for line in lines]
    while out and _size(out) > budget and len(out) > 1:  # even the shortest did not fit
        out.pop(1)
    return out


def said_section(turns: Sequence[dict[str, Any]], budget: int) -> str:
    room = budget - len(RECORD_HEADING) - 1
    lines = record_lines(turns, room)
    return "\n".join([RECORD_HEADING, *lines]) if lines else ""


# ---------------------------------------------------------------- the two restores


def summary_heading(summary: dict[str, Any]) -> str:
    """A model-written summary's heading: whose it is, and that it is no proof."""
    after = summary.get("after_turn", 0)
    if summary.get("kind") == "summarize":
        return (
            f"## What the session summary Claude wrote with `/memory summarize` after turn "
            f"{after} said (a model's summary, not the record's proof; later turns below "
            "supersede it)"
        )
    return (
        f"## What Claude Code's own summary said, written earlier at the compaction after turn "
        f"{after} (a model's summary, not the record's proof; later turns below supersede it)"
    )


def next_session(
    state: dict[str, Any],
    *,
    budget: int,
    intro: str = "",
    said: Callable[[Sequence[dict[str, Any]], int], str] | None = None,
) -> str:
    """Where a session stood: the record's proofs, then what was said (or, after a
    compaction, the host's summary and what was said since). `said` renders what was said
    (default: `said_section`)."""
    parts = [intro] if intro else []
    proven = proven_section(state)
    if proven:
        parts.append(proven)
    turns = state.get("turns") or []
    summary = state.get("summary")
    if summary and summary.get("text"):
        after = summary.get("after_turn", 0)
        room = budget - _size(parts) - 2
        head = summary_heading(summary)
        body = clip(summary["text"], max(0, room // 2 - len(head)))
        parts.append(f"{head}\n{body}")
        turns = [turn if turn["n"] > after else _words_only(turn) for turn in turns]
    record = (said or said_section)(turns, budget - _size(parts) - 2)
    if record:
        parts.append(record)
    return "\n\n".join(parts)


def _words_only(turn: dict[str, Any]) -> dict[str, Any]:
    """A turn the host's summary covers: the user's own words only (what summaries lose)."""
    return {**turn, "first": "", "mid": [], "last": "", "ran": []}


def _in_summary(prompt: str, summary: str) -> bool:
    words = one_line(prompt).lower()
    return len(words) > 0 and words in one_line(summary).lower()


def after_compaction(state: dict[str, Any], *, summary: str, budget: int) -> str:
    """What the host's summary loses, in a few lines: the record's proofs and the user's own
    words (those the summary does not quote already), oldest first."""
    parts = []
    proven = proven_section(state)
    if proven:
        parts.append(proven)
    heading = "## The user's own words, oldest first (later ones supersede earlier ones)"
    prompted = [turn for turn in state.get("turns") or [] if turn["prompt"]]
    lines = [
        f"[{turn['n']}] {head_tail(turn['prompt'], cap, head_share=0.6)}"
        for i, turn in enumerate(prompted)
        if not _in_summary(turn["prompt"], summary)
        # the first prompt states the goal, which several compactions in a row lose
        for cap in [LEVELS[GOAL_LEVEL][0] if i == 0 else PROMPT_WORDS_CAP]
    ]
    room = budget - _size(parts) - len(heading) - 3
    while lines and _size(lines) > room:
        lines.pop(1 if len(lines) > 1 else 0)  # the first (the goal) and the newest stay
    if lines:
        parts.append("\n".join([heading, *lines]))
    return "\n\n".join(parts)


def renderer(state: dict[str, Any], *, summary: str | None = None) -> Callable[[int], str]:
    """The restore, rendered later to the room the briefing leaves it: what the host's
    `summary` loses after a compaction ('' when it is not known yet), or, without one, where
    the session stood (`next_session`)."""
    if summary is None:
        return lambda room: next_session(state, budget=room)
    return lambda room: after_compaction(state, summary=summary, budget=room)
