"""Shared fixtures: every test runs in its own project, and never touches the real home."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
LAUNCHER = REPO / "hooks" / "memhooks.py"


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test that writes to the real home directory fails loudly instead of polluting it."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
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


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The CLI in a new process, exactly as the plugin's commands run it."""
    return subprocess.run(
        [sys.executable, str(LAUNCHER), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=120,
        check=False,
    )


def run_hook(
    event: str,
    payload: object,
    *,
    env: dict[str, str] | None = None,
    raw: bytes | None = None,
    timeout: float = 30,
) -> subprocess.CompletedProcess[bytes]:
    data = raw if raw is not None else json.dumps(payload).encode()
    return subprocess.run(
        [sys.executable, str(LAUNCHER), "hook", event],
        input=data,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        check=False,
    )


def hook_examples() -> dict[str, dict[str, object]]:
    """One real stdin payload per event, recorded from the real CLI."""
    examples: dict[str, dict[str, object]] = {}
    path = SHARED / "e2e" / "hook_stdin_examples.jsonl"
    if not path.exists():
        return examples
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            payload = record["stdin"]
            examples.setdefault(record["case"], payload)
            examples.setdefault(payload["hook_event_name"], payload)
    return examples


@pytest.fixture
def examples() -> dict[str, dict[str, object]]:
    found = hook_examples()
    if not found:
        pytest.skip(f"real hook payloads not found at {SHARED}/e2e (the shared/ folder)")
    return found
