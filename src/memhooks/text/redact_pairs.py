# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Secrets behind a name: ``DB_PASSWD="…"``, ``"api_key": "…"``, ``--token …``, CSV columns.

A name holds a secret when it contains password/passwd/passphrase, pass or pwd as a word,
secret, token, credential(s), auth or creds as a word, a qualified key (api_key, AccountKey,
secret_key, private_key, …) or signature; an UPPERCASE name (an environment variable)
when it merely contains PASS, PWD, SECRET, TOKEN, KEY, CRED or AUTH anywhere. The keyword
must end a part of the name (``tokenizer``, ``max_tokens``, ``secretary`` are not names of
secrets), and a name whose last part says it holds something else is left alone
(``password_reset_url``, ``TOKEN_TTL``, ``--password-stdin``, ``token_count``).

Standard library only; works on UTF-8 bytes (the text and its ASCII-lowercased copy).
"""

from __future__ import annotations

import re

from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_engine import first_hits
from memhooks.text.redact_values import COMMON_WORDS, value_span

#: The last part of a name that says the value is not the secret itself.
_NOT_THE_SECRET = frozenset(
    b"url uri urls endpoint host path file filename files dir folder length len count size "
    b"ttl expiry expires expiration expire timeout policy min max minimum maximum prompt "
    b"field label hint type types name names format regex pattern enabled disabled enable "
    b"required rotation age limit header param env var stdin mode scope scopes method "
    b"location version source provider strength bits algorithm alg usage rules rule "
    b"reset manager store backend kind style class md rst txt html py js ts go rs rb java cache "
    b"prefix suffix func fn callback handler askpass".split()
)

_KEY_QUALIFIERS = (
    rb"(?:api|private|access|secret|account|shared[_-]?access|signing|encryption|master"
    rb"|client|app|storage|subscription|consumer|license|deploy|webhook|service|sas|hmac"
    rb"|primary|secondary|admin|ssh|gpg|pgp|auth|session|x-api|user|partner|merchant"
    rb"|sendgrid|stripe|openai|anthropic|mailgun|twilio|datadog|algolia|firebase)"
)
#: What may stand before `key` in a secret's name: `api_key`, `AccountKey`, "API key".
_QUALIFIED_KEY = LazyBytes(_KEY_QUALIFIERS + rb"[_-]?$|(?<![a-z0-9])" + _KEY_QUALIFIERS + rb" $")

_TAIL = rb"(?:[_.-][a-z0-9_.-]*)?(?![a-z0-9])"
#: After a name: optional spaced words ("Secret access key", only these few: prose such as
#: "the token is back: run" is not a name), a closing quote (escaped too: JSON inside a
#: JSON string, as in kubectl's last-applied annotation), an
#: `[None]` as `aws configure` prints it, then the separator.
_AFTER = (
    rb"(?P<words>(?:[ \t]+(?:access|key|id|secret|token|password|phrase|code|value)){0,3})"
    rb"(?:\\{0,7}[\"'])?(?:[ \t]*\[(?!redacted:)[^\]\r\n]{0,40}\])?"
    rb"[ \t]*(?P<sep>:=|=>|=(?!=)|:(?![:/]))[ \t]*"
)
#: A secret's name opens with a keyword (over the lowercased text); those in the `word` group
#: need a word start. One pattern for all (compiling nine cost a hook ~2 ms), tried only where
#: a keyword's literal stands: exactly one alternative can match at a given position.
_KEYWORD = LazyBytes(
    rb"(?:(?P<plain>password|secret|token|credentials?|key)"
    rb"|(?P<word>pass(?:wd|phrase|code)?|pwd|psk|auth|creds|sig(?:nature)?))" + _TAIL + _AFTER
)
#: Where a keyword can start (`pass` finds `password` too).
_KEYWORD_LITERALS = (b"pass", b"secret", b"token", b"cred", b"key", b"pwd", b"psk", b"auth", b"sig")
#: What a CSV column naming a secret holds (`_CSV_CELL`), and a flag (`_FLAG`): each pattern is
#: built from its words, which also tell, by a plain `in`, whether a text can need it.
_CSV_WORDS = (b"pass", b"pwd", b"secret", b"token", b"key", b"credential")
_FLAG_WORDS = (*_CSV_WORDS, b"auth")
_FLAG = LazyBytes(rb"--?[a-z0-9-]*?(?:" + b"|".join(_FLAG_WORDS) + rb")[a-z0-9-]*(?:=|[ \t]+)(?!-)")
_FLAG_PART = LazyBytes(
    rb"(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|credentials?|auth)s?(?:-|$)"
)
_UPPER_WORDS = (b"PASS", b"PWD", b"SECRET", b"TOKEN", b"KEY", b"CRED", b"AUTH")
_UPPER_AFTER = LazyBytes(rb"(?:\\{0,7}[\"'])?[ \t]*(?P<sep>=>|=(?!=)|:(?![:/]))[ \t]*")
#: A type annotation between `:` and `=`: `password: str = "…"`.
_ANNOTATION = LazyBytes(
    rb"(?:str|bytes|int|SecretStr|Optional\[[^\]\r\n]*\]|[A-Z]\w*(?:\[[^\]\r\n]*\])?)"
    rb"(?:[ \t]*\|[ \t]*None)?[ \t]*=(?!=)[ \t]*"
)
#: A type annotation with no value: `def f(token: bytes, …)`, `token: str` in a class body.
_TYPE_ONLY = LazyBytes(
    rb"(?:(?:str|bytes|bytearray|int|float|bool|object|Any|SecretStr|memoryview)(?![\w.])"
    rb"(?:\[[^\]\r\n]*\])?(?:[ \t]*\|[ \t]*None)?[ \t]*(?:[,)\]`]|\r?$|\r?\n|[ \t]+\#)"
    rb"|[A-Z][A-Za-z_]*(?:\[[^\]\r\n]*\])?(?:[ \t]*\|[ \t]*None)?[ \t]*[,)])",
    re.MULTILINE,
)
_LAST_PART = LazyBytes(rb"([a-z0-9]+)[^a-z0-9]*$")
#: The first part of a name that says it holds a flag or a function: `is_secret`, `has_token`.
_PREDICATE = LazyBytes(
    rb"[^a-z0-9]*(?:self\.|this\.)?_*(?:is|has|needs|use|uses|allow|require|requires|should"
    rb"|can|must|enable|disable|show|hide|skip|check|no|get|validate|verify|parse|make)[_.-]"
)
_NAME_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_.-")
_UPPER_NAME_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_LETTERS = frozenset(b"abcdefghijklmnopqrstuvwxyz")
_DELIMITERS = b"?&;"
_PLAIN_WORD = LazyBytes(rb"[a-z]+(?:-[a-z]+)*(?![\w@#$%^&*!?+=/.:-])")
_SHORT = frozenset((b"pass", b"pwd", b"auth", b"sig", b"signature"))


def _keyword_hits(lowered: bytes) -> list[re.Match[bytes]]:
    """Every secret name's keyword with its separator, in order (overlaps included)."""
    starts = {position for position, _ in first_hits(lowered, _KEYWORD_LITERALS)}
    if not starts:
        return []
    pattern = _KEYWORD.compiled
    return [hit for start in sorted(starts) if (hit := pattern.match(lowered, start)) is not None]


def denied_name(name: bytes) -> bool:
    if _PREDICATE.compiled.match(name) is not None:
        return True
    last = _LAST_PART.compiled.search(name)
    return last is not None and last.group(1) in _NOT_THE_SECRET


def _name_start(text: bytes, position: int, allowed: frozenset[int]) -> int:
    while position > 0 and text[position - 1] in allowed:
        position -= 1
    return position


def _value(
    data: bytes, name_start: int, position: int, separator: bytes, name_end: int = -1
) -> tuple[int, int] | None:
    if separator == b":":
        if _TYPE_ONLY.compiled.match(data, position) is not None:
            return None
        annotation = _ANNOTATION.compiled.match(data, position)
        if annotation is not None:
            position = annotation.end()
        elif _bare_word(data, position):
            return None  # `token: the model's own vector`: a sentence
    if name_end >= 0 and _inside_string(data, name_start, name_end, position):
        return None
    before = data[name_start - 1 : name_start]
    delimited = bool(before) and before in _DELIMITERS
    span = value_span(data, position, name_start, delimited=delimited)
    if span is None or name_end < 0:
        return span
    name, value = data[name_start:name_end], data[span[0] : span[1]]
    return None if _code_assignment(data, name, value, position) else span


def _inside_string(data: bytes, name_start: int, name_end: int, position: int) -> bool:
    """`print("token=" + x)`, `prompt='Password: '`: the quote after the separator closes the
    string the name stands in (`"password": "…"` closes its name's own quotes first)."""
    quote = data[position : position + 1]
    if quote not in (b'"', b"'") or quote in data[name_end:position]:
        return False
    line_start = data.rfind(b"\n", 0, name_start) + 1
    return data.count(quote, line_start, name_start) % 2 == 1


_IDENTIFIER = LazyBytes(rb"[A-Za-z_$][A-Za-z_$]*")
_DECLARED = (b"const ", b"let ", b"var ", b"my ")


def _code_assignment(data: bytes, name: bytes, value: bytes, position: int) -> bool:
    """Code that assigns no secret: `self.token = nextchar`, `const auth = options`, `creds.email =
    email` (an attribute or a declared name given a name, spaces around `=`), or a value that
    only repeats the name (`ERROR_KEY = 'error'`)."""
    parts = [part for part in re.split(rb"[^a-z0-9]+", name.lower()) if part]
    plain = value.lower().replace(b"_", b"").replace(b"-", b"")
    if plain and plain == b"".join(p for p in parts if not _SECRET_PART.compiled.fullmatch(p)):
        return True
    if _IDENTIFIER.compiled.fullmatch(value) is None or data[position - 2 : position] != b"= ":
        return False
    line_start = data.rfind(b"\n", 0, position) + 1
    head = data[line_start:position].lstrip()
    return b"." in name or head.startswith(_DECLARED)


_SECRET_PART = LazyBytes(rb"pass(?:word|wd|phrase)?|pwd|secret|token|key|auth|creds?|sig")


_SENTENCE_GOES_ON = LazyBytes(rb"[,;]?[ \t]+[a-z]+(?:[ \t,.;:]|$)")


def _bare_word(data: bytes, position: int) -> bool:
    """A sentence after `name:` (`token: the …`, `password: a glued flag`)."""
    end = position
    while end < len(data) and data[end : end + 1].isalpha():
        end += 1
    word = data[position:end]
    if end > position and word.lower() in COMMON_WORDS:
        return data[end : end + 1] in (b" ", b"\t", b"\n", b"")
    # `secret: placeholders, small numbers`: a lowercase word, and the sentence goes on
    return word.islower() and _SENTENCE_GOES_ON.compiled.match(data, end) is not None


def _lower_spans(data: bytes, lowered: bytes, names: set[int]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for hit in _keyword_hits(lowered):
        needs_word_start = hit.group("word") is not None
        start = hit.start()
        if needs_word_start and start and lowered[start - 1] in _LETTERS:
            continue
        name_start = _name_start(lowered, start, _NAME_BYTES)
        if needs_word_start and _prose(data, lowered, name_start, hit):
            continue
        if lowered.startswith(b"key", start):
            qualified = _QUALIFIED_KEY.compiled.search(lowered, max(0, start - 24), start)
            in_query = name_start > 0 and lowered[name_start - 1 : name_start] in b"?&"
            if qualified is None and not in_query:
                continue  # a plain `key` is a dict key, a sort key: UPPERCASE rule only
        name_end = hit.start("words")
        names.add(name_end)
        if denied_name(lowered[name_start:name_end]) or denied_name(hit.group("words")):
            continue
        span = _value(data, name_start, hit.end(), hit.group("sep"), name_end)
        if span is not None:
            spans.append(span)
    return spans


def _prose(data: bytes, lowered: bytes, name_start: int, hit: re.Match[bytes]) -> bool:
    """`Both tests pass: past-due …`: a bare short keyword after words on its line, a colon,
    then a plain lowercase word, is a sentence (`pass: …` opening a line is a key, and
    `user=bob pass: s3cret` still has its password redacted)."""
    if hit.group("sep") != b":" or lowered[name_start : hit.start("words")] not in _SHORT:
        return False
    line_start = lowered.rfind(b"\n", 0, name_start) + 1
    if not any(byte in _LETTERS for byte in lowered[line_start:name_start]):
        return False
    return _PLAIN_WORD.compiled.match(data, hit.end()) is not None


def _flag_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """`--api-key VALUE`, `--password=VALUE`, `-password VALUE`."""
    spans: list[tuple[int, int]] = []
    if b"-" not in lowered or not any(word in lowered for word in _FLAG_WORDS):
        return spans
    for hit in _FLAG.compiled.finditer(lowered):
        position = hit.start()
        if position and lowered[position - 1] not in b" \t\n\"'":
            continue
        flag = lowered[position : hit.end()].rstrip(b"= \t")
        if denied_name(flag) or _FLAG_PART.compiled.search(flag) is None:
            continue  # --password-file; -oStrictHostKeyChecking: the word goes on
        span = value_span(data, hit.end(), position)
        if span is not None:
            spans.append(span)
    return spans


def _upper_hits(data: bytes) -> list[tuple[int, int]]:
    hits: list[tuple[int, int]] = []
    for word in _UPPER_WORDS:
        position = data.find(word)
        while position != -1:
            hits.append((position, position + len(word)))
            position = data.find(word, position + 1)
    return sorted(hits)


def _upper_spans(data: bytes, names: set[int]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    last_name_end = -1
    for hit_start, hit_end in _upper_hits(data):
        if hit_start < last_name_end:
            continue
        name_end = hit_end
        while name_end < len(data) and data[name_end] in _UPPER_NAME_BYTES:
            name_end += 1
        last_name_end = name_end
        if name_end in names:
            continue  # the keyword rule read this name already
        separator = _UPPER_AFTER.compiled.match(data, name_end)
        if separator is None:
            continue
        name_start = _name_start(data, hit_start, _UPPER_NAME_BYTES)
        if _not_upper_name(data, name_start, hit_start, hit_end, name_end):
            continue
        span = _value(data, name_start, separator.end(), separator.group("sep"), name_end)
        if span is not None:
            spans.append(span)
    return spans


#: What turns an UPPER keyword into another word: AUTHOR, TOKENIZER, SECRETARY, PASSAGE.
_WORD_GOES_ON = (b"OR", b"IZ", b"ARY", b"AGE", b"ENGER", b"IVE", b"THROUGH")


def _not_upper_name(
    data: bytes, name_start: int, hit_start: int, hit_end: int, name_end: int
) -> bool:
    """Whether the UPPER keyword at [hit_start, hit_end) does not make its name a secret's."""
    if name_start and data[name_start - 1] in _LETTERS:
        return True  # myTOKEN: not an environment-style name
    if data.startswith(b"KEY", hit_start) and _keyboard_key(data, name_start, hit_start):
        return True
    if data.startswith(_WORD_GOES_ON, hit_end) or data[name_start - 2 : name_start] == b"${":
        return True  # GIT_AUTHOR_DATE, SECRETARY; ${PWD:-x} is the shell's default
    return denied_name(data[name_start:name_end].lower())


def _keyboard_key(data: bytes, name_start: int, hit_start: int) -> bool:
    """`KEY_LEFT`, `KEYWORD_ONLY`: KEY opens the name, or goes on as a word; `API_KEY`,
    `KEY`, `SSH_KEYS` and `MY_KEY_2` name a secret."""
    after = data[hit_start + 3 : hit_start + 4]
    if after.isalpha() and after != b"S":
        return True
    opens = data[name_start:hit_start].strip(b"_") == b""
    return opens and after == b"_" and not data[hit_start + 4 : hit_start + 5].isdigit()


def named_secret_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """Spans of values behind secret names, sorted, overlaps merged."""
    names: set[int] = set()
    lower = _lower_spans(data, lowered, names)
    return _merge([*lower, *_upper_spans(data, names), *_flag_spans(data, lowered)])


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(set(spans)):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


#: A column naming a secret: its last word is one (`Secret access key`, `password`, not
#: `pass_none` or `tokeneater`).
_CSV_COLUMN = LazyBytes(
    rb"(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|credential)s?(?![a-z0-9_])"
)
#: A header cell: a name of up to four words (a sentence, a call or an import is no header).
_HEADER_CELL = LazyBytes(rb"[ \t]*\"?[a-z][a-z0-9_/-]{0,30}(?: [a-z0-9_/-]{1,30}){0,3}\"?[ \t]*")


def csv_secret_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """Cells under a CSV header naming a secret column (an AWS credentials export)."""
    spans: list[tuple[int, int]] = []
    seen: set[int] = set()
    # A header line, then rows: no newline, no CSV.
    if b"\n" not in lowered or not any(word in lowered for word in _CSV_WORDS):
        return spans
    for position, _ in first_hits(lowered, _CSV_WORDS):
        line_start = lowered.rfind(b"\n", 0, position) + 1
        if line_start in seen:
            continue
        seen.add(line_start)
        line_end = lowered.find(b"\n", line_start)
        line_end = len(lowered) if line_end == -1 else line_end
        if line_end - line_start > 400:  # noqa: PLR2004 - a header is one short line
            continue
        header = lowered[line_start:line_end].rstrip(b"\r")
        separator = b"," if b"," in header else b"\t"
        cells = header.split(separator)
        if len(cells) < 2:  # noqa: PLR2004
            continue
        if not all(_HEADER_CELL.compiled.fullmatch(cell) for cell in cells):
            continue
        columns = [i for i, cell in enumerate(cells) if _CSV_COLUMN.compiled.search(cell)]
        spans.extend(_csv_rows(data, line_end, separator, len(cells), columns))
    return spans


def _csv_rows(
    data: bytes, position: int, separator: bytes, width: int, columns: list[int]
) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    while position < len(data):
        start = position + 1
        end = data.find(b"\n", start)
        end = len(data) if end == -1 else end
        row = data[start:end].rstrip(b"\r")
        if not row.strip() or row.count(separator) != width - 1:
            break
        offset = start
        for index, cell in enumerate(row.split(separator)):
            stripped = cell.strip().strip(b"\"'")
            if index in columns and stripped and not stripped.startswith(b"[REDACTED:"):
                cell_start = offset + cell.find(stripped)
                spans.append((cell_start, cell_start + len(stripped)))
            offset += len(cell) + 1
        position = end
    return spans
