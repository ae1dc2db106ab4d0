"""The write guard: a pure decision over tool inputs (one table), and the hooks around it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from memhooks.guard.write_guard import decide, relative_in_tree
from memhooks.store import content_hash
from memhooks.text.shell_writes import write_targets
from support import assert_denied, needs_symlinks, run_cli, run_hook

P = "/proj"
BASE = "/proj/.claude/memory"
CLI = 'python3 "/plugin/hooks/memhooks.py"'
HASHES = {f"{BASE}/decisions/2026-01-02_001_use-sqlite.md": "0123456789abcdef"}

# (tool, input, expected: None = untouched, else (target relative path, words in the reason))
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="posix paths in the table")

CASES: list[tuple[str, dict[str, str], tuple[str, tuple[str, ...]] | None]] = [
    # file tools: new memory, existing memory, derived files, state, elsewhere
    (
        "Write",
        {"file_path": f"{BASE}/decisions/new.md", "content": "x"},
        (
            "decisions/new.md",
            (f"{CLI} save decision <<'MEMHOOKS_EOF'", "remember --category decision"),
        ),
    ),
    (
        "Edit",
        {"file_path": f"{BASE}/decisions/2026-01-02_001_use-sqlite.md"},
        (
            "decisions/2026-01-02_001_use-sqlite.md",
            (
                "save decision --update decisions/2026-01-02_001_use-sqlite.md "
                "--if-hash 0123456789abcdef",
                "retire decisions/2026-01-02_001_use-sqlite.md",
            ),
        ),
    ),
    (
        "MultiEdit",
        {"file_path": f"{BASE}/runbooks/deploy.md"},
        ("runbooks/deploy.md", ("save runbook",)),
    ),
    (
        "Write",
        {"file_path": f"{BASE}/analysis/src_a.py.md"},
        ("analysis/src_a.py.md", ("save analysis",)),
    ),
    ("Write", {"file_path": f"{BASE}/MEMORY.md"}, ("MEMORY.md", ("derived", f"{CLI} rebuild"))),
    ("Edit", {"file_path": f"{BASE}/MEMORY-archive.md"}, ("MEMORY-archive.md", ("derived",))),
    ("Write", {"file_path": f"{BASE}/.cache/catalog.json"}, (".cache/catalog.json", ("derived",))),
    (
        "Write",
        {"file_path": f"{BASE}/sessions/abc-123.md"},
        ("sessions/abc-123.md", ("summarize --save --session abc-123",)),
    ),
    ("Write", {"file_path": f"{BASE}/master.md"}, ("master.md", ("synthesize --save",))),
    (
        "Edit",
        {"file_path": f"{BASE}/context/current-task.md"},
        ("context/current-task.md", ("task",)),
    ),
    (
        "Write",
        {"file_path": f"{BASE}/checkpoints/latest.md"},
        ("checkpoints/latest.md", ("PreCompact",)),
    ),
    ("Write", {"file_path": f"{BASE}/_session.json"}, ("_session.json", ("start", "stop"))),
    ("Write", {"file_path": f"{BASE}/config.json"}, ("config.json", ("user",))),
    ("Write", {"file_path": f"{BASE}/notes.txt"}, ("notes.txt", ("not a memory file",))),
    (
        "NotebookEdit",
        {"notebook_path": f"{BASE}/decisions/x.ipynb"},
        ("decisions/x.ipynb", ("not a memory",)),
    ),
    # path variants: relative, `..`, case of a sibling folder
    (
        "Write",
        {"file_path": ".claude/memory/decisions/rel.md"},
        ("decisions/rel.md", ("save decision",)),
    ),
    ("Write", {"file_path": f"{P}/src/../.claude/memory/MEMORY.md"}, ("MEMORY.md", ("derived",))),
    ("Write", {"file_path": f"{P}/.claude/memory/../settings.json"}, None),
    ("Write", {"file_path": f"{P}/.claude/memory-notes.md"}, None),
    ("Write", {"file_path": f"{P}/src/app.py", "content": ".claude/memory/x"}, None),
    ("Edit", {"file_path": f"{P}/README.md"}, None),
    ("Write", {"file_path": "/elsewhere/.claude/memory/decisions/a.md"}, None),
    ("Write", {}, None),
    ("Write", {"file_path": 7}, None),  # type: ignore[dict-item]
    ("Read", {"file_path": f"{BASE}/MEMORY.md"}, None),
    ("Agent", {"prompt": f"write {BASE}/MEMORY.md"}, None),
    # Bash: plain writes are caught
    ("Bash", {"command": "echo x > .claude/memory/MEMORY.md"}, ("MEMORY.md", ("derived",))),
    (
        "Bash",
        {"command": "echo x >> .claude/memory/decisions/2026-01-02_001_use-sqlite.md"},
        ("decisions/2026-01-02_001_use-sqlite.md", ("--if-hash 0123456789abcdef",)),
    ),
    (
        "Bash",
        {"command": "printf 'a' | tee -a .claude/memory/runbooks/r.md"},
        ("runbooks/r.md", ("save runbook",)),
    ),
    (
        "Bash",
        {"command": "sed -i 's/a/b/' .claude/memory/decisions/x.md"},
        ("decisions/x.md", ("save decision",)),
    ),
    (
        "Bash",
        {"command": "sed -i.bak -e 's/a/b/' .claude/memory/MEMORY.md"},
        ("MEMORY.md", ("derived",)),
    ),
    (
        "Bash",
        {"command": "rm .claude/memory/decisions/2026-01-02_001_use-sqlite.md"},
        (
            "decisions/2026-01-02_001_use-sqlite.md",
            ("retire decisions/2026-01-02_001_use-sqlite.md",),
        ),
    ),
    ("Bash", {"command": "rm -rf .claude/memory"}, ("", ("stop",))),
    ("Bash", {"command": "rm -rf .claude/memory/decisions"}, ("decisions", ("retire <path>",))),
    (
        "Bash",
        {"command": "mv /tmp/a.md .claude/memory/decisions/"},
        ("decisions", ("save decision",)),
    ),
    (
        "Bash",
        {"command": "cp notes.md .claude/memory/preferences/tabs.md"},
        ("preferences/tabs.md", ("save preference",)),
    ),
    ("Bash", {"command": "truncate -s 0 .claude/memory/MEMORY.md"}, ("MEMORY.md", ("derived",))),
    ("Bash", {"command": "cd .claude/memory && echo x > MEMORY.md"}, ("MEMORY.md", ("derived",))),
    ("Bash", {"command": "cd /tmp; echo x > .claude/memory/MEMORY.md"}, None),
    ("Bash", {"command": "sudo -u me touch .claude/memory/x.md"}, ("x.md", ("not a memory",))),
    ("Bash", {"command": f"cat a > {BASE}/MEMORY.md 2>/dev/null"}, ("MEMORY.md", ("derived",))),
    (
        "Bash",
        {"command": "cat <<'EOF' > .claude/memory/context/blockers.md\n- x\nEOF"},
        ("context/blockers.md", ("task",)),
    ),
    # Bash: reads, our own CLI and writes elsewhere are untouched
    ("Bash", {"command": "cat .claude/memory/MEMORY.md"}, None),
    ("Bash", {"command": "cp .claude/memory/decisions/a.md /tmp/backup.md"}, None),
    ("Bash", {"command": "grep -r sqlite .claude/memory > /tmp/hits.txt"}, None),
    ("Bash", {"command": "ls .claude/memory 2>&1 | head"}, None),
    ("Bash", {"command": "git add .claude/memory && git commit -m 'memory > notes'"}, None),
    (
        "Bash",
        {"command": f"{CLI} save decision <<'MEMHOOKS_EOF'\n# Title\n> quoted line\nMEMHOOKS_EOF"},
        None,
    ),
    ("Bash", {"command": f"{CLI} remember 'we write .claude/memory/x via the CLI'"}, None),
    ("Bash", {"command": "echo hi > out.txt; rm -f build/x"}, None),
    ("Bash", {"command": "echo 'unbalanced > x"}, None),
    ("Bash", {"command": ""}, None),
]


@pytest.mark.parametrize(("tool", "tool_input", "expected"), CASES)
def test_guard_decision(
    tool: str, tool_input: dict[str, str], expected: tuple[str, tuple[str, ...]] | None
) -> None:
    verdict = decide(tool, tool_input, cwd=P, memory_base=BASE, cli=CLI, current_hash=HASHES.get)
    assert_denied(verdict, expected, ".claude/memory")


@pytest.mark.parametrize(
    ("tool", "path", "allowed"),
    [
        ("Write", f"{BASE}/decisions/2026-01-02_001_x.md", True),
        ("Edit", f"{BASE}/runbooks/deploy.md", True),
        ("Write", f"{BASE}/MEMORY.md", False),  # derived files: always refused
        ("Write", f"{BASE}/.cache/search.sqlite3", False),
        ("Write", f"{BASE}/checkpoints/latest.md", False),
        ("Write", f"{BASE}/decisions/sub/x.md", False),
    ],
)
def test_allowing_direct_edits_keeps_derived_and_state_files_refused(
    tool: str, path: str, allowed: bool
) -> None:
    verdict = decide(tool, {"file_path": path}, cwd=P, memory_base=BASE, cli=CLI, allow_direct=True)
    assert verdict is not None
    assert verdict.action == ("allow" if allowed else "deny")


def test_allowing_direct_edits_still_refuses_shell_writes() -> None:
    command = {"command": "echo x > .claude/memory/decisions/2026-01-02_001_x.md"}
    verdict = decide("Bash", command, cwd=P, memory_base=BASE, cli=CLI, allow_direct=True)
    assert verdict is not None
    assert verdict.action == "deny"


def test_shell_targets_are_resolved_against_cwd_and_cd() -> None:
    found = write_targets("cd sub && echo x > a.txt; cd ../c; tee b < x", "/w")
    assert found == [(">", "/w/sub/a.txt"), ("tee", "/w/c/b")]


def test_shell_targets_expand_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", P)
    found = write_targets('echo x > "$CLAUDE_PROJECT_DIR/.claude/memory/MEMORY.md"', "/tmp")
    assert found == [(">", f"{BASE}/MEMORY.md")]


@needs_symlinks
def test_symlinked_paths_into_the_tree_are_seen(tmp_path: Path) -> None:
    base = tmp_path / "proj" / ".claude" / "memory"
    (base / "decisions").mkdir(parents=True)
    (tmp_path / "proj" / "notes").symlink_to(base / "decisions")
    (tmp_path / "alias").symlink_to(tmp_path / "proj")
    via_link = str(tmp_path / "proj" / "notes" / "a.md")
    assert relative_in_tree(via_link, str(base)) == "decisions/a.md"
    via_alias = str(tmp_path / "alias" / ".claude" / "memory" / "MEMORY.md")
    assert relative_in_tree(via_alias, str(base)) == "MEMORY.md"
    assert relative_in_tree(str(tmp_path / "proj" / "src.py"), str(base)) is None


# ------------------------------------------------------- the hooks, as the host runs them


def _payload(
    project: Path, tool: str, tool_input: dict[str, str], event: str = "PreToolUse"
) -> dict[str, object]:
    return {
        "session_id": "s1",
        "cwd": str(project),
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
    }


def _deny_reason(done: object) -> str:
    out = json.loads(done.stdout)  # type: ignore[attr-defined]
    hook = out["hookSpecificOutput"]
    assert hook["hookEventName"] == "PreToolUse"
    assert hook["permissionDecision"] == "deny"
    return str(hook["permissionDecisionReason"])


def test_hook_denies_an_edit_with_the_current_hash(started: Path) -> None:
    saved = run_cli("save", "decision", "--title", "Use SQLite", "--json")
    relative = json.loads(saved.stdout)["path"]
    target = started / relative
    project = started.parent.parent
    done = run_hook("PreToolUse", _payload(project, "Edit", {"file_path": str(target)}))
    assert done.returncode == 0
    reason = _deny_reason(done)
    assert f"--if-hash {content_hash(target.read_bytes())}" in reason
    assert f"--update {relative}" in reason


def test_hook_is_silent_for_writes_elsewhere_and_unstarted_projects(
    started: Path, project: Path, tmp_path: Path
) -> None:
    elsewhere = run_hook(
        "PreToolUse", _payload(project, "Write", {"file_path": str(project / "a.py")})
    )
    assert elsewhere.returncode == 0
    assert elsewhere.stdout == b""
    fresh = tmp_path / "fresh"
    (fresh / ".claude" / "memory").mkdir(parents=True)
    done = run_hook(
        "PreToolUse",
        _payload(fresh, "Write", {"file_path": str(fresh / ".claude/memory/MEMORY.md")}),
        env={"MEMHOOKS_PROJECT_DIR": str(fresh)},
    )
    assert done.returncode == 0
    assert done.stdout == b""


def test_hook_payload_from_the_real_host_is_handled(
    started: Path, examples: dict[str, dict[str, object]]
) -> None:
    payload = dict(examples["PreToolUse:Bash"])
    payload["cwd"] = str(started.parent.parent)
    payload["tool_input"] = {"command": "echo x > .claude/memory/MEMORY.md"}
    assert "derived" in _deny_reason(run_hook("PreToolUse", payload))
    payload["tool_input"] = {"command": "echo hi-from-bash"}
    assert run_hook("PreToolUse", payload).stdout == b""


# -------------------------------------------------------------- direct edits allowed (config)


def _allow(started: Path) -> None:
    (started / "config.json").write_text(json.dumps({"guard": {"direct_edits": "allow"}}))


def _direct_write(started: Path, relative: str, text: str) -> bytes:
    """PreToolUse, the host's write, PostToolUse: what the host does for an allowed Write."""
    project = started.parent.parent
    target = started / relative
    tool_input = {"file_path": str(target), "content": text}
    pre = run_hook("PreToolUse", _payload(project, "Write", tool_input))
    assert pre.returncode == 0
    assert pre.stdout == b"", pre.stdout
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    post = run_hook("PostToolUse", _payload(project, "Write", tool_input, "PostToolUse"))
    assert post.returncode == 0, post.stderr
    return post.stdout


VALID = (
    "---\ntitle: Use Postgres for jobs\ndescription: one queue\n---\n# Use Postgres\n\nBecause.\n"
)


def test_allowed_direct_write_is_indexed_and_searchable(started: Path) -> None:
    _allow(started)
    assert _direct_write(started, "decisions/2026-01-02_001_use-postgres.md", VALID) == b""
    assert "Use Postgres for jobs" in (started / "MEMORY.md").read_text()
    found = run_cli("recall", "postgres", "jobs")
    assert "decisions/2026-01-02_001_use-postgres.md" in found.stdout


def test_allowed_direct_write_is_redacted(started: Path) -> None:
    _allow(started)
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    out = _direct_write(started, "runbooks/deploy.md", VALID + f"\ntoken {secret}\n")
    assert b"redacted" in out
    assert secret not in (started / "runbooks" / "deploy.md").read_text()


@pytest.mark.parametrize(
    ("relative", "text", "why"),
    [
        ("decisions/2026-01-02_001_x.md", "no frontmatter at all\n", "no YAML frontmatter"),
        ("decisions/2026-01-02_001_x.md", "---\ntitle: [unclosed\n---\nbody\n", "frontmatter"),
        ("decisions/2026-01-02_001_x.md", "---\ndescription: d\n---\nbody\n", "no title"),
        ("decisions/Bad Name.md", VALID, "scheme"),
        ("decisions/2026-01-02_001_x.md", "---\ntitle: t\ncategory: runbook\n---\nb\n", "category"),
    ],
)
def test_invalid_new_direct_write_is_removed(
    started: Path, relative: str, text: str, why: str
) -> None:
    _allow(started)
    out = json.loads(_direct_write(started, relative, text))
    assert out["decision"] == "block"
    assert why in out["reason"]
    assert "removed" in out["reason"]
    assert not (started / relative).exists()


def test_invalid_edit_of_an_existing_memory_is_reverted(started: Path) -> None:
    _allow(started)
    relative = "decisions/2026-01-02_001_use-postgres.md"
    assert _direct_write(started, relative, VALID) == b""
    settled = (started / relative).read_text()
    assert "category: decision" in settled  # the store's fields were filled in
    out = json.loads(_direct_write(started, relative, "---\ntitle: [broken\n---\n"))
    assert "previous version is back" in out["reason"]
    assert (started / relative).read_text() == settled
    assert "Use Postgres for jobs" in (started / "MEMORY.md").read_text()


def test_post_hook_does_nothing_while_direct_edits_are_denied(started: Path) -> None:
    project = started.parent.parent
    target = started / "decisions" / "x.md"
    target.write_text("garbage")
    post = run_hook(
        "PostToolUse",
        _payload(project, "Write", {"file_path": str(target)}, "PostToolUse"),
    )
    assert post.stdout == b""
    assert target.read_text() == "garbage"
