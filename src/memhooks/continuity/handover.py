"""The handover a reader can continue from, rendered from a session's evidence. Pure, stdlib only.

Two parts, never mixed:

- **What the record proves**, stated as current: the files Claude's tools changed, the last
  outcome of each check, and Claude's question no prompt has answered yet.
- **What was said**, oldest first, each line with its turn and who said it: the user's prompts
  (pastes trimmed, cut by head and tail), Claude's texts of each turn as one reply cut by
  selection (`excerpt.select`: its questions, options, decisions, wherever they sit), the todo
  list at the turn that wrote it (Claude's note, not a proof), what ran. The last turn comes
  whole first, then the goal and the newest turns. Nothing in it is sorted into "in force" on
  a guess: its heading says that later turns supersede earlier ones.

`next_session` is what a new session on the project gets (and PreCompact's checkpoint);
`continuity.compacted` renders the few lines that complement the host's own
summary.
"""

from __future__ import annotations

import functools
import itertools
import re

from memhooks import TYPE_CHECKING
from memhooks.continuity import turn_memo
from memhooks.continuity.excerpt import (
    decisions,
    flat,
    select,
    sentences,
    statements_first,
    words_first,
)
from memhooks.continuity.host_summary import SECTION, by_sections
from memhooks.continuity.proofs import (
    CHECKS_HEADING,
    PROVEN_HEADING,
    code_span,
    file_lines,
    open_question,
    proven_section,
)
from memhooks.continuity.record_fit import (
    BREADTH_SHARE,
    GAP,
    LAST_SHARE,
    RECENT_SHARE,
    detailed,
    fitting,
    newest,
    stated,
)
from memhooks.continuity.turn_files import changed_lines, kept_runs, run_command
from memhooks.text import clip, lines_size
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

#: The record's proofs live in `proofs`; their headings and `file_lines` are part of the
#: restore's interface too (the thread marks the headings, SessionStart shows git's view).
__all__ = [
    "CHECKS_HEADING",
    "LEVELS",
    "PROVEN_HEADING",
    "RECORD_HEADING",
    "TOLD_LABEL",
    "file_lines",
    "next_session",
    "record_lines",
    "said_section",
    "said_text",
    "todo_lines",
    "todo_turn",
    "told_words",
    "turn_lines",
]

#: Per level of detail: characters of the prompt, of Claude's first, middle and last words
#: of the turn (their sum is the room of its reply, read as one text and cut by selection),
#: and whether what ran is listed. The newest turns get the fullest.
LEVELS = (
    (160, 0, 0, 0, False),
    (240, 0, 0, 200, False),
    (600, 260, 0, 200, False),
    (600, 400, 0, 900, True),
    (1000, 600, 400, 900, True),
    (4000, 3000, 1500, 4000, True),
)
#: The fullest level a turn may get, by its age (0 = the latest turn).
MAX_LEVEL_BY_AGE = (5, 4, 3, 3, 3)
OLD_MAX_LEVEL = 2
GOAL_LEVEL = 2
#: The share of the restore a model's summary takes at most (see `_summary_room`): what was
#: said after it supersedes it, and a long session has much of that.
SUMMARY_SHARE = 0.25
#: The least share of SUMMARY_SHARE a summary gets, however early it was written.
SUMMARY_FLOOR = 0.2
#: Characters of Claude's reply beside a prompt shown at its shortest when turns are left
#: out: its decisions and conclusions.
ANSWER_CAP = 120
RUNS_SHOWN = 6
TODO_LIMIT = 160
#: The level from which a turn shows its todo list's done items too.
TODO_FULL_LEVEL = 3
PROMPT_CUT = words_first

RECORD_HEADING = (
    "## What was said, oldest first ([turn] who: words; later turns supersede earlier ones)"
)
#: The heading when turns were left out: the others are in the evidence `recall` searches
#: (the CLI's line above the restore names it; a `<` would be escaped in the frame).
GAPS_HEADING = RECORD_HEADING[:-1] + "; `recall WORDS` finds the turns not shown)"
#: An answer to Claude's question asked through a tool, as the host words it: "Q"="A".
_ASKED = LazyPattern(r'"([^"]+)"="([^"]*)"')
QUESTION_CAP = 80
TOLD_CAP = 300
#: The user's words a tool result carried (evidence `told`: an answer to Claude's question
#: asked through a tool, a rejected tool call's reason).
TOLD_LABEL = "user, answering in a tool:"
STATUS = {"completed": "done:", "in_progress": "in progress:", "pending": "to do:"}


# ---------------------------------------------------------------- Claude's todo list


def todo_lines(todos: Sequence[dict[str, Any]]) -> list[str]:
    """Claude's todo list, item by item: what it noted, not what the record proves."""
    return [
        f"  - {STATUS.get(item['status'], 'to do:')} " + clip(flat(item["content"]), TODO_LIMIT)
        for item in todos
    ]


def todo_turn(state: dict[str, Any]) -> int:
    """The turn that wrote the todo list (the newest, for a state from before turns held it)."""
    turns = state.get("turns") or []
    found = next((turn["n"] for turn in turns if "todos" in turn), None)
    return found if found is not None else (turns[-1]["n"] if turns else 0)


# ---------------------------------------------------------------- what was said


def _runs(turn: dict[str, Any], count: int) -> str:
    """The turn's newest `count` runs, and the git work it recorded (`turn_files.recorded`)."""
    parts: list[str] = []
    for run in kept_runs(turn.get("ran", []), count):
        cmd = code_span(run_command(run, brief=not count), 100)
        if run.get("interrupted"):  # the host's mark, not the user's words
            parts.append("then the user interrupted" if parts else "the user interrupted")
        elif "agent" in run:
            parts.append(f"a sub-agent reported: {clip(run['agent'], 400)}")
        elif run.get("piped"):  # the exit status is the filter's
            parts.append(f"{cmd} (piped: outcome not known)")
        elif run["ok"]:
            parts.append(f"{cmd} ok")
        else:
            error = f" ({clip(run['error'], 160)})" if run.get("error") else ""
            parts.append(f"{cmd} failed{error}")
    return "; ".join(parts)


@turn_memo.kept
def turn_lines(turn: dict[str, Any], level: int, *, hard: bool = False) -> list[str]:
    """A turn's lines at `level`; `hard`: turns are left out, so one shown short keeps what
    its prompt states (`statements_first`, below the goal's level). One shown at its
    shortest keeps what Claude's reply decided or concluded (`decisions`: a user's
    suggestion alone reads as a decision, and Claude's reversal of the prompt's choice is in
    its words), else, beside a prompt that asks or suggests, how the reply began."""
    prompt_cap, first_cap, mid_cap, last_cap, with_runs = LEVELS[level]
    n = turn["n"]
    lines = []
    shortest = level == 0
    if turn["prompt"]:
        cut = statements_first if hard and level < GOAL_LEVEL else PROMPT_CUT
        lines.append(f"[{n}] user: {cut(turn['prompt'], prompt_cap)}")
    told = told_words(turn, max(prompt_cap, TOLD_CAP))
    if told:  # the user's words a tool result carried: a choice made there, kept as said
        lines.append(f"[{n}] {TOLD_LABEL} {told}")
    said = said_text(turn)
    cap = first_cap + mid_cap + last_cap
    if said and cap:  # the turn's texts as one reply: what matters most, wherever it sits
        # what came of the turn, after its tools, opens its last words: worth a decision
        last = turn.get("last") if turn.get("first") or turn.get("mid") else ""
        verdict = next(iter(sentences(last)), "")[:40] if last else ""
        lines.append(f"[{n}] Claude: {select(said, cap, verdict)}")
    elif said and shortest:
        answer = decisions(said, ANSWER_CAP)  # it may reverse what a long prompt chose
        if not answer and not _speaks_for_itself(turn["prompt"]):
            answer = statements_first(said, ANSWER_CAP)
        if answer:
            lines.append(f"[{n}] Claude: {answer}")
    todos = turn.get("todos") or []
    if todos:  # a turn shown short keeps the items not done
        shown = (
            todos if level >= TODO_FULL_LEVEL else [t for t in todos if t["status"] != "completed"]
        )
        done = (
            f"; {len(todos) - len(shown)} done items not shown" if len(shown) < len(todos) else ""
        )
        lines.append(f"[{n}] Claude's todo list (its own note, as it wrote it then{done}):")
        lines += todo_lines(shown)
    # what the turn changed, then what ran; shown short, what it recorded in git (at its
    # shortest, Claude's answer says what came of it)
    runs = _runs(turn, RUNS_SHOWN if with_runs else 0) if level else ""
    lines += (changed_lines(turn) if with_runs else []) + ([f"[{n}] ran: {runs}"] if runs else [])
    return lines


def told_words(turn: dict[str, Any], limit: int) -> str:
    """The user's words a tool result carried in `turn` (evidence `told`), in `limit`: each
    answer to Claude's question whole, the question (Claude's words) cut to its start."""
    told = " · ".join(_ASKED.compiled.sub(_short_question, text) for text in turn.get("told") or ())
    return PROMPT_CUT(told, limit) if told else ""


def _short_question(match: re.Match[str]) -> str:
    """`"question"="answer"` with the question (Claude's words) cut to its start: the
    answer is the user's."""
    return f'"{clip(match[1], QUESTION_CAP)}"="{match[2]}"'


def _top_level(i: int, count: int, goal: int = 0) -> int:
    age = count - 1 - i
    if i == goal and age:
        return GOAL_LEVEL
    return MAX_LEVEL_BY_AGE[age] if age < len(MAX_LEVEL_BY_AGE) else OLD_MAX_LEVEL


def _pinned(turns: Sequence[dict[str, Any]], goal: int) -> set[int]:
    """The turns shown however long the session: the goal's, the one that wrote the todo
    list, and the one whose question no prompt has answered (its options are there)."""
    at, _ = open_question({"turns": turns})
    return {goal} | {i for i, turn in enumerate(turns) if "todos" in turn or turn["n"] == at}


def _speaks_for_itself(prompt: str) -> bool:
    """A prompt that states at length and asks nothing: Claude's reply adds little to it (a
    short one, a suggestion or a question, needs Claude's answer beside it)."""
    asks = any(s.endswith("?") for s in sentences(prompt))
    return not asks and stated(prompt) >= ANSWER_CAP


def said_text(turn: dict[str, Any]) -> str:
    """Claude's texts of a turn as one reply: its first, middle and last words."""
    parts = (turn.get("first"), *turn.get("mid", []), turn.get("last"))
    return "\n".join(text for text in parts if text)


def record_lines(turns: Sequence[dict[str, Any]], budget: int, *, pointer: int = 0) -> list[str]:
    """The turns, oldest first, as detailed as `budget` allows (`record_fit`): the last turn
    whole, the goal (the first prompt's turn) and the newest turns as whole as their age
    allows, then, when not all fit, the others that state most at their shortest (a line
    counts each run of turns left out, and `pointer` characters are kept for the heading
    that says where they are), then more of each."""
    if not turns:
        return []
    goal = next((i for i, turn in enumerate(turns) if turn["prompt"]), 0)
    # each turn rendered once per level while the record is chosen
    render = functools.cache(lambda i, level, hard: turn_lines(turns[i], level, hard=hard))
    whole = lines_size(render(len(turns) - 1, MAX_LEVEL_BY_AGE[0], False))
    last = min(whole, int(budget * LAST_SHARE))
    top = functools.partial(_top_level, count=len(turns), goal=goal)
    recent, reserved = newest(len(turns), int(budget * RECENT_SHARE), goal, top, render)
    pinned = _pinned(turns, goal)
    shown = pinned | {*recent, len(turns) - 1}
    kept, hard = fitting(turns, shown, int((budget - last - reserved) * BREADTH_SHARE), render)
    if len(kept) < len(turns):
        budget -= pointer
    bounds = [-1, *kept, len(turns)]
    room = budget - sum(
        len(GAP.format(j - i - 1)) + 1 for i, j in itertools.pairwise(bounds) if j - i > 1
    )
    order = [kept.index(i) for i in sorted(pinned, key=lambda i: i != goal)]
    out: list[str] = []
    previous = -1
    lines_of = detailed(
        len(kept),
        order,
        room,
        functools.partial(_top_level, count=len(kept), goal=order[0] if order else 0),
        lambda j, level: render(kept[j], level, hard),
        levels=len(LEVELS),
        recent=len(MAX_LEVEL_BY_AGE),
    )
    for at, lines in zip(kept, lines_of, strict=True):
        if at - previous > 1:
            out.append(GAP.format(at - previous - 1))
        out += lines
        previous = at
    while len(out) > 1 and lines_size(out) > budget:  # even the shortest did not fit
        out.pop(1)
    return out


def said_section(turns: Sequence[dict[str, Any]], budget: int) -> str:
    """The record under its heading; one that leaves turns out says where they are (in the
    room `record_lines` keeps for the longer heading)."""
    room = budget - len(RECORD_HEADING) - 1
    lines = record_lines(turns, room, pointer=len(GAPS_HEADING) - len(RECORD_HEADING))
    heading = GAPS_HEADING if _left_out(lines) else RECORD_HEADING
    return "\n".join([heading, *lines]) if lines else ""


_GAP_LINE = LazyPattern(re.escape(GAP).replace(re.escape("{}"), r"\d+"))


def _left_out(lines: Sequence[str]) -> bool:
    return any(_GAP_LINE.compiled.fullmatch(line) for line in lines)


# ---------------------------------------------------------------- the two restores


def summary_heading(summary: dict[str, Any], later: int = 0) -> str:
    """A model-written summary's heading: whose it is, that it is no proof, and how many
    turns came after it (`later`: what it cannot know)."""
    after = summary.get("after_turn", 0)
    turns = f"the {later} turns after it" if later > 1 else "later turns"
    tail = f"(a model's summary, not the record's proof; {turns} supersede it)"
    if summary.get("kind") == "summarize":
        return (
            "## What the session summary Claude wrote with `/memory summarize` after turn "
            f"{after} said {tail}"
        )
    return (
        f"## What Claude Code's own summary said, written earlier at the compaction after turn "
        f"{after} {tail}"
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
        room = budget - lines_size(parts) - 2
        later = sum(1 for turn in turns if turn["n"] > after)
        head = summary_heading(summary, later)
        share = _summary_room(budget, after, turns[-1]["n"] if turns else after)
        most = min(room // 2, int(budget * SUMMARY_SHARE)) - len(head)
        limit = max(0, min(room // 2, share) - len(head))
        body = _head_lines(summary["text"], limit, most, later=later > 0)
        parts.append(f"{head}\n{body}")
        turns = [turn if turn["n"] > after else _words_only(turn) for turn in turns]
    record = (said or said_section)(turns, budget - lines_size(parts) - 2)
    if record:
        parts.append(record)
    return "\n\n".join(parts)


def _summary_room(budget: int, after: int, last: int) -> int:
    """A model's summary's room: SUMMARY_SHARE of the restore, in proportion to the part of
    the session it tells of (turn `after` of `last`): the turns after it are the record and
    supersede it, so the longer the session ran on, the less of it is shown."""
    return int(budget * SUMMARY_SHARE * max(SUMMARY_FLOOR, after / max(1, last)))


def _head_lines(text: str, limit: int, most: int = 0, *, later: bool = False) -> str:
    """`text`'s head in `limit`, cut after its last whole line that fits when that keeps most
    of the room (a summary's sections are lines), marked; its first section whole when the
    cut falls in it and it fits in `most` (the host's first section is the user's requests
    and intent, what a summary is read for)."""
    if len(text) <= limit:
        return text
    chosen = by_sections(text, limit, later=later)
    if chosen:
        return chosen
    second = SECTION.compiled.search(text, 1)
    if second and limit < second.start() <= most:
        return text[: second.start()].rstrip() + "\n…"
    cut = clip(text, limit)
    at = cut.rfind("\n")
    return cut if at < limit // 2 else text[:at].rstrip() + "\n…"


def _words_only(turn: dict[str, Any]) -> dict[str, Any]:
    """A turn the host's summary covers: the user's own words only (what summaries lose)."""
    return {**turn, "first": "", "mid": [], "last": "", "ran": [], "summarized": True}
