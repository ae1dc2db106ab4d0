"""Tags that only look like tags: `<` or a look-alike of it, perhaps followed by invisible
characters, then a tag's start. Standard library only; `unicodedata` is loaded only for a
text that holds both a non-ASCII character and something that can read as `<`.

A reader (a model) takes `<` + a zero-width space + `/memhooks-data>`, U+2039 +
`/memhooks-data>` or `</memhook` + Cyrillic U+0455 + `-data>` for our closing tag. So the
text is compared through its *skeleton*: each character NFKC-normalised, the invisible ones
(format characters such as zero-width spaces, U+2060 and the soft hyphen, and a few blank
letters) removed, and the look-alikes of `<`, `/`, `-` and of our tag's letters folded to
them. A skeleton `<` that starts a tag marks the character it came from, written `&lt;`.
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
#: Blank characters that are not format characters: combining grapheme joiner, Hangul fillers.
_BLANK = frozenset("\u034f\u115f\u1160\u3164\uffa0")
#: A skeleton `<` that starts a tag: a letter of any script, `!`, `?`, a `/` (spaces allowed
#: before it), or our tag's name after spaces. `a < b` is left alone.
_TAG_START = LazyPattern(r"<(?=[^\W\d_]|[!?]|\s*/|\s*(?i:memhooks))")


def _skeleton(text: str) -> tuple[str, list[int]]:
    """The skeleton of `text`, and for each of its characters the index it came from."""
    import unicodedata

    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        if char.isascii():
            chars.append(char)
            origin.append(index)
            continue
        if char in _BLANK or unicodedata.category(char) == "Cf":
            continue
        for part in unicodedata.normalize("NFKC", char):
            chars.append(_FOLD.get(part, part))
            origin.append(index)
    return "".join(chars), origin


def tag_starts(text: str) -> list[int]:
    """Indexes in `text` of the characters that open something a reader may take for a tag."""
    if not any(opener in text for opener in OPENERS):
        return []
    skeleton, origin = _skeleton(text)
    return sorted({origin[match.start()] for match in _TAG_START.compiled.finditer(skeleton)})


def escape_tag_starts(text: str) -> str:
    """`text` with each character that opens a tag (or a look-alike of one) written `&lt;`."""
    starts = tag_starts(text)
    if not starts:
        return text
    pieces: list[str] = []
    position = 0
    for start in starts:
        pieces.extend((text[position:start], "&lt;"))
        position = start + 1
    pieces.append(text[position:])
    return "".join(pieces)
