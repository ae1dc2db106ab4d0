"""`memhooks task`: the status every briefing and reminder shows."""

from __future__ import annotations

from pathlib import Path

from support import run_cli


def test_task_keeps_every_blocker_and_the_whole_task(started: Path) -> None:
    long_task = "Port the build " + "and keep it working " * 15
    assert run_cli("task", long_task).returncode == 0
    for n in ("one", "two", "three", "four", "five"):
        assert run_cli("task", "--blocker", f"blocker {n}").returncode == 0
    assert run_cli("task", "--next", "x").returncode == 0
    blockers = (started / "context" / "blockers.md").read_text(encoding="utf-8")
    assert all(f"- blocker {n}" in blockers for n in ("one", "two", "three", "four", "five"))
    assert long_task.strip() in (started / "context" / "current-task.md").read_text(
        encoding="utf-8"
    )
