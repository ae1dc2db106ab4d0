# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`/memory status` through the real CLI: what each hook injected this session, in characters,
as the model received it, and a new session counted from zero."""

from __future__ import annotations

import json
import re
import subprocess
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import SandboxFactory

TITLE = "Every printed price goes through format_price"
PROMPT = "Which rounding does format_price use for the prices report.py prints?"


def _injected_line(text: str) -> str:
    found = re.findall(r"Injected this session: [^\n]*", text)
    assert found, text[-2000:]
    return str(found[-1])


def test_status_shows_what_each_hook_injected_this_session(sandboxes: SandboxFactory) -> None:
    box = sandboxes("status-ledger")
    assert box.run("/memory start", name="start").rc == 0
    saved = subprocess.run(
        [
            str(box.python),
            str(box.root / "plugin-src" / "hooks" / "memhooks.py"),
            "save",
            "decision",
            "--title",
            TITLE,
            "--description",
            "format_price rounds half-even and adds the currency sign; report.py must never "
            "print a raw price",
            "--json",
        ],
        cwd=box.project,
        env={**box.env(), "CLAUDE_PLUGIN_DATA": str(box.plugin_data)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert saved.returncode == 0, saved.stderr
    path = json.loads(saved.stdout)["path"]
    asked = box.run(PROMPT, name="prompt", resume=True)
    assert asked.rc == 0, asked.stderr
    pointers = asked.contexts("UserPromptSubmit")
    assert any(path in text for text in pointers), pointers
    status = box.run("/memory status", name="status", resume=True)
    assert status.rc == 0, status.stderr
    line = _injected_line(status.request_text())
    # the per-prompt pointers, counted as the model received them
    assert f"UserPromptSubmit {len(pointers[0]):,} in 1" in line, (line, len(pointers[0]))
    assert "SessionStart" in line
    fresh = box.run("/memory status", name="new session")
    assert fresh.rc == 0, fresh.stderr
    line = _injected_line(fresh.request_text())
    assert "UserPromptSubmit" not in line, line  # a new session starts from zero
    assert "SessionStart" in line
