"""Helpers shared by the tests: where things are, and running the launcher as the host does."""

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


#: Symlinks need administrator rights (or developer mode) on Windows.
needs_symlinks = pytest.mark.skipif(
    sys.platform == "win32", reason="creating symlinks needs admin rights on Windows"
)
