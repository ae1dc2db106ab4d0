"""The plugin's manifests and hooks.json match the code, and the hook command works as written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks import __version__
from memhooks.hooks.entry import HANDLERS
from support import REPO, run_cli

HOOKS = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]


def test_every_handler_is_wired_and_nothing_else() -> None:
    assert set(HOOKS) == set(HANDLERS)
    for event, groups in HOOKS.items():
        for group in groups:  # the tool events have one group per matcher
            (hook,) = group["hooks"]
            assert hook["type"] == "command"
            assert f"hook {event}" in hook["command"]
            assert '"${CLAUDE_PLUGIN_ROOT}/hooks/memhooks.py"' in hook["command"]  # quoted
            assert 0 < hook["timeout"] <= 60


def test_the_write_guard_matches_exactly_the_tools_it_checks() -> None:
    """Every tool call starts a process for a matching hook: match nothing more."""
    from memhooks.guard.write_guard import FILE_TOOLS, GUARDED_TOOLS
    from memhooks.hooks.post_tool_use import WATCHED_TOOLS

    pre = [g["matcher"] for g in HOOKS["PreToolUse"] if "Write" in g.get("matcher", "")]
    assert pre == ["|".join(GUARDED_TOOLS)]
    post = [g["matcher"] for g in HOOKS["PostToolUse"] if "Write" in g.get("matcher", "")]
    assert post == ["|".join((*FILE_TOOLS, *WATCHED_TOOLS))]


def test_session_end_stays_inside_the_hosts_budget() -> None:
    assert HOOKS["SessionEnd"][0]["hooks"][0]["timeout"] <= 2


def test_manifest_and_marketplace_agree() -> None:
    plugin = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text(encoding="utf-8"))
    assert plugin["name"] == "memory"
    assert market["name"] == "memhooks"
    (entry,) = market["plugins"]
    assert entry["name"] == plugin["name"]
    assert entry["source"] == "./"
    assert plugin["version"] == entry["version"] == __version__
    assert plugin["author"]["name"]
    assert plugin["description"]


@pytest.mark.skipif(sys.platform == "win32" or not shutil.which("bash"), reason="needs bash")
@pytest.mark.parametrize("interpreters", [("python3", "python"), ("python",)])
def test_hook_command_runs_with_python3_or_only_python(
    tmp_path: Path, started: Path, interpreters: tuple[str, ...]
) -> None:
    """Windows often has `python` but no `python3` (or a Store stub): the command falls back."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in interpreters:
        (bin_dir / name).symlink_to(sys.executable)
    assert run_cli("task", "Ship the slugs").returncode == 0  # something for the reminder
    command = HOOKS["UserPromptSubmit"][0]["hooks"][0]["command"]
    payload = {"session_id": "s", "prompt": "hello", "cwd": str(started.parent.parent)}
    done = subprocess.run(
        [str(shutil.which("bash")), "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": str(bin_dir), "CLAUDE_PLUGIN_ROOT": str(REPO)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
