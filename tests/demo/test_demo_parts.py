"""The demo parts that need no claude CLI: the host-log reader, where the pinned CLI is kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.demo import pinned_cli
from memhooks.demo.host_log import parse_hook_runs
from memhooks.install import deps

_CMD = "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/memhooks.py hook SessionStart"


def _output(label: str, context: str) -> str:
    stdout = json.dumps({"hookSpecificOutput": {"additionalContext": context}})
    return json.dumps(f"Hook {label} (SessionStart) success:\n{stdout}")


def test_hook_runs_carry_the_host_time_and_the_context_printed() -> None:
    log = "\n".join(
        [
            "2026-01-01T10:00:00.000Z [DEBUG] something else",
            f"2026-01-01T10:00:00.100Z [DEBUG] Hooks: SessionStart:resume [{_CMD}] "
            "(plugin memory@memhooks) finished with status 0 (50ms)",
            f"2026-01-01T10:00:00.150Z [DEBUG] {_output('SessionStart:resume', 'hello')}",
            "2026-01-01T10:00:01.000Z [DEBUG] SessionEnd [python3 x hook SessionEnd] "
            "completed with status 0",
        ]
    )
    runs = parse_hook_runs(log)
    assert [(r.label, r.status, r.ms, r.measured) for r in runs] == [
        ("SessionStart:resume", 0, 50.0, "host"),
        ("SessionEnd", 0, 850.0, "log-gap"),  # no duration logged: the gap since the line before
    ]
    assert runs[0].context == "hello"
    assert runs[1].context == ""
    assert [r.label for r in parse_hook_runs(log, "SessionEnd")] == ["SessionEnd"]


def test_the_pinned_cli_lives_in_the_plugins_user_cache_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(pinned_cli.E2E_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pinned_cli.cache_dir() == deps.user_cache() == tmp_path / "xdg" / "memhooks"
    monkeypatch.setenv(pinned_cli.E2E_DIR_ENV, str(tmp_path / "e2e"))
    assert pinned_cli.cache_dir() == tmp_path / "e2e"
    monkeypatch.setenv("CLAUDE_BIN", str(tmp_path / "nowhere"))
    assert pinned_cli.find_claude(tmp_path / "e2e") is None
