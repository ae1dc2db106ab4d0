"""Pure text helpers every layer shares: redaction, the <memhooks-data> frame, lazy regexes,
the clock. Standard library only; imports nothing else of ours (`memhooks.TYPE_CHECKING`
aside).

The one family that fits text into a line or a length lives here, in the package module
itself: every hook loads this package anyway, so no hook pays an import for it.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

ELLIPSIS = "…"


def one_line(text: str) -> str:
    """Every line break, with the white space around it, as one space; the ends trimmed.
    Spaces within a line are kept as they were: `'hello  world'` may be the very thing a
    user pasted (the bug itself), and a code span is quoted verbatim."""
    lines = text.replace("\t", " ").splitlines()  # \n \r \v \f \x1c-\x1e \x85 \u2028 \u2029
    if len(lines) == 1:
        return lines[0].strip()
    return " ".join(kept for kept in (line.strip() for line in lines) if kept)


def lines_size(lines: Iterable[str]) -> int:
    """Characters `lines` take joined, one line break each (what a section of them costs)."""
    return sum(len(line) + 1 for line in lines)


def clip(text: str, limit: int, *, fold: bool = False, mark: str = ELLIPSIS) -> str:
    """``text`` in at most ``limit`` characters: a cut one keeps its head, the white space at
    the cut trimmed, and ends in ``mark``. ``fold``: ``one_line`` first."""
    if fold:
        text = one_line(text)
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(mark))].rstrip() + mark


def clip_counted(text: str, limit: int, *, fold: bool = False) -> str:
    """``text`` stripped and in at most ``limit`` characters; a cut one says how many it left
    out (" … [N more chars cut]"), for text a reader may want to look up whole."""
    text = one_line(text) if fold else text.strip()
    return clip(text, limit, mark=f" … [{len(text) - limit} more chars cut]")


def clip_at_word(text: str, limit: int, *, trim: str = " ,;:") -> str:
    """``text``, or its first ``limit`` characters cut back to the last whole word, with the
    ``trim`` characters at the cut removed and "…" added (a title, a gist: never half a word)."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if " " in cut:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(trim) + ELLIPSIS
