"""Control characters: refused in what names a memory, written visibly wherever text is shown.
Standard library only (every hook frames its context through `visible`).

A title, a description, a tag or a file name can come from a cloned tree or an imported bundle.
Printed raw, an escape sequence rewrites the terminal (an `import --dry-run` line that says
"skip" for a memory it imports, OSC 52 writing the clipboard), and a bidi override shows text
in another order than a model reads it. The set: C0 (tab excepted, as harmless), DEL, C1, and
the bidi embeddings, overrides, isolates and marks.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    import re

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
#: Everything `visible` escapes: the set but line breaks.
_SHOWN = LazyPattern(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
#: What no name may hold: the set, line breaks included.
_IN_NAME = LazyPattern(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}]")
#: The bytes of text that hold none of the set: printable ASCII, tab and line feed.
_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"
#: What `json.dumps(..., ensure_ascii=False)` leaves raw of the set (it escapes C0 itself).
_JSON_RAW = LazyPattern(f"[\x7f-\x9f{_BIDI}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"  # noqa: PLR2004


def _may_hold(text: str) -> bool:
    """False when `text` surely holds none of the set (a fast check in C)."""
    return not text.replace("\n", "").replace("\t", "").replace("\r", "").isprintable()


def control_in(name: str) -> str | None:
    """The first control character (or line break) in `name`, as `U+001B`; None if none."""
    if not _may_hold(name) and "\n" not in name and "\r" not in name:
        return None
    found = _IN_NAME.compiled.search(name)
    return f"U+{ord(found.group(0)):04X}" if found else None


def refuse_controls(name: str) -> str:
    """`name` itself, or ValueError naming the first control character in it."""
    found = control_in(name)
    if found:
        raise ValueError(f"must not hold control characters or line breaks (found {found})")
    return name


def visible(text: str) -> str:
    """`text` with each control character but line breaks and tabs written as `\\x1b` or
    `\\u202e`: shown, never obeyed."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\\x0d")
    if not _may_hold(text):
        return text
    return _SHOWN.compiled.sub(_escape, text)


def inert(text: str) -> str:
    """`text` as it may be written to a file: Windows line ends made plain ones, and each
    other control character but line breaks and tabs written `\\u001b`, `\\u202e` (visible
    text in Markdown, the same value inside a JSON string). The store writes every text
    through it: a `cat` or `git diff` of a checkpoint or a journal then obeys nothing that a
    command's output, a todo item or a quote carried (OSC 52, erase-line, U+202E)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    # What is not plain ASCII, found in C (a written file can be large: isprintable or a
    # regex over all of it costs a hook ~0.5 ms per 60 KB); only that much is searched.
    rest = text.encode("utf-8", "surrogatepass").translate(None, _PLAIN_ASCII)
    if not rest or rest.decode("utf-8", "surrogatepass").isprintable():
        return text  # (the set is not printable; most other text is, so rarely a regex)
    return _SHOWN.compiled.sub(_escape_u, text)


def _escape_u(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def visible_json(document: str) -> str:
    """A JSON document with the control characters `json.dumps` leaves raw escaped as
    `\\u009b`: they only ever stand inside strings there, so it stays the same JSON."""
    if not _may_hold(document):
        return document
    return _JSON_RAW.compiled.sub(_escape_u, document)
