"""The hot path (every hook but PreCompact) never imports what would make it slow.

pydantic, yaml and filelock cost ~100 ms; dataclasses, typing, pathlib, datetime,
contextlib, tempfile, subprocess and argparse a few ms each. This checks the modules a hook
process loads (`python -X importtime`), never how long it takes: timings are the
benchmark's job.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.hooks.entry import HANDLERS, TOOL_HOOKS
from memhooks.recall.semantic import TABLE_FILE
from support import hook_as_plugin, hot_path_banned, modules_loaded, run_cli

#: pyproject's `banned-module-level-imports`, the rule's one statement: what no hot folder
#: imports at module level (tests/system/test_structure.py) and no hook process but PreCompact
#: loads.
HEAVY = hot_path_banned()


def imported_modules(event: str, payload: dict[str, object], data: Path) -> set[str]:
    (data / "deps" / f"py{sys.version_info[0]}{sys.version_info[1]}").mkdir(parents=True)
    (data / "deps" / f"py{sys.version_info[0]}{sys.version_info[1]}" / ".memhooks-deps-ok").touch()
    (data / "semantic").mkdir()  # the steady state: the token table is installed
    (data / "semantic" / TABLE_FILE).touch()
    done, loaded = run_importtime(event, payload, data)
    assert done.returncode == 0
    assert done.stdout == "" or json.loads(done.stdout)
    return loaded


def run_importtime(
    event: str, payload: dict[str, object], data: Path
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """The hook run as hooks.json runs it, and every module its process imported."""
    done = hook_as_plugin(event, payload, data, flags=("-X", "importtime"))
    return done, modules_loaded(done)


#: The one hook allowed the slow imports: it runs once per compaction, with a 60 s budget.
COLD = {"PreCompact"}
#: Never on any hook's path, PreCompact's included, at module level: the command path's weight.
NEVER = {"pydantic", "yaml", "filelock", "frontmatter"}
#: A module the event loads only once its work is done: the measurement saw the whole path
#: (SubagentStop reads the new memory's heading after writing it, then indexes it).
REACHED = {"SubagentStop": {"memhooks.store.memory_file", "_sqlite3"}}


def test_every_hook_event_is_checked() -> None:
    """New events (PreToolUse, PostToolUse, ...) are covered as soon as entry knows them."""
    assert set(EVENTS) == set(HANDLERS)


def test_every_handler_loads_its_hook_module() -> None:
    """The loaders mypy checks against the Hook protocol return the modules they name."""
    for event, load in HANDLERS.items():
        module = load()
        assert module.__name__ == f"memhooks.hooks.{load.__name__.lstrip('_')}", event
        assert callable(module.handle)
    assert all(callable(load().wants) for load in TOOL_HOOKS.values())


def _payload(started: Path, tmp_path: Path) -> dict[str, object]:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        json.dumps({"type": "user", "message": {"role": "user", "content": "cache it"}}) + "\n",
        encoding="utf-8",
    )
    return {
        "session_id": "s1",
        "cwd": str(started.parent.parent),
        "source": "compact",
        "prompt": "where is the sqlite cache?",
        "transcript_path": str(transcript),
        "reason": "other",
        "trigger": "manual",
        "compact_summary": "<analysis>scratch</analysis><summary>Cached in SQLite.</summary>",
        "agent_type": "Explore",
        "last_assistant_message": "The cache lives in SQLite under .cache/. " * 5,
        "tool_name": "Write",
        "tool_input": {"file_path": str(started.parent.parent / "notes.txt"), "content": "x"},
        "tool_response": {"success": True},
        "hook_event_name": "",
    }


EVENTS = sorted(HANDLERS)


@pytest.mark.parametrize("event", EVENTS)
def test_no_hook_loads_the_command_path(started: Path, tmp_path: Path, event: str) -> None:
    loaded = imported_modules(event, _payload(started, tmp_path), tmp_path / "data")
    assert "memhooks.hooks.entry" in loaded
    assert not {m for m in loaded if m.startswith("memhooks.cli")}
    if event not in COLD:
        assert not loaded & NEVER, sorted(loaded & NEVER)


@pytest.mark.parametrize("event", [e for e in EVENTS if e not in COLD])
def test_hot_path_hooks_import_nothing_heavy(started: Path, tmp_path: Path, event: str) -> None:
    assert run_cli("save", "decision", "--title", "Use SQLite for the cache").returncode == 0
    payload = _payload(started, tmp_path)
    loaded = imported_modules(event, payload, tmp_path / "data")
    assert "memhooks.hooks.entry" in loaded  # the measurement saw the hook's imports
    assert REACHED.get(event, set()) <= loaded, sorted(REACHED[event] - loaded)
    assert not loaded & HEAVY, sorted(loaded & HEAVY)


@pytest.mark.parametrize(
    ("event", "tool", "tool_input"),
    [
        ("PreToolUse", "Write", {"file_path": "src/app.py", "content": "x = 1\n"}),
        ("PreToolUse", "Bash", {"command": "pytest -q > /tmp/out.txt 2>&1"}),
        ("PreToolUse", "Write", {"file_path": ".claude/memory/MEMORY.md", "content": "x"}),
        ("PreToolUse", "Edit", {"file_path": ".claude/memory/decisions/x.md"}),
        ("PostToolUse", "Write", {"file_path": "src/app.py", "content": "x = 1\n"}),
    ],
)
def test_the_write_guard_imports_nothing_heavy(
    started: Path, tmp_path: Path, event: str, tool: str, tool_input: dict[str, str]
) -> None:
    """It runs on every Write, Edit and Bash call, denials included."""
    project = started.parent.parent
    payload = {
        "session_id": "s1",
        "cwd": str(project),
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
    }
    loaded = imported_modules(event, payload, tmp_path / "data")
    assert "memhooks.hooks.entry" in loaded
    assert "memhooks.guard.write_guard" in loaded  # the measurement saw the guard
    assert not loaded & HEAVY, sorted(loaded & HEAVY)


def test_semantic_signals_on_the_per_prompt_path_import_nothing_heavy(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the token table installed and memory vectors in the index, UserPromptSubmit goes
    through the semantic re-rank (the module is loaded) and still loads nothing of HEAVY."""
    import shutil

    from memhooks.cli.main import main

    data = tmp_path / "data"
    table = Path(__file__).parents[1] / "fixtures" / "semantic" / "tokens-subset.sqlite3"
    (data / "semantic").mkdir(parents=True)
    shutil.copy(table, data / "semantic" / TABLE_FILE)
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(data))
    assert main(["remember", "we decided to keep the job queue in Postgres 16, SKIP LOCKED"]) == 0
    payload = {
        **_payload(started, tmp_path),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "which database does the job queue use: Postgres?",
    }
    done, loaded = run_importtime("UserPromptSubmit", payload, data)
    assert "memhooks.recall.semantic" in loaded
    assert not loaded & HEAVY, sorted(loaded & HEAVY)
    assert "job-queue" in done.stdout
