"""`redact.extra_patterns` comes from a committed config.json: a cloned repository chooses it.
A catastrophic pattern must be refused (or stopped), never hang a hook."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from memhooks.store import settings_from_dict
from memhooks.text.redact import redact
from memhooks.text.redact_custom import CustomPatternTimeoutError, pattern_problem, refused
from support import local_of, run_hook

REFUSED = [
    r"(a+)+$",
    r"(a*)*b",
    r"(a|aa)+$",
    r"(\w*\d)+x",
    r"(.*a){12}",
    r"(x+x+)+y",
    r"(a)\1",
    "a" * 201,
    "([unclosed",
]
ALLOWED = [r"ACME-\d{4}-[A-Z]{3}", r"corp-internal-[a-z0-9]{20}", r"(?:foo|bar)\d+", r"x*"]


@pytest.mark.parametrize("pattern", REFUSED)
def test_dangerous_shapes_are_refused(pattern: str) -> None:
    assert pattern_problem(pattern) is not None


@pytest.mark.parametrize("pattern", ALLOWED)
def test_ordinary_patterns_run(pattern: str) -> None:
    assert pattern_problem(pattern) is None


def test_refused_patterns_are_config_problems_and_skipped() -> None:
    settings = settings_from_dict({"redact": {"extra_patterns": [r"(a+)+$", r"ACME-\d+"]}})
    assert any("extra_patterns[0]: refused" in p for p in settings.problems)
    assert redact("a" * 5_000 + "! ACME-42", settings.redact_patterns).endswith(
        "! [REDACTED:custom]"
    )


def test_too_many_patterns_are_cut_with_a_problem() -> None:
    assert refused([f"X{i}" for i in range(30)]) == [
        "redact.extra_patterns: only the first 20 are used"
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="the deadline timer is POSIX-only")
def test_a_slow_pattern_that_passes_the_checks_is_stopped() -> None:
    # Sequential unbounded repeats pass the shape checks but cost O(n^5) on a line without
    # `=`: the deadline stops them, and nothing half redacted is returned.
    slow = ".*.*.*.*.*="
    assert pattern_problem(slow) is None
    with pytest.raises(CustomPatternTimeoutError):
        redact("x" * 1_999, [slow])


def _write_config(memory: Path, patterns: list[str]) -> None:
    (memory / "config.json").write_text(
        json.dumps({"redact": {"extra_patterns": patterns}}), encoding="utf-8"
    )


@pytest.mark.parametrize("pattern", [r"(a+)+$", ".*.*.*.*.*="])
def test_hooks_finish_with_a_hostile_committed_pattern(
    started: Path, tmp_path: Path, examples: dict[str, dict[str, Any]], pattern: str
) -> None:
    """As a repository would mount it: config.json committed, hooks run as hooks.json runs
    them. UserPromptSubmit's host timeout is 10 s; each hook must finish far inside it."""
    _write_config(started, [pattern])
    project = started.parent.parent
    prompt = "a" * 1_999 + "b"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        json.dumps({"type": "user", "uuid": "u1", "message": {"content": prompt}}) + "\n",
        encoding="utf-8",
    )
    env = {"MEMHOOKS_PROJECT_DIR": str(project)}
    for event, case in (("UserPromptSubmit", "UserPromptSubmit"), ("Stop", "Stop")):
        payload = dict(examples[case])
        payload.update(cwd=str(project), prompt=prompt, transcript_path=str(transcript))
        # A hang would raise TimeoutExpired (60 s: a catastrophic pattern on 2,000 characters
        # runs for hours; how fast the hook gives up is the benchmark's business, not a test's).
        done = run_hook(event, payload, env=env, timeout=60)
        assert done.returncode == 0
    # Refused (config problem) or stopped (deadline): either way the log says which.
    log = (local_of(started) / "memhooks.log").read_text(encoding="utf-8")
    assert "extra_patterns" in log
    after = run_hook("UserPromptSubmit", {**payload, "prompt": "hi"}, env=env, timeout=60)
    assert after.returncode == 0
    assert b"failed open" not in after.stderr
