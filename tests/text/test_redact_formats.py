"""Every token format known by its leading literal (`redact_formats._PREFIXED`) has an example
that `redact` must catch, under that format's own label, and a near-miss it must leave alone.

The values are FAKE, shaped from the vendors' documented formats and drawn from a fixed seed.
A format added without an example here fails `test_every_format_has_an_example`."""

from __future__ import annotations

import random
import re
import string

import pytest

from memhooks.text.redact import redact
from memhooks.text.redact_formats import _PREFIXED

_RNG = random.Random(20261128)  # noqa: S311 - fake values, reproducible on purpose
ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "-_"


def r(n: int, alphabet: str = ALNUM) -> str:
    """A random string with a digit, an upper and a lower case letter when the alphabet has
    them (the checks that want a random-looking value see one)."""
    while True:
        value = "".join(_RNG.choice(alphabet) for _ in range(n))
        kinds = (str.isdigit, str.isupper, str.islower)
        if all(any(f(c) for c in value) for f in kinds if any(f(c) for c in alphabet)):
            return value


#: (kind, a fake value in the format, a near-miss: the literal with a body one character short of
#: what the format asks for, and plain enough that no other rule takes it)
EXAMPLES: list[tuple[str, str, str]] = [
    ("gitlab-token", "glpat-" + r(20, URLSAFE), "glpat-" + "a" * 19),
    ("gitlab-token", "GR1348941" + r(20, URLSAFE), "GR1348941" + "a" * 19),
    ("npm-token", "npm_" + r(36), "npm_" + "a" * 29),
    ("pypi-token", "pypi-AgEIcHlwaS5vcmc" + r(50, URLSAFE), "pypi-" + "a" * 39),
    ("huggingface-token", "hf_" + r(34), "hf_" + "a" * 29),
    ("huggingface-token", "api_org_" + r(34), "api_org_" + "a" * 29),
    ("vault-token", "hvs." + r(24, URLSAFE), "hvs." + "a" * 19),
    (
        "sendgrid-key",
        "SG." + r(22, URLSAFE) + "." + r(43, URLSAFE),
        "SG." + "a" * 16 + "." + "a" * 15,
    ),
    ("twilio-key", "SK" + r(32, HEX), "SK" + "a" * 31),
    ("twilio-sid", "AC" + r(32, HEX), "AC" + "a" * 31),
    ("stripe-key", "whsec_" + r(32), "whsec_" + "a" * 19),
    ("google-oauth", "ya29." + r(60, URLSAFE), "ya29." + "a" * 19),
    ("google-oauth", "GOCSPX-" + r(28, URLSAFE), "GOCSPX-" + "a" * 19),
    ("google-oauth", "1//0" + r(40, URLSAFE), "1//0" + "a" * 29),
    ("docker-token", "dckr_pat_" + r(27, URLSAFE), "dckr_pat_" + "a" * 19),
    ("digitalocean-token", "dop_v1_" + r(64, HEX), "dop_v1_" + "a" * 20),
    ("digitalocean-token", "doo_v1_" + r(64, HEX), "doo_v1_" + "a" * 20),
    ("digitalocean-token", "dor_v1_" + r(64, HEX), "dor_v1_" + "a" * 20),
    ("shopify-token", "shpat_" + r(32, HEX), "shpat_" + "a" * 31),
    ("grafana-token", "glsa_" + r(32) + "_" + r(8, HEX), "glsa_" + "a" * 29),
    ("linear-key", "lin_api_" + r(40), "lin_api_" + "a" * 29),
    ("notion-token", "ntn_" + r(46), "ntn_" + "a" * 29),
    ("notion-token", "secret_" + r(43), "secret_" + "a" * 39),
    ("postman-key", "PMAK-" + r(24, HEX) + "-" + r(34, HEX), "PMAK-" + "a" * 24 + "-" + "a" * 29),
    ("age-secret-key", "AGE-SECRET-KEY-1" + r(58, UPPER), "AGE-SECRET-KEY-1" + "Q" * 49),
    ("databricks-token", "dapi" + r(32, HEX), "dapi" + "a" * 31),
    ("supabase-token", "sbp_" + r(40, HEX), "sbp_" + "a" * 39),
    ("pulumi-token", "pul-" + r(40, HEX), "pul-" + "a" * 39),
    ("newrelic-key", "NRAK-" + r(27, UPPER), "NRAK-" + "A" * 19),
    ("sentry-token", "sntrys_" + r(60, URLSAFE), "sntrys_" + "a" * 29),
    ("atlassian-token", "ATATT3xFfGF0" + r(60, URLSAFE), "ATATT" + "a" * 49),
    ("figma-token", "figd_" + r(40, URLSAFE), "figd_" + "a" * 29),
    ("planetscale-token", "pscale_tkn_" + r(43, URLSAFE), "pscale_tkn_" + "a" * 29),
    ("rubygems-key", "rubygems_" + r(48, HEX), "rubygems_" + "a" * 47),
    ("mailgun-key", "key-" + r(32, HEX), "key-" + "a" * 31),
    ("square-token", "sq0atp-" + r(22, URLSAFE), "sq0atp-" + "a" * 19),
    (
        "firebase-key",
        "AAAA" + r(7, URLSAFE) + ":APA91b" + r(134, URLSAFE),
        "AAAA" + "a" * 7 + ":APA91b" + "a" * 99,
    ),
    ("terraform-token", r(14) + ".atlasv1." + r(67, URLSAFE), "a" * 14 + ".atlasv1." + "a" * 59),
]

#: New Relic documents user keys as NRAK- and 27 characters; one glued to more characters, cut
#: short or in lower case is still most of a key, and nothing else starts with NRAK-.
NEAR_LENGTH_NEWRELIC = [
    "NRAK-" + r(26, UPPER),
    "NRAK-" + r(28, UPPER),
    "NRAK-" + r(40, UPPER),
    "NRAK-" + r(27, UPPER).lower(),
]


def _pattern(row: tuple[str, bytes, bytes, object]) -> re.Pattern[bytes]:
    _kind, literal, rest, _check = row
    return re.compile(re.escape(literal) + rest)


def test_every_format_has_an_example() -> None:
    """Each row of the table is the one an example was written for (same kind, its own pattern
    matches the whole value), and every row has one."""
    assert len(EXAMPLES) == len(_PREFIXED)
    for row, (kind, value, _near) in zip(_PREFIXED, EXAMPLES, strict=True):
        assert row[0] == kind
        assert _pattern(row).search(value.encode()), (kind, value)


@pytest.mark.parametrize(("kind", "value", "near"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_format_is_redacted_under_its_label(kind: str, value: str, near: str) -> None:
    for text in (value, f"saw {value} in the log", f'"{value}",', f"({value})"):
        redacted = redact(text)
        assert value not in redacted, text
        assert f"[REDACTED:{kind}]" in redacted, redacted


@pytest.mark.parametrize(("kind", "value", "near"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_format_near_miss_survives(kind: str, value: str, near: str) -> None:
    text = f"the docs mention {near} as a placeholder"
    assert redact(text) == text


@pytest.mark.parametrize("value", NEAR_LENGTH_NEWRELIC)
def test_newrelic_key_of_another_length_is_redacted(value: str) -> None:
    redacted = redact(f"NEW_RELIC_USER={value[:3]}x {value} done")
    assert value not in redacted
    assert value[5:25] not in redacted
    assert "[REDACTED:newrelic-key]" in redacted
