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

import re

from memhooks.redact_pairs import csv_secret_spans, named_secret_spans
from memhooks.redact_values import can_be_secret, is_placeholder, looks_random

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

MARKER_PREFIX = "[REDACTED:"
_MARKER_BYTES = MARKER_PREFIX.encode()


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


#: (a pattern, or a plain literal found with bytes.find; search the lowercased copy?; bytes
#: back from the hit to where the rule's pattern starts)
_Finder = tuple["_Lazy | bytes", bool, int]


def marker(kind: str) -> str:
    return f"{MARKER_PREFIX}{kind}]"


def _always(_value: bytes) -> bool:
    return True


def _random(value: bytes) -> bool:
    return looks_random(value)


def _exact(pattern: bytes, back: int = 0) -> tuple[_Finder, ...]:
    """One finder searched in the text as written; it must open with a literal to be fast."""
    return ((_Lazy(pattern), False, back),)


def _text(literal: bytes, back: int = 0) -> tuple[_Finder, ...]:
    """A literal searched in the text as written (bytes.find: much faster than ``re``)."""
    return ((literal, False, back),)


def _lit(*stems: bytes) -> tuple[_Finder, ...]:
    """Finders for lowercase literals, searched in the lowercased text."""
    return tuple((stem, True, 0) for stem in stems)


class _Rule:
    """One kind of secret (a plain class: dataclasses cost the hooks ~10 ms of imports)."""

    __slots__ = ("finders", "groups", "is_secret", "kind", "label", "pattern")

    def __init__(
        self,
        kind: str,
        finders: tuple[_Finder, ...],
        pattern: _Lazy,
        groups: tuple[str, ...] = (),
        is_secret: Callable[[bytes], bool] = _always,
    ) -> None:
        self.kind = kind
        self.label = marker(kind).encode()
        #: where a match may start: (pattern, search the lowercased copy?, bytes back)
        self.finders = finders
        self.pattern = pattern
        #: groups holding the secret, first one that matched wins; empty: the whole match
        self.groups = groups
        self.is_secret = is_secret

    def spans(self, data: bytes, lowered: bytes) -> list[tuple[int, int]]:
        """Non-overlapping secret spans of this rule, in order."""
        spans: list[tuple[int, int]] = []
        last_end = -1
        starts = _candidates(self, data, lowered)
        if not starts:
            return spans
        for start in starts:
            if start < last_end:
                continue
            match = self.pattern.compiled.match(data, start)
            if match is None:
                continue
            span = _secret_span(self, match)
            if span is not None and span[0] >= last_end and span[1] > span[0]:
                spans.append(span)
                last_end = match.end()
        return spans


class _Scan:
    """A kind of secret found by a function of (text, lowercased text)."""

    __slots__ = ("find", "kind", "label")

    def __init__(self, kind: str, find: Callable[[bytes, bytes], list[tuple[int, int]]]) -> None:
        self.kind = kind
        self.label = marker(kind).encode()
        self.find = find

    def spans(self, data: bytes, lowered: bytes) -> list[tuple[int, int]]:
        return self.find(data, lowered)


_NOT_WORD = rb"(?<![A-Za-z0-9_])"
_NOT_TOKEN = rb"(?<![A-Za-z0-9_-])"
_END = rb"(?![A-Za-z0-9_-])"
#: A value after a flag or a keyword: quoted (escapes allowed, may be cut short) or bare.
_ARG = (
    rb"""(?:"(?P<dq>(?:[^"\\\r\n]|\\.)*)(?:"|(?=[\r\n])|$)"""
    rb"""|'(?P<sq>[^'\r\n]*)(?:'|(?=[\r\n])|$)|(?P<bare>[^\s"'`|;&<>]+))"""
)
_ARG_GROUPS = ("dq", "sq", "bare")
_STOPWORDS = frozenset(
    b"a an the not now still too very in on at to of for from with by stored saved set "
    b"required optional incorrect correct wrong invalid valid missing empty blank expired "
    b"hashed encrypted salted changed reset rotated managed kept read passed sent shown "
    b"hidden masked redacted needed used same different long short weak strong never "
    b"always only also just being no none null and or but then there here this that it "
    b"what ok fine good bad unknown known visible printed logged leaked given generated "
    b"random case-sensitive protected secure insecure".split()
)


def _prose_value(value: bytes) -> bool:
    return can_be_secret(value) and value.lower().rstrip(b".,;:!?") not in _STOPWORDS


#: Known token formats: (kind, leading literal, rest of the pattern, check)
_PREFIXED: tuple[tuple[str, bytes, bytes, Callable[[bytes], bool]], ...] = (
    (
        "gitlab-token",
        b"gl",
        rb"(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|agent|imt|ft|wt|rtr|cc)-"
        rb"[0-9A-Za-z_-]{20,}",
        _always,
    ),
    ("gitlab-token", b"GR1348941", rb"[0-9A-Za-z_-]{20,}", _always),
    ("npm-token", b"npm_", rb"[A-Za-z0-9]{30,}", _random),
    ("pypi-token", b"pypi-", rb"[A-Za-z0-9_-]{40,}", _always),
    ("huggingface-token", b"hf_", rb"[A-Za-z0-9]{30,}", _random),
    ("huggingface-token", b"api_org_", rb"[A-Za-z0-9]{30,}", _random),
    ("vault-token", b"hv", rb"[sbr]\.[A-Za-z0-9_-]{20,}", _always),
    ("sendgrid-key", b"SG.", rb"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", _always),
    ("twilio-key", b"SK", rb"[0-9a-f]{32}", _always),
    ("twilio-sid", b"AC", rb"[0-9a-f]{32}", _always),
    ("stripe-key", b"whsec_", rb"[A-Za-z0-9+/=]{20,}", _always),
    ("google-oauth", b"ya29.", rb"[0-9A-Za-z_-]{20,}", _always),
    ("google-oauth", b"GOCSPX-", rb"[0-9A-Za-z_-]{20,}", _always),
    ("google-oauth", b"1//0", rb"[0-9A-Za-z_-]{30,}", _always),
    ("docker-token", b"dckr_", rb"(?:pat|oat)_[A-Za-z0-9_-]{20,}", _always),
    ("digitalocean-token", b"do", rb"[opr]_v1_[a-f0-9]{40,}", _always),
    ("shopify-token", b"shp", rb"(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", _always),
    ("grafana-token", b"gl", rb"(?:c|sa)_[A-Za-z0-9_+/=-]{30,}", _random),
    ("linear-key", b"lin_", rb"(?:api|oauth)_[A-Za-z0-9]{30,}", _always),
    ("notion-token", b"ntn_", rb"[A-Za-z0-9]{30,}", _random),
    ("notion-token", b"secret_", rb"[A-Za-z0-9]{40,}", _random),
    ("postman-key", b"PMAK-", rb"[a-f0-9]{24}-[a-f0-9]{30,}", _always),
    ("age-secret-key", b"AGE-SECRET-KEY-1", rb"[0-9A-Z]{50,}", _always),
    ("databricks-token", b"dapi", rb"[a-f0-9]{32}(?:-\d)?", _always),
    ("supabase-token", b"sbp_", rb"[a-f0-9]{40}", _always),
    ("pulumi-token", b"pul-", rb"[a-f0-9]{40}", _always),
    ("newrelic-key", b"NRAK-", rb"[A-Z0-9]{27}", _always),
    ("sentry-token", b"sntry", rb"[su]_[A-Za-z0-9+/=_-]{30,}", _always),
    ("atlassian-token", b"ATATT", rb"[A-Za-z0-9_=-]{50,}", _always),
    ("figma-token", b"figd_", rb"[A-Za-z0-9_-]{30,}", _always),
    ("planetscale-token", b"pscale_", rb"(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{30,}", _always),
    ("rubygems-key", b"rubygems_", rb"[a-f0-9]{48}", _always),
    ("mailgun-key", b"key-", rb"[0-9a-f]{32}", _always),
    ("square-token", b"sq0", rb"(?:atp|csp|idp)-[0-9A-Za-z_-]{20,}", _always),
    ("firebase-key", b"AAAA", rb"[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}", _always),
    ("terraform-token", b".atlasv1.", rb"[A-Za-z0-9_-]{60,}", _always),
)


def _prefixed_rules() -> tuple[_Rule, ...]:
    return tuple(
        _Rule(
            kind,
            _text(literal),
            _Lazy(
                (_NOT_TOKEN if not literal.startswith(b".") else rb"(?<=[A-Za-z0-9])")
                + re.escape(literal)
                + rest
                + _END
            ),
            is_secret=check,
        )
        if not literal.startswith(b".")
        else _Rule(
            kind,
            _text(literal, back=14),
            _Lazy(rb"[A-Za-z0-9]{14}" + re.escape(literal) + rest + _END),
            is_secret=check,
        )
        for kind, literal, rest, check in _PREFIXED
    )


# Priority order: when two matches overlap, the earlier rule wins, so that
# ``API_KEY=sk-ant-…`` is labelled an Anthropic key rather than a generic secret.
_RULES: tuple[_Rule | _Scan, ...] = (
    _Rule(
        "private-key",
        _lit(b"-----begin"),
        _Lazy(
            rb"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
            rb"(?:.*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)",
            re.DOTALL,
        ),
    ),
    _Rule(
        "private-key",
        _text(b"PuTTY-User-Key-File"),
        _Lazy(rb"PuTTY-User-Key-File.*?Private-MAC:[^\r\n]*", re.DOTALL),
    ),
    _Rule(
        "jwt",
        _text(b"eyJ"),
        _Lazy(_NOT_TOKEN + rb"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?"),
    ),
    _Rule(
        "aws-access-key",
        _exact(rb"A(?:KIA|SIA|GPA|IDA|ROA|NPA|IPA|BIA|CCA|NVA|PKA)"),
        _Lazy(
            _NOT_WORD + rb"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|AIPA|ABIA|ACCA|ANVA|APKA)"
            rb"[A-Z0-9]{16}(?![A-Za-z0-9])"
        ),
    ),
    _Rule(
        # The secret beside its key id: a credentials CSV row, `aws configure` input.
        "aws-secret",
        _exact(rb"A(?:KIA|SIA)"),
        _Lazy(
            rb"A(?:KIA|SIA)[A-Z0-9]{16}[\"']?[ \t]*[,;|\t: ][ \t]*[\"']?"
            rb"(?P<value>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        ("value",),
    ),
    _Rule(
        "aws-secret",
        _lit(b"aws"),
        _Lazy(
            rb"(?i)aws_?(?:secret_?(?:access_?)?key|session_?token)[\"']?"
            rb"(?:[ \t]*\[[^\]\r\n]{0,40}\])?(?:[ \t]*[:=][ \t]*|[ \t]+)[\"']?"
            rb"(?P<value>[A-Za-z0-9/+=]{30,})"
        ),
        ("value",),
    ),
    _Rule(
        "aws-secret",
        _lit(b"configure"),
        _Lazy(
            rb"(?i)configure[ \t]+set[ \t]+(?:--profile[ \t]+\S+[ \t]+)?"
            rb"[\w.]*(?:secret|token|key|password)[\w.]*[ \t]+" + _ARG
        ),
        _ARG_GROUPS,
        can_be_secret,
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
        "webhook-url",
        _lit(b"hooks.slack.com/", b"/api/webhooks/", b"webhook.office.com/"),
        _Lazy(
            rb"(?:hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"
            rb"|/api/webhooks/\d+/[A-Za-z0-9_-]+"
            rb"|webhook\.office\.com/[A-Za-z0-9/@_.-]+)"
        ),
    ),
    _Rule(
        "slack-token",
        _exact(rb"x(?:ox[a-z]|app)[-.]"),
        _Lazy(
            _NOT_WORD + rb"(?:xox[a-z](?:\.xox[a-z])?-[A-Za-z0-9%.-]{8,}"
            rb"|xapp-\d-[A-Za-z0-9-]{10,})"
        ),
    ),
    _Rule(
        "anthropic-key",
        _text(b"sk-ant-"),
        _Lazy(_NOT_TOKEN + rb"sk-ant-[A-Za-z0-9_-]{20,}"),
    ),
    _Rule(
        "api-key",
        _text(b"sk-"),
        _Lazy(_NOT_TOKEN + rb"sk-[A-Za-z0-9_-]{20,}"),
        is_secret=looks_random,
    ),
    _Rule(
        "google-api-key",
        _text(b"AIza"),
        _Lazy(_NOT_TOKEN + rb"AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
    ),
    _Rule(
        "stripe-key",
        _exact(rb"k_(?:live|test)_", back=1),
        _Lazy(_NOT_WORD + rb"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}"),
    ),
    _Rule(
        "telegram-token",
        _text(b":AA", back=10),
        _Lazy(rb"[^\n]{0,2}?(?<![0-9])(?P<value>[0-9]{8,10}:AA[0-9A-Za-z_-]{30,})"),
        ("value",),
    ),
    _Rule(
        "vault-token",
        _lit(b"vault"),
        _Lazy(rb"(?i:vault)[^\r\n]{0,200}?(?<![\w.])(?P<value>[sbr]\.[A-Za-z0-9]{24,})"),
        ("value",),
    ),
    _Rule(
        "auth-header",
        _lit(b"authorization"),
        _Lazy(
            rb"(?i)authorization[\"']?[ \t]*[:=][ \t]*[\"']?[ \t]*"
            rb"(?:(?:bearer|basic|token|bot|apikey|api-key|sso-key|key|dpop|otp)[ \t]+"
            rb"(?P<value>[^\s\"',;]+)"
            rb"|(?P<rest>(?:digest|aws4-hmac-sha256|hmac|negotiate|ntlm|oauth|signature)"
            rb"[ \t]+[^\r\n\"']+)|(?P<other>[^\s\"',;{]+))"
        ),
        ("value", "rest", "other"),
        lambda value: not is_placeholder(value),
    ),
    _Rule(
        "cookie",
        _lit(b"cookie"),
        _Lazy(
            rb"(?i)(?<![A-Za-z0-9_])(?:set-)?cookie[\"']?[ \t]*[:=][ \t]*[\"']?"
            rb"(?P<value>[^\r\n\"']+)"
        ),
        ("value",),
        can_be_secret,
    ),
    _Rule(
        "cookie",
        _lit(b"--cookie", b" -b"),
        _Lazy(rb"(?:--cookie|[ \t]-b)(?:=|[ \t]+)" + _ARG),
        _ARG_GROUPS,
        lambda value: b"=" in value and can_be_secret(value),
    ),
    _Rule(
        "bearer-token",
        _lit(b"bearer"),
        _Lazy(rb"(?i)" + _NOT_WORD + rb"bearer\s+(?P<value>[A-Za-z0-9._~+/-]{20,}=*)"),
        ("value",),
        lambda value: not is_placeholder(value),
    ),
    _Rule(
        # user:password@host; the password may hold `@` (the last one before the host ends
        # it), never `/`, so `http://host:3000/users?email=a@b.c` is a port, not a password.
        "url-password",
        _text(b"://"),
        _Lazy(rb"://[^\s:/@\"'<>]*:(?P<value>[^\s/\"'<>]+)@(?=[^\s@/\"'<>]*(?:[/?#\s\"'<>]|$))"),
        ("value",),
        lambda value: not is_placeholder(value),
    ),
    _Rule(
        "url-password",
        _text(b"://"),
        _Lazy(rb"://(?P<value>[A-Za-z0-9_.~%+-]{20,})@"),
        ("value",),
        looks_random,
    ),
    _Rule(
        # An Azure storage or Cosmos DB key: 64 bytes in base64, alone (a key list's "value").
        "azure-key",
        _text(b"==", back=86),
        _Lazy(rb"(?<![A-Za-z0-9+/=-])[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])"),
        is_secret=looks_random,
    ),
    _Rule(
        # <password>…</password>, <add key="DbPassword" value="…"/>
        "secret",
        _lit(b"pass", b"secret", b"token", b"key", b"credential"),
        _Lazy(
            rb"(?i)(?:pass(?:word|wd)?|secret|token|apikey|api[_-]key|credentials?)[\w:.-]*>"
            rb"(?P<value>[^<\r\n]+)</"
            rb"|(?:pass(?:word|wd)?|secret|token|key|credentials?)[\w.-]*\"[ \t]+value=\""
            rb"(?P<attr>[^\"\r\n]*)\""
        ),
        ("value", "attr"),
        can_be_secret,
    ),
    _Rule(
        "cli-credential",
        _lit(b"sqlplus"),
        _Lazy(rb"(?i)sqlplus[ \t]+(?:-\w+[ \t]+)*[^\s/@]+/(?P<value>[^\s@]+)"),
        ("value",),
        can_be_secret,
    ),
    _Scan("secret", named_secret_spans),
    _Scan("secret", csv_secret_spans),
    _Rule(
        # fish `set -x NAME value`, Windows `setx NAME value`, csh `setenv NAME value`
        "secret",
        _lit(b"set"),
        _Lazy(
            rb"(?i)(?<![\w-])(?:set[ \t]+-[a-z]*[xg][a-z]*|setx|setenv)[ \t]+"
            rb"\w*(?:pass|pwd|secret|token|key|cred|auth)\w*[ \t]+" + _ARG
        ),
        _ARG_GROUPS,
        can_be_secret,
    ),
    _Rule(
        "netrc",
        _lit(b"machine", b"default"),
        _Lazy(
            rb"(?<![\w-])(?:machine[ \t]+\S+|default)"
            rb"(?:\s+(?:login|account|port)[ \t]+\S+)*\s+password[ \t]+(?P<value>\S+)"
        ),
        ("value",),
        can_be_secret,
    ),
    _Rule(
        "netrc",
        _lit(b"login"),
        _Lazy(rb"(?i)(?<![\w-])login[ \t]+\S+[ \t]+password[ \t]+(?P<value>\S+)"),
        ("value",),
        can_be_secret,
    ),
    _Rule(
        # `curl -u user:pass`, `--user user:pass`: only the user:password form, so that
        # `git push -u origin` and `docker run -u 1000:1000` (numbers) are left alone.
        "cli-credential",
        _exact(rb"-(?:u|-user|-proxy-user)[ \t=]"),
        _Lazy(
            rb"(?:(?<=\s)-u|--user|--proxy-user)[ \t=]+[\"']?[^\s:\"']+:"
            rb"(?P<value>(?:[^\s\"'\\]|\\.)+)"
        ),
        ("value",),
        can_be_secret,
    ),
    _Rule(
        # The password glued to -p: `mysql -pSECRET`, `7z x -pSECRET` (`mkdir -p` is not).
        "cli-credential",
        _lit(b"mysql", b"mariadb", b"7z", b"7za", b"sshpass"),
        _Lazy(
            rb"(?i:\b(?:mysql|mysqldump|mysqladmin|mariadb|7za?|sshpass)\b)[^\n|;&]{0,200}?\s-p"
            + _ARG
        ),
        _ARG_GROUPS,
        can_be_secret,
    ),
    _Rule(
        # -p VALUE where the command's -p is a password (it is a port or a path elsewhere).
        "cli-credential",
        _lit(
            b"login",
            b"sshpass",
            b"zip",
            b"sqlcmd",
            b"mongo",
            b"redis-cli",
            b"ldap",
            b"smbclient",
            b"htpasswd",
        ),
        _Lazy(
            rb"(?i:\b(?:login|sshpass|zip|unzip|sqlcmd|mongo|mongosh|mongodump|mongorestore"
            rb"|redis-cli|ldapsearch|ldapadd|ldapmodify|ldapdelete|ldapwhoami|smbclient)\b)"
            rb"[^\n|;&]{0,200}?[ \t](?:-p|-P|-a|-w|--pass|--password)(?:[ \t]+|=)(?!-)" + _ARG
        ),
        _ARG_GROUPS,
        can_be_secret,
    ),
    _Rule(
        "cli-credential",
        _lit(b" -u"),
        _Lazy(rb"[ \t]-U[ \t]+[\"']?[^\s%\"']+%(?P<value>[^\s\"']+)"),
        ("value",),
        can_be_secret,
    ),
    _Rule(
        # openssl/keytool style: `-passin pass:X`, `-storepass X`, `-keypass X`.
        "cli-credential",
        _lit(
            b" -pass",
            b" -storepass",
            b" -keypass",
            b" -srcstorepass",
            b" -deststorepass",
            b" -password",
            b" -secret",
            b" -token",
        ),
        _Lazy(rb"(?i)[ \t]-[a-z]*(?:pass|password|secret|token)[a-z]*[ \t]+(?!-)" + _ARG),
        _ARG_GROUPS,
        can_be_secret,
    ),
    _Rule(
        "cli-credential",
        _lit(b"--from-literal", b"--body"),
        _Lazy(rb"(?:--from-literal[ \t=]+[\"']?[\w.-]+=|(?<=\s)--body[ \t=]+)" + _ARG),
        _ARG_GROUPS,
        can_be_secret,
    ),
    _Rule(
        # `echo 'hunter2' | docker login --password-stdin`, `… | sudo -S`, `… | chpasswd`
        "cli-credential",
        _lit(b"echo", b"printf"),
        _Lazy(
            rb"(?<![\w-])(?:echo|printf)[ \t]+(?:-[a-z]+[ \t]+)*"
            + _ARG
            + rb"[ \t]*\|[^\n]*?(?:--password-stdin|sudo[ \t]+-S|chpasswd|passwd[ \t]+--stdin"
            rb"|--password[ \t=]*-|\bsecret\b)"
        ),
        _ARG_GROUPS,
        can_be_secret,
    ),
    _Rule(
        "secret",
        _lit(b"password", b"passphrase", b"passwd", b"passcode"),
        _Lazy(
            rb"(?i)pass(?:word|phrase|wd|code)s?[ \t]+(?:is|was|will[ \t]+be|becomes"
            rb"|set[ \t]+to|changed[ \t]+to|of)[ \t]*:?[ \t]*[\"'`]?(?P<value>[^\s\"'`]+)"
        ),
        ("value",),
        _prose_value,
    ),
    *_prefixed_rules(),
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
    starts: list[int] = []
    for finder, on_lowered, back in rule.finders:
        haystack = lowered if on_lowered else data
        if isinstance(finder, bytes):
            position = haystack.find(finder)
            while position != -1:
                starts.append(position - back)
                position = haystack.find(finder, position + 1)
        else:
            starts.extend(hit.start() - back for hit in finder.compiled.finditer(haystack))
    if len(rule.finders) > 1 or any(back for _, _, back in rule.finders):
        return sorted({start for start in starts if start >= 0})
    return starts


def _unclaimed(claimed: bytearray, data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of [start, end) no earlier rule took, each holding a letter or digit."""
    pieces: list[tuple[int, int]] = []
    position = start
    while position < end:
        taken = claimed.find(1, position, end)
        stop = end if taken == -1 else taken
        if stop > position and any(byte in _ALNUM for byte in data[position:stop]):
            pieces.append((position, stop))
        if taken == -1:
            break
        free = claimed.find(0, taken, end)
        position = end if free == -1 else free
    return pieces


_ALNUM = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def _redact_builtin(text: str) -> str:
    data = text.encode("utf-8", "surrogatepass")
    lowered = data.lower()
    claimed = bytearray(len(data))
    # Markers from an earlier run are taken already: nothing inside one is redacted again.
    position = data.find(_MARKER_BYTES)
    while position != -1:
        end = data.find(b"]", position)
        end = len(data) if end == -1 else end + 1
        claimed[position:end] = b"\x01" * (end - position)
        position = data.find(_MARKER_BYTES, end)
    replacements: list[tuple[int, int, bytes]] = []
    for rule in _RULES:
        kind = rule.label
        for start, end in rule.spans(data, lowered):
            # An earlier, more specific rule may have taken part of this span already:
            # its label stays, and only the rest gets this rule's marker.
            for piece_start, piece_end in _unclaimed(claimed, data, start, end):
                claimed[piece_start:piece_end] = b"\x01" * (piece_end - piece_start)
                replacements.append((piece_start, piece_end, kind))
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


def _replace_custom(match: re.Match[str]) -> str:
    text = match.group(0)
    # An empty match would scatter markers between every character.
    if not text or text.startswith(MARKER_PREFIX):
        return text
    return marker("custom")


def redact(text: str, extra_patterns: Sequence[str] = ()) -> str:
    """Return ``text`` with every recognised secret replaced by a ``[REDACTED:kind]`` marker.

    ``extra_patterns`` are regular expressions from ``redact.extra_patterns``; each whole
    match becomes ``[REDACTED:custom]``. One that does not compile or could backtrack
    without end is skipped; see ``redact_custom`` for the bounds (it raises
    ``CustomPatternTimeoutError`` rather than let a pattern run past its deadline).
    """
    if not text:
        return text
    text = _redact_builtin(text)
    if extra_patterns:
        from memhooks.redact_custom import apply_custom

        text = apply_custom(text, extra_patterns, _replace_custom)
    return text


#: How much of a longer text ``redact_prefix`` reads: enough for any secret that can
#: straddle the cut, bounded so a pasted megabyte costs a hook little.
PREFIX_WINDOW = 262_144


def cut_at_line(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters without a partial last line.

    A secret cut in half no longer matches its rule (a quoted value loses its closing
    quote, a token its length), so whatever is cut before redaction drops the line the
    cut fell in (or the last partial word, when the text has no line break).
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    position = head.rfind("\n")
    if position > 0:
        return head[: position + 1]
    position = max(head.rfind(" "), head.rfind("\t"))
    return head[:position] if position > 0 else ""


def redact_prefix(text: str, limit: int, extra_patterns: Sequence[str] = ()) -> str:
    """The first ``limit`` characters of the redacted ``text``.

    Redaction sees the whole text (up to ``PREFIX_WINDOW``) before the cut, so a secret
    that straddles ``limit`` is replaced whole instead of leaving its head behind.
    """
    return redact(cut_at_line(text, PREFIX_WINDOW), extra_patterns)[:limit]


def redact_value(value: object, extra_patterns: Sequence[str] = ()) -> object:
    """``value`` with every string in it redacted (lists and dicts of frontmatter too)."""
    if isinstance(value, str):
        return redact(value, extra_patterns)
    if isinstance(value, list):
        return [redact_value(item, extra_patterns) for item in value]
    if isinstance(value, dict):
        return {key: redact_value(item, extra_patterns) for key, item in value.items()}
    return value
