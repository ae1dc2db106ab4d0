"""One session's part of the thread (continuity/thread.py), rendered from its evidence. Pure.

- the last session: as a single session's restore shows it (`handover.next_session`);
- an earlier one, by selection (`earlier_part`): its last turn with Claude's conclusion and
  question, its goal (the first prompt) with Claude's approach, the user's other words
  (those that decide first), each short one (a suggestion, a question) with the head of
  Claude's answer, never alone (a suggestion shown alone reads as a decision, and the reply
  may have declined it), and the user's words a tool result carried (an option picked in
  Claude's question tool, a refused call's reason); then Claude's decisions and conclusions
  of those turns, the todo items a turn left not done, its failures before its passes, and
  the newest summary a model wrote of it (the host's at a compaction, or `/memory
  summarize`'s), framed as a summary; its headings say it is an earlier session's;
- a trivial one (a greeting, no tool, nothing changed): its few words.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity import handover, turn_memo
from memhooks.continuity.earlier_words import (
    ANSWER_WORDS,
    answer,
    goal_turn,
    says,
    user_words,
)
from memhooks.continuity.excerpt import PASTE_MARK, decisions, select
from memhooks.continuity.handover import TOLD_LABEL
from memhooks.continuity.proofs import question_line
from memhooks.continuity.record_fit import STATED_CAP, STATED_STEP, bare, stated
from memhooks.text import lines_size

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: A trivial session's entry, at most.
TRIVIAL_CHARS = 420
TRIVIAL_PROMPTS = 200
TRIVIAL_TURNS = 3
#: Files, failed checks and todos an earlier session shows at most (the last one: all).
EARLIER_FILES = 3
EARLIER_CHECKS = 2
EARLIER_TODOS = 6
#: An earlier session's failed check is shown while it ran in its newer half or in as many
#: last turns as this.
LEFT_BEHIND = 8
#: An earlier session's last turn at first: the user's words and Claude's conclusion (with its
#: question), the longest of these cuts that takes at most LAST_TURN_SHARE of its room; it
#: grows to LAST_TURN_FULL after the other turns are shown (a longer last turn first would
#: crowd out the turns before it: more room gave fewer of them).
LAST_TURN_CUTS = ((320, 200), (200, 200), (120, 200))
LAST_TURN_SHARE = 0.4
LAST_TURN_FULL = (320, 700)
#: Characters of an earlier session's first prompt (its goal), its other prompts, and Claude's
#: conclusion of a turn (its last words), when there is room.
GOAL_WORDS = 900
GOAL_CUTS = (450, GOAL_WORDS)
#: The goal's cuts ahead of the user's other words: those in this share of the room (else
#: SHORT_WORDS); longer ones after their first showing (or they crowd out the user's rulings).
GOAL_SHARE = LAST_TURN_SHARE
SHORT_WORDS = 160
PROMPT_WORDS = 320
CONCLUSION_WORDS = 260
GAP_LINE = 40
#: An earlier session's weight (`statements`) before its user's statements are counted.
SESSION_WEIGHT = 2
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
    (a later session may have fixed them: its own record says so) and not left behind (run
    last in its newer half, or within its last LEFT_BEHIND turns: one that failed early in
    a long session and never ran again is a way it gave up, not the state it ended in),
    its unfinished todos."""
    files = state.get("files") or {}
    changed = max((int(info.get("seq") or 0) for info in files.values()), default=0)
    # the project's own files first: one outside it (a scratch file, Claude's own notes) says
    # less of the work
    own = [(k, v) for k, v in files.items() if not k.startswith(("/", "~"))]
    shown = own[-EARLIER_FILES:] or list(files.items())[-EARLIER_FILES:]
    checks = state.get("checks") or {}
    turns = state.get("turns") or []
    end = int(turns[-1]["n"]) if turns else 0
    recent = end - max(LEFT_BEHIND, end // 2)
    failing = [
        k
        for k, v in checks.items()
        if not v.get("ok") and v.get("seq", 0) > changed and int(v.get("turn") or 0) > recent
    ]
    todos = [t for t in state.get("todos") or [] if t.get("status") != "completed"]
    return {
        **with_summaries(state),
        "files": dict(shown),
        "checks": {k: checks[k] for k in failing[-EARLIER_CHECKS:]},
        "todos": todos[:EARLIER_TODOS],
    }


@turn_memo.kept
def _variant(turn: dict[str, Any], prompt: int, reply: int, *, whole: bool = False) -> list[str]:
    """A turn's lines: the user's words cut to `prompt` characters (and those a tool result
    carried: `handover.told_words`), Claude's reply to `reply` (0: left out) by selection:
    its answer (`answer`), or, `whole`, for the goal and the last turn, what matters most of
    all it said (its approach; its question, options, decisions and conclusions)."""
    if whole:  # a line that says nothing (a code fence, a rule) is no sentence to keep
        text = "\n".join(line for line in handover.said_text(turn).splitlines() if says(line))
        said = select(text, reply)
    else:
        said = answer(turn, reply)
    shown = {
        **turn,
        "prompt": user_words(turn.get("prompt") or "", prompt),
        "first": "",
        "mid": [],
        "ran": [],
        "changed": {},
        "last": said if reply else "",
        # its items not done (what it left); a later session's list supersedes the rest
        "todos": [t for t in turn.get("todos") or [] if t.get("status") != "completed"],
        "told": [],
    }
    lines = handover.turn_lines(shown, len(handover.LEVELS) - 1)
    told = handover.told_words(turn, handover.TOLD_CAP)
    if told:  # the user's words through a tool: with the prompt's
        lines.insert(1 if turn.get("prompt") else 0, f"[{turn['n']}] {TOLD_LABEL} {told}")
    return lines


#: `_worth`'s weight of words that decide: above any number of steps of prose.
_DECIDES = STATED_CAP // STATED_STEP + 1


@turn_memo.kept
def _worth(turn: dict[str, Any]) -> int:
    """How much an earlier session's turn states: the user's words that decide (an answer
    given through a tool, a sentence that states a choice: `decisions`), then how much its
    prompt states in prose (not its questions, not an "ok"), in steps: the turns shown first.
    One number (the memo keeps numbers): each said_brief of a build sorts every turn by it."""
    prompt = turn.get("prompt") or ""
    decides = bool(turn.get("told")) or bool(decisions(prompt, len(prompt)))
    return _DECIDES * decides + min(stated(prompt), STATED_CAP) // STATED_STEP


def _goal_first(goal: int | None, turns: Sequence[int]) -> list[int]:
    return ([goal] if goal is not None else []) + [i for i in turns if i != goal]


def said_brief(turns: Sequence[dict[str, Any]], budget: int) -> str:
    """What was said in an earlier session, by selection: its last turn short (Claude's
    conclusion and question), then its goal (the first prompt) with the head of Claude's
    approach, and the user's other words, those that decide first (newest first among
    equals), each with the head of Claude's answer (a suggestion shown alone reads as a
    decision its reply may have declined, an error alone as still open), then the user's
    words longer, then Claude's answers longer, then its last turn longer; oldest first on
    the page, a line counting the turns left out."""
    if not turns:
        return ""
    room = budget - len(handover.RECORD_HEADING) - 1
    end = len(turns) - 1
    last: list[str] = []
    for cut in LAST_TURN_CUTS:
        last = _variant(turns[end], *cut, whole=True)
        if lines_size(last) <= room * LAST_TURN_SHARE:
            break
    chosen: dict[int, list[str]] = {end: last}
    caps: dict[int, tuple[int, int]] = {end: cut}  # each chosen turn's prompt and reply
    used = lines_size(last)
    goal = goal_turn(turns[:end])
    newest_first = [i for i in range(end - 1, -1, -1) if turns[i].get("prompt")]
    others = sorted(newest_first, key=lambda i: _worth(turns[i]), reverse=True)
    # the goal's cuts (a long first prompt states the work and its constraints throughout; a
    # paste in it, older detail, grows no further), (turn, prompt's cap, reply's cap) passes
    pasted = goal is not None and PASTE_MARK in str(turns[goal].get("prompt"))
    cuts = (SHORT_WORDS, PROMPT_WORDS, *((GOAL_CUTS[0],) if pasted else GOAL_CUTS))
    passes: list[tuple[int, int, int]] = []
    # the goal with the head of Claude's approach (in GOAL_SHARE), the user's other words with
    # the head of Claude's answer, the goal longer, their words longer, Claude's answers longer
    goals = [] if goal is None else [(goal, cut, ANSWER_WORDS) for cut in cuts]
    sizes = [lines_size(_variant(turns[p[0]], *p[1:], whole=True)) for p in goals]
    ahead = [p for p, size in zip(goals[1:], sizes[1:], strict=True) if size <= room * GOAL_SHARE]
    passes += (ahead or goals[:1]) + [(i, SHORT_WORDS, ANSWER_WORDS) for i in others if i != goal]
    passes += [p for p in goals[1:] if p not in ahead]
    passes += [(i, PROMPT_WORDS, 0) for i in others if i != goal]
    passes += [(i, 0, CONCLUSION_WORDS) for i in _goal_first(goal, others)]
    passes.append((end, *LAST_TURN_FULL))
    for i, prompt, reply in passes:
        # a turn shown for the first time brings Claude's answer: never a prompt alone
        had = caps.get(i, (SHORT_WORDS, 0 if i in (goal, end) else ANSWER_WORDS))
        want = (max(had[0], prompt), max(had[1], reply))
        lines = _variant(turns[i], *want, whole=i in (goal, end))
        grown = used - lines_size(chosen.get(i, [])) + lines_size(lines)
        # growing a turn shown adds no line counting turns left out; showing one may
        reserve = 0 if i in chosen else GAP_LINE
        fits = lines_size(lines) > lines_size(chosen.get(i, [])) and grown <= room - reserve
        if fits and (i in chosen or not bare(turns[i], lines)):  # never a bare "yes" alone
            chosen[i], used, caps[i] = lines, grown, want
    return "\n".join([handover.RECORD_HEADING, *_with_gaps(chosen, len(turns))])


def _with_gaps(chosen: dict[int, list[str]], count: int) -> list[str]:
    """The chosen turns' lines in order, a line counting each run of turns left out."""
    out: list[str] = []
    for i in range(count):
        if i in chosen:
            out += chosen[i]
        elif i - 1 in chosen or i == 0:
            gap = next((j for j in range(i, count) if j in chosen), count) - i
            out.append(f"[… {gap} more turn{'s' if gap != 1 else ''} not shown]")
    return out


#: An earlier part's renders at most: after each, the room is made as much less than what
#: it filled as the part overflowed (its headings grew), _LAST_STEP times that before the
#: last render; what still overflows loses its last lines.
_EARLIER_RENDERS = 5
_LAST_STEP = 8
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
    last turn, shown, asks it). The turns a model's summary covers keep Claude's answers
    here: the summary gets a few lines of so small a part, and a prompt shown without its
    answer reads as a decision."""
    brief = brief_state(state)
    asked = question_line(brief)
    extra = len(asked) + 1 if asked else 0
    whole = {turn.get("n"): turn for turn in brief.get("turns") or ()}

    def said(turns: Sequence[dict[str, Any]], room: int) -> str:
        return said_brief([whole.get(turn.get("n"), turn) for turn in turns], room)

    room = budget + extra
    for done in range(1, _EARLIER_RENDERS + 1):
        rendered = handover.next_session(brief, budget=room, said=said)
        text = rendered
        if asked:
            text = text.replace(f"{handover.PROVEN_HEADING}\n{asked}\n\n", "")
            text = text.replace(f"\n{asked}", "")
        lines = [
            _EARLIER_HEADINGS.get(line, line + EARLIER_MARK) if line.startswith("## ") else line
            for line in text.splitlines()
        ]
        out = "\n".join(lines)
        if len(out) <= budget or room <= 0:
            break
        # its headings grew: rendered again in as much less room than this render filled
        # (a turn's words shrink only in steps: the last render is given a longer step)
        step = (len(out) - budget) * (_LAST_STEP if done == _EARLIER_RENDERS - 1 else 1)
        room = min(room, len(rendered)) - step
    if len(out) > budget:  # a turn between its first and its last goes (`_shed`)
        lines = _shed(lines, budget)
        out = "\n".join(lines)
    while len(out) > budget and len(lines) > 1:
        lines.pop(-1)
        out = "\n".join(lines)
    return out


def _shed(lines: list[str], budget: int) -> list[str]:
    """A part's lines in `budget`, whole turns left out: the one whose user's words state least
    first (a ruling, words that decide or an answer given in a tool, last, as in `_worth`;
    then by `stated`; among equals the oldest), never its first or its last turn shown, each
    marked by a line; a line under a turn's (its todo items) goes with it."""
    lines = list(lines)
    while lines_size(lines) - 1 > budget:
        owner: list[str] = []  # each line's turn ("[n]"), "" for the part's other lines
        for line in lines:
            turn = line.split("]", 1)[0] + "]" if line.startswith("[") else ""
            owner.append("" if turn == "[…]" or line.startswith("[…") else turn)
            if line.startswith("  ") and len(owner) > 1:
                owner[-1] = owner[-2]
        turns = list(dict.fromkeys(t for t in owner if t))[1:-1]
        if not turns:
            break
        said = dict.fromkeys(turns, (False, 0))  # whether the user's lines decide, what they state
        for line, turn in zip(lines, owner, strict=True):
            if turn in said and line.startswith(turn + " user"):
                words = line.split(":", 1)[-1]
                told = line.startswith(f"{turn} {TOLD_LABEL}") or bool(decisions(words, len(words)))
                said[turn] = (said[turn][0] or told, said[turn][1] + stated(words))
        gone = min(turns, key=said.__getitem__)
        at = owner.index(gone)
        lines = [line for line, t in zip(lines, owner, strict=True) if t != gone]
        lines.insert(at, "[… 1 more turn not shown]")
    return lines


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
        "stated": statements(turns),
    }


def statements(turns: Sequence[dict[str, Any]]) -> int:
    """How often the user stated something in a session, its share's weight among the earlier
    ones (continuity/thread.py `allot`): each prompt that states (`stated`: at least a short
    sentence of prose, not a question, not a log) or whose words a tool result carried, one
    however long (a ruling weighs as much as a pasted spec), and SESSION_WEIGHT for the
    session itself (its goal and its last turn are shown whatever it holds besides)."""
    return SESSION_WEIGHT + sum(
        1 for t in turns if stated(str(t.get("prompt") or "")) >= STATED_STEP or t.get("told")
    )


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
