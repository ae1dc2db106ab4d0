"""Fuzzing every parser: transcript lines, frontmatter, config.json, _session.json, CLI input.

Each parser either returns a value or raises its own documented error; the CLI turns bad
input into one `memhooks: …` line and a distinct exit code, never a traceback; and no input
changes or deletes an existing memory. The number of inputs tried is printed at the end of
the run and written to `<pytest basetemp>/fuzz-counts-parsers.json`.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memhooks.cli.main import main
from memhooks.continuity import transcript
from memhooks.continuity.evidence import Evidence
from memhooks.errors import CODES, Exit
from memhooks.store import (
    UnparsableMemoryError,
    is_active,
    load_settings,
    parse_bytes,
    parse_text,
    render_document,
    validate_config,
)
from support import FIXTURES, local_of, memory_snapshot, open_store, report_fuzz_counts

COUNTS: collections.Counter[str] = collections.Counter()


@pytest.fixture(scope="session", autouse=True)
def _fuzz_counter(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    report_fuzz_counts(request.config, tmp_path_factory.getbasetemp(), "parsers", COUNTS)


TRANSCRIPTS = sorted((FIXTURES / "transcripts").glob("*/transcript.jsonl"))
REAL_LINES = [
    line for path in TRANSCRIPTS for line in path.read_bytes().splitlines()[:400] if line.strip()
]
SLOW = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


def seed(root: Path) -> dict[str, bytes]:

    store = open_store(root)
    store.create("decision", {"title": "Use SQLite"}, "# Use SQLite\n\nOne file.")
    store.create("runbook", {"title": "Deploy"}, "# Deploy\n\n---\n\n1. make deploy")
    return memory_snapshot(root)


# =============================================================================== transcript

MUTATIONS = st.sampled_from(["truncate", "flip", "type", "giant", "none"])


@st.composite
def transcript_lines(draw: st.DrawFn) -> bytes:
    line = draw(st.sampled_from(REAL_LINES)) if REAL_LINES else b"{}"
    how = draw(MUTATIONS)
    if how == "truncate":
        return line[: draw(st.integers(0, max(0, len(line) - 1)))]
    if how == "flip":
        at = draw(st.integers(0, max(0, len(line) - 1)))
        return line[:at] + draw(st.binary(min_size=1, max_size=4)) + line[at + 1 :]
    if how == "type":
        kind = draw(
            st.sampled_from(["user", "assistant", "system", "x-unknown", "", "api-request"])
        )
        obj = {"type": kind, "message": draw(_JSON), "toolUseResult": draw(_JSON)}
        return json.dumps(obj).encode()
    if how == "giant":
        result = "r" * draw(st.integers(70_000, 300_000))
        obj = {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": result,
                        "is_error": draw(st.booleans()),
                    }
                ],
            },
            "toolUseResult": {"stdout": result},
        }
        return json.dumps(obj).encode()
    return line


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=400, deadline=None, suppress_health_check=SLOW)
@given(line=st.one_of(transcript_lines(), st.binary(max_size=500)))
def test_parse_line_never_raises(line: bytes) -> None:
    COUNTS["transcript: lines"] += 1
    record = transcript.parse_line(line)
    assert record is None or record.type in transcript.RECORD_TYPES


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW)
@given(
    lines=st.lists(transcript_lines(), min_size=1, max_size=12),
    partial=st.binary(max_size=200),
)
def test_read_new_stops_at_the_last_whole_line(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], partial: bytes
) -> None:
    COUNTS["transcript: files"] += 1
    partial = partial.replace(b"\n", b" ")
    path = tmp_path_factory.mktemp("t") / "transcript.jsonl"
    whole = b"".join(line.replace(b"\n", b" ") + b"\n" for line in lines)
    path.write_bytes(whole + partial)
    records, end = transcript.read_new(path, 0)
    assert end == len(whole), "a truncated last line must not be consumed"
    turns = Evidence().add_all(records).state["turns"]
    prompts = [r.text for r in records if r.type == "user" and r.text]
    assert len([t for t in turns if t["prompt"]]) <= len(prompts)  # only the whole lines
    assert all(isinstance(t["prompt"], str) for t in turns)
    # The writer finishes the line: the next read picks it up, once.
    with path.open("ab") as handle:
        handle.write(b"\n")
    more, end2 = transcript.read_new(path, end)
    assert end2 == len(whole) + len(partial) + 1
    assert len(more) <= 1
    # An unknown offset (past the end: the file was replaced) restarts at 0.
    again, _ = transcript.read_new(path, 10**9)
    assert len(again) == len(records) + len(more)


def test_giant_tool_result_is_skipped(tmp_path: Path) -> None:
    COUNTS["transcript: giant results"] += 1
    big = {
        "type": "user",
        "message": {
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x" * 30_000_000}]
        },
        "toolUseResult": {},
    }
    path = tmp_path / "t.jsonl"
    path.write_bytes(json.dumps(big).encode() + b"\n" + (REAL_LINES[0] if REAL_LINES else b"{}"))
    records, end = transcript.read_new(path, 0)
    assert records
    assert records[0].blocks
    assert len(repr(records[0].blocks)) < 1_000_000  # skipped, not held: its 30 MB are not kept
    assert end == len(json.dumps(big)) + 1


# ============================================================================= frontmatter

_YAML_BOMB = (
    "---\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "title: *h\n"
    "tags: *h\n"
    "---\n\n# Bomb\n"
)

HOSTILE_FRONTMATTER = {
    "python object": "---\ntitle: !!python/object/apply:os.system ['touch PWNED']\n---\nbody\n",
    "python name": "---\ntitle: !!python/name:os.system\n---\nbody\n",
    "python module": "---\ntitle: !!python/module:os\n---\n",
    "unknown tag": "---\ntitle: !custom x\n---\n",
    "yaml bomb": _YAML_BOMB,
    "not a mapping": "---\n- a\n- b\n---\nbody\n",
    "scalar": "---\njust text\n---\nbody\n",
    "missing closing fence": "---\ntitle: x\nbody without a fence\n",
    "bad yaml": "---\ntitle: [unclosed\n---\n",
    "tab indent": "---\ntitle:\n\t- x\n---\n",
    "duplicate keys": "---\ntitle: a\ntitle: b\n---\n",
    "deep nesting": "---\ntitle: " + "[" * 5000 + "]" * 5000 + "\n---\n",
    "empty": "",
    "only fence": "---\n",
    "fence in body": "---\ntitle: x\n---\n\nabove\n---\nnot: frontmatter\n---\nbelow\n",
    "crlf": "---\r\ntitle: x\r\n---\r\nbody\r\n",
    "bom": "\ufeff---\ntitle: x\n---\nbody\n",
    "null bytes": "---\ntitle: x\x00y\n---\n",
}


@pytest.mark.parametrize("text", HOSTILE_FRONTMATTER.values(), ids=HOSTILE_FRONTMATTER.keys())
def test_hostile_frontmatter_is_parsed_or_refused(tmp_path: Path, monkeypatch, text: str) -> None:
    COUNTS["frontmatter: hostile"] += 1
    monkeypatch.chdir(tmp_path)
    try:
        raw = parse_text(text)
    except UnparsableMemoryError:
        pass
    else:
        assert isinstance(raw.meta, dict)
        # What was accepted must be small enough to render (an alias bomb would not be).
        json.dumps(raw.meta, default=str)
    assert not (tmp_path / "PWNED").exists()


def test_fence_in_body_is_not_a_fence() -> None:
    raw = parse_text(HOSTILE_FRONTMATTER["fence in body"])
    assert raw.meta == {"title": "x"}
    assert "not: frontmatter" in raw.body


@settings(max_examples=400, deadline=None, suppress_health_check=SLOW)
@given(
    data=st.one_of(
        st.binary(max_size=300), st.text(max_size=300).map(lambda t: ("---\n" + t).encode())
    )
)
def test_parse_bytes_returns_or_refuses(data: bytes) -> None:
    COUNTS["frontmatter: random"] += 1
    try:
        raw = parse_bytes(data)
    except UnparsableMemoryError:
        return
    assert isinstance(raw.meta, dict)
    assert isinstance(raw.body, str)


_KEY = st.from_regex(r"[a-z][a-z_]{0,12}", fullmatch=True)
_VALUE = st.one_of(
    st.text(max_size=60),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.booleans(),
    st.lists(st.text(max_size=20), max_size=4),
)


@settings(max_examples=400, deadline=None, suppress_health_check=SLOW)
@given(
    meta=st.dictionaries(_KEY | st.text(min_size=1, max_size=10), _VALUE, max_size=6),
    body=st.text(alphabet=st.characters(exclude_characters="\r"), max_size=200),
)
def test_frontmatter_round_trips(meta: dict[str, object], body: str) -> None:
    """What the store writes, python-frontmatter reads back to the same values and body.

    (A CR in the body comes back as LF: python-frontmatter reads with universal newlines.)
    """
    COUNTS["frontmatter: round trip"] += 1
    text = render_document(meta, body)
    raw = parse_text(text)
    assert raw.meta == meta
    assert raw.body.strip() == body.strip("\n").strip()


# ============================================================================ config.json

CONFIG_SECTIONS = [
    "index",
    "briefing",
    "retrieval",
    "delete",
    "checkpoints",
    "stop",
    "capture",
    "redact",
    "categories",
    "bogus",
]


@st.composite
def configs(draw: st.DrawFn) -> object:
    if draw(st.booleans()):
        return draw(_JSON)
    return {
        section: draw(
            st.dictionaries(
                st.sampled_from(
                    [
                        "max_lines",
                        "max_bytes",
                        "session_start_chars",
                        "max_inject",
                        "min_score",
                        "nudge",
                        "journal",
                        "prompts",
                        "subagents",
                        "extra_patterns",
                        "keep",
                        "decision",
                        "typo",
                    ]
                ),
                _JSON,
                max_size=3,
            )
        )
        for section in draw(st.lists(st.sampled_from(CONFIG_SECTIONS), max_size=4, unique=True))
    }


@settings(max_examples=400, deadline=None, suppress_health_check=SLOW)
@given(config=configs())
def test_config_lenient_and_strict(
    tmp_path_factory: pytest.TempPathFactory, config: object
) -> None:
    COUNTS["config: random"] += 1
    path = tmp_path_factory.mktemp("c") / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    settings_ = load_settings(path)  # never raises
    assert settings_.session_start_chars <= 10_000
    assert settings_.prompt_chars <= 10_000
    problem = ""
    try:
        validate_config(config)
    except ValueError as exc:
        problem = str(exc)
    assert not problem or problem.startswith("config.json")


@settings(max_examples=100, deadline=None, suppress_health_check=SLOW)
@given(data=st.binary(max_size=100))
def test_config_bytes_never_raise(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    COUNTS["config: bytes"] += 1
    path = tmp_path_factory.mktemp("c") / "config.json"
    path.write_bytes(data)
    load_settings(path)


# ============================================================================ _session.json

SESSION_CASES = {
    "empty": b"",
    "null": b"null",
    "list": b"[]",
    "string": b'"active"',
    "not json": b"{active: true",
    "not utf-8": b'{"active": true, "x": "\xff"}',
    "active as string": b'{"active": "yes"}',
    "wrong types": b'{"active": true, "sessions": "x", "stats": [], "started": 5}',
    "unknown keys": b'{"active": true, "future_key": {"a": 1}, "version": 99}',
    "sessions of junk": b'{"active": true, "sessions": [1, null, {"id": 5}, {"id": "s"}]}',
    "future dates": b'{"active": true, "started": "2999-01-01T00:00:00Z", '
    b'"lastActivity": "9999-12-31T23:59:59Z", "lastMemoryWrite": "2999-01-01"}',
    "past dates": b'{"active": true, "started": "1970-01-01T00:00:00Z", "lastNudge": "0001-01-01"}',
    "bad dates": b'{"active": true, "started": "yesterday", "lastMemoryWrite": 12}',
}


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        mock.patch.object(sys, "stdin", io.StringIO("")),
    ):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 2
    return int(code), out.getvalue(), err.getvalue()


def assert_clear_failure(code: int, err: str) -> None:
    assert code in CODES, code
    assert "Traceback" not in err
    if code not in (Exit.OK, Exit.FAILED):
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines, "a failure must say why"
        assert lines[-1].startswith(("memhooks", "usage:")), lines[-1]


@pytest.mark.parametrize("data", SESSION_CASES.values(), ids=SESSION_CASES.keys())
def test_session_json_hooks_and_cli(started: Path, data: bytes) -> None:
    from test_fuzz_hooks import assert_valid_output, run_in_process

    before = seed(started)
    (local_of(started) / "session.json").write_bytes(data)
    try:
        parsed = json.loads(data)
    except ValueError:
        parsed = None
    expected = isinstance(parsed, dict) and parsed.get("active") is True
    assert is_active(local_of(started) / "session.json") is expected
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd", "PreCompact"):
        COUNTS["session.json: hooks"] += 1
        payload = {"session_id": "s1", "prompt": "sqlite?", "hook_event_name": event}
        assert_valid_output(*run_in_process(event, json.dumps(payload).encode()))
    for argv in (
        ["status"],
        ["list"],
        ["rebuild"],
        ["save", "decision", "--title", "T", "--body", "b"],
        ["show", "decisions/nope.md"],
        ["summarize", "--material"],
        ["stop"],
    ):
        COUNTS["session.json: cli"] += 1
        code, _, err = _cli(argv)
        assert_clear_failure(code, err)
    after = memory_snapshot(started)
    for path, content in before.items():
        assert after.get(path) == content


BAD_CONFIGS = {
    "empty file": b"",
    "not json": b"{index: 1}",
    "not utf-8": b'{"index": {"max_lines": "\xff"}}',
    "list": b"[1]",
    "wrong type": b'{"index": {"max_lines": "many"}}',
    "unknown key": b'{"indexx": {}}',
    "unknown nested key": b'{"capture": {"jornal": false}}',
    "bool for int": b'{"retrieval": {"max_inject": true}}',
    "too big": b'{"briefing": {"session_start_chars": 1000000}}',
    "bad pattern": b'{"redact": {"extra_patterns": ["([unclosed"]}}',
}


@pytest.mark.parametrize("data", BAD_CONFIGS.values(), ids=BAD_CONFIGS.keys())
def test_bad_config_hooks_and_cli(started: Path, data: bytes) -> None:
    from test_fuzz_hooks import assert_valid_output, run_in_process

    before = seed(started)
    (started / "config.json").write_bytes(data)
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd"):
        COUNTS["config.json: hooks"] += 1
        payload = {
            "session_id": "s1",
            "prompt": "sqlite?",
            "agent_type": "x",
            "last_assistant_message": "done " * 40,
        }
        code, out, err = run_in_process(event, json.dumps(payload).encode())
        # Each config problem is one log line; the hook still runs.
        assert_valid_output(code, out, err.splitlines()[-1] if err else "")
    codes = set()
    for argv in (
        ["status"],
        ["rebuild"],
        ["save", "decision", "--title", "T", "--body", "b"],
        ["list"],
        ["recall", "sqlite"],
    ):
        COUNTS["config.json: cli"] += 1
        code, _, err = _cli(argv)
        assert_clear_failure(code, err)
        codes.add(code)
    after = memory_snapshot(started)
    for path, content in before.items():
        assert after.get(path) == content


# ================================================================================== CLI input


@pytest.fixture
def seeded(started: Path) -> Path:
    seed(started)
    return started


HOSTILE = st.sampled_from(
    [
        "../../etc/passwd",
        "/etc/passwd",
        "..",
        "decisions/../../x.md",
        "decisions/",
        "",
        "decisions/nope.md",
        "MEMORY.md",
        "_session.json",
        ".cache/catalog.json",
        "\x00",
        "a" * 5000,
        "sessions/../../../x",
        "-",
        "--json",
        "é/💥.md",
    ]
)
TEXT = st.one_of(HOSTILE, st.text(max_size=40))


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    kind = draw(st.integers(0, 9))
    a, b = draw(TEXT), draw(TEXT)
    return [
        ["show", a],
        ["retire", a, "--reason", b],
        ["restore", a],
        ["archive", a, "--reason", b],
        ["save", a, "--title", b, "--body", draw(TEXT)],
        ["save", "decision", "--update", a, "--if-hash", b, "--body", "x"],
        ["summarize", "--material", "--session", a],
        ["recall", a, b],
        ["save", "decision", "--title", a, "--field", b],
        ["list", "--category", a],
    ][kind]


@settings(max_examples=250, deadline=None, suppress_health_check=SLOW)
@given(argv=argvs())
def test_cli_refuses_clearly(seeded: Path, argv: list[str]) -> None:
    COUNTS["cli: hostile arguments"] += 1
    started = seeded
    before = memory_snapshot(started)
    code, _, err = _cli(argv)
    assert_clear_failure(code, err)
    after = memory_snapshot(started)
    for path, content in before.items():
        assert after.get(path) == content, f"{argv} changed {path}"
    assert not (started.parent / "x.md").exists()
