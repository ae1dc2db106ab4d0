# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Passwords given to commands: a table of tools and where each takes a password.

``command_spans`` finds a tool's name at the start of a word, reads its command line as a
shell would split it into words (quotes, ``\\`` line continuations; ``|``, ``;``, ``&``, a
redirection or the end of the line ends it) and marks the words its table entry names:

- ``Opt(flag)``: the word after ``flag``, or after ``flag=``; ``glued``: also ``-pVALUE``;
  ``split``: only what follows that character (``lftp -u user,PW``, ``smbclient -U user%PW``);
  ``when``: only if the line holds that word (``aws ssm put-parameter --value``);
- ``Pos(word, n)``: the n-th positional word after ``word`` (``rabbitmqctl add_user NAME PW``;
  ``word`` empty: after the tool's name, ``wpa_passphrase SSID PW``);
- ``After(word)``: the word after a keyword (``nmcli … password PW``), the last one for
  ``last`` (``AUTH [user] PW``);
- ``Prefix(text)``: the rest of a word that starts with ``text`` (``xfreerdp /p:PW``);
- ``Share()``: ``net use \\\\host\\share PW``; ``Stdin()``: ``vncpasswd -f <<< PW``;
- ``UserAt()``: ``DOMAIN/user:PW@host`` (impacket).

A value ``pass:PW`` (openssl) loses its ``pass:``; ``env:``/``file:`` values, ``*``, ``-`` and
placeholders are no secret. Standard library only; works on UTF-8 bytes.
"""

from __future__ import annotations

from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_engine import first_hits, words
from memhooks.text.redact_values import can_be_secret


class Opt:
    __slots__ = ("flag", "glued", "spaced", "split", "when")

    def __init__(
        self, flag: bytes, *, glued: bool = False, split: bytes = b"", when: bytes = b""
    ) -> None:
        self.flag, self.glued, self.split, self.when = flag, glued, split, when
        #: `mysql -p db` prompts for the password: a glued flag alone takes no value
        self.spaced = not glued


class Pos:
    __slots__ = ("index", "word")

    def __init__(self, word: bytes, index: int) -> None:
        self.word, self.index = word, index


class After:
    __slots__ = ("last", "word")

    def __init__(self, word: bytes, *, last: bool = False) -> None:
        self.word, self.last = word, last


class Prefix:
    __slots__ = ("text",)

    def __init__(self, text: bytes) -> None:
        self.text = text


class Share:
    __slots__ = ()


class Stdin:
    __slots__ = ()


class UserAt:
    __slots__ = ()


Spec = Opt | Pos | After | Prefix | Share | Stdin | UserAt
#: A command line read: its words' spans (and whether `<<<` fed each), texts, lowercased texts.
_Line = tuple[list[tuple[int, int, bool]], list[bytes], list[bytes]]

_P = (Opt(b"-p"),)
_FREERDP = (Prefix(b"/p:"), Prefix(b"/password:"))

#: Tools (names lowercased, without `.exe`/`.py`) and where each takes a password.
_TABLE: tuple[tuple[str, tuple[Spec, ...]], ...] = (
    ("lftp open", (Opt(b"-u", split=b","),)),  # `open`: lftp's own command (`lftp -c '…'`)
    (
        "rabbitmqctl",
        tuple(Pos(w, 2) for w in (b"add_user", b"change_password", b"authenticate_user")),
    ),
    ("openssl", tuple(Opt(f) for f in (b"-k", b"-pass", b"-passin", b"-passout", b"-password"))),
    ("ssh-keygen", (Opt(b"-N"), Opt(b"-P"))),
    ("psexec", (*_P, UserAt())),
    (
        "psexec64 paexec rdesktop crackmapexec netexec nxc evil-winrm smbmap hydra ncftp ncftpput "
        "ncftpget ncftpls",
        _P,
    ),
    ("net", (Share(), Pos(b"user", 2))),
    ("mosquitto_pub mosquitto_sub mosquitto_rr", (Opt(b"-P"), Opt(b"--pw"))),
    ("aws", (Opt(b"--value", when=b"put-parameter"),)),
    ("sshpass", (Opt(b"-p"), Opt(b"-p", glued=True))),
    (
        "mysql mysqldump mysqladmin mysqlimport mysqlsh mariadb mariadb-dump",
        (Opt(b"-p", glued=True), Opt(b"--password")),
    ),
    ("curl", tuple(Opt(f, split=b":") for f in (b"-u", b"--user", b"--proxy-user"))),
    ("htpasswd", (Pos(b"-b", 0),)),
    ("smbclient", (Opt(b"-U", split=b"%"), Opt(b"--user", split=b"%"), Opt(b"--password"))),
    (
        "docker podman nerdctl helm buildah skopeo oras",
        (Opt(b"-p", when=b"login"), Opt(b"--password", when=b"login")),
    ),
    ("login", tuple(Opt(f) for f in (b"-p", b"-P", b"--password", b"--pass"))),
    ("ipmitool unzip sqlcmd bcp osql", (Opt(b"-P"),)),
    ("xfreerdp xfreerdp3 wlfreerdp", _FREERDP),
    (
        "nmcli",
        tuple(After(w) for w in (b"password", b"wifi-sec.psk", b"802-11-wireless-security.psk")),
    ),
    ("wpa_passphrase", (Pos(b"", 2),)),
    ("wpa_cli", (After(b"psk"), After(b"password"))),
    (
        "snmpwalk snmpget snmpset snmpbulkwalk snmpgetnext snmptrap snmptable",
        (Opt(b"-A"), Opt(b"-X"), Opt(b"-c")),  # the community string too
    ),
    ("zip", (Opt(b"-P"), Opt(b"--password"))),
    ("7z 7za rar unrar", (Opt(b"-p", glued=True),)),
    ("redis-cli", (Opt(b"-a"), Opt(b"--pass"), After(b"auth", last=True))),
    ("auth", (After(b"auth", last=True),)),
    (
        "ldapsearch ldapadd ldapmodify ldapdelete ldapwhoami ldappasswd",
        (Opt(b"-w"), Opt(b"-s", when=b"ldappasswd")),
    ),
    (
        "mongo mongosh mongodump mongorestore mongoexport mongoimport",
        (Opt(b"-p"), Opt(b"--password")),
    ),
    ("vncpasswd chpasswd", (Stdin(),)),
    ("impacket", (UserAt(),)),
    ("http https", (Opt(b"-a", split=b":"), Opt(b"--auth", split=b":"))),  # HTTPie
    ("racadm rabbitmqadmin", (Opt(b"-p"), Opt(b"--password"))),
    ("mosquitto_passwd", (Pos(b"-b", 0),)),
    ("schtasks", (After(b"/rp"),)),
    ("cmdkey", (Prefix(b"/pass:"),)),
    ("wmic", (Prefix(b"/password:"),)),
)
TOOLS: dict[bytes, tuple[Spec, ...]] = {
    name.encode(): specs for names, specs in _TABLE for name in names.split()
}
#: Each tool's name as a word may be written (`psexec64.exe`, `psexec.py`), and the tool.
_SPELLINGS = {name + suffix: name for name in TOOLS for suffix in (b"", b".exe", b".py", b".sh")}
_WORD_BEFORE = frozenset(b" \t\n\r\"'`(;|&/\\>$")
_NAME = LazyBytes(rb"[a-z0-9_.+-]+")
#: One shell word: quoted parts and plain characters, glued (each alternative starts
#: differently, so matching is linear).
_WORD = LazyBytes(rb"""(?:"(?:[^"\\\r\n]|\\.)*"?|'[^'\r\n]*'?|[^\s"'|;&<>(){}`])+""")
_GAP = LazyBytes(rb"(?:[ \t]|\\\r?\n)*")
_HERE_STRING = b"<<<"
_QUOTES = b"\"'"
_NOT_SECRET = frozenset((b"*", b"-", b"''", b'""', b"public", b"private"))  # SNMP's defaults
_INDIRECT = (b"env:", b"file:", b"fd:", b"stdin")
#: impacket's target: [domain/]user:<password>@host
_USER_AT = LazyBytes(rb"(?:[\w.-]+/)?[\w.$-]+:(?P<value>[^\s@]+)@[\w.-]+$")


def _unquoted(data: bytes, start: int, end: int) -> tuple[int, int]:
    """The span inside one pair of quotes around a value (or after an unclosed one)."""
    if end > start and data[start] in _QUOTES:
        quote = data[start]
        if end - start >= 2 and data[end - 1] == quote:  # noqa: PLR2004
            return start + 1, end - 1
        if data.find(bytes((quote,)), start + 1, end) == -1:
            return start + 1, end
    return start, end


#: How much of a command line is read after a tool's name: a password is given among its
#: first words, and a line that names a tool many times is then read in linear time.
_MAX_WORDS = 24
_MAX_LINE = 1_000


def _words(data: bytes, position: int) -> list[tuple[int, int, bool]]:
    """The words of the command line at ``position``: (start, end, after ``<<<``)."""
    words: list[tuple[int, int, bool]] = []
    here = False
    word, gap = _WORD.compiled, _GAP.compiled
    end = min(len(data), position + _MAX_LINE)
    while len(words) < _MAX_WORDS:
        position = gap.match(data, position, end).end()  # type: ignore[union-attr]  # matches ""
        if data.startswith(_HERE_STRING, position):
            here = True
            position += len(_HERE_STRING)
            continue
        found = word.match(data, position, end)
        if found is None:
            break
        words.append((found.start(), found.end(), here))
        here = False
        position = found.end()
    return words


def _value(data: bytes, start: int, end: int) -> tuple[int, int] | None:
    start, end = _unquoted(data, start, end)
    value = data[start:end]
    lowered = value.lower()
    if lowered.startswith(b"pass:"):
        return _value(data, start + 5, end)
    if lowered.startswith(_INDIRECT) or value in _NOT_SECRET or not can_be_secret(value):
        return None
    return start, end


def _is_option(data: bytes, start: int, end: int) -> bool:
    """`-x`, `--x`, and Windows' `/user:x` (a path such as `/etc/x` has more than one `/`)."""
    first = data[start : start + 1]
    return first == b"-" or (first == b"/" and data.find(b"/", start + 1, end) == -1)


def _positional(data: bytes, words: list[tuple[int, int, bool]], after: int) -> list[int]:
    return [i for i in range(after + 1, len(words)) if not _is_option(data, *words[i][:2])]


def _find(spec: Spec, data: bytes, line: _Line) -> list[int]:  # noqa: C901, PLR0911, PLR0912 - one branch per kind of spec
    """Indexes of the words ``spec`` says hold a password (negative: the word is `flag=…`
    or glued, its value after the flag; see ``_glued``)."""
    words, texts, lowered = line
    if isinstance(spec, Opt):
        if spec.when and spec.when not in lowered:
            return []
        found = []
        for i, text in enumerate(texts):
            if text == spec.flag and spec.spaced and i + 1 < len(words):
                found.append(i + 1)
            elif text.startswith(spec.flag + b"=") or (
                spec.glued and text.startswith(spec.flag) and len(text) > len(spec.flag)
            ):
                found.append(-1 - i)
        return found
    if isinstance(spec, Pos):
        for i, text in enumerate(lowered):
            anchor = (
                i == 0
                if not spec.word
                else text == spec.word
                or (spec.word == b"-b" and text.startswith(b"-") and b"b" in text)
            )
            if anchor:
                positional = _positional(data, words, i)
                if spec.word == b"-b":  # the third word after -b, the second with -n (htpasswd)
                    index = 2 if b"n" in text else 3
                    return positional[index - 1 : index]
                return positional[spec.index - 1 : spec.index]
        return []
    if isinstance(spec, After):
        hits = [i + 1 for i, text in enumerate(lowered) if text == spec.word and i + 1 < len(words)]
        if spec.last and hits:
            return [len(words) - 1]
        return hits
    if isinstance(spec, Prefix):
        return [-1 - i for i, text in enumerate(lowered) if text.startswith(spec.text)]
    if isinstance(spec, Share):
        if b"use" not in lowered:
            return []
        positional = _positional(data, words, lowered.index(b"use"))
        shares = [n for n, i in enumerate(positional) if texts[i].startswith(b"\\\\")]
        return positional[shares[0] + 1 : shares[0] + 2] if shares else []
    if isinstance(spec, Stdin):
        return [i for i, (_, _, here) in enumerate(words) if here]
    return [
        i
        for i, (start, end, _) in enumerate(words)
        if i and _USER_AT.compiled.match(data, *_unquoted(data, start, end))
    ]


def _glued(spec: Spec, text: bytes) -> int:
    """Where the value starts in a word that holds its flag too."""
    if isinstance(spec, Opt):
        flag = spec.flag
        return len(flag) + 1 if text.startswith(flag + b"=") else len(flag)
    if isinstance(spec, Prefix):
        return len(spec.text)
    return 0


def _spans(spec: Spec, data: bytes, line: _Line) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    words = line[0]
    for index in _find(spec, data, line):
        start, end, _ = words[index if index >= 0 else -1 - index]
        if index < 0:
            start += _glued(spec, data[start:end])
        if isinstance(spec, UserAt):
            match = _USER_AT.compiled.match(data, *_unquoted(data, start, end))
            if match is None:
                continue
            start, end = match.span("value")
        elif isinstance(spec, Opt) and spec.split:
            start, end = _unquoted(data, start, end)
            cut = data.find(spec.split, start, end)
            if cut == -1:
                continue
            start = cut + 1
        span = _value(data, start, end)
        if span is not None:
            spans.append(span)
    return spans


def _tool(lowered: bytes, start: int) -> tuple[bytes, int] | None:
    """The tool named at ``start`` and where its name ends, when it starts a word."""
    if start and lowered[start - 1] not in _WORD_BEFORE:
        return None
    name = _NAME.compiled.match(lowered, start)
    if name is None:
        return None
    word = name.group()
    for suffix in (b".exe", b".py", b".sh"):
        word = word.removesuffix(suffix)
    if word.startswith(b"impacket-"):
        word = b"impacket"
    return (word, name.end()) if word in TOOLS else None


def _redis_auth(data: bytes, position: int) -> bool:
    """Redis' `AUTH [user] password`: upper case, at the start of its line or after a prompt
    (`127.0.0.1:6379> AUTH …`), one or two words after it."""
    line_start = data.rfind(b"\n", 0, position) + 1
    before = data[line_start:position].strip()
    if data[position : position + 4] != b"AUTH" or (before and not before.endswith(b">")):
        return False
    line_end = data.find(b"\n", position)
    rest = data[position + 4 : len(data) if line_end == -1 else line_end].split()
    return 1 <= len(rest) <= 2  # noqa: PLR2004


def command_spans(data: bytes, lowered: bytes) -> list[tuple[int, int]]:
    """Passwords in the command lines of the tools ``TOOLS`` lists."""
    spans: list[tuple[int, int]] = []
    # A tool that takes a password is followed by a space: found with it, `configure` is not.
    present = set(words(lowered) & _SPELLINGS.keys())
    if b"auth" in present and b"AUTH " not in data:
        present.discard(b"auth")  # Redis' command is written in upper case
    if not present and b"impacket-" not in lowered:
        return spans
    literals = tuple(b"open -u" if name == b"open" else name + b" " for name in sorted(present))
    read: list[tuple[int, int, bool]] = []
    starts: dict[int, int] = {}
    for position, _ in sorted(first_hits(lowered, (*literals, b"impacket-"))):
        tool = _tool(lowered, position)
        if tool is None or (tool[0] == b"auth" and not _redis_auth(data, position)):
            continue
        # A tool named inside the line just read (`docker exec db mysql -p…`) reuses its words.
        index = starts.get(position)
        if index is None or (len(read) > _MAX_WORDS and len(read) - index < _MAX_WORDS // 2):
            read = [(position, tool[1], False), *_words(data, tool[1])]
            starts = {start: i for i, (start, _, _) in enumerate(read)}
            index = 0
        texts = [data[start:end] for start, end, _ in read[index:]]
        line = (read[index:], texts, [text.lower() for text in texts])
        for spec in TOOLS[tool[0]]:
            spans.extend(_spans(spec, data, line))
    return sorted(set(spans))
