"""The one way text from `.claude/memory/` (or the project) is put in front of Claude.

Everything quoted goes inside `<memhooks-data source="…">` … `</memhooks-data>`. Data cannot
end the frame early or pose as framing: every tag-like `<` in it (any tag, any case, spaces
or attributes, a partial tag such as `</memhooks-data` with no `>`, or a look-alike: see
`lookalike`) is written `&lt;`, a line that starts like one of the CLI's `=== … ===` headers
is escaped, and control characters are written visibly (`controls`). Cutting to a budget
happens after that, and always keeps the closing tag.

Standard library only, and cheap: every hook builds its context with it.
"""

from __future__ import annotations

import re

from memhooks.text import one_line as _single_line
from memhooks.text.controls import visible
from memhooks.text.lazy_re import LazyPattern
from memhooks.text.lookalike import escape_tag_starts

TAG = "memhooks-data"
CLOSE = f"</{TAG}>"
# Each pattern below runs only on a text holding a character it can match: every hook frames
# its context, and compiling them all would cost each hook process ~0.7 ms.
#: In ASCII text: `<`, then a letter, `!`, `?`, a `/` (spaces allowed before it) or our tag's
#: name after spaces: the start of a tag. `a < b` is left alone. (Any other text goes
#: through `lookalike`, which folds look-alikes and invisible characters first.)
_TAG_LIKE = LazyPattern(r"<(?=[A-Za-z!?]|\s*/|\s*(?i:memhooks))")
#: A line that could pass for one of the material headers the CLI prints (`=== … ===`).
_HEADER_LIKE = LazyPattern(r"^([ \t]*)(?====)", re.MULTILINE)
#: Every other line break a reader may honour, made a plain one so `^` above sees the line.
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_ODD_BREAKS = LazyPattern(r"\r\n?|" + f"[{_OTHER_BREAKS}]")
_SOURCE_UNSAFE = LazyPattern(r"[^\w ./:@+,()#\[\]~-]")
_SOURCE_SAFE = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ./:@+,()#[]~-"
)


def neutralise(text: str) -> str:
    """`text` with nothing in it that reads as a tag or as a CLI header, nor any control
    character a reader would obey."""
    if "\r" in text or any(odd in text for odd in _OTHER_BREAKS):
        text = _ODD_BREAKS.sub("\n", text)
    text = visible(text)
    if text.isascii():
        text = _TAG_LIKE.sub("&lt;", text) if "<" in text else text
    else:
        text = escape_tag_starts(text)
    if "===" in text:
        text = _HEADER_LIKE.sub(r"\1\\", text)
    return text


def clean_source(source: str) -> str:
    """A source attribute that cannot close its quotes or hold a line break."""
    source = _single_line(source)
    if not _SOURCE_SAFE.issuperset(source):
        source = _SOURCE_UNSAFE.sub("_", source)
    return source[:300]


def _opening(source: str) -> str:
    return f'<{TAG} source="{clean_source(source)}">\n'


def overhead(source: str) -> int:
    """Characters the frame itself costs around its body."""
    return len(_opening(source)) + 1 + len(CLOSE)


def frame(
    source: str, text: str, budget: int | None = None, *, what: str = "", where: str = ""
) -> str:
    """`text` quoted as data from `source`, at most `budget` characters in all (None: no cap).

    An over-long body is cut at a line end, with one line saying how much of `what` was left
    out and `where` to read it; the frame is always closed. Returns "" when not even the empty
    frame and that note fit the budget.
    """
    opening = _opening(source)
    body = neutralise(text).rstrip()
    whole = f"{opening}{body}\n{CLOSE}"
    if budget is None or len(whole) <= budget:
        return whole
    note = (  # the longest it can be: the count below only gets smaller
        f"[memhooks] {len(body):,} characters of {what or 'this text'} not shown"
        + (f": read {where}." if where else ".")
    )
    room = budget - len(opening) - len(CLOSE) - len(note) - 2
    if room < 0:
        return ""
    cut = body[:room]
    if "\n" in cut:
        cut = cut[: cut.rfind("\n")]
    note = f"[memhooks] {len(body) - len(cut):,} characters of {what or 'this text'} not shown" + (
        f": read {where}." if where else "."
    )
    return f"{opening}{cut}\n{note}\n{CLOSE}" if cut else f"{opening}{note}\n{CLOSE}"


def one_line(text: str, limit: int = 300) -> str:
    """Data shown on one line of our own text (a heading, a pointer): no breaks, no tags."""
    return neutralise(_single_line(text))[:limit]
