# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The plugin as a user installs it: validation, a project that never started memory, and
the dependency bootstrap on a machine that has only a bare Python."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox_tools import box_local

from memhooks.demo import harness
from memhooks.demo.hook_python import python_tag
from support import turn_on_here

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import SandboxFactory

REPO = Path(__file__).resolve().parents[2]
BOOTSTRAP_WAIT_S = 180
#: What the plugin may add to the first request of a session where memory is off.
CONTEXT_COST_BUDGET = 800


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


def _first_request_chars(box: harness.Sandbox) -> tuple[int, str]:
    """The size of the first request of `claude -p hello` in this sandbox, and its text,
    with the sandbox's own path and the per-run ids taken out."""
    step = box.run("hello")
    assert step.rc == 0, step.stderr[-2000:]
    body = dict(step.requests[0].body)
    body.pop("metadata", None)  # device and session ids: random, not the plugin's
    text = json.dumps(body, ensure_ascii=False).replace(str(box.root), "<root>")
    return len(text), step.model_text()


def test_context_cost_where_memory_is_off(sandboxes: SandboxFactory) -> None:
    """The plugin's price in every session, memory on or not: what its skill, agents and
    commands add to the first request the real CLI sends. Commands only a person runs are
    not listed to the model (disable-model-invocation)."""
    with_plugin, text = _first_request_chars(sandboxes("cost-plugin"))
    without, _ = _first_request_chars(sandboxes("cost-noplug", install=False))
    added = with_plugin - without
    print(f"context cost of the plugin: {added} characters ({with_plugin} vs {without})")
    assert "memory:memory-summarizer" in text, "the measurement must see the plugin"
    listed = [line for line in text.splitlines() if line.startswith("- memory:")]
    assert sorted(line.split(":")[1] for line in listed) == [
        "memory",
        "memory-summarizer",
        "memory-synthesizer",
    ], listed
    assert 0 < added <= CONTEXT_COST_BUDGET, added


def test_bootstrap_installs_the_dependencies(
    sandboxes: SandboxFactory,
    no_deps_python: Path,
    record_times: Callable[[str, harness.Sandbox], None],
) -> None:
    """A project where memory is already on (the user turned it on here, then a Python
    upgrade) and no dependencies: SessionStart installs them in the background, isolated,
    from the plugin's data folder; a project that never started memory gets no installer."""
    box = sandboxes("bootstrap", seed=False, python=no_deps_python)
    untouched = box.run("hello")
    assert untouched.rc == 0
    assert not (box.plugin_data / "deps").exists(), "no installer where memory is off"
    memory = box.project / ".claude" / "memory"
    memory.mkdir(parents=True)
    turn_on_here(box.project, state_home=box.home / ".local" / "state")
    (box_local(box, memory) / "session.json").write_text(
        '{"version": 1, "active": true, "started": "2026-01-01T00:00:00Z"}', encoding="utf-8"
    )
    first = box.run("hello again", resume=True)
    assert first.rc == 0
    marker = box.plugin_data / "deps" / python_tag(box.python) / ".memhooks-deps-ok"
    deadline = time.monotonic() + BOOTSTRAP_WAIT_S
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(2)
    log = box.plugin_data / "deps" / "install.log"
    assert marker.exists(), log.read_text()[-2000:] if log.exists() else "no install.log"
    status = box.run("/memory status", resume=True)
    record_times("bootstrap", box)
    assert status.rc == 0
    assert "ACTIVE" in status.request_text()
    assert "installing" not in status.request_text()  # it was there already
