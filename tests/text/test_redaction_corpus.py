"""A corpus of secrets as they really appear (config files, shell history, logs, stack traces)
and of near-misses that must survive. tests/text/test_redact.py covers one sample per rule; this
covers the contexts around them. Secrets are assembled from pieces so scanners stay quiet."""

from __future__ import annotations

import pytest

from memhooks.text.redact import MARKER_PREFIX, redact
from secret_corpus_forms import NEAR_MISSES as FORM_NEAR_MISSES
from secret_corpus_forms import TUNE as FORMS

_GH = "ghp_" + "R4nd0mT0k3nV4lu3Xy2Wq8Zp1Lm5Nb7Kc3Jd9"
_GHS = "ghs_" + "16C7e42F292c6912E7710c838347Ae178B4a"
_AKIA = "AKIA" + "ZZTESTKEY4MEMHOK"
_AWS_SECRET = "Zx1Yw2Vu3Ts4Rq5Po6Nm7Lk8Ji9Hg0FeDcBa/+12"  # noqa: S105 - test data
_SK_ANT = "sk-ant-api03-" + "xY7_zQ2-wR5" * 7
_SK_PROJ = "sk-proj-" + "Pq9Lm2Xr7Tz4" * 6
_SLACK = "xoxb-" + "2048-4096-" + "aBcDeFgHiJkLmNoPqRsTuVwX"
_STRIPE = "sk_test_" + "51HqLyjWDarjtT1zdp7dcAbC"
_JWT = (
    "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ."
    "eyJpc3MiOiJodHRwczovL2F1dGguZXhhbXBsZS5jb20ifQ."
    "c2lnbmF0dXJlLXZhbHVlLWhlcmUtMTIzNDU2Nzg5MA"
)
_GOOGLE = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"

SECRETS_IN_CONTEXT = {
    ".env file": (f"NODE_ENV=production\nGITHUB_TOKEN={_GH}\nPORT=3000\n", _GH),
    "docker compose": (
        "    environment:\n      - POSTGRES_PASSWORD=s3cr3t-Pg-pw\n",
        "s3cr3t-Pg-pw",
    ),
    "yaml nested": (
        f"aws:\n  access_key_id: {_AKIA}\n  secret_access_key: {_AWS_SECRET}\n",
        _AWS_SECRET,
    ),
    "aws credentials ini": (f"[default]\naws_access_key_id = {_AKIA}\n", _AKIA),
    "json config": (f'{{"anthropic": {{"api_key": "{_SK_ANT}"}}}}', _SK_ANT),
    "python kwarg": (f'client = OpenAI(api_key="{_SK_PROJ}")', _SK_PROJ),
    "shell export quoted": (f'export SLACK_BOT_TOKEN="{_SLACK}"', _SLACK),
    "curl header": (f'curl -s -H "Authorization: Bearer {_JWT}" https://api.example.com', _JWT),
    "url basic auth": ("curl https://admin:Hunter2Pass@x.example.com", "Hunter2Pass"),
    "git remote with token": (
        f"git remote add origin https://x-access-token:{_GHS}@github.com/o/r.git",
        _GHS,
    ),
    "stack trace": (
        f"Traceback...\nstripe.error.AuthenticationError: Invalid API Key provided: {_STRIPE}",
        _STRIPE,
    ),
    "log line": (f"2026-01-19 INFO calling maps with key={_GOOGLE} status=200", _GOOGLE),
    "mysql cli": ("mysql -h db -u root --password=S3cretRootPw app", "S3cretRootPw"),
    "redis url": ("REDIS_URL=redis://:RedisPw123@cache:6379/0", "RedisPw123"),
    "pem in json": (
        '{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC'
        '\\n-----END PRIVATE KEY-----\\n"}',
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
    ),
    "markdown table": (f"| name | value |\n| token | {_GH} |", _GH),
    "two on one line": (f"{_AKIA} and {_GH}", _AKIA),
    "toml": (f'[auth]\ntoken = "{_GHS}"\n', _GHS),
    "k8s secret stringData": ("stringData:\n  password: kubePw-9981\n", "kubePw-9981"),
    "npmrc": (
        "//registry.npmjs.org/:_authToken=npm_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
        "A1b2C3d4E5f6G7h8I9j0",
    ),
}

NEAR_MISSES_IN_CONTEXT = [
    "Set the `password` field in the login form to required.",
    "The token bucket refills every 30s; see rate_limiter.py.",
    "def get_secret(name: str) -> str:",
    "password_hash = bcrypt.hashpw(password, salt)",
    "if not api_key:\n    raise ValueError('missing api key')",
    'token = os.environ.get("GITHUB_TOKEN")',
    "SECRET_KEY = env('DJANGO_SECRET_KEY')",
    "docs/secrets-management.md explains the rotation policy",
    "max_tokens: 8192\ntemperature: 0.2",
    "tokenizer = AutoTokenizer.from_pretrained('bert-base')",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt",
    "https://github.com/anthropics/claude-code/issues/1234",
    "ssh git@github.com",
    "PASSWORD_MIN_LENGTH=12",
    "credentials: none",
    "The secret to fast builds is caching.",
    "sk-learn-pipeline and scikit-learn",
    "AKIAISNOTAKEY",
    "export PATH=$HOME/.local/bin:$PATH",
    "uuid: 123e4567-e89b-12d3-a456-426614174000",
    "version: 1.2.3-rc.4+build.5",
    "Passwords must be rotated every 90 days.",
]


@pytest.mark.parametrize(
    ("text", "secret"), SECRETS_IN_CONTEXT.values(), ids=SECRETS_IN_CONTEXT.keys()
)
def test_secret_in_context_is_redacted(text: str, secret: str) -> None:
    redacted = redact(text)
    assert secret not in redacted
    assert MARKER_PREFIX in redacted
    assert redact(redacted) == redacted


@pytest.mark.parametrize("text", NEAR_MISSES_IN_CONTEXT)
def test_near_miss_in_context_survives(text: str) -> None:
    assert redact(text) == text


def test_context_around_secrets_is_kept() -> None:
    text = SECRETS_IN_CONTEXT[".env file"][0]
    assert redact(text) == "NODE_ENV=production\nGITHUB_TOKEN=[REDACTED:github-token]\nPORT=3000\n"


def test_unquoted_password_with_ampersand() -> None:
    # An env value runs to the next space; only in a query string does `&` end it.
    assert "3horse" not in redact("DB_PASSWORD=Tr0ub4dor&3horse")
    assert redact("https://x.example.com/?token=abc123&page=2") == (
        "https://x.example.com/?token=[REDACTED:secret]&page=2"
    )


CLI_CREDENTIALS = {
    "curl -u user:password": ("curl -u admin:Hunter2Pass https://x.example.com", "Hunter2Pass"),
    "curl --user": ("curl --user admin:Hunter2Pass https://x.example.com", "Hunter2Pass"),
    "mysql -pPASSWORD": ("mysql -u root -pS3cretRootPw app", "S3cretRootPw"),
    "mysqldump -pPASSWORD": ("mysqldump -h db -pS3cretRootPw app > x.sql", "S3cretRootPw"),
}
CLI_NEAR_MISSES = [
    "git push -u origin main",
    "docker run -u 1000:1000 image",
    "mkdir -p build/out",
    "pytest -p no:randomly tests",
    "mysql -P 3306 -u root -p app",
]


@pytest.mark.parametrize(("text", "secret"), CLI_CREDENTIALS.values(), ids=CLI_CREDENTIALS.keys())
def test_cli_credentials(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", CLI_NEAR_MISSES)
def test_cli_near_misses_survive(text: str) -> None:
    assert redact(text) == text


def test_shell_default_placeholder_survives() -> None:
    assert redact("API_KEY=${API_KEY:-}") == "API_KEY=${API_KEY:-}"


def test_extra_pattern_catches_what_the_rules_do_not() -> None:
    text = "internal ticket badge ACME-7781-XYZ and the build id is 42"
    assert redact(text) == text
    assert redact(text, [r"ACME-\d{4}-[A-Z]{3}"]) == (
        "internal ticket badge [REDACTED:custom] and the build id is 42"
    )


# Issue 32, findings 8 and 9: human-chosen passwords in the red team's forms, and ordinary
# source that must come out whole (tests/secret_corpus_forms.py; the held-out set of the same
# families is only measured, by tests/benchmark/redaction_eval.py).


@pytest.mark.parametrize(("family", "text", "values"), FORMS)
def test_password_forms_are_redacted(family: str, text: str, values: tuple[str, ...]) -> None:
    redacted = redact(text)
    if text == "use admin/cinder_raven to log in":
        pytest.xfail("a word_word value after admin/ reads as a path: kept on purpose")
    assert [value for value in values if value in redacted] == [], (family, redacted)


@pytest.mark.parametrize("text", FORM_NEAR_MISSES)
def test_form_near_misses_survive(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "def split_identifier(token: str) -> list[str]:",
        "def _decoded(token: bytes) -> bytes | None:",
        "        is_secret=looks_random,",
        "        self.is_secret = is_secret",
        'NOT_TOKEN = rb"(?<![A-Za-z0-9_-])"',
        "            deliver_challenge(c, self._authkey)",
        "        self._token = token",
        "Token = Ignore + PlainToken",
        "    _curses.KEY_A1: 'ka1',",
        "KEYWORD_ONLY = 'keyword-only'",
        '        authorization = self.headers.get("authorization")',
        'auth = "Basic " + standard_b64encode(user_pass).decode("ascii")',
        "    tokenize_loop(readline, tokeneater)\n    tokenize(readline, tokeneater=printtoken)",
        "A password is technically needed only when the relying party asks.",
        "< x-amz-id-2: k7Qp2Vw9Lm3Xr8Tz4Bn6Yc1Hs5Jd0Fg2Ke7Wq9Ua3Zi4Ox8Pv6Rt1Sy5Nb2Mc0Ld==",
        "<HostId>k7Qp2Vw9Lm3Xr8Tz4Bn6Yc1Hs5Jd0Fg2Ke7Wq9Ua3Zi4Ox8Pv6Rt1Sy5Nb2Mc0Ld==</HostId>",
    ],
)
def test_ordinary_source_survives(text: str) -> None:
    assert redact(text) == text


def test_image_base64_is_left_alone() -> None:
    """A PNG's base64, bare and wrapped, and in a notebook's output: no marker at all."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmark"))
    from redaction_eval import images_and_ids

    assert images_and_ids() == {
        "notebook image/png": 0,
        "bare base64 PNG": 0,
        "x-amz-id-2 headers": 0,
        "S3 error HostId": 0,
    }
