# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""What only the e2e suite needs of a sandbox (the `memhooks demo` command does not): a Python
with nothing installed, the size of a folder, the stop-hook times a transcript records, and a
played session's steps, and a memory saved in a sandbox's project."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from memhooks.demo import HarnessError, harness
from memhooks.demo.hook_python import base_python, python_tag
from support import local_of


def bare_python(cache: Path) -> Path:
    """A Python with pip and nothing else (a venv of the base interpreter, made once): what a
    new user's machine gives the plugin, whatever this machine has installed system-wide."""
    base = base_python()
    folder = cache / "bare-python" / python_tag(base)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if (folder / ".complete").is_file():
        return python
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bare.", dir=cache))
    proc = subprocess.run(
        [str(base), "-m", "venv", str(work / "venv")], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise HarnessError(f"{base} -m venv failed: {proc.stderr[-1000:]}")
    (work / "venv" / ".complete").write_text("", encoding="utf-8")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # another run made it first
        (work / "venv").rename(folder)
    shutil.rmtree(work, ignore_errors=True)
    return python


def tree_size(root: Path) -> tuple[int, dict[str, int]]:
    """Bytes under `root` (symlinks not followed), and by top-level entry."""
    by_entry: dict[str, int] = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            top = path.relative_to(root).parts[0]
            by_entry[top] = by_entry.get(top, 0) + path.stat().st_size
    return sum(by_entry.values()), by_entry


def stop_hook_durations(transcript: Path) -> list[tuple[str, int]]:
    """(command, durationMs) from the transcript's stop_hook_summary records."""
    found: list[tuple[str, int]] = []
    if not transcript.is_file():
        return found
    for line in transcript.read_text(encoding="utf-8", errors="replace").splitlines():
        if '"stop_hook_summary"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        infos = record.get("hookInfos") or []
        found.extend((str(i.get("command", "")), int(i.get("durationMs") or 0)) for i in infos)
    return found


def box_state(box: harness.Sandbox) -> dict[str, str]:
    """The sandbox machine's state folder (`XDG_STATE_HOME`), to run this process's code or
    interpreter as that machine: what `start` recorded there is what the hooks read."""
    env = box.env()
    return {"XDG_STATE_HOME": env.get("XDG_STATE_HOME") or f"{env['HOME']}/.local/state"}


def box_local(box: harness.Sandbox, memory: Path | None = None) -> Path:
    """The machine-local folder (`store.local`) of a memory tree in the sandbox (its project's
    by default), found as the sandbox's hooks find it. Look it up after `start`: before,
    the checkout has no id."""
    with mock.patch.dict(os.environ, box_state(box)):
        return local_of(memory or box.project / ".claude" / "memory")


@dataclass
class Played:
    """A sandbox and the steps a test module's session ran in it, by name."""

    box: harness.Sandbox
    steps: dict[str, harness.Step]

    @property
    def memory(self) -> Path:
        return self.box.project / ".claude" / "memory"

    @property
    def local(self) -> Path:
        return box_local(self.box, self.memory)

    def failures(self) -> dict[str, tuple[int, str]]:
        """The steps whose CLI run did not exit 0, with the end of their stderr."""
        return {n: (s.rc, s.stderr[-300:]) for n, s in self.steps.items() if s.rc != 0}


#: The decision the pointer tests save.
PRICE_TITLE = "Every printed price goes through format_price"
PRICE_DESCRIPTION = (
    "format_price rounds half-even and adds the currency sign; report.py must never "
    "print a raw price"
)


def save_price_decision(box: harness.Sandbox, env: dict[str, str] | None = None) -> str:
    """`memhooks save` of the price decision in the sandbox's project (on the machine `env`
    describes, the sandbox's by default); its path."""
    saved = subprocess.run(
        [
            str(box.python),
            str(box.root / "plugin-src" / "hooks" / "memhooks.py"),
            "save",
            "decision",
            "--title",
            PRICE_TITLE,
            "--description",
            PRICE_DESCRIPTION,
            "--json",
        ],
        cwd=box.project,
        env=env or {**box.env(), "CLAUDE_PLUGIN_DATA": str(box.plugin_data)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert saved.returncode == 0, saved.stderr
    return str(json.loads(saved.stdout)["path"])
