# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Where a named secret's value starts and ends, and whether it can be a secret at all.

Used by ``redact`` for every ``name=value`` / ``name: value`` / ``--flag value`` form.
Standard library only; works on UTF-8 bytes.
"""

from __future__ import annotations

import re

from memhooks.text.lazy_re import LazyBytes

MARKER_PREFIX_BYTES = b"[REDACTED:"

#: A value as written after its separator. A quoted value may hold escaped quotes (and a
#: shell's '\'' splice); one whose closing quote is missing (text cut short) runs to the end
#: of its line. A quote escaped with backslashes (JSON inside a JSON string, once or
#: twice) ends at the same escaped quote. A YAML block indicator (``|``, ``>-``) opens an
#: indented block.
_VALUE = LazyBytes(
    rb"""
    (?P<bs>\\{1,7})(?P<q>["'])                      # \"value\" in JSON inside a string
    (?P<esc>(?:(?!(?P=bs)(?P=q))[^\r\n])*)(?:(?P=bs)(?P=q)|(?=[\r\n])|$)
    | "(?P<dq>(?:[^"\\\r\n]|\\.)*)(?:"|(?=[\r\n])|$)
    | '(?P<sq>[^'\r\n]*(?:'\\''[^'\r\n]*)*)(?:'|(?=[\r\n])|$)
    | `(?P<bt>[^`\r\n]*)(?:`|(?=[\r\n])|$)
    | (?P<angle><[^<>\r\n]{0,80}>)
    | (?P<template>\$?\{\{[^}\r\n]*\}\})                # ${{ secrets.NPM_TOKEN }}
    | (?P<block>[|>][+-]?[0-9]?[ \t]*(?:\#[^\r\n]*)?)(?=\r?\n)
    | (?P<bare>[^\s"'`]+)
    """,
    re.VERBOSE,
)

_PLACEHOLDER = LazyBytes(
    rb"""
    \$\{[^}\r\n]*\}\}?                          # ${TOKEN}, ${TOKEN:-}
    | \$\([^)\r\n]*\)                           # $(vault read ...)
    | \$[A-Za-z_][A-Za-z0-9_]*                  # $TOKEN
    | %[A-Za-z_][A-Za-z0-9_]*%                  # %TOKEN%
    | <[^<>]*> | \{\{[^{}]*\}\} | \{[A-Za-z_][\w.\[\]'"]*\}   # <token>, {{ t }}, {token}
    | [*x.-]+ | (?:\xe2\x80\xa6)+ | (?:\xe2\x80\xa2)+         # ***, xxxx, ..., bullets
    | your[-_][\w-]+ | [\w-]*[-_]here           # your-api-key, TOKEN_GOES_HERE
    | (?:\w+[-_])*(?:mock|fake|dummy|sample)(?:[-_]\w+)*   # sk-ant-mock-key
    | my[-_]?\w*(?:token|password|pass|secret|key)           # mytoken, my-secret-key
    | read | write | read-write | readonly | write-all | read-all  # id-token: write
    | value | placeholder | redacted | example | none | null | nil | undefined | unset
    | true | false | yes | no | on | off | required | optional
    | pw | pwd | pass | passwd | password | passphrase | secret | token | key   # `-p PASSWORD`
    """,
    re.IGNORECASE | re.VERBOSE,
)

_TRIVIAL = LazyBytes(
    rb"""
    \d{1,6}(?:\.\d+)?(?:ms|[smhdw])?            # TOKEN_TTL=30, 15m
    | [A-Za-z_][A-Za-z0-9_.]*[(\[].*            # os.environ["X"], get_token(
    | [\[({].*                                  # a list, tuple or dict literal in code
    | (?:~|\.{1,2})?(?:/[\w.@+-]+){2,}/?        # /etc/ssl/private/key.pem
    | \d+(?:\.\d+)+                             # 1.3.6.1.5.5.7.3.1, 10.0.0.1
    | 0x[0-9a-fA-F]+                            # 0x08074b50
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPED_BREAKS = (b"\\n", b"\\r", b"\\t")
_BLOCK_MARKS = frozenset((b"|", b">", b"|-", b">-", b"|+", b">+"))
_TRIVIAL_STARTS = frozenset(b"0123456789[({~./")
_DOTTED = LazyBytes(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_RUNS = LazyBytes(rb"[-_.]")

#: Common words: what follows `name:` in a sentence ("token: the model's own vector").
COMMON_WORDS = frozenset(
    b"a an the not now still too very in on at to of for from with by stored saved set "
    b"required optional incorrect correct wrong invalid valid missing empty blank expired "
    b"hashed encrypted salted changed reset rotated managed kept read passed sent shown "
    b"hidden masked redacted needed used same different long short weak strong never "
    b"always only also just being no none null and or but then there here this that it "
    b"what ok fine good bad unknown known visible printed logged leaked given generated "
    b"random case-sensitive protected secure insecure your my his her their our its is "
    b"was be should must can will would could one two ready done see ask check".split()
)
#: A bare value that is code: a keyword of a language, or a name that holds a secret's word
#: (`authkey=authkey`, `self._token = token`, `is_secret=is_secret`).
_CODE_WORDS = frozenset(
    b"await new yield lambda function typeof not self this cls super async return def if void "
    b"else elif and or in is none true false nil null undefined".split()
)
_SECRET_WORDS = (b"pass", b"pwd", b"secret", b"token", b"key", b"auth", b"cred", b"sig")
_FORMAT = LazyBytes(rb"%[-+ #0-9.]*[sdrifxX]|%\(\w+\)|\{[0-9]?\}")
#: A value with this many spaces is a sentence (a passphrase has four or five words).
_PROSE_SPACES = 7
_ALPHABETS = (b"abcdefghijklmnop", b"ABCDEFGHIJKLMNOP", b"0123456789")


def code_value(value: bytes) -> bool:
    """A bare value that reads as code: a keyword, a variable (`$x`), a name built on a secret's
    word (``authkey``, ``_token``; a password has a digit or a symbol, or no such word), an
    UPPER_CASE constant."""
    lowered = value.lower()
    if lowered in _CODE_WORDS or value.startswith((b"$", b"\\&")):
        return True
    if value.isupper() and value.replace(b"_", b"").isalpha() and len(value) > 1:
        return True
    if not value.replace(b"_", b"").isalpha():
        return False
    if value.islower() and b"_" not in value:  # `authkey`, not `topsecretvalue`
        return lowered.endswith(_SECRET_WORDS)
    return any(word in lowered for word in _SECRET_WORDS)


def code_like(value: bytes) -> bool:
    """A bare value that reads as code: `code_value`, or a call (`self.headers.get(`)."""
    value = value.strip()
    return (
        code_value(value)
        or b"${" in value
        or value.startswith((b"!", b"("))
        or ((b"(" in value or b"[" in value) and _TRIVIAL.compiled.fullmatch(value) is not None)
    )


def template_value(value: bytes) -> bool:
    """A string being built, not a secret: a format (`%s`, `{}`), or an alphabet."""
    if b"${" in value or b"{{" in value:
        return True  # a template
    return _FORMAT.compiled.search(value) is not None or any(a in value for a in _ALPHABETS)


#: A bare value shorter than this is no secret (`token = v`, `pass: ok`).
_SHORTEST = 3
_STRING_PREFIXES = frozenset(b"r b rb br f fr rf u".split())
_BUILT = LazyBytes(rb"[ \t]*(?:[%+][ \t]*[\w(\"']|\.(?:format|join)\()|[ \t]+\.[ \t]+[\w(\"'$]")
#: A bare value inside an expression: `Ignore + PlainToken`, `TSPECIALS | WSP`.
_OPERATOR = LazyBytes(
    rb"[ \t]+(?:[-+|%*&^/]|[=!]==?|[<>]=?|&&|\|\||and|or|if|else)[ \t]+[\w(\"'!]"
    rb"|,[ \t]*[A-Za-z_]\w*[ \t]*(?:,|$|\r?\n)"  # a, b = user, password
)

#: Trailing characters that close code around a bare value: ``f(password=pw)``.
_CLOSERS = {ord(")"): ord("("), ord("]"): ord("["), ord("}"): ord("{")}


def looks_random(token: bytes) -> bool:
    """A generated key has a digit and a long alphanumeric run; ``sk-learn-…`` has neither."""
    if not any(48 <= byte <= 57 for byte in token):  # noqa: PLR2004 - ASCII digits
        return False
    return max(len(run) for run in _RUNS.compiled.split(token)) >= 16  # noqa: PLR2004


def is_placeholder(value: bytes) -> bool:
    return (
        value.startswith(MARKER_PREFIX_BYTES) or _PLACEHOLDER.compiled.fullmatch(value) is not None
    )


def can_be_secret(value: bytes) -> bool:
    """False for what cannot be a secret: placeholders, small numbers, code, paths."""
    value = value.strip()
    if not value or is_placeholder(value) or template_value(value):
        return False
    code_like = value[0] in _TRIVIAL_STARTS or b"(" in value or b"[" in value
    if code_like and _TRIVIAL.compiled.fullmatch(value) is not None:
        return False
    if b"." not in value:
        return True
    # settings.SECRET_KEY is a name; s.Xy7kQ2… (a Vault token) is not.
    return _DOTTED.compiled.fullmatch(value) is None or any(
        looks_random(part) for part in value.split(b".")
    )


def _trim_bare(data: bytes, start: int, end: int, *, delimited: bool) -> int:
    """The end of a bare value: a query string's `&`, code's unbalanced closers; its start
    when it opens with a JSON-escaped line break (`password: \n…`: the value is empty)."""
    if data.startswith(_ESCAPED_BREAKS, start):
        return start
    if delimited:
        for stop in (b"&", b"#", b";"):
            cut = data.find(stop, start, end)
            if cut != -1:
                end = cut
    while end > start and data[end - 1] in b".,;:":
        end -= 1
    while end > start and data[end - 1] in _CLOSERS:
        opener = _CLOSERS[data[end - 1]]
        if data.count(opener, start, end) >= data.count(data[end - 1], start, end):
            break
        end -= 1
    return end


def _block_span(data: bytes, key_start: int, after: int) -> tuple[int, int] | None:
    """The indented lines under a YAML ``key: |`` (indented deeper than the key's line)."""
    line_start = data.rfind(b"\n", 0, key_start) + 1
    indent = len(data[line_start:key_start]) - len(data[line_start:key_start].lstrip(b" \t-"))
    position = data.find(b"\n", after)
    if position == -1:
        return None
    first = position + 1
    end = first
    while position != -1:
        start = position + 1
        next_newline = data.find(b"\n", start)
        line = data[start : next_newline if next_newline != -1 else len(data)]
        body = line.rstrip(b"\r")
        if body.strip():
            if len(body) - len(body.lstrip(b" \t")) <= indent:
                break
            end = start + len(body)
        position = next_newline
    return (first, end) if end > first else None


def _bare_span(data: bytes, start: int, end: int, *, delimited: bool) -> tuple[int, int] | None:
    if data[start:end] in _BLOCK_MARKS:
        # `password: | s3cret more` once a YAML block was put on one line: the rest of it.
        line_end = data.find(b"\n", end)
        line_end = len(data) if line_end == -1 else line_end
        rest = data[end:line_end]
        start = end + len(rest) - len(rest.lstrip())
        end = start + len(rest.strip())
        return (start, end) if end > start else None
    end = _trim_bare(data, start, end, delimited=delimited)
    value = data[start:end]
    if end - start < _SHORTEST or code_value(value) or _OPERATOR.compiled.match(data, end):
        return None
    return (start, end) if can_be_secret(value) else None


def value_span(
    data: bytes, position: int, key_start: int, *, delimited: bool = False
) -> tuple[int, int] | None:
    """The span of the secret value written at ``position``, or None when it cannot be one.

    ``delimited``: the name sat in a query string or a ``;``-separated connection string,
    where ``&``, ``#`` and ``;`` end a value.
    """
    marker = data.startswith(MARKER_PREFIX_BYTES, position)
    match = None if marker else _VALUE.compiled.match(data, position)
    if match is None or match.lastgroup is None:
        return None
    group = match.lastgroup
    prefix = group == "bare" and match.group("bare").lower() in _STRING_PREFIXES
    if prefix and data[match.end() : match.end() + 1] in (b'"', b"'"):  # rb"…", f'…'
        return value_span(data, match.end(), key_start, delimited=delimited)
    if group == "block":
        return _block_span(data, key_start, match.end())
    if group == "bare":
        return _bare_span(data, match.start(group), match.end(group), delimited=delimited)
    start, end = match.span(group)
    # "Basic " + b64encode(…), "%s" % x: a string being built
    built = group in ("dq", "sq") and (
        _BUILT.compiled.match(data, match.end()) is not None
        or data.count(b" ", start, end) >= _PROSE_SPACES  # a quoted sentence
    )
    return None if built or end <= start or not can_be_secret(data[start:end]) else (start, end)
