# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`/memory export` and `/memory import` through the real CLI, the plugin installed from its
marketplace: the model (the mock) runs the commands the command files tell it to run, with
the user's words quoted, and the host allows them by the files' own `allowed-tools`."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from typing import TYPE_CHECKING

from sandbox_tools import box_state

from memhooks.demo import scenario

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import SandboxFactory
    from memhooks.demo import harness


def _bash(command: str, tool_id: str) -> scenario.Reply:
    return scenario.Reply(
        call=scenario.Call("Bash", {"command": command, "description": "memhooks"}, tool_id)
    )


def test_export_then_import_through_the_slash_commands(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> None:
    box = sandboxes("transfer")
    cli = f'python3 "{box.root / "plugin-src"}/hooks/memhooks.py"'
    bundle = box.root / "conventions.tar.gz"
    box.mock.add(
        *scenario.Turn(
            "memory:export",
            (
                _bash(f"{cli} export --category runbook --out '{bundle}'", "toolu_export_01"),
                scenario.Reply(text="Exported."),
            ),
        ).rules(),
        *scenario.Turn(
            "memory:import",
            (
                _bash(f"{cli} import --dry-run '{bundle}'", "toolu_import_01"),
                _bash(f"{cli} import '{bundle}'", "toolu_import_02"),
                scenario.Reply(text="Imported."),
            ),
        ).rules(),
    )
    started = box.run("/memory start")
    saved = subprocess.run(
        [sys.executable, "-m", "memhooks", "--project", str(box.project), "save", "runbook",
         "--title", "Rotate the CDN token", "--body", "1. ask ops\n2. update CDN_TOKEN"],
        env={**os.environ, **box_state(box)},  # the sandbox's machine, where it was started
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    exported = box.run("/memory export the runbooks", resume=True)
    imported = box.run(f"/memory import {bundle}", resume=True)
    record_times("transfer", box)
    assert (started.rc, exported.rc, imported.rc) == (0, 0, 0)

    with tarfile.open(bundle) as tar:
        assert tar.getnames() == ["manifest.json", "memory/runbooks/rotate-the-cdn-token.md"]
    text = exported.model_text()
    assert "memory:export" in text
    assert "Exported 1 memories" in text  # the tool result came back to the model
    text = imported.model_text()
    assert "memory:import" in text
    assert "Dry run: nothing written." in text
    assert "0 imported, 1 already present" in text  # the second call ran too
