# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Secrets known by their shape, in formats no rule lists: generated tokens, labelled hex
keys, base64 that decodes to a secret. Standard library only (binascii on first use).

A list of formats is always one format short (issue 24), so this looks at what every
generated credential shares: a long run of characters drawn at random. ``random_token_spans``
scans each run of token characters (letters, digits, ``+/_~$-``) of 20 or more and keeps it
when:

- it is labelled hex: 32 or more hex digits glued by ``-``, ``_`` or ``$`` to a label that
  holds a letter and is not a hash's name (``xkeysib-<hex>``, ``<hex>-us12``, Braintree's
  ``$production$<hex>``; ``sha256-<hex>`` and a bare commit hash are not), glued by a dot
  to a random label (Airtable's ``pat<id>.<hex>``), or longer than any digest;
- it is base64 that decodes to text holding a secret (a PEM key, an ``AKIA…`` id, a
  ``user:password`` pair, a random token): decoding decides for base64 that decodes to text,
  so base64 of plain words stays;
- or its characters look drawn at random: upper and lower case letters and digits, switching
  class at least every third character or so (a generated token switches at about 0.6 of its
  characters, an identifier such as ``AbstractFactoryBean2`` at its word boundaries only);
  without mixed case, 24 characters or more switching as often; or licence-key groups
  (four or more groups of four or more characters, mixing digits and letters beyond hex).

A path keeps its words: a run with ``/`` is judged segment by segment first. Each distinct
run is judged once, and at most ``_MAX_DECODES`` base64 texts a call are checked with every
rule, so the scan stays linear on any input.

Hex alone (commit hashes, checksums), UUIDs, paths, integrity hashes (``sha512-…``, Go's
``h1:…``), ``data:`` URIs and the host's own message and tool ids are kept.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.text.lazy_re import LazyBytes

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The label of what this scan finds.
KIND = "random-token"
_MIN_LENGTH = 20
_TOKEN_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_~$-"
#: Token characters become `a`, the rest a space: runs are then found with bytes.find
#: (2-3 times faster than a regular expression's character class).
_OTHER_BYTES = bytes(range(256)).translate(None, _TOKEN_BYTES)
_RUN_TABLE = bytes.maketrans(
    _OTHER_BYTES + _TOKEN_BYTES, b" " * len(_OTHER_BYTES) + b"a" * len(_TOKEN_BYTES)
)
_RUN = b"a" * _MIN_LENGTH
#: Without mixed case, a token needs more characters to tell it from a name.
_MIN_ONE_CASE = 24
_NINE = 57
_UPPER_Z = 90
#: The share of characters where a token changes class (upper, lower, digit): random
#: characters switch at 0.62 over letters of both cases and digits, 0.40 over one case and
#: digits; CamelCase words switch at about 2 in 6 (``AbstractFactoryBean2``: 0.32).
_MIN_SWITCH_MIXED = 0.4
_MIN_SWITCH_ONE_CASE = 0.25
#: The mean length of lowercase runs from which a token reads as words, under and over
#: ``_LONG`` characters.
_WORDS_SHORT = 2.5
_WORDS_LONG = 3.0
_LONG = 32
#: The longest part between separators a generated token has (like ``looks_random``).
_MIN_PIECE = 16
#: A licence key's groups: four or more of four or more characters.
_MIN_GROUP = 4
_MIN_GROUPS = 4
#: Four lowercase letters in a row read as a word, not as a key's random group.
_LOWER_WORD = LazyBytes(rb"[a-z]{4}")
_SEPARATORS = LazyBytes(rb"[-_~$+/]")
_CLASS_RUNS = LazyBytes(rb"[A-Z]+|[a-z]+|[0-9]+")
_HEX_RUN = LazyBytes(rb"(?:^|(?<=[-_$]))(?:[0-9a-f]{32,}|[0-9A-F]{32,})(?=[-_$]|$)")
_HEX = b"0123456789abcdefABCDEF-_"
_LABEL_SEPARATORS = LazyBytes(rb"[-_$]")
#: A random label before a dot and hex: 8 or more letters and digits, at most 64.
_LABEL = LazyBytes(rb"(?<![A-Za-z0-9])[A-Za-z0-9_]{8,64}$")
_MAX_LABEL = 64
_MIN_HEX = 32
_DIGITS = b"0123456789"
_PATH_WORD = LazyBytes(rb"[A-Za-z]?[a-z]{2,}(?:[._-][a-z0-9]+)*")
_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
#: Hex digits in a SHA-512, the longest digest in use.
_LONGEST_DIGEST = 128
#: Labels that say the hex is a digest, not a key.
_HASH_LABELS = frozenset(
    b"sha sha1 sha224 sha256 sha384 sha512 md5 blake2b blake2s blake3 xxh64 xxh3 crc32 "
    b"hash digest checksum sum commit rev oid etag id uuid guid git build object blob tree "
    b"trace span".split()
)
#: What before a token says it is public: integrity hashes, Go sums, data URIs.
_PUBLIC_BEFORE = LazyBytes(rb"(?:h1:|base64,|(?:sha\d*|md5|blake2[bs]|blake3)[-:=])$")
_PUBLIC_HEAD = LazyBytes(rb"(?:sha\d*|md5|blake2[bs]|blake3)-")
#: Ids the host writes into every transcript (messages, tool calls, requests).
_HOST_IDS = (b"msg_", b"toolu_", b"srvtoolu_", b"req_", b"chatcmpl-", b"call_", b"file_")
_MIN_BASE64 = 16
_BASE64 = LazyBytes(rb"[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}={0,2}")
_PAIR = LazyBytes(rb"[^\s:]{1,64}:[^\s:]{4,128}")
_PRINTABLE = bytes(range(32, 127)) + b"\t\r\n"
#: Base64 that decodes to text is checked with every rule (about 40 us a token, idle): at
#: most this many in one text, so that a megabyte of short base64 texts stays linear (past
#: it, such a token is judged by its shape alone).
_MAX_DECODES = 64


def _class_of(run: bytes) -> int:
    """0 for digits, 1 for upper case, 2 for lower case (the run's first byte)."""
    first = run[0]
    return 0 if first <= _NINE else 1 if first <= _UPPER_Z else 2


def _switches_often(token: bytes) -> bool:
    """True when the token changes character class as often as random characters do."""
    runs = _CLASS_RUNS.compiled.findall(token)
    letters_digits = sum(len(run) for run in runs)
    classes = {_class_of(run) for run in runs}
    if letters_digits < _MIN_LENGTH or 0 not in classes:
        return False
    pieces = _SEPARATORS.compiled.split(token)
    longest = max(pieces, key=len)
    if len(longest) < _MIN_PIECE:
        # manylinux_2_17_x86_64 has short parts between separators, and so has a licence
        # key (`A3-4P371M-ZBHUMV2X303-EZF80-…`), whose groups mix letters and digits each.
        return _key_groups(pieces)
    switches = (len(runs) - 1) / (letters_digits - 1)
    if {1, 2} <= classes:
        return switches >= _MIN_SWITCH_MIXED and not _reads_as_words(runs, letters_digits)
    # One case and digits: longer, and not hex with a tag (`0x9e37…`, git's `-ge13c…`).
    hex_like = len(longest.lower().translate(None, _HEX)) * 10 < len(longest)
    return letters_digits >= _MIN_ONE_CASE and not hex_like and switches >= _MIN_SWITCH_ONE_CASE


def _key_groups(pieces: list[bytes]) -> bool:
    groups = [piece for piece in pieces if len(piece) >= _MIN_GROUP]
    # A group mixes digits with letters beyond hex: a labelled UUID (`kernel-<uuid>`) is an id;
    # a group with a lowercase word in it (`muinar02_act1`, a file's name) is a name.
    mixed = [
        group
        for group in groups
        if group.translate(None, _HEX)
        and len(group.translate(None, _DIGITS)) < len(group)
        and _LOWER_WORD.compiled.search(group) is None
    ]
    return len(groups) >= _MIN_GROUPS and len(mixed) * 4 >= len(groups) * 3


def _reads_as_words(runs: list[bytes], letters_digits: int) -> bool:
    """CamelCase words (`BlasILP64NotFoundError`) have long lowercase runs: 3.3 here, where
    random characters average 1.7 (the 99th percentile: 3.4 at 24 characters, 3.0 at 32)."""
    lower = [len(run) for run in runs if _class_of(run) == 2]  # noqa: PLR2004 - lower case
    limit = _WORDS_SHORT if letters_digits < _LONG else _WORDS_LONG
    return bool(lower) and sum(lower) / len(lower) >= limit


def _labelled_hex(token: bytes) -> bool:
    match = _HEX_RUN.compiled.search(token)
    if match is None:
        return False
    if match.end() - match.start() > _LONGEST_DIGEST:
        return True  # no digest is this long
    rest = token[: match.start()] + b"-" + token[match.end() :]
    labels = [
        part
        for part in _LABEL_SEPARATORS.compiled.split(rest)
        if part and any(byte in _LETTERS for byte in part) and part.translate(None, _HEX)
    ]
    return bool(labels) and not any(part.lower() in _HASH_LABELS for part in labels)


def _decoded(token: bytes) -> bytes | None:
    """The bytes ``token`` stands for as base64, or None when it is not base64."""
    body = token.rstrip(b"=")
    if len(token) % 4 or len(body) < _MIN_BASE64 or _BASE64.compiled.fullmatch(token) is None:
        return None
    import binascii  # a C module, loaded only for text that holds base64

    if b"-" in body or b"_" in body:
        token = token.replace(b"-", b"+").replace(b"_", b"/")
    try:
        return binascii.a2b_base64(token)
    except binascii.Error:
        return None


def _all_classes(text: bytes) -> bool:
    """Whether ``text`` holds digits, upper and lower case letters."""
    return len({_class_of(run) for run in _CLASS_RUNS.compiled.findall(text)}) == 3  # noqa: PLR2004


def _one_mixed_token(text: bytes) -> bool:
    """One word of 16 or more characters with upper and lower case letters and digits: why
    else wrap it in base64 (the AWS example secret reads partly as words)."""
    return len(text) >= _MIN_BASE64 and len(text.split()) == 1 and _all_classes(text)


def _text_holds_secret(text: bytes) -> bool:
    """Whether any rule finds a secret in ``text`` (decoded base64)."""
    text = text.strip()
    if _PAIR.compiled.fullmatch(text) is not None or _one_mixed_token(text):
        return True
    from memhooks.text.redact_rules import RULES  # the rules include this scan

    lowered = text.lower()
    # This scan once more without decoding: no base64 in base64 in base64 …
    return bool(_token_spans(text, [0])) or any(
        rule.spans(text, lowered) for rule in RULES if rule.kind != KIND
    )


def _is_random_token(token: bytes, decodes: list[int]) -> bool:
    """Whether ``token`` (a run of token characters) is a generated secret by its shape.
    ``decodes``: how many more base64 texts this scan may check (one is spent here)."""
    if token.startswith(_HOST_IDS) or token.startswith(b"xn--"):  # ids, punycode
        return False
    if _labelled_hex(token):
        return True
    if not token.translate(None, _HEX):
        return False
    if decodes[0] > 0:
        decoded = _decoded(token)
        if decoded is not None and not decoded.translate(None, _PRINTABLE):
            decodes[0] -= 1
            return _text_holds_secret(decoded)
    return _switches_often(token)


def _pieces(token: bytes, decodes: list[int]) -> list[tuple[int, int]]:
    """The secret parts of a run of token characters, as offsets in it: a run with ``/`` may
    be a URL's path with a token in one segment, or base64 (which holds ``/`` too)."""
    if b"/" not in token:
        return [(0, len(token))] if _is_random_token(token, decodes) else []
    found: list[tuple[int, int]] = []
    offset = 0
    for segment in token.split(b"/"):
        if len(segment) >= _MIN_LENGTH and _is_random_token(segment, decodes):
            found.append((offset, offset + len(segment)))
        offset += len(segment) + 1
    if found:
        return found
    # No segment is a token: base64 (which holds `/`), unless a segment is a word of a path.
    if any(_PATH_WORD.compiled.fullmatch(segment) for segment in token.split(b"/")):
        return []
    whole = _is_random_token(token.strip(b"/"), decodes)
    return [(0, len(token))] if whole else []


def _runs(data: bytes) -> Iterator[tuple[int, int]]:
    """Each run of 20 or more token characters, with its base64 padding."""
    runs = data.translate(_RUN_TABLE)
    start = runs.find(_RUN)
    while start != -1:
        end = runs.find(b" ", start)
        end = len(data) if end == -1 else end
        padding = data[end : end + 2]
        end += len(padding) - len(padding.lstrip(b"="))
        yield start, end
        start = runs.find(_RUN, end)


#: How base64 of a binary file starts: PNG, JPEG, GIF, WebP/RIFF, PDF, ZIP, gzip, ICO, MP4/HEIC.
_FILE_MAGICS = (b"iVBORw0KGgo", b"/9j/", b"R0lGOD", b"UklGR", b"JVBERi0", b"UEsDB", b"H4sI")
_FILE_MAGICS_AT_4 = (b"AAABAA", b"AAAAGGZ0eXA", b"AAAAIGZ0eXA", b"AAAAHGZ0eXA")
_MAGIC_STARTS = frozenset(magic[0] for magic in (*_FILE_MAGICS, *_FILE_MAGICS_AT_4))
#: The rest of such a blob: base64, line breaks (also escaped, as in a notebook's JSON) and the
#: `",\n "` between the strings of a JSON list of lines.
_BLOB = LazyBytes(rb"(?:[A-Za-z0-9+/=]|\\[nr]|\r?\n[ \t]*|\",[ \t\r\n]*\")*")
#: A request or trace id before a random run (S3's `x-amz-id-2` header, `<HostId>`, a JSON
#: `RequestId`, trace and correlation ids): an id, not a credential.
_ID_BEFORE = LazyBytes(
    rb"(?i)(?:request[-_]?id|x-amz-id-2|amz-cf-id|host-?id|correlation[-_]?id|trace[-_]?id"
    rb"|x-amzn-requestid|x-ms-request-id|x-goog-[a-z-]*id)[\"'>]?[ \t]*[:=]?[ \t]*[\"']?$"
)


def _file_blob_end(data: bytes, start: int, token: bytes) -> int | None:
    """Where the base64 of an image or an archive that starts at ``start`` ends."""
    if not token.startswith(_FILE_MAGICS) and not token.startswith(_FILE_MAGICS_AT_4):
        return None
    return _BLOB.compiled.match(data, start).end()  # type: ignore[union-attr]  # matches ""


def _request_id(data: bytes, start: int) -> bool:
    line_start = max(data.rfind(b"\n", max(0, start - 48), start) + 1, start - 48)
    return _ID_BEFORE.compiled.search(data, line_start, start) is not None


def random_token_spans(data: bytes, _lowered: bytes) -> list[tuple[int, int]]:
    return _token_spans(data, [_MAX_DECODES])


def _token_spans(data: bytes, decodes: list[int]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    # Transcripts repeat their ids and names: each distinct run is judged once.
    judged: dict[bytes, list[tuple[int, int]]] = {}
    blob_end = -1
    for start, end in _runs(data):
        if start < blob_end:
            continue  # inside an image's base64
        token = data[start:end]
        if data[start] in _MAGIC_STARTS:
            blob = _file_blob_end(data, start, token)
            if blob is not None:
                blob_end = blob
                continue
        if len(token.translate(None, _DIGITS)) == len(token):
            continue  # no digit: a name or a path (every generated token here has one)
        pieces = judged.get(token)
        if pieces is None:
            pieces = judged[token] = _pieces(token, decodes)
        if not pieces:
            label = _random_label(data, start, token)
            if label is not None:
                spans.append((label, end))
            continue
        if _public(data, start, token) or _request_id(data, start):
            continue
        spans.extend((start + piece_start, start + piece_end) for piece_start, piece_end in pieces)
    return spans


def _random_label(data: bytes, start: int, token: bytes) -> int | None:
    """Where a random label starts that a dot glues to this hex (Airtable's
    `pat<id>.<hex>`); a word before the dot (`index.<hex>.js`) is no label."""
    if data[start - 1 : start] != b"." or len(token) < _MIN_HEX or token.translate(None, _HEX):
        return None
    label = _LABEL.compiled.search(data, max(0, start - 1 - _MAX_LABEL), start - 1)
    if label is None:
        return None
    return label.start() if _all_classes(label.group()) else None


def _public(data: bytes, start: int, token: bytes) -> bool:
    """An integrity hash, a Go sum, a data URI: said so by what stands before the digest."""
    before = data[max(0, start - 8) : start].lower()
    head = token[:8].lower()
    return (
        _PUBLIC_BEFORE.compiled.search(before) is not None
        or _PUBLIC_HEAD.compiled.match(head) is not None
    )
