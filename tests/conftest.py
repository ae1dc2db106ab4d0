"""Shared fixtures: every test runs in its own project, and never touches the real home."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import FIXTURES, hook_examples


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HOME (and USERPROFILE) point at an empty temporary folder: what a test writes under `~`
    lands there, never in the real home. Nothing here makes such a write fail."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)  # the user cache is under HOME too
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)  # and consent (store.consent)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)  # and the user tier (store.user_tier)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An interpreter with no pydantic, no frontmatter, and no pip either: had the
    installer run `-m pip` from the project, the project's `pip/` would be the one found."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    probe = "import importlib.util as u; print([m for m in ('pydantic',) if u.find_spec(m)])"
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    return python


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
