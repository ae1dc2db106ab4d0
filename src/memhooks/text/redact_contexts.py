# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Secrets known by where they stand rather than by a name and a separator: the values of
a Kubernetes Secret, a password quoted after a SQL or PowerShell keyword, a config line
``requirepass VALUE``. Standard library only.
"""

from __future__ import annotations

from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_engine import Rule, Scan, first_hits, lit
from memhooks.text.redact_pairs import denied_name
from memhooks.text.redact_values import can_be_secret, value_span

#: `kind: Secret` in YAML or JSON (gitleaks' kubernetes-secret-yaml rule takes the same
#: view: every value under the Secret's `data` or `stringData` is a secret).
_KIND = LazyBytes(rb"""[ \t{]*["']?kind["']?[ \t]*:[ \t]*["']?Secret(?![\w-])""")
_YAML_DATA = LazyBytes(rb"""(?m)^([ \t]*)["']?(?:data|stringData)["']?[ \t]*:[ \t]*\r?$""")
_JSON_DATA = LazyBytes(rb""""(?:data|stringData)"\s*:\s*\{""")
_YAML_ENTRY = LazyBytes(rb"""([ \t]*)["']?[\w.-]+["']?[ \t]*:[ \t]*""")
_JSON_ENTRY = LazyBytes(rb"""\s*"[\w.-]+"\s*:\s*""")
_DOCUMENT_END = b"\n---"


def _document(data: bytes, position: int) -> tuple[int, int]:
    """The YAML document (between `---` lines) that holds ``position``."""
    start = data.rfind(_DOCUMENT_END, 0, position)
    end = data.find(_DOCUMENT_END, position)
    return (0 if start == -1 else start + 1), (len(data) if end == -1 else end)


def _yaml_values(
    data: bytes, line_end: int, indent: int, end: int
) -> tuple[list[tuple[int, int]], int]:
    """The values of the block under a `data:` key, and where the block ends."""
    spans: list[tuple[int, int]] = []
    position = line_end + 1
    while position < end:
        next_line = data.find(b"\n", position, end)
        next_line = end if next_line == -1 else next_line
        entry = _YAML_ENTRY.compiled.match(data, position, next_line)
        if data[position:next_line].strip():
            if entry is None or len(entry.group(1)) <= indent:
                break
            span = _yaml_value(data, entry.end(), next_line, position + len(entry.group(1)))
            if span is not None:
                spans.append(span)
        position = next_line + 1
    return spans, position


def _yaml_value(data: bytes, start: int, line_end: int, key_start: int) -> tuple[int, int] | None:
    """A plain YAML value runs to the end of its line (`db-conn: host=db user=app`)."""
    if data[start:line_end].startswith((b'"', b"'", b"|", b">")):
        return value_span(data, start, key_start)
    end = start + len(data[start:line_end].rstrip())
    return (start, end) if end > start and can_be_secret(data[start:end]) else None


def _json_values(data: bytes, position: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    close = data.find(b"}", position, end)
    close = end if close == -1 else close
    while (entry := _JSON_ENTRY.compiled.match(data, position, close)) is not None:
        span = value_span(data, entry.end(), entry.start())
        if span is None:
            break
        spans.append(span)
        position = data.find(b",", span[1], close)
        if position == -1:
            break
        position += 1
    return spans


def kubernetes_secret_spans(data: bytes, _lowered: bytes) -> list[tuple[int, int]]:
    """The values under `data:` and `stringData:` of a `kind: Secret` document (each
    document read once, however many `kind:` lines it has)."""
    spans: list[tuple[int, int]] = []
    position = data.find(b"Secret")
    while position != -1:
        line_start = data.rfind(b"\n", 0, position) + 1
        line_end = data.find(b"\n", position)
        line_end = len(data) if line_end == -1 else line_end
        if _KIND.compiled.match(data, line_start, line_end) is not None:
            start, end = _document(data, line_start)
            spans.extend(_secret_values(data, start, end))
            line_end = end
        position = data.find(b"Secret", line_end)
    return spans


def _secret_values(data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    position = start
    while (key := _YAML_DATA.compiled.search(data, position, end)) is not None:
        found, position = _yaml_values(data, key.end(), len(key.group(1)), end)
        spans.extend(found)
    for key in _JSON_DATA.compiled.finditer(data, start, end):
        spans.extend(_json_values(data, key.end(), end))
    return spans


#: English words that end like a secret's name (`bypass 2`).
_WORDS = frozenset(b"bypass compass surpass overpass underpass trespass encompass".split())
_CONFIG_LINE = LazyBytes(
    rb"[ \t]*(?:(?:ENV|ARG|export|setenv)[ \t]+)?"  # Dockerfile's `ENV NAME value`
    rb"(?P<name>[A-Za-z_][\w.-]*)[ \t]+(?P<value>[^\s\"'`]+)[ \t]*\r?"
)
_CONFIG_KEYWORDS = LazyBytes(rb"(?:pass(?:wd|word|phrase)?|pwd|secret|token|auth)$")
_WORD = LazyBytes(rb"[A-Za-z]?[a-z]+[.,;:!?]?")


def config_line_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """`requirepass VALUE`, `auth_pass VALUE`, `masterauth VALUE`: a config line of a name that
    ends in a secret's keyword and one value (a plain word is prose: `Password changed.`)."""
    spans: list[tuple[int, int]] = []
    seen: set[int] = set()
    for position, _ in first_hits(lowered, (b"pass", b"pwd", b"secret", b"token", b"auth")):
        line_start = lowered.rfind(b"\n", 0, position) + 1
        if line_start not in seen:
            seen.add(line_start)
            span = _config_value(data, lowered, line_start)
            if span is not None:
                spans.append(span)
    return sorted(spans)


def _config_value(data: bytes, lowered: bytes, line_start: int) -> tuple[int, int] | None:
    line_end = data.find(b"\n", line_start)
    line_end = len(data) if line_end == -1 else line_end
    line = _CONFIG_LINE.compiled.fullmatch(data, line_start, line_end)
    if line is None:
        return None
    name = lowered[line.start("name") : line.end("name")]
    if name in _WORDS or denied_name(name):
        return None
    if _CONFIG_KEYWORDS.compiled.search(name.replace(b"-", b"_").rstrip(b"_.")) is None:
        return None
    value = data[line.start("value") : line.end("value")]
    if _WORD.compiled.fullmatch(value) is not None or not can_be_secret(value):
        return None
    return line.span("value")


#: A password quoted after a keyword, no separator: SQL's `IDENTIFIED BY '…'` and
#: `PASSWORD '…'`, PowerShell's `ConvertTo-SecureString "…" -AsPlainText`.
CONTEXT_RULES: tuple[Rule | Scan, ...] = (
    Scan("secret", kubernetes_secret_spans),
    Rule(
        "secret",
        lit(b"identified", b"password", b"passwd", b"passphrase", b"convertto-securestring"),
        LazyBytes(
            rb"(?i)(?<![\w-])(?:identified[ \t]+by|password|passwd|passphrase"
            rb"|convertto-securestring(?:[ \t]+-string)?)[ \t]+"
            rb"(?:\"(?P<dq>[^\"\r\n]+)\"|'(?P<sq>[^'\r\n]+)')"
        ),
        ("dq", "sq"),
        can_be_secret,
    ),
    Scan("secret", config_line_spans),
)
