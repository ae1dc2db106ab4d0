"""Shared fixtures: every test runs in its own project, and never touches the real home."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from support import FIXTURES, hook_examples


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test that writes to the real home directory fails loudly instead of polluting it."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)  # the user cache is under HOME too
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)


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
