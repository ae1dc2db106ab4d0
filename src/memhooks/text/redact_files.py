# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Passwords in the files that hold them by position, not by name: ``.pgpass`` lines, an
OpenVPN ``auth-user-pass`` file (a user line, then the password), Postfix's ``sasl_passwd``,
PHP's ``define('DB_PASSWORD', …)``, Oracle's ``thin:user/password@``, Redis'
``requirepass``, and the password an ``expect`` script sends at a password prompt.
Standard library only; works on UTF-8 bytes.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_engine import Rule, Scan, lit, words
from memhooks.text.redact_values import can_be_secret

if TYPE_CHECKING:
    from collections.abc import Callable

#: Words in a file's name that say it holds a login (`auth.txt`, `creds`, `vpn-pass`).
_LOGIN_FILE = rb"[^\s\"'<>|;&]*(?:pass|cred|auth|login|secret)[^\s\"'<>|;&]*"
_HEREDOC = LazyBytes(rb"<<-?[ \t]*[\"']?(?P<tag>[A-Za-z_]\w*)[\"']?")
_HEREDOC_FILE = LazyBytes(rb"(?i)(?:>|\btee[ \t]+(?:-a[ \t]+)?)[ \t]*[\"']?" + _LOGIN_FILE)
_LOGIN_WORD = LazyBytes(rb"(?i)pass|cred|auth|login|secret")
#: How far from `<<` its command line is read (a heredoc's command is one short line).
_NEAR = 300
_AUTH_USER_PASS = LazyBytes(rb"auth-user-pass[ \t]+[\"']?(?P<file>[^\s\"'#;]+)")


def _lines(data: bytes, position: int, count: int) -> list[tuple[int, int]]:
    """The next ``count`` lines from ``position`` (a line start), as spans."""
    spans: list[tuple[int, int]] = []
    while len(spans) < count and position < len(data):
        end = data.find(b"\n", position)
        end = len(data) if end == -1 else end
        spans.append((position, end - (data[end - 1 : end] == b"\r")))
        position = end + 1
    return spans


def _second_line(data: bytes, position: int, tag: bytes = b"") -> tuple[int, int] | None:
    """The password of a user-then-password file whose first line starts at ``position``."""
    lines = _lines(data, position, 2)
    if len(lines) < 2:  # noqa: PLR2004
        return None
    (user_start, user_end), (start, end) = lines
    value = data[start:end].strip()
    if not data[user_start:user_end].strip() or value == tag or not can_be_secret(value):
        return None
    start += len(data[start:end]) - len(data[start:end].lstrip())
    return start, start + len(value)


def heredoc_spans(data: bytes, _lowered: bytes) -> list[tuple[int, int]]:
    """A here-document written to a login file (`cat > auth.txt` and `<<` a tag): user,
    password, the tag."""
    spans: list[tuple[int, int]] = []
    position = data.find(b"<<")
    while position != -1:
        heredoc = _HEREDOC.compiled.match(data, position)
        line_end = data.find(b"\n", position)
        if heredoc is not None and line_end != -1 and line_end - position < _NEAR:
            line_start = max(data.rfind(b"\n", 0, position) + 1, position - _NEAR)
            line = data[line_start:line_end]
            if _LOGIN_WORD.compiled.search(line) and _HEREDOC_FILE.compiled.search(line):
                span = _second_line(data, line_end + 1, heredoc.group("tag"))
                if span is not None:
                    spans.append(span)
        position = data.find(b"<<", position + 2)
    return spans


def auth_user_pass_spans(data: bytes, _lowered: bytes) -> list[tuple[int, int]]:
    """After `auth-user-pass FILE`, the two lines shown under that file's name (`cat FILE`
    or `FILE:`)."""
    spans: list[tuple[int, int]] = []
    inline = data.find(b"<auth-user-pass>")  # an .ovpn file's inline block: the tag ends its line
    if inline != -1 and data[inline + 16 : inline + 17] in (b"\n", b"\r"):
        line_end = data.find(b"\n", inline)
        span = _second_line(data, line_end + 1) if line_end != -1 else None
        if span is not None:
            spans.append(span)
    for match in _AUTH_USER_PASS.compiled.finditer(data):
        name = match.group("file").rsplit(b"/", 1)[-1]
        shown = data.find(name, match.end())
        while shown != -1:
            line_end = data.find(b"\n", shown)
            if line_end != -1 and data[shown + len(name) : line_end].strip() in (b"", b":"):
                span = _second_line(data, line_end + 1)
                if span is not None:
                    spans.append(span)
            shown = data.find(name, shown + len(name))
    return spans


_PGPASS = LazyBytes(
    rb"(?<![\w.:*/-])[\w.*-]+:(?:\d{1,5}|\*):[\w.*-]+:[\w.*@-]+:(?P<value>[^\s:\"']+)(?=[\s\"']|$)"
)
#: What a .pgpass line holds (a wildcard or a PostgreSQL or PgBouncer port), or its name.
_PGPASS_NEEDS = (b":*:", b":5432:", b":6432:", b"pgpass")
_SASL = LazyBytes(rb"\[[\w.-]{1,80}\]:\d{1,5}[ \t]+[^\s:]+:(?P<value>[^\s`]+)")


def pgpass_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """.pgpass lines: host:port:database:user:password."""
    if not any(need in lowered for need in _PGPASS_NEEDS):
        return []
    return [
        match.span("value")
        for match in _PGPASS.compiled.finditer(data)
        if can_be_secret(match.group("value"))
    ]


def sasl_spans(data: bytes, _lowered: bytes) -> list[tuple[int, int]]:
    """Postfix's sasl_passwd: `[smtp.example.com]:587 user@example.com:password`."""
    spans: list[tuple[int, int]] = []
    position = data.find(b"]:")
    while position != -1:
        opener = data.rfind(b"[", max(0, position - 81), position)
        match = _SASL.compiled.match(data, opener) if opener != -1 else None
        if match is not None and can_be_secret(match.group("value")):
            spans.append(match.span("value"))
        position = data.find(b"]:", position + 2)
    return spans


_ORACLE = (b"sqlplus", b"expdp", b"impdp", b"rman", b"sqlldr")
#: An expect script's password prompt and the `send` that answers it.
_SEND = (
    rb"(?i)expect[ \t]+(?:-\w+[ \t]+)*[\"{]?[^\n\"}]{0,60}?(?:assword|assphrase|passcode|pin\b)"
    rb"[^\n]{0,40}?(?:\r?\n[ \t]*|;[ \t]*|\{[ \t]*)send[ \t]+(?:--[ \t]+)?"
    rb"\"(?P<value>(?:[^\"\\\r\n]|\\[^rn\r\n])+)(?:\\[rn])*\""
)


def _form(
    literals: tuple[bytes, ...],
    pattern: bytes,
    groups: tuple[str, ...] = ("value",),
    check: Callable[[bytes], bool] = can_be_secret,
) -> Rule:
    """A rule of this module: tried where one of ``literals`` stands (lowercased)."""
    return Rule("secret", lit(*literals), LazyBytes(pattern), groups, check)


def _not_tcl_variable(value: bytes) -> bool:
    return can_be_secret(value) and not value.startswith(b"$")


#: Each form, and the words one of which a text must hold for it to be looked for (one set
#: lookup each: a search per form and per text cost the hooks a quarter of redaction's time).
_GATED: tuple[tuple[tuple[bytes, ...], Rule | Scan], ...] = (
    ((b"auth-user-pass",), Scan("secret", auth_user_pass_spans)),
    ((b"expect",), _form((b"expect",), _SEND, check=_not_tcl_variable)),
    # `printf 'user\npassword\n' > vpn-auth.txt`
    (
        (b"printf", b"echo"),
        _form(
            (b"printf", b"echo"),
            rb"(?:printf|echo[ \t]+-e)[ \t]+[\"'][^\n\"'\\]+\\n(?P<value>[^\n\"'\\]+)(?:\\n)?"
            rb"[\"'][ \t]*>>?[ \t]*[\"']?" + _LOGIN_FILE,
        ),
    ),
    (
        (b"define",),
        _form(
            (b"define",),
            rb"(?i)define[ \t]*\([ \t]*[\"'][\w-]*(?:pass|pwd|secret|token|key|salt|auth)[\w-]*"
            rb"[\"'][ \t]*,[ \t]*(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)')",
            ("dq", "sq"),
        ),
    ),
    # jdbc:oracle:thin:<user>/<password>@host, and oci:
    (
        (b"thin", b"oci", b"oci8"),
        _form(
            (b"thin:", b"oci:", b"oci8:"),
            rb"(?i)(?:thin|oci8?):[^\s/@:\"']+/(?P<value>[^\s@\"'`]+)@",
        ),
    ),
    # Redis: `requirepass X` wherever it stands (`CONFIG SET`, `echo "…" >> redis.conf`)
    (
        (b"requirepass", b"masterauth"),
        _form(
            (b"requirepass", b"masterauth"),
            rb"(?i)(?<![\w-])(?:requirepass|masterauth)[ \t]+[\"']?(?P<value>[^\s\"'`]+)",
        ),
    ),
    # Oracle's tools: `sqlplus user/<password>@db`, `expdp system/…@db`, `rman target …`
    (
        _ORACLE,
        _form(
            _ORACLE,
            rb"(?i)(?:sqlplus|expdp|impdp|sqlldr|rman[ \t]+(?:target|catalog|auxiliary))[ \t]+"
            rb"(?:-\w+[ \t]+)*(?:userid=)?[^\s/@=]+/(?P<value>[^\s@]+)",
        ),
    ),
    # ipsec.secrets: `: PSK "…"`, `host : XAUTH user "…"`
    (
        (b"psk", b"xauth", b"eap"),
        _form(
            (b"psk", b"xauth", b"eap"),
            rb'(?:PSK|XAUTH|EAP)(?:[ \t]+[^\s"]+)?[ \t]+"(?P<value>[^"\r\n]+)"',
        ),
    ),
    # Dockerfile's `ENV NAME value` (no `=`), wherever the line is quoted
    (
        (b"env",),
        _form(
            (b"env ",),
            rb"(?<![\w-])ENV[ \t]+[A-Z0-9_]*(?:PASS|PWD|SECRET|TOKEN|KEY|AUTH|CRED)[A-Z0-9_]*"
            rb"[ \t]+(?P<value>[^\s\"'=`]+)",
        ),
    ),
)


def file_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """Every form this module knows, each looked for only where its words stand."""
    present = words(lowered)
    spans: list[tuple[int, int]] = []
    for gate, rule in _GATED:
        if any(word in present for word in gate):
            spans.extend(rule.spans(data, lowered))
    if b"<<" in data:
        spans.extend(heredoc_spans(data, lowered))
    if b"]:" in data:
        spans.extend(sasl_spans(data, lowered))
    return [*spans, *pgpass_spans(data, lowered)]
