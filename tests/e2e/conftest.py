# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Fixtures for the end-to-end suite: the pinned claude CLI, sandboxes, and hook timings.

The CLI is installed once into the user cache (~/.cache/memhooks, or $MEMHOOKS_E2E_DIR) and
reused by `.ci/run`, the tests and the demo alike.
Without npm the suite is skipped, except under CI=true, where a missing CLI is a failure:
CI must never pass by skipping the tests that matter most.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sandbox_tools import bare_python, stop_hook_durations

from memhooks.demo import HarnessError, harness, pinned_cli
from memhooks.demo.hook_python import base_python, ensure_deps
from memhooks.demo.mock_api import MockApi
from memhooks.install import semantic_assets

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

REPO = Path(__file__).resolve().parents[2]
#: Resolved at import, before the per-test fixture points HOME at a temporary folder.
CACHE = pinned_cli.cache_dir()
TIMES_FILE = "e2e-hook-times.json"
_TIMES: list[dict[str, Any]] = []
_WRITTEN: list[Path] = []


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the e2e suite must run, not skip)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    cache = CACHE
    found = pinned_cli.find_claude(cache)
    if found is not None:
        return found
    if shutil.which("npm") is None:
        _unavailable("npm is not installed, so the pinned claude CLI cannot be fetched")
    try:
        return pinned_cli.install_claude(cache)
    except HarnessError as exc:
        _unavailable(str(exc))
        raise  # unreachable: _unavailable raises; keeps type checkers content


@pytest.fixture(scope="session")
def e2e_cache() -> Path:
    """The user cache (or $MEMHOOKS_E2E_DIR) that `.ci/run` and the demo use too."""
    return CACHE


@pytest.fixture(scope="session")
def no_deps_python() -> Path:
    """A Python with pip and nothing else: a new user's machine, whatever this one has."""
    python = bare_python(CACHE)
    probe = [str(python), "-c", "import pydantic"]
    assert subprocess.run(probe, capture_output=True, check=False).returncode != 0
    return python


@pytest.fixture(scope="session")
def hook_python() -> Path:
    """The interpreter the hooks run on: the system's, with none of the suite's packages."""
    return base_python()


@pytest.fixture(scope="session")
def seeded_deps(hook_python: Path) -> Path | None:
    """Dependencies pre-installed for the hooks; None leaves it to the plugin's bootstrap."""
    try:
        return ensure_deps(CACHE, hook_python)
    except HarnessError:
        return None


class SandboxFactory:
    """Makes sandboxes with the plugin installed through the marketplace."""

    def __init__(self, base: Path, claude: Path, python: Path, deps: Path | None) -> None:
        self.base = base
        self.claude = claude
        self.python = python
        self.deps = deps
        self._mocks: list[MockApi] = []

    def __call__(
        self, name: str, *, install: bool = True, seed: bool = True, python: Path | None = None
    ) -> harness.Sandbox:
        mock = MockApi(record=None).__enter__()
        self._mocks.append(mock)
        root = self.base / name
        box = harness.Sandbox(root, self.claude, mock, python=python or self.python)
        # A sandbox never downloads the ~100 MB model of semantic signals (the unit tests and
        # tests/benchmark/semantic_eval.py measure them with a committed token table).
        semantic_assets.disable(box.plugin_data, box.inline_plugin_data)
        (root / "requests").mkdir(exist_ok=True)
        mock.record = root / "requests" / "requests.jsonl"
        if install:
            box.install_plugin(REPO)
        if seed and self.deps is not None:
            box.seed_deps(self.deps)
        return box

    def close(self) -> None:
        for mock in self._mocks:
            mock.close()


@pytest.fixture(scope="session")
def sandboxes(
    tmp_path_factory: pytest.TempPathFactory,
    claude_bin: Path,
    hook_python: Path,
    seeded_deps: Path | None,
) -> Iterator[SandboxFactory]:
    factory = SandboxFactory(tmp_path_factory.mktemp("e2e"), claude_bin, hook_python, seeded_deps)
    yield factory
    factory.close()


@pytest.fixture(scope="session")
def record_times(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[str, harness.Sandbox], None]]:
    """Call with a scenario name and its sandbox: every hook run of its steps is kept."""

    def record(scenario: str, box: harness.Sandbox) -> None:
        for number, step in enumerate(box.steps, 1):
            _TIMES.extend(
                {
                    "scenario": scenario,
                    "step": number,
                    "prompt": step.prompt[:40],
                    "hook": run.label,
                    "ms": run.ms,
                    "measured": run.measured,
                    "status": run.status,
                }
                for run in step.hooks
            )
        _TIMES.extend(
            {"scenario": scenario, "step": 0, "prompt": "(stop_hook_summary)", "hook": hook}
            | {"ms": ms, "measured": "transcript", "status": 0}
            for hook, ms in box_stop_summaries(box)
        )

    yield record
    out = tmp_path_factory.getbasetemp() / TIMES_FILE
    out.write_text(json.dumps(_TIMES, indent=2), encoding="utf-8")
    _WRITTEN.append(out)


def box_stop_summaries(box: harness.Sandbox) -> list[tuple[str, int]]:
    """Stop-hook durations the host wrote into each session's transcript."""
    found: list[tuple[str, int]] = []
    for session_id in dict.fromkeys(s.session_id for s in box.steps if s.session_id):
        found += [
            (c.rsplit(" ", 1)[-1], ms) for c, ms in stop_hook_durations(box.transcript(session_id))
        ]
    return found


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print each hook's time inside the host, whether or not -s was given."""
    del exitstatus
    rows, where = _TIMES, _WRITTEN[-1] if _WRITTEN else TIMES_FILE
    if not rows:  # under pytest-xdist the workers wrote them, each into its own base temp
        written = sorted(config._tmp_path_factory.getbasetemp().glob(f"*/{TIMES_FILE}"))  # type: ignore[attr-defined]
        rows = [row for path in written for row in json.loads(path.read_text(encoding="utf-8"))]
        where = ", ".join(map(str, written))
    if not rows:
        return
    by_hook: dict[str, list[float]] = {}
    for row in rows:
        if row["ms"] is not None:
            key = f"{row['hook']} ({row['measured']})"
            by_hook.setdefault(key, []).append(float(row["ms"]))
    terminalreporter.section("memhooks: hook time inside claude (ms)")
    terminalreporter.write_line(f"{'hook':<44} {'n':>3} {'median':>8} {'max':>8}")
    for key, values in sorted(by_hook.items()):
        terminalreporter.write_line(
            f"{key:<44} {len(values):>3} {_median(values):>8.0f} {max(values):>8.0f}"
        )
    terminalreporter.write_line(f"every run, with the measuring method: {where}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Everything in this folder drives the real CLI: mark it so `-m "not e2e"` skips it."""
    del config
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)
