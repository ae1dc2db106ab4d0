# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The plugin as a user installs it: validation, a project that never started memory, and
the dependency bootstrap on a machine that has only a bare Python."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from memhooks.demo import harness

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import SandboxFactory

REPO = Path(__file__).resolve().parents[2]
BOOTSTRAP_WAIT_S = 180


def test_validate_strict(sandboxes: SandboxFactory) -> None:
    box = sandboxes("validate", install=False)
    proc = box.claude_cmd("plugin", "validate", str(REPO), "--strict")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]


def test_nothing_happens_where_memory_was_never_started(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> None:
    box = sandboxes("never-started")
    first = box.run("hello, what does this project do?")
    second = box.run("and what is next?", resume=True)
    record_times("never-started", box)
    assert first.rc == 0
    assert second.rc == 0
    ours = [r for s in (first, second) for r in s.hooks if "memhooks.py" in r.command]
    assert ours, "the plugin's hooks should still run"
    assert not [r.label for r in ours if r.context], "nothing may be injected"
    for step in (first, second):
        assert ".claude/memory" not in "\n".join(step.contexts())
    assert not (box.project / ".claude" / "memory").exists()


def test_bootstrap_installs_the_dependencies(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> None:
    """No pre-seeded dependencies: the first SessionStart installs them in the background."""
    box = sandboxes("bootstrap", seed=False)
    first = box.run("hello")
    assert first.rc == 0
    marker = box.plugin_data / "deps" / harness.python_tag(box.python) / ".memhooks-deps-ok"
    deadline = time.monotonic() + BOOTSTRAP_WAIT_S
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(2)
    log = box.plugin_data / "deps" / "install.log"
    assert marker.exists(), log.read_text()[-2000:] if log.exists() else "no install.log"
    started = box.run("/memory start", resume=True)
    record_times("bootstrap", box)
    assert started.rc == 0
    assert (box.project / ".claude" / "memory" / "_session.json").is_file()
