# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Issue 27 through the real CLI, the plugin installed from its marketplace.

- A session in a git worktree (memory turned on in the main checkout only) gets the main
  checkout's memory, saves a decision in its own tree, and the main checkout sees that
  decision after the branch merges, not before.
- `/memory import --native` files the project's Claude Code auto memory topic files once; the
  second import writes nothing.
"""

from __future__ import annotations

import json
import re
import subprocess
from typing import TYPE_CHECKING

from memhooks.demo import scenario
from support import git

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from conftest import SandboxFactory
    from memhooks.demo import harness

DECISION = "we decided to use postgres for the job queue"
MAIN_DECISION = "we decided to deploy the database first, then the workers"


def _bash(command: str, tool_id: str) -> scenario.Reply:
    return scenario.Reply(
        call=scenario.Call("Bash", {"command": command, "description": "memhooks"}, tool_id)
    )


def _cli(box: harness.Sandbox, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(box.python), str(box.root / "plugin-src" / "hooks" / "memhooks.py"), *args],
        cwd=cwd,
        env={**box.env(), "CLAUDE_PLUGIN_DATA": str(box.plugin_data)},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


def _decisions(project: Path) -> str:
    folder = project / ".claude" / "memory" / "decisions"
    return "".join(p.read_text("utf-8") for p in sorted(folder.glob("*.md")))


def _found(box: harness.Sandbox, project: Path) -> list[str]:
    """The titles `recall` finds for the worktree's decision in `project`."""
    out = _cli(box, "recall", "postgres", "job", "queue", "--json", cwd=project).stdout
    return [r["title"] for r in json.loads(out)["results"] if "postgres" in r["title"].lower()]


def test_a_worktree_decision_reaches_main_when_the_branch_merges(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> None:
    box = sandboxes("worktree")
    main = box.root / "main"
    main.mkdir()
    git("init", "-q", "-b", "main", cwd=main)
    _cli(box, "start", cwd=main)
    _cli(box, "remember", MAIN_DECISION, cwd=main)
    git("add", "-A", cwd=main)
    git("commit", "-q", "-m", "memory", cwd=main)
    box.project.rmdir()  # the sandbox's project becomes a worktree of `main`
    git("worktree", "add", "-q", "-b", "feature", str(box.project), cwd=main)
    cli = f'python3 "{box.root / "plugin-src"}/hooks/memhooks.py"'
    prompt = "Please remember the queue choice for this branch"
    box.mock.add(
        *scenario.Turn(
            prompt,
            (
                _bash(f"{cli} remember '{DECISION}'", "toolu_wt_remember_01"),
                scenario.Reply(text="Saved in this worktree's memory."),
            ),
        ).rules()
    )
    step = box.run(prompt, name="worktree session")
    record_times("worktree", box)
    assert step.rc == 0, step.stderr
    # Consent given in the main checkout covers the worktree: its memory was briefed.
    assert any("deploy the database" in c for c in step.contexts("SessionStart")), step.contexts()
    assert "postgres" in _decisions(box.project)
    # SessionEnd's one line: the host parses it as a systemMessage (seen in its debug log;
    # `claude -p` prints nothing of it).
    log = (box.logs / "step-1.debug.log").read_text(encoding="utf-8", errors="replace")
    assert re.search(r'"systemMessage":\s*"memhooks: 1 memory in this worktree is not on main', log)
    assert "postgres" not in _decisions(main)  # not before the merge
    assert not _found(box, main)
    status = json.loads(_cli(box, "status", "--json", cwd=box.project).stdout)
    assert status["unmerged"]["branch"] == "main"
    assert len(status["unmerged"]["paths"]) == 1
    git("add", "-A", cwd=box.project)
    git("commit", "-q", "-m", "queue decision", cwd=box.project)
    git("merge", "-q", "feature", cwd=main)
    assert "postgres" in _decisions(main)  # after the merge
    assert _found(box, main)
    status = json.loads(_cli(box, "status", "--json", cwd=box.project).stdout)
    assert status["unmerged"]["paths"] == []


TOPICS = {
    "feedback_bun.md": "---\nname: Use bun not npm\ndescription: Install with bun, never "
    "npm\ntype: feedback\n---\n\nAlways use bun.\n",
    "project_freeze.md": "---\nname: merge-freeze\ndescription: No merges during the "
    "release cut\ntype: project\n---\n\nNo merges to main while the release is cut.\n",
}


def test_import_native_files_topic_files_once(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> None:
    box = sandboxes("native")
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(box.project.resolve()))
    native = box.home / ".claude" / "projects" / slug / "memory"
    native.mkdir(parents=True)
    (native / "MEMORY.md").write_text(
        "- [Use bun not npm](feedback_bun.md) — bun only\n", encoding="utf-8"
    )
    for name, text in TOPICS.items():
        (native / name).write_text(text, encoding="utf-8")
    before = {p.name: p.read_bytes() for p in native.iterdir()}
    cli = f'python3 "{box.root / "plugin-src"}/hooks/memhooks.py"'
    for n in (1, 2):
        box.mock.add(
            *scenario.Turn(
                "memory:import",
                (
                    _bash(f"{cli} import --dry-run --native", f"toolu_native_{n}_dry"),
                    _bash(f"{cli} import --native", f"toolu_native_{n}_real"),
                    scenario.Reply(text="Imported."),
                ),
            ).rules()
        )
    started = box.run("/memory start")
    first = box.run("/memory import --native", resume=True)
    second = box.run("/memory import --native", resume=True)
    record_times("native", box)
    assert (started.rc, first.rc, second.rc) == (0, 0, 0)
    assert "2 imported" in first.model_text()
    assert "Nothing to do." in second.model_text()
    assert "0 imported, 2 already imported" in second.model_text()
    memory = box.project / ".claude" / "memory"
    filed = sorted(p.relative_to(memory).as_posix() for p in memory.glob("*/*.md")
                   if "native_path:" in p.read_text("utf-8"))  # fmt: skip
    assert len(filed) == 2
    assert filed[0].startswith("decisions/")
    assert filed[1].startswith("preferences/")
    assert {p.name: p.read_bytes() for p in native.iterdir()} == before  # never written
