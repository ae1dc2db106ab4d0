"""Shared fixtures: every test runs in its own project, and never touches the real home.

Each test has a HOME of its own, and its machine-local state and user tier under it
(`~/.local/state/memhooks/`, `~/.local/share/memhooks-user/`). Beneath that, the whole run
points XDG_STATE_HOME and XDG_DATA_HOME at a folder of its own (what a test's HOME hides),
so a write that escapes a test's HOME (a `monkeypatch.undo()`, an environment copied before
the test began) lands there instead of in the real state folder, and fails the run."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from support import FIXTURES, hook_examples

TYPE_CHECKING = False
if TYPE_CHECKING:
    from plugin_host import Host

#: The run's own state and data folders (inherited by xdist's workers); made by the first
#: process of the run, which checks them when the run ends.
RUN_DIR_ENV = "MEMHOOKS_TESTS_RUN_DIR"
RUN_FOLDERS = {"XDG_STATE_HOME": "state", "XDG_DATA_HOME": "data"}
_made: list[Path] = []
_escaped: list[str] = []


def pytest_configure() -> None:
    if os.environ.get(RUN_DIR_ENV):
        return
    run_dir = Path(tempfile.mkdtemp(prefix="memhooks-tests-"))
    os.environ[RUN_DIR_ENV] = str(run_dir)
    for name, folder in RUN_FOLDERS.items():
        os.environ[name] = str(run_dir / folder)
    _made.append(run_dir)


def escaped_writes(run_dir: Path) -> list[str]:
    """What the run left in its own state and data folders: each is a write that escaped a
    test's HOME, and would have gone into the real `~/.local/state` or `~/.local/share`."""
    return sorted(
        str(path.relative_to(run_dir))
        for folder in RUN_FOLDERS.values()
        if (run_dir / folder).is_dir()
        for path in (run_dir / folder).rglob("*")
        if not path.is_dir()
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    for run_dir in _made:
        _escaped.extend(escaped_writes(run_dir))
        shutil.rmtree(run_dir, ignore_errors=True)
    if _escaped:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _escaped:
        terminalreporter.write_sep("=", "written outside the tests' own HOME", red=True)
        for name in _escaped[:20]:
            terminalreporter.write_line(f"  {name}")


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HOME (and USERPROFILE) point at an empty temporary folder: what a test writes under `~`
    (its machine-local state and user tier included) lands there, never in the real home."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)  # the user cache is under HOME too
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)  # and the state (store.local, .consent)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)  # and the user tier (store.user_tier)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An interpreter with no pydantic, no frontmatter, and no pip either: had the
    installer run `-m pip` from the project, the project's `pip/` would be the one found."""
    from plugin_host import bare_python as bare

    return bare(tmp_path_factory.mktemp("bare"))


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(a bare python, the plugin's root as a marketplace install copies it, its seeded
    dependencies): a machine the plugin is installed on (plugin_host), made once a module."""
    from plugin_host import bare_python as bare
    from plugin_host import install_plugin, seed_deps

    base = tmp_path_factory.mktemp("machine")
    return bare(base), install_plugin(base / "home"), seed_deps(base / "deps")


@pytest.fixture
def host(machine: tuple[Path, Path, Path], tmp_path: Path) -> Host:
    """The host on that machine, in this test's HOME, with a project of its own to make."""
    from plugin_host import Host

    return Host(*machine, Path.home(), tmp_path / "project")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project with space"
    root.mkdir()
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(root))
    return root


@pytest.fixture
def started(project: Path) -> Path:
    """A project where `memhooks start` ran; returns the memory root."""
    from memhooks.cli.main import main

    assert main(["start"]) == 0
    return project / ".claude" / "memory"


@pytest.fixture
def examples() -> dict[str, dict[str, object]]:
    found = hook_examples()
    if not found:
        pytest.fail(f"real hook payloads missing from {FIXTURES}")
    return found


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`memhooks start` run in-process in tmp_path (stdin empty); returns the memory root."""
    from memhooks.cli.main import main

    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["start"]) == 0
    return tmp_path / ".claude" / "memory"
