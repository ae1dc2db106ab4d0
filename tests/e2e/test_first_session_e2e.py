# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""A new user's first minutes, through the real CLI: `/memory start` as the very first prompt
of the very first session, on a Python that has none of the dependencies, installed through
the marketplace and loaded with `--plugin-dir`; and what a marketplace install copies."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sandbox_tools import box_local, tree_size

from memhooks.cli.commands.start import CONFIRMATION
from memhooks.demo import harness
from memhooks.demo.hook_python import python_tag

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import SandboxFactory

REPO = Path(__file__).resolve().parents[2]
INSTALL_LIMIT_MB = 25.0  # a clean clone: 22 MB, 19 MB of it test fixtures (docs/install.md)
#: What a developer's own runs leave in their checkout (a venv made by hand, the caches of a
#: bare `mypy` or `pytest`): reported, not counted. `.ci/run` and the tests create none of
#: them there (their venv, CLI, caches and benchmark files live in the user cache).
DEVELOPER_OWN = (".venv", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis")
#: What the project's own tooling used to leave in the checkout: never again.
NEVER = (".e2e", ".bench")


def _model_saw(step: harness.Step, text: str) -> bool:
    return text in step.request_text()


def _check_first_start(step: harness.Step, box: harness.Sandbox, data: Path) -> None:
    logs = f"stdout: {step.stdout[-1500:]}\nstderr: {step.stderr[-1500:]}"
    assert step.rc == 0, logs
    memory = box.project / ".claude" / "memory"
    assert (box_local(box, memory) / "session.json").is_file(), logs
    assert _model_saw(step, CONFIRMATION), logs  # the command's output reached the model
    assert "${CLAUDE_PLUGIN_DATA}" not in step.request_text()
    assert "is not installed yet" not in step.request_text()
    marker = data / "deps" / python_tag(box.python) / ".memhooks-deps-ok"
    assert marker.is_file(), f"the dependencies were not installed into {data}"


def test_first_prompt_of_first_session_marketplace(
    sandboxes: SandboxFactory,
    no_deps_python: Path,
    record_times: Callable[[str, harness.Sandbox], None],
) -> None:
    box = sandboxes("first-start-marketplace", seed=False, python=no_deps_python)
    step = box.run("/memory start")
    record_times("first-start-marketplace", box)
    _check_first_start(step, box, box.plugin_data)
    again = box.run("/memory status", resume=True)
    assert again.rc == 0
    assert "ACTIVE" in again.request_text()


def test_first_prompt_of_first_session_plugin_dir(
    sandboxes: SandboxFactory,
    no_deps_python: Path,
    record_times: Callable[[str, harness.Sandbox], None],
) -> None:
    box = sandboxes("first-start-inline", install=False, seed=False, python=no_deps_python)
    checkout = harness.stage_plugin(REPO, box.root / "checkout")
    step = box.run("/memory start", plugin_dirs=[checkout])
    record_times("first-start-inline", box)
    # The host's data folder for an inline plugin is `<plugin>-inline`: the command file
    # passes it on, nothing guesses it.
    _check_first_start(step, box, box.inline_plugin_data)
    # The marketplace folder holds only the sandbox's own marker (no model download): nothing
    # was installed or cached there.
    used = sorted(p.name for p in box.plugin_data.iterdir()) if box.plugin_data.exists() else []
    assert used in ([], ["semantic"]), used


def test_marketplace_install_copies_only_the_plugin(sandboxes: SandboxFactory) -> None:
    """From this very checkout, with whatever `.ci/run` and the tests left in it."""
    box = sandboxes("install-size", install=False)
    for args in (
        ("plugin", "marketplace", "add", str(REPO)),
        ("plugin", "install", f"{harness.PLUGIN}@{harness.MARKETPLACE}"),
    ):
        done = box.claude_cmd(*args)
        assert done.returncode == 0, done.stdout + done.stderr
    cache = box.home / ".claude" / "plugins" / "cache"
    total, _ = tree_size(cache)
    (installed,) = [p for p in cache.glob("*/*/*") if p.is_dir()]
    _, top = tree_size(installed)
    own = sum(top.get(name, 0) for name in DEVELOPER_OWN)
    counted = (total - own) / 1e6
    largest = sorted(top.items(), key=lambda kv: -kv[1])[:6]
    report = ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in largest)
    print(
        f"\nmarketplace install from {REPO}: {total / 1e6:.1f} MB copied"
        + (f" ({own / 1e6:.1f} MB of it the developer's own venv and caches)" if own else "")
        + f"; largest: {report}"
    )
    assert counted < INSTALL_LIMIT_MB, f"{counted:.1f} MB copied: {report}"
    for made_by_tooling in NEVER:
        assert made_by_tooling not in top, f"{made_by_tooling} is in the checkout: {report}"
