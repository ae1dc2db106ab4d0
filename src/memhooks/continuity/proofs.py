"""What the record proves, stated as current in a restore. Pure, stdlib only.

The files Claude's tools changed (or git's view of them), the last outcome of each check
Claude ran (a failure followed by edits is "earlier", never "failing now"), and Claude's
question that no prompt has answered yet (`evidence.open_question`).
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.continuity import checks
from memhooks.continuity.excerpt import flat, sentences
from memhooks.text import clip

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

FILES_SHOWN = 12
CHECKS_SHOWN = 8
COMMITS_SHOWN = 8
EARLIER_ERROR = 80
PASSED_CMD = 100

PROVEN_HEADING = "## What the record proves (tool calls and their results)"
CHECKS_HEADING = (
    "## Last outcome of each check Claude ran, newest first (a result from before later "
    "edits may be superseded)"
)


# ---------------------------------------------------------------- Claude's open question


#: A prompt of greetings and questions only answers no question of Claude's.
_GREETING = re.compile(
    r"^(?:hi|hello|hey|morning|good (?:morning|afternoon|evening)|thanks|thank you)\W*$",
    re.IGNORECASE,
)


def answers(prompt: str) -> bool:
    """Whether `prompt` may answer a question: it says something that is neither a question
    nor a greeting ("Where do we stand?" answers nothing; "(b)" and "ok" may)."""
    return any(not s.endswith("?") and not _GREETING.match(s) for s in sentences(prompt))


def open_question(state: dict[str, Any]) -> tuple[int, str]:
    """(turn, Claude's questions) of the newest reply that asked any, when no prompt since
    answers them (see `answers`); (0, '') otherwise."""
    for turn in reversed(state.get("turns") or []):
        asked = [s for s in sentences(turn["last"] or turn["first"]) if s.endswith("?")]
        if asked:
            return turn["n"], " ".join(asked[-3:])
        if answers(turn["prompt"]):
            break
    return 0, ""


def unanswered_question(state: dict[str, Any]) -> str:
    """Claude's questions that no prompt has answered yet ('' when there are none)."""
    return open_question(state)[1]


# ---------------------------------------------------------------- files and checks


def code_span(text: str, limit: int = 160) -> str:
    return "`" + clip(flat(text).replace("`", "'"), limit) + "`"


def _paths(items: Sequence[tuple[str, str]]) -> str:
    """`path` (how), the latest FILES_SHOWN, with how many more there were."""
    shown = ", ".join(
        f"{code_span(path, 160)}{'' if how == 'edited' else f' ({how})'}"
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
        shown = "; ".join(code_span(line, 120) for line in commits[:COMMITS_SHOWN])
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
    files is "earlier" (not re-run since), never "failing now"; a pass that proves nothing is
    no check worth a line (its failure is): a generator's, an install's, a one-off inline
    script's (`checks.proves_a_pass`), or one whose exit status was a filter's (`piped`,
    `checks.unproven_pass`)."""
    lines = []
    entries = [
        entry
        for entry in list(state.get("checks", {}).values())[::-1]
        if not (entry["ok"] and (entry.get("piped") or not checks.proves_a_pass(entry["cmd"])))
    ][:CHECKS_SHOWN]
    for entry in entries:
        cmd = code_span(entry["cmd"], 160)
        if entry.get("refreshed"):
            later = code_span(entry["closed_by"], EARLIER_ERROR)
            lines.append(
                f"- no longer among the failures of the later run {later} "
                f"(turn {entry['closed_turn']}): {cmd}"
            )
            continue
        if entry["ok"]:  # a pass needs less of its command than a failure
            cmd = code_span(entry["cmd"], PASSED_CMD)
            closed = entry.get("closed_by")
            lines.append(
                f"- passed (turn {entry.get('closed_turn', entry['turn'])}): {cmd}"
                if not closed
                else f"- fixed, passes now (turn {entry['closed_turn']}): {cmd}"
            )
            continue
        error = f": {clip(entry['error'], 140)}" if entry.get("error") else ""
        if entry.get("unknown_rerun"):  # run again through `| tail`: no outcome to tell
            short = f": {clip(entry['error'], EARLIER_ERROR)}" if entry.get("error") else ""
            lines.append(
                f"- failed (turn {entry['turn']}); re-run piped at turn {entry['unknown_rerun']}, "
                f"outcome not known: {code_span(entry['cmd'], EARLIER_ERROR)}{short}"
            )
        elif _changed_after(state, entry.get("seq", 0)):  # likely superseded: kept short
            short = f": {clip(entry['error'], EARLIER_ERROR)}" if entry.get("error") else ""
            rerun = "" if entry.get("part_passed") else ", not re-run"
            lines.append(
                f"- earlier failure, files changed since{rerun} (turn {entry['turn']}): "
                f"{code_span(entry['cmd'], EARLIER_ERROR)}{short}{_parts_left(entry)}"
            )
        else:
            error += _parts_left(entry)
            lines.append(f"- FAILING at its last run (turn {entry['turn']}): {cmd}{error}")
    return lines


def _parts_left(entry: dict[str, Any]) -> str:
    """A failed `&&` chain some of whose checks passed in later runs: those not re-run."""
    if not entry.get("part_passed"):
        return ""
    left = ", ".join(code_span(part, EARLIER_ERROR) for part in entry.get("open", ()))
    return f"; later runs passed each of its checks but {left} (not re-run since)"


def question_line(state: dict[str, Any]) -> str:
    """Claude's question no prompt has answered; when the prompts since only asked questions
    of their own, the line says so and leaves the judgment to the reader."""
    at, question = open_question(state)
    if not question:
        return ""
    turns = state.get("turns") or []
    if not turns or at == turns[-1]["n"]:
        return f"- Claude asked, and no prompt has answered yet: {question}"
    # Whether a later prompt answers it is the reader's judgment, not the record's proof: a
    # prompt that asks its own question may still answer this one.
    return (
        f"- Claude asked at turn {at} (each prompt since asks a question of its own: whether "
        f"one answers it, read below): {question}"
    )


def proven_section(state: dict[str, Any]) -> str:
    lines = file_lines(state)
    question = question_line(state)
    if question:
        lines.append(question)
    parts = ["\n".join([PROVEN_HEADING, *lines])] if lines else []
    checks = check_lines(state)
    if checks:
        parts.append("\n".join([CHECKS_HEADING, *checks]))
    return "\n\n".join(parts)
