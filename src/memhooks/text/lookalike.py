"""Tags that only look like tags: `<` or a look-alike of it, perhaps followed by invisible
characters, then a tag's start. Standard library only; `unicodedata` is loaded only for a
text that holds both a non-ASCII character and something that can read as `<`.

A reader (a model) takes `<` + a zero-width space + `/memhooks-data>`, `<` + U+FE0F (a
variation selector) + `/memhooks-data>`, U+2039 + `/memhooks-data>` or `</memhook` +
Cyrillic U+0455 + `-data>` for our closing tag. So the text is compared through its
*skeleton*: each character NFKC-normalised, every character that draws nothing of its own
removed (`invisible`: every mark, combining or enclosing, variation selectors included;
every format, control, private-use or unassigned code point; the blank letters and the
blank Braille pattern), and the look-alikes of `<`, `/`, `-` and of our tag's letters folded
to them. A skeleton `<` that starts a tag marks the character it came from, written `&lt;`.

A `<` look-alike this list does not know can still make `/memhooks-data>` read as our
closing tag, so a skeleton `/memhooks` after a visible character that is not ASCII has its
slash written `&#47;` too (`closing_names`): whatever stands before it, it closes nothing.
"""

from __future__ import annotations

from memhooks.text.lazy_re import LazyPattern

#: Characters whose skeleton is `<`: any one of them in a text sends it down the slow path.
OPENERS = "<\uff1c\ufe64\u2039\u3008\u2329\u27e8\u276e\u02c2\u1438\u227a\u276c\u2770\u27ea"
_FOLD = {
    **dict.fromkeys("\u2039\u3008\u2329\u27e8\u276e\u02c2\u1438\u227a\u276c\u2770\u27ea", "<"),
    **dict.fromkeys("\u2215\u2044\u29f8\u2571\u27cb\u3033", "/"),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u02d7\u2043", "-"),
    **dict.fromkeys("\u0430\u0251\u03b1\u237a\u0410\u0391", "a"),
    **dict.fromkeys("\u0501\u146f\ua4d2", "d"),
    **dict.fromkeys("\u0435\u04bd\u212e\uab32\u0415\u0395", "e"),
    **dict.fromkeys("\u04bb\u0570\u041d\u0397", "h"),
    **dict.fromkeys("\u03ba\u043a\u0138\u1d0b\u041a\u039a", "k"),
    **dict.fromkeys("\u043c\u1d0d\u041c\u039c", "m"),
    **dict.fromkeys("\u043e\u03bf\u0585\u1d0f\u0966\u09e6\u0d20\u041e\u039f", "o"),
    **dict.fromkeys("\u0455\ua731\u01bd\u0405", "s"),
    **dict.fromkeys("\u0442\u03c4\u1d1b\u0422\u03a4", "t"),
}
#: Characters whose skeleton is `/`.
SLASHES = "/\uff0f\u2215\u2044\u29f8\u2571\u27cb\u3033"
#: Letters and symbols that draw nothing: the Hangul fillers, the blank Braille pattern.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Unicode categories that draw nothing of their own (or only on the character before):
#: marks (Mn, Mc, Me), format, control, surrogate, private use and unassigned code points.
_UNSEEN = frozenset("MC")
#: What makes a `<` start a tag, right after it: a letter of any script, `!`, `?`, a `/`
#: (spaces allowed before it), or our tag's name after spaces. `a < b` is left alone.
_TAG_START = LazyPattern(r"[^\W\d_]|[!?]|\s*/|\s*(?i:memhooks)")


_OPENER = LazyPattern(f"[{OPENERS}]")
_SLASH = LazyPattern(f"[{SLASHES}]")
#: An ASCII slash not right after a printable ASCII character (most follow a letter of a
#: path): a literal first, which the regex engine finds fast.
_ODD_SLASH = LazyPattern(r"/(?<![!-~]/)")
#: Visible characters of skeleton read after an opener: enough for `/memhooks`.
_LOOK_AHEAD = 12


def invisible(char: str) -> bool:
    """`char` draws nothing a reader sees on its own (a non-ASCII character)."""
    import unicodedata

    return char in _BLANK or unicodedata.category(char)[0] in _UNSEEN


def _skeleton_after(text: str, start: int) -> str:
    """The skeleton of what follows `text[start]`, up to _LOOK_AHEAD visible characters."""
    import unicodedata

    chars: list[str] = []
    position = start + 1
    while position < len(text) and len(chars) < _LOOK_AHEAD:
        char = text[position]
        position += 1
        if char.isascii():
            chars.append(char)
        elif not invisible(char):
            chars.extend(_FOLD.get(part, part) for part in unicodedata.normalize("NFKC", char))
    return "".join(chars)


def _reads_as_name(text: str, at: int) -> bool:
    """What follows `text[at]` reads `memhooks` (skeleton, any case, spaces allowed)."""
    after = text[at + 1 : at + 1 + _LOOK_AHEAD]
    if not after.isascii():
        after = _skeleton_after(text, at)
    return after.lstrip().lower().startswith("memhooks")


def _seen_before(text: str, at: int) -> str:
    """The visible character before `text[at]` (spaces and invisible characters passed
    over, for _LOOK_AHEAD characters at most): '' at the start, or past a longer run."""
    position = at - 1
    while position >= 0 and at - position <= _LOOK_AHEAD:
        char = text[position]
        if not char.isspace() and (char.isascii() or not invisible(char)):
            return char
        position -= 1
    return "" if position < 0 else "\ufffd"


def closing_names(text: str) -> list[int]:
    """Indexes of the slashes (or look-alikes) that start a skeleton `/memhooks` after a
    visible non-ASCII character: a `<` look-alike the list of openers may not know."""
    if text.isascii():
        return []
    found: list[int] = []
    slashes = _SLASH if any(other in text for other in SLASHES[1:]) else _ODD_SLASH
    for match in slashes.compiled.finditer(text):
        at = match.start()
        if at and "!" <= text[at - 1] <= "~":
            continue  # right after a printable ASCII character: most slashes, in paths
        if not _seen_before(text, at).isascii() and _reads_as_name(text, at):
            found.append(at)
    return found


def tag_starts(text: str) -> list[int]:
    """Indexes in `text` of the characters that open something a reader may take for a tag.
    The skeleton is made only of the few characters after a `<` look-alike, and only when one
    of them is not ASCII; a run of invisible characters there is read once, however long."""
    if not any(opener in text for opener in OPENERS):
        return []
    starts: list[int] = []
    for match in _OPENER.compiled.finditer(text):
        at = match.start()
        if _TAG_START.compiled.match(text, at + 1) is not None:
            starts.append(at)  # read as it stands: `<` or a look-alike, then a tag's start
            continue
        after = text[at + 1 : at + 1 + _LOOK_AHEAD]
        first = after.lstrip()[:1]
        # The skeleton reads the same as the text when what follows is ASCII, or when its
        # first visible character is (unless it may begin `memhooks` with a look-alike in it).
        if after.isascii() or (first.isascii() and first not in ("m", "M")):
            continue
        if _TAG_START.compiled.match(_skeleton_after(text, at)):
            starts.append(at)
    return starts


def escape_tag_starts(text: str) -> str:
    """`text` with each character that opens a tag (or a look-alike of one) written `&lt;`,
    and each slash of a `/memhooks` after an unknown look-alike written `&#47;`."""
    escapes = dict.fromkeys(closing_names(text), "&#47;")
    escapes.update(dict.fromkeys(tag_starts(text), "&lt;"))
    if not escapes:
        return text
    pieces: list[str] = []
    position = 0
    for start in sorted(escapes):
        pieces.extend((text[position:start], escapes[start]))
        position = start + 1
    pieces.append(text[position:])
    return "".join(pieces)
