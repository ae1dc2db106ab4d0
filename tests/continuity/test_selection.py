"""What a restore keeps of a long session, and what it states as current (issue 31)."""

from __future__ import annotations

from memhooks.continuity import checks
from memhooks.continuity.excerpt import trim_paste

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
