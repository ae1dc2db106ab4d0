"""What a restore keeps of a long session, and what it states as current (issue 31)."""

from __future__ import annotations

from typing import Any

from records import bash as _bash
from records import edit as _edit
from records import prompt as _prompt
from records import said as _said

from memhooks.continuity import checks
from memhooks.continuity.compacted import after_compaction
from memhooks.continuity.evidence import Evidence
from memhooks.continuity.excerpt import (
    decisions,
    select,
    sentences,
    statements_first,
    trim_paste,
)
from memhooks.continuity.handover import (
    LEVELS,
    RECORD_HEADING,
    next_session,
    turn_lines,
)
from memhooks.continuity.proofs import unanswered_question
from memhooks.continuity.transcript_records import Record, ToolUse

PY_TRACE = """Traceback (most recent call last):
  File "/app/scripts/errors.py", line 40, in <module>
    main()
  File "/app/scripts/errors.py", line 31, in main
    handle_error(payload)
  File "/app/scripts/errors.py", line 12, in handle_error
    validate(payload, SCHEMA)
jsonschema.exceptions.ValidationError: '6.35' is not of type 'number'"""

NODE_TRACE = """Error: connect ECONNREFUSED 127.0.0.1:5432
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)
    at handleError (/srv/app/src/errors.js:10:5)
    at Object.<anonymous> (/srv/app/src/errors.js:22:1)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)"""

PYTEST = """============ FAILURES ============
___________ test_merge ___________
    def test_merge():
>       assert merge([1], [2]) == [1, 2, 3]
E       assert [1, 2] == [1, 2, 3]
tests/test_m.py:5: AssertionError
====== short test summary info ======
FAILED tests/test_m.py::test_merge - assert [1, 2] == [1, 2, 3]
====== 1 failed, 3 passed in 0.1s ======"""

MVN = """[ERROR] Tests run: 4, Failures: 2, Errors: 0, Skipped: 0 <<< FAILURE!
[ERROR] io.hookrelay.RetryPolicyTest.firstRetry -- Time elapsed: 0.01 s <<< FAILURE!
org.opentest4j.AssertionFailedError: expected: <PT30S> but was: <PT1M>
\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:151)"""

RUST_PANIC = """running 1 test
thread 'tests::first_retry' panicked at src/policy.rs:10:5:
assertion `left == right` failed
  left: 60
 right: 30
test tests::first_retry ... FAILED"""


def test_a_failed_check_shows_its_error_line_not_the_traceback_header() -> None:
    """Defect 4: `Traceback (most recent call last):` was shown as the error."""
    assert checks.error_line(PY_TRACE).endswith("'6.35' is not of type 'number'")
    assert checks.error_line(NODE_TRACE) == "Error: connect ECONNREFUSED 127.0.0.1:5432"
    assert checks.error_line(PYTEST).endswith("test_merge - assert [1, 2] == [1, 2, 3]")
    assert checks.error_line(MVN).startswith("org.opentest4j.AssertionFailedError: expected")
    rust = checks.error_line(RUST_PANIC)
    assert "panicked at" in rust
    assert "assertion `left == right` failed" in rust


def test_a_pasted_log_keeps_the_error_lines_not_the_stack_frames() -> None:
    """Defect 3: frames whose paths say "errors" filled the paste's error lines."""
    filler = "\n".join(f"2026-11-25 10:42:{i:02d} INFO request {i} served" for i in range(30))
    for trace, wanted in (
        (PY_TRACE, "jsonschema.exceptions.ValidationError: '6.35' is not of type 'number'"),
        (NODE_TRACE, "Error: connect ECONNREFUSED 127.0.0.1:5432"),
    ):
        text = f"the worker died overnight:\n{filler}\n{trace}\n{filler}\nany idea?"
        trimmed = trim_paste(text)
        assert wanted in trimmed
        assert 'errors.py", line' not in trimmed
        assert "errors.js:" not in trimmed
        assert "Traceback (most recent call last)" not in trimmed


def _failing(state: dict[str, Any]) -> list[str]:
    return [c["cmd"] for c in state["checks"].values() if not c["ok"]]


def test_a_passing_and_chain_closes_each_of_its_checks_earlier_failure() -> None:
    """Defect 5: `python3 a.py && python3 b.py` passing left `python3 a.py` failing."""
    failed = [_prompt("go"), *_bash("1", "python3 a.py", ok=False, output="KeyError: 'x'")]
    state = Evidence().add_all([*failed, *_bash("2", "python3 a.py && python3 b.py", ok=True)])
    assert _failing(state.state) == []
    assert "FAILING" not in next_session(state.state, budget=4_000)
    # `;` runs the next command whatever the first did: its exit status proves only the last
    state = Evidence().add_all([*failed, *_bash("2", "python3 a.py; python3 b.py", ok=True)])
    assert _failing(state.state) == ["python3 a.py"]


def test_a_wider_run_whose_failures_no_longer_name_a_test_refreshes_it() -> None:
    """Defect 5: a full suite failing on other tests left the earlier test "FAILING"."""
    first = [
        _prompt("fix merge"),
        *_bash("1", "pytest tests/test_m.py::test_merge", ok=False, output=PYTEST),
    ]
    other = "FAILED tests/test_io.py::test_read - OSError: disk full\n1 failed, 9 passed"
    state = Evidence().add_all([*first, *_bash("2", "pytest -q", ok=False, output=other)]).state
    assert _failing(state) == ["pytest -q"]
    text = next_session(state, budget=4_000)
    assert "test_merge`" in text
    assert "no longer among the failures of the later run `pytest -q`" in text
    assert "run (turn 1): `pytest tests/" not in text
    # the same test still failing, or a run that stops at its first failure: nothing closed
    for command, output in (("pytest -q", PYTEST), ("pytest -x", other)):
        state = Evidence().add_all([*first, *_bash("2", command, ok=False, output=output)]).state
        assert "pytest tests/test_m.py::test_merge" in _failing(state)


def test_a_temporary_script_created_then_deleted_is_not_a_kept_file() -> None:
    """Defect 8: a deleted scratch script was read as a kept file."""
    records = [
        _prompt("check the parser on the odd inputs"),
        *_edit("1", "/p/scratch_check.py", tool="Write"),
        *_edit("2", "/p/src/parser.py"),
        *_edit("3", "/p/old_notes.md"),
        *_bash("4", "python3 scratch_check.py && rm scratch_check.py", ok=True),
        *_bash("5", "git rm -q /p/old_notes.md", ok=True),
        *_edit("6", "/p/tmp/a.txt", tool="Write"),
        *_bash("7", "rm -rf tmp/", ok=True),
    ]
    state = Evidence().add_all(records).state
    assert list(state["files"]) == ["src/parser.py", "old_notes.md"]
    text = next_session(state, budget=4_000)
    assert "scratch_check.py`," not in text
    assert "`old_notes.md` (deleted)" in text
    # a removal that failed removed nothing
    state = Evidence().add_all([*records[:3], *_bash("4", "rm scratch_check.py", ok=False)]).state
    assert "scratch_check.py" in state["files"]


def _todos(call_id: str, *items: tuple[str, str]) -> Record:
    todos = [{"content": content, "status": status} for content, status in items]
    return Record(type="assistant", blocks=(ToolUse(call_id, "TodoWrite", {"todos": todos}),))


def test_the_todo_list_is_claudes_note_shown_at_its_turn_not_as_proof() -> None:
    """Defect 6: a "blocked: …" todo was stated under the record's proofs after the user had
    said the blocker was cleared (two wrong answers)."""
    records = [
        _prompt("add retries; Priya must sign off the migration before any merge"),
        _todos("1", ("V3 migration", "completed"), ("blocked: merge waits for Priya", "pending")),
        _said("Migration written; the merge waits for Priya."),
        _prompt("Priya signed off this morning, go ahead and merge"),
        _said("Merged."),
    ]
    text = next_session(Evidence().add_all(records).state, budget=4_000)
    proven, said = text.split(RECORD_HEADING)
    assert "blocked" not in proven
    assert "todo" not in proven
    todo_at = said.index("[1] Claude's todo list")
    assert said.index("to do: blocked: merge waits for Priya") > todo_at
    assert said.index("[2] user: Priya signed off") > said.index("blocked: merge waits")


def test_a_question_is_answered_only_by_a_prompt_that_answers_it() -> None:
    """Defect 7: "Where do we stand?" counted as the answer to Claude's open question."""
    asked = [
        _prompt("the dashboards want a totals line"),
        _said("Two ways: (a) a `type` field on every line; (b) totals on stderr. Which one?"),
    ]
    status = [_prompt("Where do we stand?"), _said("JSON mode is done; totals wait on you.")]
    state = Evidence().add_all([*asked, *status]).state
    assert unanswered_question(state) == "Which one?"
    text = next_session(state, budget=4_000)
    assert "Claude asked at turn 1" in text.split(RECORD_HEADING)[0]
    assert "Which one?" in text.split(RECORD_HEADING)[0]
    answered = Evidence().add_all([*asked, _prompt("(b), keep stdout clean"), _said("OK.")])
    assert unanswered_question(answered.state) == ""
    # A prompt that asks a question of its own may still answer it: the record does not
    # prove "no answer yet" (a published session answered with "can you put them on stderr?").
    replied = [
        _prompt("ah the dashboard reads stdout, can you put totals on stderr?"),
        _said("Yes."),
    ]
    proofs = next_session(Evidence().add_all([*asked, *replied]).state, budget=4_000)
    proofs = proofs.split(RECORD_HEADING)[0]
    assert "Which one?" in proofs
    assert "no answer" not in proofs
    assert "whether one answers it" in proofs


FILLER = "The parser reads the file line by line and keeps the current section in a buffer."


def test_the_last_turn_keeps_the_options_claude_listed_and_its_question() -> None:
    """Defect 1: the question survived and the options it asks about were cut."""
    records: list[Record] = []
    for n in range(20):
        records += [_prompt(f"step {n}: carry on with the parser"), _said(f"{FILLER} " * 9)]
    options = (
        "Before I build that, one question, because it changes the contract.\n"
        f"{FILLER} {FILLER} {FILLER} {FILLER} {FILLER}\n"
        "(a) Add a `type` field: every row gets `type: row` and the last line is the totals.\n"
        "(b) Write the totals to stderr, so stdout stays rows only and Vector sees no change.\n"
        f"{FILLER} {FILLER} {FILLER} {FILLER} {FILLER} {FILLER}\n"
        "Which one should I build? I'll hold off on the report code until you answer."
    )
    records += [_prompt("the dashboards want a totals line"), _said(options)]
    text = next_session(Evidence().add_all(records).state, budget=9_000)
    for wanted in ("(a) Add a `type` field", "(b) Write the totals to stderr", "Which one"):
        assert wanted in text
    assert "hold off on the report code until you answer" in text


def test_a_decision_mid_reply_survives_in_an_old_turn() -> None:
    """Defect 2: a decision stated mid-reply was cut to the reply's first and last sentences."""
    reply = (
        f"I read the writer and its tests. {FILLER * 5} "
        "Let's use NDJSON instead: one compact object per line, no enclosing array. "
        f"{FILLER * 5} The table output is unchanged."
    )
    records = [_prompt("add a --json mode"), _said("Looking."), _prompt("stream it"), _said(reply)]
    for n in range(20):
        records += [_prompt(f"next step {n} of the JSON work, please"), _said(f"{FILLER} " * 9)]
    text = next_session(Evidence().add_all(records).state, budget=9_000)
    assert "Let's use NDJSON instead: one compact object per line" in text


def test_selection_marks_every_cut_and_keeps_whole_sentences() -> None:
    text = "Intro here. " + "Filler words that say little. " * 10 + "We'll keep one decimal."
    picked = select(text, 60)
    assert picked == "Intro here. … We'll keep one decimal."
    assert select("Short.", 80) == "Short."
    # a code span and a list's marker end no sentence
    assert sentences("1. Run `a: b` first. Then stop.") == ["1. Run `a: b` first.", "Then stop."]


def test_a_decision_between_many_tool_calls_stays_in_the_state() -> None:
    """Defect 2: the turn kept its 3 latest texts between first and last, so a decision stated
    early among many tool calls was dropped from the evidence before any selection."""
    texts = ["Looking at the writer.", "We'll keep one decimal like the table, so both agree."]
    texts += [f"Checked file {n}: {FILLER}" for n in range(6)]
    state = Evidence().add_all([_prompt("json numbers"), *map(_said, texts), _said("Done.")]).state
    (turn,) = state["turns"]
    assert len(turn["mid"]) <= 3
    assert "We'll keep one decimal like the table" in " ".join(turn["mid"])
    assert "We'll keep one decimal like the table" in next_session(state, budget=3_000)


def test_a_tap_failure_shows_its_message_and_a_ci_paste_keeps_each_distinct_error() -> None:
    tap = "not ok 1 - rounds half up\n  ---\n  error: |-\n    Expected 127 but got 126\n  ..."
    assert checks.error_line(tap) == "error: |- Expected 127 but got 126"
    failures = "\n".join(
        f"not ok {n} - case {n}\n  error: 'toSorted is not a function'" for n in range(9)
    )
    ci = (
        f"CI is red:\n{failures}\nError: Process completed with exit code 1.\n"
        "GET /v1/lines F\n1. Response violates schema\n\n    '6.35' is not of type 'number'\n"
        + "\n".join(f"    check {n} passed" for n in range(12))
        + "\nnode 18 still has to work"
    )
    trimmed = trim_paste(ci)
    assert "'6.35' is not of type 'number'" in trimmed
    assert trimmed.count("toSorted is not a function") == 1


def test_after_a_compaction_the_todo_list_sits_at_its_turn_before_later_words() -> None:
    """Defect 6, after a compaction: the list was a section of its own, read as current."""
    records = [
        _prompt("add retries"),
        _todos("1", ("blocked: merge waits for Priya", "pending")),
        _prompt("Priya signed off, merge it"),
    ]
    text = after_compaction(Evidence().add_all(records).state, summary="", budget=3_000)
    assert "What the record proves" not in text
    blocked = text.index("to do: blocked: merge waits for Priya")
    assert text.index("[1] Claude's todo list") < blocked < text.index("[2] Priya signed off")


def test_a_todo_turn_shown_short_keeps_the_items_not_done() -> None:
    turn = {"n": 4, "prompt": "go", "first": "", "mid": [], "last": "", "ran": []}
    turn["todos"] = [
        {"content": "write the migration", "status": "completed"},
        {"content": "blocked: merge waits for Priya", "status": "pending"},
    ]
    short = "\n".join(turn_lines(turn, 0))
    assert "write the migration" not in short
    assert "1 done items not shown" in short
    assert "to do: blocked: merge waits for Priya" in short
    assert "done: write the migration" in "\n".join(turn_lines(turn, len(LEVELS) - 1))


def test_a_wider_run_cut_short_refreshes_nothing() -> None:
    """A collection error lists one error and runs no test: the earlier failure stands."""
    first = [_prompt("fix merge"), *_bash("1", "pytest tests/test_m.py::test_merge", ok=False)]
    for output in (
        "ERROR tests/test_io.py - ImportError: no module x\n!!! Interrupted: 1 error during "
        "collection !!!",
        "FAILED tests/test_io.py::test_read",  # no count of the tests run
    ):
        state = Evidence().add_all([*first, *_bash("2", "pytest", ok=False, output=output)]).state
        assert "pytest tests/test_m.py::test_merge" in _failing(state)


def test_a_prompt_with_a_paste_cut_short_keeps_what_the_user_asks_after_it() -> None:
    """Defect 9: a short prompt line kept the paste's first lines and lost the user's words
    after it ("leave the force unwrap")."""
    log = "\n".join(f"2026-11-25 10:42:{n:02d} lint: file {n} ok" for n in range(40))
    prompt = (
        "CI lint is red again on the main branch. This is the log of the run from this morning, "
        "cut a bit. The run took long.\nRun swiftlint --strict --reporter github-actions\n"
        f"{log}\n"
        "::error file=Store.swift,line=17::Force Unwrapping Violation\n"
        "fix the line length. leave the force unwrap, force_unwrapping got switched on by "
        "accident last week and Tomas is reverting it in #418, lint stays red until then"
    )
    state = Evidence().add_all([_prompt(prompt), _said("On it.")]).state
    line = turn_lines(state["turns"][0], 1)[0]
    assert "leave the force unwrap, force_unwrapping got switched on by accident" in line
    assert len(line) < 300


def test_a_long_session_shows_what_the_user_stated_before_what_they_only_asked() -> None:
    """A long session's later turns do not all fit: the user's words that state something (a
    changed rule, news) are shown before newer prompts that only ask."""
    records = [_prompt("add reminders for the clinics"), _said("Done.")]
    records += [
        _prompt(
            "Plot twist: the managers want the reminder 24 hours before the appointment, "
            "not at 6pm the evening before."
        ),
        _said("Changed."),
    ]
    for n in range(80):
        records += [_prompt(f"what does helper number {n} do?"), _said(f"It formats row {n}.")]
    text = next_session(Evidence().add_all(records).state, budget=2_500)
    assert "the managers want the reminder 24 hours before the appointment" in text
    assert "what does helper number 5 do?" not in text
    assert "what does helper number 79 do?" in text  # the last turn stays


def test_a_prompt_cut_hard_keeps_what_it_states_before_its_questions() -> None:
    prompt = (
        "Morning! I talked to the managers and they want the reminder 24 hours before the "
        "appointment instead. How hard is that? Can we ship it today? What about DST?"
    )
    short = statements_first(prompt, 110)
    assert short.startswith("Morning! I talked to the managers and they want the reminder")
    assert "DST" not in short
    assert len(short) <= 110
    assert statements_first("ok, go", 110) == "ok, go"


def test_a_summary_of_a_long_sessions_start_gives_way_to_the_turns_after_it() -> None:
    """The host's summary at turn 4 of 60 states its claims as they stood then: it gets room
    in proportion to the part it tells of, cut at a line, and the turns after it the rest."""
    evidence = Evidence()
    for n in range(60):
        evidence.add_all([_prompt(f"step {n}: the key is now (id, kind, at)"), _said("ok")])
    summary = (
        "1. Primary Request and Intent:\n   Reminders at the right local time; never touch "
        "billing.\n2. Key Technical Concepts:\n" + "   - a unique index on (id, kind)\n" * 30
    )
    state = {**evidence.state, "summary": {"text": summary, "after_turn": 4}}
    text = next_session(state, budget=6_000)
    shown = text.split("supersede it)\n", 1)[1].split("\n\n", 1)[0]
    assert shown.startswith("1. Primary Request and Intent:")
    assert shown.endswith("\n…")
    assert len(shown) < 600
    assert "[60] user: step 59" in text


def test_a_suggestion_shown_short_keeps_claudes_answer_beside_it() -> None:
    """A user's suggestion alone reads as a decision: when turns are left out, a short one
    keeps what Claude's reply decided (not its options, not its questions)."""
    records = [_prompt("add a donations progress bar"), _said("Done.")]
    records += [
        _prompt("maybe goal_amount should be cast to float before dividing, the bar shows 0%"),
        _said(
            "Looking at the model. No cast: we keep BigDecimal instead, since a float would "
            "round cents. The page renders."
        ),
    ]
    for n in range(80):
        records += [_prompt(f"what does helper number {n} do?"), _said(f"It formats row {n}.")]
    text = next_session(Evidence().add_all(records).state, budget=3_000)
    assert "maybe goal_amount should be cast to float" in text
    assert "No cast: we keep BigDecimal instead, since a float would round cents." in text
    assert decisions("1. **Use floats** everywhere.\nWhich one?", 200) == ""
    reply = "Looking at the model. No cast: we keep BigDecimal instead. The page renders."
    assert decisions(reply, 200) == "… No cast: we keep BigDecimal instead. …"


def test_a_reply_that_reverses_a_long_prompts_choice_is_kept_beside_it() -> None:
    """A prompt that states its choice at length seemed to need no reply beside it; a
    published session's "I choose Render with SQLite and a small persistent disk" was
    reversed in the reply (disks need a paid plan), and readers took the disk as current.
    Whether all turns fit or not, a turn at its shortest keeps what the reply decided."""
    choice = (
        "I choose Render with SQLite and a small persistent disk. Please write the "
        "configuration files and the plan accordingly, and keep it on the free plan."
    )
    reversal = (
        "Render's docs confirm: **persistent disks require a paid instance type, the free "
        "tier's filesystem is ephemeral and resets on every restart of the service.** Now "
        "the plan reflects the free tier with a reseed on boot."
    )
    records = [_prompt("plan the donation page"), _said("Here is the plan."), _prompt(choice)]
    records += [_said(reversal)]
    for n in range(40):
        records += [_prompt(f"continue with step {n} of the views"), _said(f"Step {n} done.")]
    text = next_session(Evidence().add_all(records).state, budget=6_000)
    assert "I choose Render with SQLite" in text
    assert "persistent disks require a paid instance type" in text
    assert decisions(reversal, 60).startswith("**persistent disks require")  # its head


def test_a_passing_one_off_inline_script_is_no_check_worth_a_line() -> None:
    """A `python3 -c` probe that passed says nothing a reader needs; its failure does."""
    records = [
        _prompt("check the totals"),
        *_bash("1", "python3 -c 'import app; print(app.total())'", ok=True),
        *_bash("2", "python3 -c 'import app; app.check()'", ok=False, output="ValueError: x"),
        *_bash("3", "pytest tests/test_totals.py", ok=True),
    ]
    text = next_session(Evidence().add_all(records).state, budget=3_000)
    checks = text.split("## Last outcome of each check", 1)[1].split("\n\n", 1)[0]
    assert "print(app.total())" not in checks
    assert "app.check()" in checks
    assert "pytest tests/test_totals.py" in checks
