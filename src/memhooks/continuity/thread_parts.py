"""One session's part of the thread (continuity/thread.py), rendered from its evidence. Pure.

- the last session: as a single session's restore shows it (`handover.next_session`);
- an earlier one, by selection (`earlier_part`): its last turn with Claude's conclusion and
  question, its goal (the first prompt) ahead of the user's other words newest first,
  Claude's decisions and conclusions of those turns (selected wherever they sit), the todo
  items a turn left not done, its failures before its passes, its unfinished todos, and the
  newest summary a model wrote of it (the host's at a compaction, or `/memory summarize`'s),
  framed as a summary; its headings say it is an earlier session's;
- a trivial one (a greeting, no tool, nothing changed): its few words.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity import handover, turn_memo
from memhooks.continuity.excerpt import PASTE_MARK, select, words_first
from memhooks.continuity.proofs import question_line
from memhooks.text import lines_size

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

#: A trivial session's entry, at most.
TRIVIAL_CHARS = 420
TRIVIAL_PROMPTS = 200
TRIVIAL_TURNS = 3
#: Files, failed checks and todos an earlier session shows at most (the last one: all).
EARLIER_FILES = 3
EARLIER_CHECKS = 2
EARLIER_TODOS = 6
#: An earlier session's last turn at first: the user's words and Claude's conclusion (with its
#: question), the longest of these cuts that takes at most LAST_TURN_SHARE of its room; it
#: grows to LAST_TURN_FULL after the other turns are shown (a longer last turn first would
#: crowd out the turns before it: more room gave fewer of them).
LAST_TURN_CUTS = ((320, 200), (200, 200), (120, 0))
LAST_TURN_SHARE = 0.4
LAST_TURN_FULL = (320, 700)
#: Characters of an earlier session's first prompt (its goal), its other prompts, and Claude's
#: conclusion of a turn (its last words), when there is room.
GOAL_WORDS = 900
GOAL_CUTS = (450, GOAL_WORDS)
SHORT_WORDS = 160
PROMPT_WORDS = 320
CONCLUSION_WORDS = 260
GAP_LINE = 40
EARLIER_MARK = " (as that earlier session left it)"


# ---------------------------------------------------------------- one session


def trivial(state: dict[str, Any]) -> bool:
    """No tool did anything, nothing was compacted or summarized, and the user said little
    ("Good morning", "ok"): nothing a later session needs beyond a line."""
    turns = state.get("turns") or []
    if state.get("files") or state.get("checks") or state.get("todos"):
        return False
    if state.get("summary") or state.get("summarized") or len(turns) > TRIVIAL_TURNS:
        return False
    if any(turn.get("ran") for turn in turns):
        return False
    return sum(len(turn.get("prompt") or "") for turn in turns) <= TRIVIAL_PROMPTS


def with_summaries(state: dict[str, Any]) -> dict[str, Any]:
    """The state with its newest model-written summary as `summary`: the host's at its last
    compaction, or the one `/memory summarize` saved (`summarized`), whichever came later."""
    own = state.get("summarized")
    host = state.get("summary")
    if not (isinstance(own, dict) and own.get("text")):
        return state
    newer = int(host.get("after_turn") or 0) if isinstance(host, dict) and host.get("text") else -1
    if newer > int(own.get("after_turn") or 0):
        return state
    return {**state, "summary": {**own, "kind": "summarize"}}


def last_part(state: dict[str, Any], budget: int) -> str:
    """The last session, as a single session's restore shows it."""
    return handover.next_session(with_summaries(state), budget=budget)


def brief_state(state: dict[str, Any]) -> dict[str, Any]:
    """An earlier session's state with its proofs cut to what a later session may need: its
    last files, the checks that failed at their last run with no change to the files since
    (a later session may have fixed them: its own record says so), its unfinished todos."""
    files = state.get("files") or {}
    changed = max((int(info.get("seq") or 0) for info in files.values()), default=0)
    checks = state.get("checks") or {}
    failing = [k for k, v in checks.items() if not v.get("ok") and v.get("seq", 0) > changed]
    todos = [t for t in state.get("todos") or [] if t.get("status") != "completed"]
    return {
        **with_summaries(state),
        "files": dict(list(files.items())[-EARLIER_FILES:]),
        "checks": {k: checks[k] for k in failing[-EARLIER_CHECKS:]},
        "todos": todos[:EARLIER_TODOS],
    }


@turn_memo.kept
def _variant(turn: dict[str, Any], prompt: int, conclusion: int) -> list[str]:
    """A turn's lines with the user's words cut to `prompt` characters and Claude's words to
    `conclusion` (0: left out) by selection (its question, options, decisions and
    conclusions, wherever they sit in the turn's replies), nothing else."""
    said = handover.said_text(turn)
    shown = {
        **turn,
        "prompt": words_first(turn.get("prompt") or "", prompt),
        "first": "",
        "mid": [],
        "ran": [],
        "last": select(said, conclusion) if conclusion else "",
        # its items not done (what it left); a later session's list supersedes the rest
        "todos": [t for t in turn.get("todos") or [] if t.get("status") != "completed"],
    }
    return handover.turn_lines(shown, len(handover.LEVELS) - 1)


def _goal_first(goal: int | None, turns: Iterable[int]) -> list[int]:
    return ([goal] if goal is not None else []) + [i for i in turns if i != goal]


def said_brief(turns: Sequence[dict[str, Any]], budget: int) -> str:
    """What was said in an earlier session, by selection: its last turn short (Claude's
    conclusion and question), then its goal (the first prompt) and the user's other words
    newest first, each longer at each pass, then Claude's conclusions of those turns (the
    goal's first: its approach to the work), then its last turn longer; oldest first on the
    page, a line counting the turns left out."""
    if not turns:
        return ""
    room = budget - len(handover.RECORD_HEADING) - 1
    end = len(turns) - 1
    last: list[str] = []
    for cut in LAST_TURN_CUTS:
        last = _variant(turns[end], *cut)
        if lines_size(last) <= room * LAST_TURN_SHARE:
            break
    chosen: dict[int, list[str]] = {end: last}
    caps: dict[int, tuple[int, int]] = {end: cut}  # each chosen turn's prompt and conclusion
    used = lines_size(last)
    goal = next((i for i in range(end) if turns[i].get("prompt")), None)
    prompts = [i for i in range(end - 1, -1, -1) if turns[i].get("prompt")]
    # the goal ahead of the user's other words at each pass (a long first prompt states the
    # work and its constraints throughout; a paste in it, older detail, grows no further)
    pasted = goal is not None and PASTE_MARK in str(turns[goal].get("prompt"))
    goal_cuts = (GOAL_CUTS[0], GOAL_CUTS[0]) if pasted else GOAL_CUTS
    # (turn, its prompt's cap, its conclusion's cap; None: as it is), each only growing
    passes: list[tuple[int, int | None, int | None]] = []
    for goal_cap, cap in zip(goal_cuts, (SHORT_WORDS, PROMPT_WORDS), strict=True):
        passes += [(i, goal_cap if i == goal else cap, None) for i in _goal_first(goal, prompts)]
    # Claude's conclusions: the goal's (its approach to the work) first, then newest first
    passes += [(i, None, CONCLUSION_WORDS) for i in _goal_first(goal, range(end - 1, -1, -1))]
    passes.append((end, *LAST_TURN_FULL))
    for i, prompt, conclusion in passes:
        had = caps.get(i, (SHORT_WORDS, 0))
        want = (max(had[0], prompt or 0), max(had[1], conclusion or 0))
        lines = _variant(turns[i], *want)
        grown = used - lines_size(chosen.get(i, [])) + lines_size(lines)
        if lines and lines_size(lines) > lines_size(chosen.get(i, [])) and grown <= room - GAP_LINE:
            chosen[i], used, caps[i] = lines, grown, want
    out: list[str] = []
    for i in range(len(turns)):
        if i in chosen:
            out += chosen[i]
        elif i - 1 in chosen or i == 0:
            gap = next((j for j in range(i, len(turns)) if j in chosen), len(turns)) - i
            out.append(f"[… {gap} more turn{'s' if gap != 1 else ''} not shown]")
    return "\n".join([handover.RECORD_HEADING, *out])


#: An earlier session's headings, shorter and marked as that session's (others get the mark).
_EARLIER_HEADINGS = {
    handover.PROVEN_HEADING: "## What its record proved at its end (an earlier session)",
    handover.CHECKS_HEADING: "## Its checks' last outcomes (an earlier session)",
    handover.RECORD_HEADING: (
        "## What was said in it, oldest first (later turns and sessions supersede earlier ones)"
    ),
}


def earlier_part(state: dict[str, Any], budget: int) -> str:
    """An earlier session by selection, its headings marked as that session's. Its open
    question is not among its proofs: a later session's prompts may have answered it (its
    last turn, shown, asks it)."""
    brief = brief_state(state)
    asked = question_line(brief)
    extra = len(asked) + 1 if asked else 0
    text = handover.next_session(brief, budget=budget + extra, said=said_brief)
    if asked:
        text = text.replace(f"{handover.PROVEN_HEADING}\n{asked}\n\n", "")
        text = text.replace(f"\n{asked}", "")
    lines = [
        _EARLIER_HEADINGS.get(line, line + EARLIER_MARK) if line.startswith("## ") else line
        for line in text.splitlines()
    ]
    out = "\n".join(lines)
    while len(out) > budget and len(lines) > 1:  # a heading grew past the budget
        lines.pop(-1)
        out = "\n".join(lines)
    return out


def trivial_part(state: dict[str, Any]) -> str:
    """A trivial session's few words."""
    return "\n".join(handover.record_lines(state.get("turns") or [], TRIVIAL_CHARS))


def rough_size(state: dict[str, Any]) -> int:
    """An upper bound of what a session's record could fill, without rendering it."""
    turns = state.get("turns") or []
    said = sum(
        len(t.get("prompt") or "")
        + len(t.get("first") or "")
        + len(t.get("last") or "")
        + sum(len(m) for m in t.get("mid") or ())
        + 120 * len(t.get("ran") or ())
        + 40
        for t in turns
    )
    summaries = sum(
        len(s.get("text") or "")
        for s in (state.get("summary"), state.get("summarized"))
        if isinstance(s, dict)
    )
    proofs = 200 * (len(state.get("checks") or {}) + len(state.get("todos") or []))
    return said + summaries + proofs + 60 * len(state.get("files") or {}) + 600


def meta(state: dict[str, Any]) -> dict[str, Any]:
    """What a session's header says of it: when it began and was last written, its turns."""
    turns = state.get("turns") or []
    begun = next((t.get("at") for t in turns if t.get("at")), "")
    return {
        "start": begun or state.get("updated") or "",
        "end": state.get("updated") or "",
        "turns": len(turns),
        "trivial": trivial(state),
    }


def replace_files(text: str, before: Sequence[str], after: Sequence[str]) -> str:
    """The last part with its lines of files changed (`before`, the tools' record) made
    `after` (git's view at the start): in place, else first among its proofs."""
    if list(before) == list(after):
        return text
    old, new = "\n".join(before), "\n".join(after)
    if before and old + "\n" in text + "\n":
        return (text + "\n").replace(old + "\n", new + "\n" if new else "", 1)[:-1]
    if not after:
        return text
    heading = handover.PROVEN_HEADING
    if heading + "\n" in text:
        return text.replace(heading + "\n", f"{heading}\n{new}\n", 1)
    return f"{heading}\n{new}\n\n{text}"
