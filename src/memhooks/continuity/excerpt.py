"""Shorten what was said by selection, never by paraphrase. Pure, stdlib only.

A user's paste (a CI log, a stack trace) keeps its prose, its error lines (an exception with
its message before a line that merely says "error"; never a stack frame) and its last lines;
a long message keeps whole sentences from its head and its tail (`head_tail`); a reply of
Claude's keeps the sentences a reader needs most, wherever they sit (`select`: its questions,
the options of a reply that asks, its decisions and conclusions, its ends). Every cut says so
in place ("[… 40 lines of pasted output cut]", " … "), so a reader knows text is missing.
"""

from __future__ import annotations

import functools
import re

from memhooks import TYPE_CHECKING
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Sequence

CUT = " … "
PASTE_MARK = " lines of pasted output cut]"
#: A message longer than this, over more lines than PASTE_LINES, holds a paste.
PASTE_CHARS = 700
PASTE_LINES = 8
#: Error-looking lines a paste keeps at most, and its last lines.
ERROR_LINES = 6
TAIL_LINES = 3
LINE_LIMIT = 240
#: The room left that `statements_first` fills with the start of a sentence.
FILL_MIN = 40

#: A line that reports an error (shared with `checks`, which picks a failed run's line).
ERROR_LINE = LazyPattern(
    r"\b(?:error|errors|fail|failed|failure|fatal|exception|traceback|panic|assert\w*|"
    r"violat\w*|denied|not ok|cannot|undefined|expected)\b|✗|^E\s",
    re.IGNORECASE,
)
#: An error's own line with its message: pytest's summary, `ValueError: …`, `error[E0308]: …`,
#: `E   assert …`, `panicked at …` (shared with `checks`).
MESSAGE = LazyPattern(
    r"^(?:FAILED|ERROR)\s+\S+\s+-\s+\S|\b[\w.$]*(?:Error|Exception|Failure|Fault)\b:\s*\S|"
    r"\b(?:error|fatal)(?:\[\w+\]|\s+TS\d+)?:\s*\S|^\s*E\s{2,}\S|\bpanicked at\b|"
    r"\bassert\w*\b.*\bfailed\b",
    re.IGNORECASE,
)
#: A runner's closing word on its exit status: an error's line, not its message.
_EXIT_STATUS = LazyPattern(r"exit (?:code|status) \d+\.?\s*$|\bError \d+\s*$", re.IGNORECASE)
#: Where an error passed, not what it was: a stack frame, a traceback's header.
FRAME = LazyPattern(
    r"^\s*(?:Traceback \(most recent call last\)|File \".*\", line \d+|"
    r"at\s+\S.*(?:\(.*:\d+(?::\d+)?\)|:\d+(?::\d+)?)\s*$|\d+:\s+0x[0-9a-f]+|#\d+\s+0x|"
    r"\.\.\. \d+ more\b|During handling of the above exception)"
)
_SENTENCE_END = LazyPattern(r"(?<=[.!?:])\s+(?=\S)")
#: A log line rather than prose: a timestamp, a prompt, indentation, few letters.
_LOGGY = LazyPattern(r"^\s*(?:\d{2,4}[-:/]\d|\$ |#\d|\s{2,}|[│|>=-]{2})")


def _letters_share(line: str) -> float:
    return sum(c.isalpha() or c == " " for c in line) / max(1, len(line))


def prose(line: str) -> bool:
    """A line a person typed, not a line of output."""
    return not _LOGGY.compiled.match(line) and _letters_share(line) > 0.8  # noqa: PLR2004


def _clip_line(line: str, limit: int = LINE_LIMIT) -> str:
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def flat(text: str) -> str:
    """`text` on one line: each line break (with the line's leading and trailing white space)
    one space, the spaces inside a line kept (a pasted `'hello  world'`, code)."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def next_line(lines: Sequence[str], i: int) -> int:
    """The next line with text after line `i` that is not a stack frame (or `i`)."""
    j = next((j for j in range(i + 1, min(len(lines), i + 3)) if lines[j].strip()), i)
    return i if FRAME.compiled.match(lines[j]) else j


def error_lines(lines: Sequence[str]) -> list[int]:
    """The indexes of the lines that say what went wrong, best first: those with an error's
    message (`MESSAGE`), then those that merely look like errors; stack frames never."""
    found = [i for i, line in enumerate(lines) if not FRAME.compiled.match(line)]
    messages = [
        i
        for i in found
        if MESSAGE.compiled.search(lines[i]) and not _EXIT_STATUS.compiled.search(lines[i])
    ]
    others = [i for i in found if i not in messages and ERROR_LINE.compiled.search(lines[i])]
    return messages + others


def _kept_lines(lines: list[str]) -> set[int]:
    """The first line, the prose, the distinct error lines (with the detail after each)
    and the last lines."""
    keep: set[int] = {0, *range(len(lines) - TAIL_LINES, len(lines))}
    seen: set[str] = set()
    for i in error_lines(lines):
        shape = " ".join(re.sub(r"\d+", "0", lines[i]).split()[:3])  # `not ok 0 -` once
        if shape not in seen and len(seen) < ERROR_LINES:
            seen.add(shape)
            keep.update((i, next_line(lines, i)))  # the detail often follows
    keep.update(
        i
        for i, line in enumerate(lines)
        if prose(line) and len(line) > 1 and not FRAME.compiled.match(line)
    )
    return keep


def trim_paste(text: str) -> str:
    """A message with a long paste: its prose, error lines and last lines, the rest cut."""
    lines = text.strip().splitlines()
    if len(text) <= PASTE_CHARS or len(lines) <= PASTE_LINES:
        return text.strip()
    keep = _kept_lines(lines)
    out: list[str] = []
    skipped = 0
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        if i not in keep:
            skipped += 1
            continue
        if skipped:
            out.append(f"[… {skipped}{PASTE_MARK}")
            skipped = 0
        out.append(_clip_line(line.strip()))
    if skipped:
        out.append(f"[… {skipped} lines cut]")
    return "\n".join(out)


#: What ends no sentence: a list's marker ("1.", "b)"), an abbreviation.
_NO_END = LazyPattern(r"^(?:\d+[.)]|[-*•]|\(?[a-zA-Z]\)|e\.g\.|i\.e\.|vs\.|etc\.)$")
#: A label that heads what follows it ("Fix:", "Root cause:"): one sentence with it.
_LABEL = LazyPattern(r"^\**\w+(?:\s\w+)?:\**$")


def line_sentences(line: str) -> list[str]:
    """One line's sentences: cut after ".", "!", "?" or ":" and a space, but never inside
    a code span (`a: b`), after a list's marker or after a label ("Fix: …")."""
    out: list[str] = []
    joined = False
    for raw in _SENTENCE_END.compiled.split(line):
        piece = raw.strip()
        if not piece:
            continue
        if joined:
            out[-1] += " " + piece
        else:
            out.append(piece)
        joined = (
            out[-1].count("`") % 2 == 1
            or bool(_NO_END.compiled.match(out[-1]))
            or bool(_LABEL.compiled.match(out[-1]))
        )
    return out


def words_first(text: str, limit: int) -> str:
    """A user's message in `limit`: by head and tail, or, when it holds a paste (trimmed: "[…
    N lines of pasted output cut]"), by selection, so the words after the paste (what the
    user asks of it) outweigh the log's first lines."""
    if PASTE_MARK not in text:
        return head_tail(text, limit, head_share=0.6)
    around = _around_paste(text)
    if around is None:  # no log, or no words of the user's own around it
        return select(text, limit)
    # the user's own words around the paste first (a log's "Did you remember …?" is not the
    # user's question), then the paste's error line with its message as room allows
    before, error, after = around
    whole = CUT.join(piece for piece in (" ".join(before), error, " ".join(after)) if piece)
    if len(whole) <= limit:
        return whole
    return select("\n".join([*before, *after]), limit)


@functools.lru_cache(maxsize=256)
def _around_paste(text: str) -> tuple[tuple[str, ...], str, tuple[str, ...]] | None:
    """A message's own lines before its pasted log, the log's best error line, its own lines
    after it; None when no log or no own words (a restore tries several lengths of one text)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = next((i for i, line in enumerate(lines) if not _typed(line)), len(lines))
    last = next((i for i in range(len(lines) - 1, first - 1, -1) if not _typed(lines[i])), first)
    if first == len(lines) or (first == 0 and last == len(lines) - 1):
        return None
    paste = lines[first : last + 1]
    error = next((paste[i] for i in error_lines(paste)), "")
    return tuple(lines[:first]), error, tuple(lines[last + 1 :])


def _typed(line: str) -> bool:
    """A line of the user's own words beside a paste: prose, not a stack frame or a cut."""
    return prose(line) and not FRAME.compiled.match(line) and PASTE_MARK not in line


def statements_first(text: str, limit: int) -> str:
    """A user's message cut hard (in `limit`) by selection: its first sentence, then what it
    states (its sentences that are not questions) before what it asks, in their order, one
    line, each gap marked " … "; a sentence that does not fit whole shows its start when
    the whole ones leave most of the room (what it states says more than the questions
    after it). A message with a paste is cut by `words_first`."""
    parts = sentences(text)
    whole = " ".join(parts)
    if len(whole) <= limit or PASTE_MARK in text:
        return words_first(text, limit)
    order = sorted(range(len(parts)), key=lambda i: (i > 0, parts[i].endswith("?"), i))
    shown: dict[int, str] = {}
    used = 0
    for i in order:
        room = limit - used - len(CUT)
        if len(parts[i]) <= room:
            shown[i] = parts[i]
        elif room >= FILL_MIN and used < limit // 2:  # the start of what it says, once
            shown[i] = clip_unit(parts[i], room)
        else:
            continue
        used += len(shown[i]) + len(CUT)
    pieces: list[str] = []
    for i in range(len(parts)):
        if i in shown:
            pieces.append(shown[i])
        elif pieces and not pieces[-1].endswith("…"):
            pieces.append("…")
    return " ".join(pieces) if pieces else clip_unit(whole, limit)


def sentences(text: str) -> list[str]:
    """`text` as sentences and lines, in order, white space folded."""
    return [piece for line in text.splitlines() for piece in line_sentences(line)]


def head_tail(text: str, limit: int, *, head_share: float = 0.5) -> str:
    """`text` whole when it fits in `limit`, else whole sentences from its head and its tail
    (about `head_share` of the room for the head), one line, joined by " … "."""
    parts = sentences(text)
    whole = " ".join(parts)
    if len(whole) <= limit:
        return whole
    head: list[str] = []
    tail: list[str] = []
    room = limit - len(CUT)
    head_room = int(room * head_share)
    used = 0
    i, j = 0, len(parts) - 1
    while i <= j and used + len(parts[i]) + 1 <= head_room:
        head.append(parts[i])
        used += len(parts[i]) + 1
        i += 1
    while j >= i and used + len(parts[j]) + 1 <= room:
        tail.insert(0, parts[j])
        used += len(parts[j]) + 1
        j -= 1
    if not head and not tail:  # one long sentence: its start
        return whole[: max(0, limit - 1)].rstrip() + "…"
    if not tail:
        return " ".join(head) + CUT.rstrip()
    return " ".join(head) + (CUT if head else "… ") + " ".join(tail)


#: A sentence that states a choice, a cause, a constraint or what comes next (or in bold).
_DECISION = LazyPattern(
    r"\b(?:I'll|I will|I'd|we'll|let's|decided|instead|rather than|prefer\w*|going with|"
    r"go with|chose|switch(?:ed|ing)? to|the fix|the cause|root cause|turns out|recommend\w*|"
    r"next|still|must|never|don't|do not|leave|to flag|worth flagging|caveat|heads[- ]up|"
    r"worth noting|note that|important|warning)\b|\*\*",
    re.IGNORECASE,
)
#: A list item: an option, a step, a finding.
_ITEM = LazyPattern(r"^\s*(?:[-*•]|\d+[.)]|\(?[a-hA-H1-9]\))\s+\S")
OPTION_GAP = 2  # sentences at most between a list and the question that offers its items
#: How much each kind of sentence counts when a text must be shortened.
QUESTION, OPTION, DECISION, FIRST, LAST, ITEM = 4.0, 3.0, 2.0, 1.5, 2.5, 1.0


def _units(text: str) -> list[tuple[str, bool]]:
    """`text` as sentences, in order, each with whether it is part of a list item."""
    out: list[tuple[str, bool]] = []
    for line in text.splitlines():
        item = bool(_ITEM.compiled.match(line))  # all of an item: an option is its words too
        out += [(piece, item) for piece in line_sentences(line)]
    return out


def _weights(units: Sequence[tuple[str, bool]]) -> list[float]:
    """What each sentence is worth to a reader: Claude's questions, then the options listed
    in a reply that asks and what it says after its question (what waits on the answer),
    then its decisions and conclusions, then the text's ends and list items."""
    asked = [i for i, (unit, _) in enumerate(units) if unit.endswith("?")]
    options = _options(units, asked[-1]) if asked else set()
    weights: list[float] = []
    for i, (unit, item) in enumerate(units):
        weight = 0.0
        if unit.endswith("?"):
            weight = QUESTION
        elif i in options:
            weight = OPTION
        elif _DECISION.compiled.search(unit) or MESSAGE.compiled.search(unit):
            weight = DECISION
        elif item:
            weight = ITEM
        if i and units[i - 1][0].endswith(":") and not item:  # what a lead-in introduces
            weight = max(weight, min(weights[-1], DECISION))
        if i == 0:
            weight = max(weight, FIRST)
        if i == len(units) - 1:
            weight = max(weight, LAST)
        weights.append(weight)
    return weights


def _options(units: Sequence[tuple[str, bool]], asked: int) -> set[int]:
    """The options of a reply that asks (its last question at `asked`): what it says after
    it, and the list items just before it (a list further up is its findings, not choices)."""
    after = set(range(asked + 1, len(units)))
    near = range(asked - 1, max(-1, asked - 2 - OPTION_GAP), -1)
    end = next((i for i in near if units[i][1]), -1)
    start = end
    while start > 0 and units[start - 1][1]:
        start -= 1
    return after | (set(range(start, end + 1)) if end >= 0 else set())


@functools.lru_cache(maxsize=256)
def _ranked(text: str, verdict: str = "") -> tuple[list[tuple[str, bool]], str, list[int]]:
    """`text`'s sentences, the text on one line, and their indexes best first (cached: a
    restore tries several lengths); the sentence `verdict` opens weighs as a decision."""
    units = _units(text)
    weights = _weights(units)
    for at in [i for i, (u, _) in enumerate(units) if verdict and u.startswith(verdict)][:1]:
        weights[at] = max(weights[at], DECISION)
    order = sorted(range(len(units)), key=lambda i: (-weights[i], i))
    return units, " ".join(unit for unit, _ in units), order


def select(text: str, limit: int, verdict: str = "") -> str:
    """`text` whole when it fits in `limit`, else the sentences a reader needs most (see
    `_weights`; among equals, the earlier), in their order, one line, each gap marked " … "."""
    units, whole, order = _ranked(text, verdict)
    if len(whole) <= limit:
        return whole
    kept: set[int] = set()
    used = 0
    for i in order:
        cost = len(units[i][0]) + len(CUT)
        if used + cost <= limit:
            kept.add(i)
            used += cost
    if not kept:  # one long sentence: the start of the one worth most
        return clip_unit(units[order[0]][0], limit)
    pieces: list[str] = []
    for i in sorted(kept):
        if pieces and i - 1 not in kept:
            pieces.append("…")
        pieces.append(units[i][0])
    head = "" if 0 in kept else "… "
    tail = "" if len(units) - 1 in kept else " …"
    return head + " ".join(pieces) + tail


def decisions(text: str, limit: int) -> str:
    """The sentences of `text` that state a decision or a conclusion (a choice, a cause, a
    constraint, what comes next, a quoted error; not a question, not a list item), in their
    order, as many as fit in `limit`, each gap marked " … "; '' when it states none."""
    pairs = _units(text)
    units = [unit for unit, _ in pairs]
    found = [
        i
        for i, (unit, item) in enumerate(pairs)
        if not item  # a list item may be an option offered, not one chosen
        and not unit.endswith("?")
        and (_DECISION.compiled.search(unit) or MESSAGE.compiled.search(unit))
    ]
    kept: list[int] = []
    used = 0
    for i in found:
        if used + len(units[i]) + len(CUT) <= limit:
            kept.append(i)
            used += len(units[i]) + len(CUT)
    if found and not kept:  # the first decision longer than the room: its head, marked
        return clip_unit(units[found[0]], limit - len(CUT))
    pieces: list[str] = []
    for i in kept:
        if i - 1 not in kept:
            pieces.append("…")
        pieces.append(units[i])
    if kept and kept[-1] != len(units) - 1:
        pieces.append("…")
    return " ".join(pieces)[2:] if pieces and kept[0] == 0 else " ".join(pieces)


def clip_unit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"
