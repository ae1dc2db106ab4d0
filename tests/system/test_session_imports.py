"""A whole session's hooks, run in order as the host runs them, with the plugin's
dependencies installed in its data folder: no hook but PreCompact imports pydantic.

tests/system/test_hot_path_imports.py runs each event alone with an empty dependency folder,
where a hook that reached the command side would fail open without being seen. Here pydantic
is importable (the folder is seeded as the installer leaves it), so a hook that reaches for
it loads it, and `-X importtime` shows it; and the events follow each other, so a hook meets
what the one before it left (Stop's journal entry, then the next Bash call's PostToolUse).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memhooks.recall.semantic import TABLE_FILE
from plugin_host import TAG, seed_deps
from support import FIXTURES, hook_as_plugin, modules_loaded

SESSION = "5e551011-0000-4000-8000-000000000001"
NEXT = "5e551011-0000-4000-8000-000000000002"
#: Never on a hook's path but PreCompact's: the command side's models and parsers.
COMMAND_SIDE = ("pydantic", "pydantic_core", "yaml", "frontmatter")


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin's dependencies as its installer leaves them, seeded once per module."""
    return seed_deps(tmp_path_factory.mktemp("deps"))


def run_hook(
    event: str, fields: dict[str, object], project: Path, data: Path
) -> tuple[dict[str, object], set[str]]:
    """One hook under `python3 -S` with the data folder: its reply and the modules it loaded."""
    payload = {
        "session_id": SESSION,
        "transcript_path": str(project.parent / "transcript.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        **fields,
    }
    flags = ("-X", "importtime")
    done = hook_as_plugin(event, payload, data, project=project, flags=flags, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = modules_loaded(done)
    assert "memhooks.hooks.entry" in loaded, done.stderr[-2000:]
    reply: dict[str, object] = json.loads(done.stdout) if done.stdout.strip() else {}
    return reply, loaded


def _exchange(transcript: Path, number: int) -> None:
    """A user prompt and Claude's reply appended to the transcript, as the host writes them."""
    prompt = {"role": "user", "content": f"Step {number}: now the RSS importer."}
    reply = {"role": "assistant", "content": [{"type": "text", "text": f"Step {number} done."}]}
    with transcript.open("a", encoding="utf-8") as out:
        for kind, message in (("user", prompt), ("assistant", reply)):
            line = {"type": kind, "message": message, "sessionId": SESSION, "cwd": "."}
            out.write(json.dumps(line) + "\n")


def session(project: Path) -> list[tuple[str, dict[str, object]]]:
    """One session, then the next one's start, in the order the host runs the hooks."""
    bash: dict[str, object] = {"tool_name": "Bash", "tool_input": {"command": "pytest -q"}}
    reply = {"stdout": "3 passed", "stderr": "", "interrupted": False}
    done: dict[str, object] = {**bash, "tool_response": reply}
    agent = FIXTURES / "transcripts" / "a2-invoice-config" / "subagents"
    return [
        ("SessionStart", {"source": "startup"}),
        ("UserPromptSubmit", {"prompt": "Fix the slug tests, then check the RSS importer."}),
        ("PreToolUse", bash),
        ("PostToolUse", done),
        ("Stop", {"last_assistant_message": "Done: the slug tests pass."}),
        # The Bash call after Stop: its PostToolUse meets the journal entry Stop appended.
        ("PreToolUse", bash),
        ("PostToolUse", done),
        (
            "SubagentStop",
            {
                "agent_id": "a1",
                "agent_type": "Explore",
                "agent_transcript_path": str(min(agent.glob("*.jsonl"))),
                "last_assistant_message": "The slug generator lives in blog/slugs.py. " * 4,
            },
        ),
        ("Stop", {"last_assistant_message": "Both importers call make_slug now."}),
        ("SessionEnd", {"reason": "other"}),
        ("SessionStart", {"source": "startup", "session_id": NEXT}),
        ("UserPromptSubmit", {"prompt": "Where did we leave the slugs?", "session_id": NEXT}),
    ]


def test_no_hook_of_a_session_imports_the_command_side(
    started: Path, tmp_path: Path, deps: Path
) -> None:
    project = started.parent.parent
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    source = FIXTURES / "transcripts" / "a1-blog-slugs" / "transcript.jsonl"
    (project.parent / "transcript.jsonl").write_bytes(source.read_bytes())
    data = tmp_path / "plugin-data"
    (data / "deps").mkdir(parents=True)
    (data / "deps" / TAG).symlink_to(deps, target_is_directory=True)
    (data / "semantic").mkdir()  # the steady state: the token table is there (no build starts)
    (data / "semantic" / TABLE_FILE).touch()
    found: list[str] = []
    for number, (event, fields) in enumerate(session(project), 1):
        if event == "Stop":  # a new exchange: each Stop appends a journal entry
            _exchange(project.parent / "transcript.jsonl", number)
        reply, loaded = run_hook(event, fields, project, data)
        heavy = sorted({m.split(".")[0] for m in loaded} & set(COMMAND_SIDE))
        if heavy:
            found.append(f"{number}. {event} imported {', '.join(heavy)}")
        if "behind the store's back" in json.dumps(reply):  # its own writes are not that
            found.append(f"{number}. {event} said a file changed behind the store's back")
    assert not found, "\n".join(found)
