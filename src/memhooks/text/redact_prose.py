# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Passwords told in prose: "the db pass is …", "password for the admin is …", "pw: …",
"Das Passwort lautet …", "密码是…", "admin / …", "use … as the password".

A keyword (``_STRONG``: it names a password; ``_WEAK``: it may, as "key" or "token" do), an
optional ``'s`` and a few qualifying words ("for the grafana admin"), a verb or a colon
("is", "was", "should be", "lautet", "est", "é", "是", a full-width colon), then the value.
After a strong keyword and a verb, any value that can be a secret and is no common word
counts; after a weak one, a colon, or no verb at all ("PW …"), only a value that
looks like a password (a letter, and a digit or a symbol). ``name: value`` and ``name=value``
with an English name are left to ``redact_pairs``, which knows code. Standard library only;
works on UTF-8 bytes.
"""

from __future__ import annotations

from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_engine import Rule, first_hits, lit, words
from memhooks.text.redact_values import COMMON_WORDS, can_be_secret

#: Keywords that name a password, lowercased (ASCII) or as written (other scripts).
_STRONG = tuple(
    word.encode()
    for word in (
        "password",
        "passwd",
        "passphrase",
        "passcode",
        "passwort",
        "kennwort",
        "mdp",
        "contraseña",
        "contrasena",
        "clave",
        "senha",
        "palavra-passe",
        "wachtwoord",
        "hasło",
        "haslo",
        "lösenord",
        "losenord",
        "adgangskode",
        "passord",
        "salasana",
        "heslo",
        "jelszó",
        "parola",
        "şifre",
        "sifre",
        "пароль",
        "Пароль",
        "ПАРОЛЬ",
        "パスワード",
        "密码",
        "密碼",
        "비밀번호",
        "pw",
        "pwd",
        "mot de passe",
    )
)
#: Keywords that may name a secret: the value must look like one.
_WEAK = (b"pass", b"key", b"token", b"secret", b"pin")
#: English names `redact_pairs` reads with `:` and `=` (it knows code: `password: str`).
_PAIRED = frozenset((b"password", b"passwd", b"passphrase", b"passcode", b"pass", b"pwd"))
_KEYWORDS = tuple(sorted({*_STRONG, *_WEAK}, key=len, reverse=True))
_QUALIFIER = LazyBytes(
    rb"(?:'s|\xe2\x80\x99s)?(?:[ \t]+(?:for|of|to|on|at|from|f\xc3\xbcr|pour|para|do|da|de|del|du"
    rb"|\xd0\xbe\xd1\x82|\xd0\xb4\xd0\xbb\xd1\x8f)(?:[ \t]+[^\s:=\xef]{1,30}){1,4}?(?=[ \t]*[:=]"
    rb"|[ \t]+(?:is|was|are|ist|lautet|est|es|\xc3\xa9|\xc3\xa8)[ \t]))?"
)
_SEPARATOR = LazyBytes(
    rb"[ \t]*(?P<colon>[:=]|\xef\xbc\x9a)[ \t]*"
    rb"|[ \t]+(?P<verb>is|was|are|will[ \t]+be|should[ \t]+be|becomes|is[ \t]+now|set[ \t]+to"
    rb"|changed[ \t]+to|ist|lautet|est|es|\xc3\xa9|\xc3\xa8|\xc3\xa4r|jest)"
    rb"(?![\w\x80-\xff])[ \t]*:?[ \t]*"
    rb"|[ \t]*(?P<cjk>\xe6\x98\xaf|\xe4\xb8\xba|\xe7\x82\xba|\xe3\x81\xaf)[ \t]*"
    rb"|(?P<bare>[ \t]+)"
)
_VALUE = LazyBytes(rb"[\"'`]?(?:\xe2\x80\x9c|\xc2\xab)?(?P<value>[^\s\"'`<>\\\xe2\xc2]+)")
_SYMBOLS = frozenset(b"!@#$%^&*+=~?")
_DIGITS = frozenset(b"0123456789")
_FILE = LazyBytes(rb".*\.(?:py|js|ts|md|txt|json|ya?ml|toml|sh|go|rs|html|css|[ch]|cfg|ini)")
_VERSION = LazyBytes(rb"v?\d+(?:\.\d+)+\w*")
_SENTENCE = LazyBytes(rb"[ \t]+[a-z]")
_NON_ASCII = 0x80
_LETTER_BEFORE = frozenset(b"abcdefghijklmnopqrstuvwxyz_-")


def looks_like_password(value: bytes) -> bool:
    """A letter, and a digit or a symbol; no path, file name, URL or version."""
    if len(value) < 6 or not any(byte in _LETTER_BEFORE or byte >= 0x80 for byte in value.lower()):  # noqa: PLR2004
        return False
    if not any(byte in _DIGITS or byte in _SYMBOLS for byte in value):
        return False
    placeholder = value.startswith((b"-", b"$")) or (value[:1] == value[-1:] == b"%")  # %VAR%
    if b"/" in value or b"(" in value or placeholder:
        return False
    return _FILE.compiled.fullmatch(value.lower()) is None and (
        _VERSION.compiled.fullmatch(value) is None
    )


def _value(data: bytes, position: int, *, strict: bool) -> tuple[int, int] | None:
    match = _VALUE.compiled.match(data, position)
    if match is None:
        return None
    start, end = match.span("value")
    while end > start and data[end - 1] in b".,;:!?)":
        end -= 1
    value = data[start:end]
    if end <= start or value.lower() in COMMON_WORDS or value.lower() in _KEYWORDS:
        return None
    if not can_be_secret(value) or (strict and not looks_like_password(value)):
        return None
    if value.isalpha() and value.islower() and _SENTENCE.compiled.match(data, end) is not None:
        return None  # "a password is technically needed": the sentence goes on
    return start, end


def _at(data: bytes, lowered: bytes, start: int, keyword: bytes) -> tuple[int, int] | None:
    end = start + len(keyword)
    if keyword[0] < _NON_ASCII and (
        (start and lowered[start - 1] in _LETTER_BEFORE) or lowered[end : end + 1].isalpha()
    ):
        return None
    qualifier = _QUALIFIER.compiled.match(lowered, end)
    position = end if qualifier is None else qualifier.end()
    separator = _SEPARATOR.compiled.match(lowered, position)
    if separator is None:
        return None
    weak = keyword in _WEAK
    if separator.group("colon") is not None:
        # redact_pairs reads English names with separators, and knows code (`token: str`)
        usable = keyword not in _PAIRED and keyword not in {b"key", b"token"}
    else:
        # "PW …", and "the wifi password's …" (the 's says "is")
        said = position == end or lowered[end : end + 2] == b"'s"
        usable = separator.group("bare") is None or (not weak and said)
    strict = weak or separator.group("verb") is None
    return _value(data, separator.end(), strict=strict) if usable else None


def prose_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    present = words(lowered)
    glued = not lowered.isascii()  # 密码是…: no space ends a word in Chinese
    keywords = tuple(
        keyword
        for keyword in _KEYWORDS
        if keyword in present or (glued and keyword[0] >= _NON_ASCII and keyword in lowered)
    )
    if b"mot" in present:
        keywords += (b"mot de passe",)
    for position, keyword in first_hits(lowered, keywords):
        span = _at(data, lowered, position, keyword)
        if span is not None:
            spans.append(span)
    return sorted(set(spans))


_LOGIN_WORDS = (
    b"admin",
    b"administrator",
    b"root",
    b"user",
    b"guest",
    b"postgres",
    b"ubuntu",
    b"ec2-user",
    b"deploy",
    b"demo",
    b"operator",
    b"superuser",
    b"elastic",
    b"jenkins",
    b"oracle",
    b"tomcat",
)
#: Before a login word: a letter or a path (`github.com/user/repo`) makes it something else.
_NOT_LOGIN_BEFORE = _LETTER_BEFORE | frozenset(b"/.:@")
_AFTER_LOGIN = LazyBytes(rb"(?:[ \t]*/[ \t]*[\"'`]?|:)(?P<value>[^\s/,;:\"'`<>()]{6,80})(?![/\w:])")


def login_pair_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """ "admin / …", "use admin/… to log in", "admin:…": a common login, a slash or a colon,
    a value that looks like a password (up to an `@`)."""
    spans: list[tuple[int, int]] = []
    present = words(lowered)
    for word in _LOGIN_WORDS:
        if word not in present:
            continue
        for literal in (word + b"/", word + b" /", word + b":"):
            position = lowered.find(literal)
            while position != -1:
                if not position or lowered[position - 1] not in _NOT_LOGIN_BEFORE:
                    match = _AFTER_LOGIN.compiled.match(lowered, position + len(word))
                    if match is not None:
                        value = data[match.start("value") : match.end("value")]
                        value = value.split(b"@", 1)[0].rstrip(b".,;:!?")  # user:…@host
                        if looks_like_password(value) and can_be_secret(value):
                            start = match.start("value")
                            spans.append((start, start + len(value)))
                position = lowered.find(literal, position + 1)
    return spans


_USE_AS = Rule(
    "secret",
    lit(b"use "),
    LazyBytes(
        rb"(?i)use[ \t]+[\"'`]?(?P<value>[^\s\"'`]{6,80})[\"'`]?[ \t]+as[ \t]+"
        rb"(?:the|your|a|my)?[ \t]*(?:new[ \t]+)?"
        rb"(?:password|passphrase|passwd|pw|pass|key|token|secret)"
    ),
    ("value",),
    looks_like_password,
)


def told_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """Passwords told in prose: after a keyword, beside a login, or "use … as the password"."""
    spans = [*prose_spans(data, lowered), *login_pair_spans(data, lowered)]
    present = words(lowered)
    if b"use" in present and b"as" in present:
        spans.extend(_USE_AS.spans(data, lowered))
    return spans
