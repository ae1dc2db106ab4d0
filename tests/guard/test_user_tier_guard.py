"""The write guard covers the user tier: its tree is written through `--user` only."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from memhooks.guard.write_guard import decide
from support import assert_denied, run_cli, run_hook

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="posix paths in the table")

P = "/proj"
BASE = "/proj/.claude/memory"
USER_BASE = "/data/memhooks-user"
CLI = "memhooks"
HASHES = {f"{USER_BASE}/preferences/use-bun.md": "0123456789abcdef"}

CASES: list[tuple[str, dict[str, str], tuple[str, tuple[str, ...]] | None]] = [
    (
        "Write",
        {"file_path": f"{USER_BASE}/preferences/new.md", "content": "x"},
        ("preferences/new.md", ("memhooks save preference --user", "remember --user")),
    ),
    (
        "Edit",
        {"file_path": f"{USER_BASE}/preferences/use-bun.md"},
        (
            "preferences/use-bun.md",
            ("save preference --user --update preferences/use-bun.md --if-hash 0123456789abcdef",),
        ),
    ),
    (
        "Bash",
        {"command": f"rm {USER_BASE}/preferences/use-bun.md"},
        ("preferences/use-bun.md", ("retire --user preferences/use-bun.md",)),
    ),
    (
        "Bash",
        {"command": f"echo x >> {USER_BASE}/MEMORY.md"},
        ("MEMORY.md", ("not a memory file", "remember --user")),
    ),
    ("Bash", {"command": "rm -rf /data"}, ("", ("`the user tier` is not a memory file",))),
    ("Write", {"file_path": "/data/memhooks/other.md"}, None),
    ("Bash", {"command": f"cat {USER_BASE}/MEMORY.md"}, None),
]


@pytest.mark.parametrize(("tool", "tool_input", "expected"), CASES)
def test_user_tier_decision(
    tool: str, tool_input: dict[str, str], expected: tuple[str, tuple[str, ...]] | None
) -> None:
    verdict = decide(
        tool,
        tool_input,
        cwd=P,
        memory_base=BASE,
        cli=CLI,
        current_hash=HASHES.get,
        user_base=USER_BASE,
        allow_direct=True,  # direct edits of project memories never open the user tier
    )
    assert_denied(verdict, expected, USER_BASE)
    assert verdict is None or "user tier" in verdict.reason


def test_without_a_user_base_only_the_project_tree_is_guarded() -> None:
    write = {"file_path": f"{USER_BASE}/preferences/new.md"}
    assert decide("Write", write, cwd=P, memory_base=BASE, cli=CLI) is None


def _payload(project: Path, tool: str, tool_input: dict[str, str]) -> dict[str, object]:
    return {
        "session_id": "s1",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
    }


def test_hook_refuses_direct_writes_into_the_user_tier(started: Path) -> None:
    saved = run_cli("remember", "--user", "I prefer bun over npm", "--json")
    assert saved.returncode == 0, saved.stderr
    user = Path("~/.local/share/memhooks-user").expanduser()
    relative = json.loads(saved.stdout)["path"].split("user/", 1)[-1]
    assert (user / relative).is_file()
    project = started.parent.parent
    for tool, tool_input in (
        ("Edit", {"file_path": str(user / relative)}),
        ("Write", {"file_path": str(user / "preferences" / "x.md"), "content": "x"}),
        ("Bash", {"command": f"sed -i s/bun/npm/ ~/.local/share/memhooks-user/{relative}"}),
    ):
        done = run_hook("PreToolUse", _payload(project, tool, tool_input))
        assert done.returncode == 0
        hook = json.loads(done.stdout)["hookSpecificOutput"]
        assert hook["permissionDecision"] == "deny"
        reason = str(hook["permissionDecisionReason"])
        assert "`~/.local/share/memhooks-user/" in reason
        assert "--user" in reason
    elsewhere = run_hook(
        "PreToolUse", _payload(project, "Write", {"file_path": str(user.parent / "notes.md")})
    )
    assert elsewhere.returncode == 0
    assert elsewhere.stdout == b""
