"""Redaction that generalizes: secrets in formats no rule lists, found by shape and context
(issue 24, finding 5). The corpus is tests/secret_corpus_shapes.py: the detectors were tuned
on ``TUNE``; ``HELD_OUT`` holds other formats and contexts."""

from __future__ import annotations

import base64

import pytest

from memhooks.text.redact import MARKER_PREFIX, redact
from secret_corpus_shapes import HELD_OUT, SECOND, SHAPE_NEAR_MISSES, SHAPES, TUNE, fake_pem, r


def _persists(text: str, values: tuple[str, ...]) -> list[str]:
    redacted = redact(text)
    return [
        value
        for value in values
        if value in redacted or (len(value) >= 12 and value[: max(10, len(value) // 2)] in redacted)
    ]


def test_the_corpus_is_split_by_family() -> None:
    assert len(TUNE) >= 50
    assert len(HELD_OUT) >= 50
    assert not {case[0] for case in TUNE} & {case[0] for case in HELD_OUT}
    assert len(TUNE) + len(HELD_OUT) == len(SHAPES)


@pytest.mark.parametrize(("family", "text", "values"), TUNE, ids=[case[0] for case in TUNE])
def test_tuning_half_persists_nothing(family: str, text: str, values: tuple[str, ...]) -> None:
    assert _persists(text, values) == [], family
    assert redact(redact(text)) == redact(text)


@pytest.mark.parametrize(("family", "text", "values"), HELD_OUT, ids=[case[0] for case in HELD_OUT])
def test_held_out_half_persists_nothing(family: str, text: str, values: tuple[str, ...]) -> None:
    assert _persists(text, values) == [], family
    assert redact(redact(text)) == redact(text)


@pytest.mark.parametrize("text", SHAPE_NEAR_MISSES)
def test_random_looking_text_that_is_no_secret_survives(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        # Identifiers with digits, from real code (CamelCase reads as words)
        "class BlasILP64NotFoundError(NotFoundError):",
        "F2PySwapThreadLocalCallbackPtr and testCallWin32UsesLookup",
        "TestCreateValues_1_UCS2 MCC_GetSlowCompTauX20Enable CPyList_GetItemInt64Borrow",
        # Digests with their algorithm's name, wheel RECORD lines, git describe, hex numbers
        "pkg/__init__.py,sha256=zuuue4knoyJ-UwPPXg8fezS7VCrXJQrAP7zeNuwvFQg,1234",
        '"version": "0.6.1+5.3.0-1-ge13ca993e8ccb9ba9847cc330696e02839f328f7"',
        "step = -0x9e3779b97f4a7c150000000000000000",
        "layer sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "commit-3f9c2b7d8e1a4f6b0c5d9e2a7b4c1f8e3d6a9b0c",
        # Paths and URLs with a hash in them
        "https://github.com/python/cpython/blob/fcf1d003bf4f0100c9d0921ff3d70e1127ca1b71/Lib/x.py",
        "dist/main.3f9c2b7d8e1a4f6b0c5d9e2a7b4c1f8e.js",
        # File names of words and numbers (a published session's path read as a licence key)
        '@"PLN /Actividad 1/muinar02_act1/muinar02_act1.docx"',
        "report_v2_final3_draft4_notes5.md",
        # The host's own ids
        "toolu_01A09q90qw90lq917835lq9 msg_01XFDUDYJgAACzvnptvVoYEL req_011CSHoEeqs5C35K2UUqR7Fy",
        # Config lines and prose that only look like a name and a value
        "Password changed.",
        "bypass mode2",
        "token expired",
        "DISCORD_CLIENT_ID = 1234567890",
        # Secret documents that are not Kubernetes Secrets
        "kind: ConfigMap\ndata:\n  mode: standalone2\n",
    ],
)
def test_near_misses_of_the_new_detectors(text: str) -> None:
    assert redact(text) == text


def test_labelled_hex_is_a_key_and_a_hash_label_is_not() -> None:
    hex32 = "9f86d081884c7d659a2feaa0c55ad015"
    assert redact(f"key {hex32}-us12 ok") == "key [REDACTED:random-token] ok"
    assert redact(f"xkeysib-{hex32}{hex32}-{r(16)}") == "[REDACTED:random-token]"
    assert redact(f"md5-{hex32}") == f"md5-{hex32}"
    assert redact(hex32 + hex32) == hex32 + hex32  # a bare SHA-256


def test_base64_is_judged_by_what_it_decodes_to() -> None:
    pem = base64.b64encode(fake_pem().encode()).decode()
    pair = base64.b64encode(b"deploy:Tr0ub4dor&3").decode()
    prose = base64.b64encode(b"The quick brown fox jumps over the lazy dog").decode()
    assert redact(f"tls.key: {pem}") == "tls.key: [REDACTED:random-token]"
    assert redact(f"X-Upstream: {pair}") == "X-Upstream: [REDACTED:random-token]"
    assert redact(f"echo {prose}") == f"echo {prose}"


def test_a_path_keeps_its_words_and_loses_its_token() -> None:
    token = r(40)
    assert redact(f"https://api.example.com/v1/hooks/{token}/trigger") == (
        "https://api.example.com/v1/hooks/[REDACTED:random-token]/trigger"
    )


def test_kubernetes_secret_values_in_yaml_and_json() -> None:
    yaml_text = (
        "apiVersion: v1\nkind: Secret\nstringData:\n  db-conn: host=db user=app\n"
        "  mode: plain\nmetadata:\n  name: app\n"
    )
    assert redact(yaml_text) == (
        "apiVersion: v1\nkind: Secret\nstringData:\n  db-conn: [REDACTED:secret]\n"
        "  mode: [REDACTED:secret]\nmetadata:\n  name: app\n"
    )
    json_text = '{"kind": "Secret",\n "data": {"a": "c2VjcmV0", "b": "b3RoZXI="}}'
    assert redact(json_text) == (
        '{"kind": "Secret",\n "data": {"a": "[REDACTED:secret]", "b": "[REDACTED:secret]"}}'
    )


def test_escaped_json_names_keep_their_escaping() -> None:
    text = '"{\\"user\\":\\"bob\\",\\"password\\":\\"hunter2!\\"}"'
    assert redact(text) == '"{\\"user\\":\\"bob\\",\\"password\\":\\"[REDACTED:secret]\\"}"'


def test_an_escaped_line_break_after_a_name_is_no_value() -> None:
    """In a transcript's JSON, `secret:\\n` ends the line: the `\\n` is not a secret."""
    assert redact("webhook secret:\\n  rotate it") == "webhook secret:\\n  rotate it"


def test_quoted_after_a_keyword_and_config_lines() -> None:
    assert redact("CREATE USER app IDENTIFIED BY 'Tr0ub4dor&3';") == (
        "CREATE USER app IDENTIFIED BY '[REDACTED:secret]';"
    )
    assert redact('ConvertTo-SecureString "Tr0ub4dor&3" -AsPlainText') == (
        'ConvertTo-SecureString "[REDACTED:secret]" -AsPlainText'
    )
    assert (
        redact("requirepass Tr0ub4dor&3\nport 6379") == "requirepass [REDACTED:secret]\nport 6379"
    )


def test_a_long_run_of_token_characters_is_one_token() -> None:
    """No run is read twice: a megabyte of base64 alphabet is one judgement."""
    text = "Zq8xW3" * 170_000
    assert redact(text) == f"{MARKER_PREFIX}random-token]"


def test_second_held_out_set_does_not_regress() -> None:
    """Measured once, untouched by tuning (22 of 62 persisted; main: 56). Generated tokens
    generalize; passwords in contexts no rule knows do not: this only keeps the figure."""
    persisted = [family for family, text, values in SECOND if _persists(text, values)]
    assert len(persisted) <= 22, persisted


def test_a_document_of_many_kind_lines_is_read_once() -> None:
    """Each `kind: Secret` line once read its whole document again: 80,000 such lines took
    over ten minutes. Read once, this is a fraction of a second (measured, not asserted)."""
    text = "kind: Secret\n" * 20_000 + "data:\n  token: c2VjcmV0LXZhbHVl\n"
    assert redact(text).endswith("data:\n  token: [REDACTED:secret]\n")
