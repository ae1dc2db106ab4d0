"""The evidence a restore is made from, and the restore's rules, as pure functions."""

from __future__ import annotations

import json

from records import bash as _bash
from records import edit as _edit
from records import prompt as _prompt
from records import said as _said

from memhooks.continuity import checks
from memhooks.continuity.compacted import after_compaction
from memhooks.continuity.evidence import Evidence, new_state
from memhooks.continuity.excerpt import head_tail, trim_paste
from memhooks.continuity.handover import next_session
from memhooks.continuity.proofs import unanswered_question
from memhooks.continuity.transcript_records import ToolResult, ToolUse


def test_a_superset_run_closes_a_failure_whatever_the_command_string() -> None:
    """Issue 23: a failure was closed only when the identical command passed."""
    records = [
        _prompt("add retries"),
        *_bash("1", "mvn -q test -Dtest=RetryPolicyTest", ok=False, output="[ERROR] expected 30"),
        *_edit("2", "/p/src/RetryPolicy.java"),
        *_bash("3", "mvn test 2>&1 | tail -20", ok=True, output=MVN_PASSED),
    ]
    state = Evidence().add_all(records).state
    (entry,) = [c for c in state["checks"].values() if "-Dtest" in c["cmd"]]
    assert entry["ok"]
    assert entry["closed_by"].startswith("mvn test")
    text = next_session(state, budget=5_000)
    assert "fixed, passes now" in text
    assert "FAILING" not in text


MVN_PASSED = "[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS"


def test_a_passing_chain_that_ends_in_housekeeping_closes_what_its_checks_cover() -> None:
    """`go vet ./pkg/ && go test -race ./pkg/ && rm /tmp/probe` passing proves its checks
    passed: the failure of a narrower run before it is closed, though the chain's last
    command (`rm`) checks nothing, and the chain is listed as its checks' run."""
    records = [
        _prompt("fix the counter"),
        *_bash("1", "go test -run Countdown ./pkg/", ok=False, output="--- FAIL: TestCountdown"),
        *_edit("2", "/p/pkg/counter.go"),
        *_bash(
            "3",
            "go vet ./pkg/ && go test -race ./pkg/ && ls /tmp/probe && rm /tmp/probe",
            ok=True,
            output="ok  \texample.com/pkg\t1.2s\n/tmp/probe",
        ),
    ]
    state = Evidence().add_all(records).state
    (entry,) = [c for c in state["checks"].values() if "Countdown" in c["cmd"]]
    assert entry["ok"]
    assert entry["closed_by"].startswith("go vet ./pkg/ && go test -race ./pkg/")
    (chain,) = [c for c in state["checks"].values() if c is not entry]
    assert chain["ok"]  # the chain's own check (its housekeeping passed over) is listed
    checked = next_session(state, budget=5_000).split("## What was said")[0]
    assert "fixed, passes now" in checked
    assert "FAIL" not in checked


def test_a_success_piped_through_a_filter_proves_no_pass() -> None:
    """`make test 2>&1 | tail -3` exits with tail's status: a published session's run said
    "10 passed, 1 failed" and was shown as passed, closing the earlier failure. A piped run
    counts as passed only when what it printed counts tests run and no failure."""
    failing = [
        _prompt("fix the parser"),
        *_bash("1", "make test", ok=False, output="FAIL test_bom: expected 1"),
        *_edit("2", "/p/src/parse.c"),
    ]
    piped = [*_bash("3", "make test 2>&1 | tail -3", ok=True, output="10 passed, 1 failed")]
    state = Evidence().add_all([*failing, *piped]).state
    assert not state["checks"]["make test\x00"]["ok"]  # not closed
    text = next_session(state, budget=5_000)
    assert "passed (turn" not in text
    assert "(piped: outcome not known)" in text
    silent = [*_bash("3", "bin/rails test | tail -30", ok=True, output="0 runs, 0 assertions")]
    text = next_session(Evidence().add_all([*failing, *silent]).state, budget=5_000)
    assert "passed (turn" not in text
    proven = [*_bash("3", "make test | tail -1", ok=True, output="11 passed")]
    text = next_session(Evidence().add_all([*failing, *proven]).state, budget=5_000)
    assert "passed (turn 1)" in text
    assert "failed (turn" not in text


def test_a_narrower_or_different_run_closes_nothing() -> None:
    state = (
        Evidence()
        .add_all(
            [
                _prompt("json mode"),
                *_bash("1", "cargo run -- --json --sort nope x.log", ok=False, output="error: key"),
                *_bash("2", "cargo run -- --json x.log", ok=True),  # inputs, not a selection
                *_bash("3", "pytest", ok=False, output="E assert 1 == 2\nFAILED t.py::a"),
                *_bash("4", "pytest -k merge", ok=True),
            ]
        )
        .state
    )
    failing = sorted(c["cmd"] for c in state["checks"].values() if not c["ok"])
    assert failing == ["cargo run -- --json --sort nope x.log", "pytest"]
    assert "FAILING at its last run (turn 1): `pytest`: FAILED t.py::a" in next_session(
        state, budget=5_000
    )


def test_check_targets() -> None:
    assert checks.target("ls -la") is None
    assert checks.target("git push origin main") is None
    assert checks.target("cd app && FOO=1 python -m pytest -q tests/x.py") == (
        "python pytest",
        frozenset({"-m", "tests/x.py"}),
    )
    assert checks.error_line("cc -fsanitize=undefined x.c\n==1==ERROR: heap overflow\n") == (
        "==1==ERROR: heap overflow"
    )


def test_a_failure_followed_by_edits_is_earlier_not_failing_now() -> None:
    state = (
        Evidence()
        .add_all(
            [
                _prompt("fix it"),
                *_bash("1", "make test", ok=False, output="FAIL test_a"),
                *_edit("2", "/p/src/a.c"),
            ]
        )
        .state
    )
    text = next_session(state, budget=5_000)
    assert "earlier failure, files changed since, not re-run (turn 1): `make test`" in text


def test_turns_keep_the_prompt_and_claudes_first_middle_and_last_words() -> None:
    state = (
        Evidence()
        .add_all(
            [
                _prompt("first request"),
                _said("Going with (b)."),
                _said("Working on it."),
                _said("Done. Should I commit?"),
                _prompt("second request"),
                _said("Sure."),
            ]
        )
        .state
    )
    first, second = state["turns"]
    assert (first["prompt"], first["first"], first["mid"], first["last"]) == (
        "first request",
        "Going with (b).",
        ["Working on it."],
        "Done. Should I commit?",
    )
    assert second["first"] == "Sure."
    assert unanswered_question(state) == ""  # the last reply asks nothing


def test_the_question_no_prompt_answered() -> None:
    state = Evidence().add_all([_prompt("totals?"), _said("Two ways. Which one, (a) or (b)?")])
    assert unanswered_question(state.state) == "Which one, (a) or (b)?"
    assert "no prompt has answered yet: Which one, (a) or (b)?" in next_session(
        state.state, budget=3_000
    )


def test_the_state_survives_json_between_turns() -> None:
    """Stop keeps it in .cache/restore/ between turns: JSON in, JSON out, same result."""
    records = [
        _prompt("one"),
        *_bash("1", "make test", ok=False, output="FAIL a"),
        _prompt("two"),
        *_edit("2", "/p/a.c", "Write"),
        *_bash("3", "make test", ok=True),
    ]
    whole = Evidence().add_all(records).state
    state = new_state()
    for chunk in (records[:3], records[3:]):
        state = json.loads(json.dumps(Evidence(state).add_all(chunk).state))
    assert state == json.loads(json.dumps(whole))


def test_everything_kept_is_redacted() -> None:
    secret = "sk-ant-" + "api03-Abc123" * 8
    state = Evidence().add_all(
        [
            _prompt(f"use ANTHROPIC_API_KEY={secret}"),
            _said(f"Set {secret}."),
            *_bash("1", f"deploy --token {secret}", ok=False, output=f"bad token {secret}"),
        ]
    )
    state.summary(f"<summary>the key {secret}</summary>")
    assert secret not in json.dumps(state.state)


def test_the_record_is_marked_as_superseded_and_has_no_headings_inside() -> None:
    state = (
        Evidence()
        .add_all(
            [_prompt("# not a heading\nlets do X"), _said("## Plan\nX it is."), _prompt("no, Y")]
        )
        .state
    )
    text = next_session(state, budget=3_000)
    record = text[text.index("## What was said") :].splitlines()
    assert "later turns supersede earlier ones" in record[0]
    assert not any(line.lstrip().startswith("#") for line in record[1:])


def test_newest_turns_fullest_and_the_first_kept() -> None:
    long_reply = "This is a long sentence about the work. " * 40
    records = []
    for n in range(30):
        records += [_prompt(f"request {n} " + "words " * 60), _said(long_reply)]
    state = Evidence().add_all(records).state
    text = next_session(state, budget=6_000)
    assert len(text) <= 6_000
    assert "[1] user: request 0" in text
    assert "[30] user: request 29" in text
    lines = text.splitlines()
    newest = sum(len(line) for line in lines if line.startswith("[30]"))
    middle = sum(len(line) for line in lines if line.startswith("[15]"))
    assert newest > middle


def test_after_compaction_skips_prompts_the_summary_quotes() -> None:
    state = Evidence().add_all([_prompt("keep the table byte-for-byte"), _prompt("add totals")])
    text = after_compaction(state.state, summary='User said "add totals".', budget=2_000)
    assert "keep the table byte-for-byte" in text
    assert "add totals" not in text


def test_a_paste_keeps_prose_errors_and_its_end() -> None:
    log = "\n".join(f"2026-11-25 10:42:{i:02d} ok line {i}" for i in range(60))
    text = f"ran it on staging:\n{log}\nERROR: disk full\n  at /var/x\n{log}\nwhy is that?"
    trimmed = trim_paste(text)
    assert "ran it on staging:" in trimmed
    assert "ERROR: disk full" in trimmed
    assert "at /var/x" in trimmed  # the detail after the error line
    assert trimmed.endswith("why is that?")
    assert "lines of pasted output cut" in trimmed
    assert len(trimmed) < len(text) // 4


def test_head_tail_cuts_at_sentences() -> None:
    text = "One. Two two. Three three three. Four. Five five."
    assert head_tail(text, 100) == text
    assert head_tail(text, 20) == "One. … Five five."


def test_the_state_stays_bounded_in_a_long_session() -> None:
    """Stop loads and saves the state every turn: it must not grow with every turn's full
    text (a long session with big pastes went past the 4 MB read cap and was lost)."""
    evidence = Evidence()
    paste = "word " * 1_500
    for n in range(100):
        evidence.add(_prompt(f"turn {n}: {paste}"))
        evidence.add(_said(f"first {n}. " + paste))
        evidence.add(_said(f"middle {n}. " + paste))
        evidence.add(_said(f"last {n}. " + paste))
        for k in range(25):
            evidence.add_all(_bash(f"{n}-{k}", f"make t{k}", ok=True))
    state = evidence.state
    size = len(json.dumps(state))
    assert size < 1_100_000, size  # 100 whole turns were 2.3 MB
    assert len(state["turns"][-1]["ran"]) == 20
    assert state["turns"][0]["prompt"].startswith("turn 0: word")  # the goal stays whole
    assert len(state["turns"][0]["prompt"]) > 5_000
    assert len(state["turns"][-50]["prompt"]) <= 1_000
    assert "turn 99" in next_session(state, budget=9_000)


def test_a_restore_after_a_compaction_keeps_the_users_earlier_words() -> None:
    """The next session's restore of a session that compacted: the host's summary, then the
    record, where turns the summary covers keep only the user's words (what summaries lose)
    and the goal is the first prompt even after text that came before any prompt."""
    evidence = Evidence()
    evidence.add_all([_said("Memory mode is on."), _prompt("Add format_price to money.py")])
    evidence.add(_said("Decided: use Decimal with ROUND_HALF_UP."))
    evidence.add(_prompt("I'm blocked on the EUR price feed until Friday."))
    evidence.add(_said("Noted."))
    evidence.summary("Summary: the work so far (the host's words).")
    evidence.add(_prompt("What is left to do?"))
    evidence.add(_said("Wire format_price into report.py."))
    text = next_session(evidence.state, budget=5_000)
    assert text.index("## What Claude Code's own summary said") < text.index("## What was said")
    assert "[2] user: Add format_price to money.py" in text
    assert "[3] user: I'm blocked on the EUR price feed until Friday." in text
    assert "ROUND_HALF_UP" not in text  # Claude's words before it: the summary has them
    assert "Wire format_price into report.py." in text


def test_a_long_record_names_the_turns_it_leaves_out() -> None:
    evidence = Evidence()
    for n in range(200):
        evidence.add_all([_prompt(f"prompt number {n}"), _said(f"reply number {n}")])
    text = next_session(evidence.state, budget=3_000)
    lines = text.splitlines()
    gap = next(i for i, line in enumerate(lines) if "more turns not shown]" in line)
    assert lines[gap - 1].startswith("[1] ")  # right after the goal
    hidden = int(lines[gap].split()[1])
    shown = {line.split("]")[0] for line in lines if line[:1] == "[" and line[1:2].isdigit()}
    assert hidden + len(shown) == 200
    assert "prompt number 199" in text
    assert len(text) <= 3_000


def test_the_hosts_wrapper_around_a_summary_is_not_kept() -> None:
    """The transcript's compaction record wraps the summary in the host's own orders
    ("Continue … without asking the user any further questions"): a new session must never
    be handed those as part of the last session's record."""
    from memhooks.continuity.evidence import summary_text

    raw = (
        "This session is being continued from a previous conversation that ran out of "
        "context. The summary below covers the earlier portion of the conversation.\n\n"
        "<system-reminder>\nx\n</system-reminder>\nSummary:\n1. Primary Request: fix the "
        "report.\n\nIf you need specific details from before compaction, read the full "
        "transcript at: /t.jsonl\nContinue the conversation from where it left off without "
        "asking the user any further questions. Resume directly.\n"
    )
    assert summary_text(raw) == "1. Primary Request: fix the report."
    assert summary_text("<analysis>a</analysis><summary>\nS\n</summary>") == "S"
    assert summary_text("plain text") == "plain text"


def test_the_users_words_in_a_tool_result_are_kept_on_their_turn() -> None:
    """An option the user picked in Claude's question tool, and the reason the user gave for
    refusing a tool call, are the user's words of that turn (`told`); a tool's own output
    and a plain failure are not."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("Store the drafts on a volume, please.")
    answer = 'User has answered your questions: "Volumes cost extra. Which way?"="Keep them in '
    answer += 'memory and reload at boot". You can now continue with the answers.'
    refusal = "The user doesn't want to proceed with this tool use. The user provided the "
    refusal += "following reason for the rejection:  name the file NOTES.md instead"
    for call, tool, text, failed in (
        ("q1", "AskUserQuestion", answer, False),
        ("w1", "Write", refusal, True),
    ):
        evidence.tool_use(ToolUse(call, tool, {"file_path": "/p/plan.md"}))
        evidence.tool_result(ToolResult(call, is_error=failed, text=text))
    evidence.tool_use(ToolUse("b1", "Bash", {"command": "make lint"}))
    evidence.tool_result(ToolResult("b1", is_error=True, text="lint: 3 problems"))
    turn = evidence.state["turns"][-1]
    assert turn["told"] == [
        '"Volumes cost extra. Which way?"="Keep them in memory and reload at boot"',
        "name the file NOTES.md instead",
    ]
    assert "plan.md" not in evidence.state["files"]  # refused: nothing written
    assert json.loads(json.dumps(evidence.state)) == evidence.state
