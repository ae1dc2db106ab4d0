# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Redact secrets from text before anything is persisted. Standard library only.

Every match is replaced by a marker such as ``[REDACTED:github-token]``. Where a
secret sits behind a name (``API_KEY=…``, ``Authorization: Bearer …``, a URL's
``user:password@``), only the value is replaced, so a reader still sees what was there.

Rules for ``NAME=value`` and ``name: value`` pairs whose name contains password,
passwd, passphrase, secret, token, api_key/apikey, private_key or credential(s):

- the keyword must end the name or go on with ``_``, ``-`` or ``.``, so that
  ``tokenizer: bpe``, ``max_tokens=4096`` and ``secretary: Bob`` are left alone;
- a value is kept when it cannot be a secret: a number of at most six digits with an
  optional time unit (``TOKEN_TTL=30``, ``30s``), a boolean or null word, an empty
  string, a variable reference or placeholder (``$TOKEN``, ``${TOKEN}``, ``<token>``,
  ``***``), a dotted name or a call (``settings.SECRET_KEY``, ``os.environ[…]``), or a
  marker;
- anything else, however short, is redacted: a false positive costs a word, a false
  negative leaks a credential into git.

``redact`` is idempotent: a marker never matches a rule again.

Speed: Python's ``re`` scans fast only for patterns that open with a plain literal, and
case-insensitive alternations cost tens of ms per MB. So each rule names the lowercase
literal where a match can start; that literal is searched for (in an ASCII-lowercased
copy when case does not matter) and the rule's full pattern is only tried at the hits.
"""

from __future__ import annotations

import functools
import re

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

MARKER_PREFIX = "[REDACTED:"
_MARKER_PREFIX_BYTES = MARKER_PREFIX.encode()
_MAX_PASSES = 3


class _Lazy:
    """A pattern compiled on first use.

    Most texts never reach most rules, and compiling every pattern up front would cost
    several ms at the start of every hook process.
    """

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: bytes, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[bytes] | None = None

    @property
    def compiled(self) -> re.Pattern[bytes]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled


_Finder = tuple[_Lazy, bool, int]


def marker(kind: str) -> str:
    return f"{MARKER_PREFIX}{kind}]"


def _always(_value: bytes) -> bool:
    return True


def _looks_random(token: bytes) -> bool:
    """A generated key has digits and a long alphanumeric run; ``sk-learn-…`` has neither."""
    if not any(48 <= byte <= 57 for byte in token):  # noqa: PLR2004 - ASCII digits
        return False
    return max(len(run) for run in re.split(rb"[-_]", token)) >= 16  # noqa: PLR2004


_PLACEHOLDER = _Lazy(
    rb"""
    \$\{?[A-Za-z_][A-Za-z0-9_]*\}?             # $TOKEN, ${TOKEN}
    | %[A-Za-z_][A-Za-z0-9_]*%                 # %TOKEN%
    | <[^<>]*> | \{\{[^{}]*\}\}                # <token>, {{ token }}
    | [*x.]+ | \xe2\x80\xa6                    # ***, xxxx, ..., an ellipsis
    """,
    re.IGNORECASE | re.VERBOSE,
)

_TRIVIAL = _Lazy(
    rb"""
    \d{1,6}(?:\.\d+)?(?:ms|[smhdw])?           # TOKEN_TTL=30, 15m
    | true | false | yes | no | on | off | null | none | nil | undefined
    | [A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+  # settings.SECRET_KEY
    | [A-Za-z_][A-Za-z0-9_.]*[(\[].*           # os.environ["X"], get_token(
    """,
    re.IGNORECASE | re.VERBOSE | re.DOTALL,
)


def _not_placeholder(value: bytes) -> bool:
    return not (
        value.startswith(_MARKER_PREFIX_BYTES) or _PLACEHOLDER.compiled.fullmatch(value) is not None
    )


def _not_trivial(value: bytes) -> bool:
    return bool(value) and _not_placeholder(value) and _TRIVIAL.compiled.fullmatch(value) is None


def _lit(*stems: bytes) -> tuple[_Finder, ...]:
    """Finders for lowercase literals, searched in the lowercased text."""
    return tuple((_Lazy(re.escape(stem)), True, 0) for stem in stems)


def _exact(pattern: bytes, back: int = 0) -> tuple[_Finder, ...]:
    """One finder searched in the text as written; it must open with a literal to be fast."""
    return ((_Lazy(pattern), False, back),)


class _Rule:
    """One kind of secret (a plain class: dataclasses cost the hooks ~10 ms of imports)."""

    __slots__ = ("finders", "groups", "is_secret", "kind", "pattern")

    def __init__(
        self,
        kind: str,
        finders: tuple[_Finder, ...],
        pattern: _Lazy,
        groups: tuple[str, ...] = (),
        is_secret: Callable[[bytes], bool] = _always,
    ) -> None:
        self.kind = kind
        #: where a match may start: (pattern, search the lowercased copy?, bytes back)
        self.finders = finders
        self.pattern = pattern
        #: groups holding the secret, first one that matched wins; empty: the whole match
        self.groups = groups
        self.is_secret = is_secret


_KEYWORDS = (
    rb"pass(?:word|wd|phrase)",
    rb"secret",
    rb"token",
    rb"api[_-]?key",
    rb"private[_-]?key",
    rb"credentials?",
)
_KEYWORD = rb"(?:" + rb"|".join(_KEYWORDS) + rb")"
_PAIR_NAME_TAIL = rb"(?:[_.-][A-Za-z0-9_.-]*)?[\"']?[ \t]*(?::=|=|:)"
_PAIR_VALUE = (
    rb"""(?:"(?P<dq>[^"\r\n]*)"|'(?P<sq>[^'\r\n]*)'|(?P<angle><[^<>\r\n]{0,80}>)"""
    rb"""|(?P<bare>[^\s"',;&|)}\]]+))"""
)
_PAIR_GROUPS = ("dq", "sq", "angle", "bare")


def _pair_finders() -> tuple[_Finder, ...]:
    # One literal-led finder per keyword that also checks for the separator, all in C:
    # trying the full pattern from Python at every "token" or "api" is slow in dense prose.
    return tuple(
        (_Lazy(rb"(?:" + keyword + rb")" + _PAIR_NAME_TAIL), True, 0) for keyword in _KEYWORDS
    )


_NOT_WORD = rb"(?<![A-Za-z0-9_])"
_NOT_TOKEN = rb"(?<![A-Za-z0-9_-])"

# Priority order: when two matches overlap, the earlier rule wins, so that
# ``API_KEY=sk-ant-…`` is labelled an Anthropic key rather than a generic secret.
_RULES: tuple[_Rule, ...] = (
    _Rule(
        "private-key",
        _lit(b"-----begin"),
        _Lazy(
            rb"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
            rb"(?:.*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,-]*)",
            re.DOTALL,
        ),
    ),
    _Rule(
        "jwt",
        _exact(rb"eyJ"),
        _Lazy(_NOT_TOKEN + rb"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ),
    _Rule(
        "aws-access-key",
        _exact(rb"A(?:KIA|SIA|GPA|IDA|ROA|NPA|IPA)"),
        _Lazy(_NOT_WORD + rb"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|AIPA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ),
    _Rule(
        "aws-secret",
        _lit(b"aws"),
        _Lazy(
            rb"(?i)aws_?secret_?access_?key[\"']?\s*[:=]\s*[\"']?"
            rb"(?P<value>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        ("value",),
    ),
    _Rule(
        "github-token",
        _exact(rb"g(?:h[pousr]_|ithub_pat_)"),
        _Lazy(
            _NOT_WORD + rb"(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})"
            rb"(?![A-Za-z0-9_])"
        ),
    ),
    _Rule(
        "slack-webhook",
        _lit(b"hooks.slack.com/"),
        _Lazy(rb"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"),
    ),
    _Rule(
        "slack-token",
        _exact(rb"x(?:ox[abposr]|app)-"),
        _Lazy(_NOT_WORD + rb"(?:xox[abposr]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})"),
    ),
    _Rule(
        "anthropic-key",
        _exact(rb"sk-ant-"),
        _Lazy(_NOT_TOKEN + rb"sk-ant-[A-Za-z0-9_-]{20,}"),
    ),
    _Rule(
        "api-key",
        _exact(rb"sk-"),
        _Lazy(_NOT_TOKEN + rb"sk-[A-Za-z0-9_-]{20,}"),
        is_secret=_looks_random,
    ),
    _Rule(
        "google-api-key",
        _exact(rb"AIza"),
        _Lazy(_NOT_TOKEN + rb"AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
    ),
    _Rule(
        "stripe-key",
        _exact(rb"k_(?:live|test)_", back=1),
        _Lazy(_NOT_WORD + rb"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}"),
    ),
    _Rule(
        "auth-header",
        _lit(b"authorization"),
        _Lazy(
            rb"(?i)authorization[\"']?\s*[:=]\s*[\"']?\s*(?:bearer|basic|token|bot)\s+"
            rb"(?P<value>[^\s\"',;]+)"
        ),
        ("value",),
        _not_placeholder,
    ),
    _Rule(
        "bearer-token",
        _lit(b"bearer"),
        _Lazy(rb"(?i)" + _NOT_WORD + rb"bearer\s+(?P<value>[A-Za-z0-9._~+/-]{20,}=*)"),
        ("value",),
        _not_placeholder,
    ),
    _Rule(
        "url-password",
        _exact(rb"://"),
        _Lazy(rb"://[^\s:/@\"'<>]*:(?P<value>[^\s@/\"'<>]+)@"),
        ("value",),
        _not_placeholder,
    ),
    _Rule(
        "secret",
        _pair_finders(),
        _Lazy(
            rb"(?i)" + _KEYWORD + _PAIR_NAME_TAIL + rb"[ \t]*"
            rb"(?!\[REDACTED:)" + _PAIR_VALUE
        ),
        _PAIR_GROUPS,
        _not_trivial,
    ),
    _Rule(
        # `curl -u user:pass`, `--user user:pass`: only the user:password form, so that
        # `git push -u origin` and `docker run -u 1000:1000` (numbers) are left alone.
        "cli-credential",
        _exact(rb"-(?:u|-user)[ \t=]"),
        _Lazy(rb"(?:(?<=\s)-u|--user)[ \t=]+[^\s:\"']+:(?P<value>[^\s\"']+)"),
        ("value",),
        _not_trivial,
    ),
    _Rule(
        # `mysql -pSECRET`: the password glued to -p, only on a mysql-family command line
        # (`mkdir -p`, `pytest -p no:x` are not credentials).
        "cli-credential",
        _lit(b"mysql", b"mariadb"),
        _Lazy(rb"(?i:\b(?:mysql|mysqldump|mysqladmin|mariadb)\b)[^\n]*?\s-p(?P<value>[^\s\"']+)"),
        ("value",),
        _not_trivial,
    ),
    _Rule(
        "secret",
        _exact(rb"--"),
        _Lazy(rb"(?i)--(?:password|passwd|secret|token|api-key|apikey)[ \t]+" + _PAIR_VALUE),
        _PAIR_GROUPS,
        _not_trivial,
    ),
)


def _secret_span(rule: _Rule, match: re.Match[bytes]) -> tuple[int, int] | None:
    if not rule.groups:
        return match.span() if rule.is_secret(match.group(0)) else None
    for group in rule.groups:
        value = match.group(group)
        if value is not None:
            return match.span(group) if rule.is_secret(value) else None
    return None


def _candidates(rule: _Rule, data: bytes, lowered: bytes) -> list[int]:
    starts: set[int] = set()
    for finder, on_lowered, back in rule.finders:
        haystack = lowered if on_lowered else data
        starts.update(hit.start() - back for hit in finder.compiled.finditer(haystack))
    return sorted(start for start in starts if start >= 0)


def _rule_spans(rule: _Rule, data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """Non-overlapping secret spans of one rule, in order."""
    spans: list[tuple[int, int]] = []
    last_end = -1
    for start in _candidates(rule, data, lowered):
        if start < last_end:
            continue
        match = rule.pattern.compiled.match(data, start)
        if match is None:
            continue
        span = _secret_span(rule, match)
        if span is not None and span[0] >= last_end and span[1] > span[0]:
            spans.append(span)
            last_end = match.end()
    return spans


def _redact_builtin(text: str) -> str:
    data = text.encode("utf-8", "surrogatepass")
    lowered = data.lower()
    claimed: bytearray | None = None
    replacements: list[tuple[int, int, bytes]] = []
    for rule in _RULES:
        kind = marker(rule.kind).encode()
        for start, end in _rule_spans(rule, data, lowered):
            if claimed is None:
                claimed = bytearray(len(data))
            # An earlier, more specific rule already took part of this span.
            elif claimed.find(1, start, end) != -1:
                continue
            claimed[start:end] = b"\x01" * (end - start)
            replacements.append((start, end, kind))
    if not replacements:
        return text
    replacements.sort()
    pieces: list[bytes] = []
    position = 0
    for start, end, kind in replacements:
        pieces.extend((data[position:start], kind))
        position = end
    pieces.append(data[position:])
    return b"".join(pieces).decode("utf-8", "surrogatepass")


def _try_compile(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except (re.error, TypeError, ValueError, OverflowError, RecursionError):
        return None


@functools.lru_cache(maxsize=16)
def _compile_extra(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """Compile user patterns once per distinct config; a bad one is dropped, never raised."""
    compiled = (_try_compile(pattern) for pattern in patterns)
    return tuple(pattern for pattern in compiled if pattern is not None)


def _replace_custom(match: re.Match[str]) -> str:
    text = match.group(0)
    # An empty match would scatter markers between every character.
    if not text or text.startswith(MARKER_PREFIX):
        return text
    return marker("custom")


def redact(text: str, extra_patterns: Sequence[str] = ()) -> str:
    """Return ``text`` with every recognised secret replaced by a ``[REDACTED:kind]`` marker.

    ``extra_patterns`` are regular expressions from ``redact.extra_patterns``; each whole
    match becomes ``[REDACTED:custom]``. One that does not compile is skipped.
    """
    if not text:
        return text
    # A value that overlapped a more specific secret is only caught once that secret is a
    # marker; another pass settles it, which keeps ``redact`` idempotent.
    for _ in range(_MAX_PASSES):
        redacted = _redact_builtin(text)
        if redacted == text:
            break
        text = redacted
    for pattern in _compile_extra(tuple(p for p in extra_patterns if isinstance(p, str))):
        text = pattern.sub(_replace_custom, text)
    return text
