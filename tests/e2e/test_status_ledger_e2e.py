# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`/memory status` through the real CLI: what each hook injected this session, in characters,
as the model received it, and a new session counted from zero."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox_tools import save_price_decision

if TYPE_CHECKING:
    from conftest import SandboxFactory

PROMPT = "Which rounding does format_price use for the prices report.py prints?"


def _injected_line(text: str) -> str:
    found = re.findall(r"Injected this session: [^\n]*", text)
    assert found, text[-2000:]
    return str(found[-1])


def test_status_shows_what_each_hook_injected_this_session(sandboxes: SandboxFactory) -> None:
    box = sandboxes("status-ledger")
    assert box.run("/memory start", name="start").rc == 0
    path = save_price_decision(box)
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
