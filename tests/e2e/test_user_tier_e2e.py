# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Issue 27 through the real CLI: a preference saved with `--user` in project A reaches
project B's SessionStart, after B's own memory, and nothing of it is written in B's tree."""

from __future__ import annotations

import subprocess
from typing import TYPE_CHECKING

from sandbox_tools import save_price_decision

if TYPE_CHECKING:
    from pathlib import Path

    from conftest import SandboxFactory
    from memhooks.demo import harness

PREFERENCE = "Answer in British English"


def cli(box: harness.Sandbox, project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(box.python), str(box.root / "plugin-src" / "hooks" / "memhooks.py"), *argv],
        cwd=project,
        env={**box.env(), "CLAUDE_PLUGIN_DATA": str(box.plugin_data)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


def test_a_user_preference_from_project_a_reaches_project_b_and_stays_out_of_it(
    sandboxes: SandboxFactory,
) -> None:
    box = sandboxes("user-tier")
    project_a = box.root / "project-a"
    (project_a / ".git").mkdir(parents=True)
    cli(box, project_a, "start")
    saved = cli(box, project_a, "remember", "--user", PREFERENCE)
    assert "in the user tier (~/.local/share/memhooks-user/" in saved.stdout
    assert not list((project_a / ".claude" / "memory" / "preferences").glob("*.md"))

    (box.project / ".git").mkdir(exist_ok=True)
    cli(box, box.project, "start")
    decision = save_price_decision(box)  # project B's own memory
    step = box.run("What do you know about me?", name="project B")
    assert step.rc == 0, step.stderr
    (context,) = step.contexts("SessionStart")
    assert f"- {PREFERENCE}\n" in context
    assert context.index(decision.removeprefix(".claude/memory/")) < context.index(PREFERENCE)
    assert '<memhooks-data source="~/.local/share/memhooks-user/MEMORY.md">' in context
    for path in box.project.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert "British English" not in path.read_text(encoding="utf-8", errors="replace"), path
