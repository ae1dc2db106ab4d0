# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""How Claude writes memory, through the real CLI with a scripted model (issue 16).

The write guard: a direct Write into `.claude/memory/decisions/` is denied with the CLI
command, the retry with that command lands (indexed, searchable), a shell write into
MEMORY.md is denied and a Write elsewhere is untouched. With `guard.direct_edits: "allow"`,
an invalid direct write is undone and a valid one indexed. And `/memory summarize --agent`:
the plugin's memory-summarizer agent reads the session in chunks in its own context and
saves a seed 002 summary.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sandbox_tools import Played, box_state

from memhooks.demo import harness
from memhooks.demo.mock_api import Rule
from memhooks.demo.scenario import Call, Reply, Turn

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import SandboxFactory

REPO = Path(__file__).resolve().parents[2]
GUARD_PROMPT = "GUARD: record our decision to use Postgres for the job queue in the memory."
DIRECT_PROMPT = "DIRECT: write two decisions straight into the memory files."
SUMMARIZER_TASK = "SUMMARIZER-TASK: summarize the current session into the memhooks store."
DECISION_DOC = (
    "---\ntitle: Use Postgres for the job queue\n"
    "description: one database to run, jobs enqueued in the same transaction\n"
    "tags: [queue, postgres]\n---\n"
    "# Use Postgres for the job queue\n\n## Context\nWe need a durable job queue.\n\n"
    "## Decision\nUse Postgres with SELECT … FOR UPDATE SKIP LOCKED for the job queue.\n"
)
VALID_DIRECT = (
    "---\ntitle: Cache sessions in Redis\ndescription: sessions expire on their own\n---\n"
    "# Cache sessions in Redis\n\n## Decision\nKeep web sessions in Redis with a TTL.\n"
)
SUMMARY = (
    "# Guarded memory writes and the job queue decision\n\n"
    "## Context\nRecorded the job queue decision through the memhooks CLI after the write "
    "guard refused a direct write.\n\n"
    "## Tracking Points\n"
    "- Decision: Postgres backs the job queue, because it is the one database we already run.\n"
    "- Discovery: direct writes into .claude/memory/ are refused; the CLI is the way in.\n"
    "- Next: wire the queue worker.\n\n"
    "## Related Files/Artifacts\n- notes/plan.md\n"
)


def _cli(box: harness.Sandbox) -> str:
    return f'python3 "{box.root / "plugin-src"}/hooks/memhooks.py"'


def _heredoc(command: str, text: str) -> str:
    return f"{command} <<'MEMHOOKS_EOF'\n{text}\nMEMHOOKS_EOF"


def _ours(*args: str, box: harness.Sandbox) -> subprocess.CompletedProcess[str]:
    """The CLI with the test's interpreter (it has the dependencies), on the sandbox's machine
    (where `/memory start` recorded the checkout). Recall runs with --min-score 0: the
    relevance gate of a two-document store is issue 14's, not ours."""
    project = str(box.project)
    return subprocess.run(
        [sys.executable, str(REPO / "hooks" / "memhooks.py"), "--project", project, *args],
        env={**os.environ, **box_state(box)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _guard_turn(box: harness.Sandbox) -> Turn:
    memory = box.project.resolve() / ".claude" / "memory"
    cli = _cli(box)
    return Turn(
        GUARD_PROMPT,
        (
            Reply(
                "Writing the decision file.",
                Call(
                    "Write",
                    {
                        "file_path": f"{memory}/decisions/2026-01-01_001_use-postgres.md",
                        "content": DECISION_DOC,
                    },
                    "toolu_guard_01",
                ),
            ),
            Reply(
                "The store wants its CLI; retrying with it.",
                Call(
                    "Bash",
                    {
                        "command": _heredoc(f"{cli} save decision", DECISION_DOC),
                        "description": "Save the decision through memhooks",
                    },
                    "toolu_guard_02",
                ),
            ),
            Reply(
                call=Call(
                    "Bash",
                    {"command": "echo x > .claude/memory/MEMORY.md", "description": "poke"},
                    "toolu_guard_03",
                )
            ),
            Reply(
                call=Call(
                    "Write",
                    {
                        "file_path": f"{box.project.resolve()}/notes/plan.md",
                        "content": "# Plan\n\n- wire the queue worker\n",
                    },
                    "toolu_guard_04",
                )
            ),
            Reply("GUARD-DONE"),
        ),
    )


def _agent_rules(box: harness.Sandbox) -> list[Rule]:
    cli = _cli(box)
    main = Turn(
        "--agent</command-args>",
        (
            Reply(
                "Starting the memory summarizer.",
                Call(
                    "Agent",
                    {
                        "description": "Summarize this session",
                        "prompt": f"{SUMMARIZER_TASK} The memhooks CLI command is: {cli}",
                        "subagent_type": "memory:memory-summarizer",
                    },
                    "toolu_sum_01",
                ),
            ),
            Reply("SUMMARIZE-AGENT-DONE"),
        ),
    )
    inside = Turn(
        SUMMARIZER_TASK,
        (
            Reply(call=Call("Bash", {"command": f"{cli} summarize --chunks"}, "toolu_sa_01")),
            Reply(call=Call("Bash", {"command": f"{cli} summarize --chunk 1"}, "toolu_sa_02")),
            Reply(
                call=Call(
                    "Bash", {"command": _heredoc(f"{cli} summarize --save", SUMMARY)}, "toolu_sa_03"
                )
            ),
            Reply("Saved the session summary."),
        ),
    )
    return [*main.rules(), *inside.rules()]


def _direct_turn(box: harness.Sandbox) -> Turn:
    decisions = box.project.resolve() / ".claude" / "memory" / "decisions"
    return Turn(
        DIRECT_PROMPT,
        (
            Reply(
                call=Call(
                    "Write",
                    {
                        "file_path": f"{decisions}/2026-01-03_001_broken.md",
                        "content": "no frontmatter here\n",
                    },
                    "toolu_direct_01",
                )
            ),
            Reply(
                call=Call(
                    "Write",
                    {
                        "file_path": f"{decisions}/2026-01-03_002_cache-sessions-in-redis.md",
                        "content": VALID_DIRECT,
                    },
                    "toolu_direct_02",
                )
            ),
            Reply("DIRECT-DONE"),
        ),
    )


@pytest.fixture(scope="module")
def played(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> Played:
    box = sandboxes("guard")
    box.mock.add(*_guard_turn(box).rules(), *_agent_rules(box), *_direct_turn(box).rules())
    steps = {"start": box.run("/memory start", name="start")}
    steps["guard"] = box.run(GUARD_PROMPT, name="guard", resume=True)
    steps["summarize"] = box.run("/memory summarize --agent", name="summarize", resume=True)
    memory = box.project / ".claude" / "memory"
    (memory / "config.json").write_text(json.dumps({"guard": {"direct_edits": "allow"}}))
    steps["direct"] = box.run(
        DIRECT_PROMPT,
        name="direct",
        resume=True,
        # The host asks before writing under .claude/ in the default mode (-p: refused);
        # bypassPermissions is where direct edits reach the tree at all.
        extra=("--permission-mode", "bypassPermissions"),
    )
    record_times("guard", box)
    return Played(box, steps)


def test_every_run_exits_zero(played: Played) -> None:
    assert not played.failures()


def test_a_direct_write_is_denied_with_the_cli_command(played: Played) -> None:
    step = played.steps["guard"]
    assert not (played.memory / "decisions" / "2026-01-01_001_use-postgres.md").exists()
    text = step.model_text()
    # The refusal came back to the model as the Write's result, with the command to use.
    assert "decisions/2026-01-01_001_use-postgres.md" in text
    assert "hooks/memhooks.py\\\" save decision <<'MEMHOOKS_EOF'" in text or (
        "hooks/memhooks.py\" save decision <<'MEMHOOKS_EOF'" in text
    )
    labels = step.hook_labels()
    assert any(label.startswith("PreToolUse") for label in labels), labels


def test_the_retry_through_the_cli_lands_indexed_and_searchable(played: Played) -> None:
    saved = list((played.memory / "decisions").glob("*use-postgres-for-the-job-queue.md"))
    assert len(saved) == 1, sorted(p.name for p in (played.memory / "decisions").iterdir())
    assert "SKIP LOCKED" in saved[0].read_text()
    assert "Use Postgres for the job queue" in (played.memory / "MEMORY.md").read_text()
    # Words of its body only: the session summary repeats "Postgres job queue", and how
    # recall ranks two documents that share every query word is issue 14's to settle.
    found = _ours("recall", "--min-score", "0", "skip", "locked", "durable", box=played.box)
    assert found.returncode == 0, found.stderr
    assert saved[0].name in found.stdout, found.stdout


def test_a_shell_write_into_the_index_is_denied(played: Played) -> None:
    index = (played.memory / "MEMORY.md").read_text()
    assert index.strip() != "x"
    assert "is derived from the memory files" in played.steps["guard"].model_text()


def test_a_write_elsewhere_is_untouched(played: Played) -> None:
    plan = played.box.project / "notes" / "plan.md"
    assert plan.read_text() == "# Plan\n\n- wire the queue worker\n"
    assert "GUARD-DONE" in played.steps["guard"].reply


def test_summarize_agent_saves_a_seed_002_summary(played: Played) -> None:
    step = played.steps["summarize"]
    session_id = played.steps["guard"].session_id
    assert session_id
    text = step.model_text()
    assert "memory:memory-summarizer" in text
    # The agent read the session in chunks: the chunk header reached its requests.
    assert "chunk 1 of" in text
    assert "Use Postgres for the job queue" in text or "GUARD" in text
    summary = (played.memory / "sessions" / f"{session_id}.md").read_text()
    for section in ("# Guarded memory writes", "## Context", "## Tracking Points"):
        assert section in summary, summary[:1500]
    assert "- Decision: Postgres backs the job queue" in summary
    assert "SubagentStop" in step.hook_labels()


def test_with_direct_edits_allowed_an_invalid_write_is_undone(played: Played) -> None:
    step = played.steps["direct"]
    assert not (played.memory / "decisions" / "2026-01-03_001_broken.md").exists()
    text = step.model_text()
    assert "no YAML frontmatter" in text
    assert "PostToolUse" in " ".join(step.hook_labels())


def test_with_direct_edits_allowed_a_valid_write_is_indexed(played: Played) -> None:
    target = played.memory / "decisions" / "2026-01-03_002_cache-sessions-in-redis.md"
    assert target.is_file()
    assert "category: decision" in target.read_text()
    assert "Cache sessions in Redis" in (played.memory / "MEMORY.md").read_text()
    found = _ours("recall", "--min-score", "0", "redis", "sessions", box=played.box)
    assert target.name in found.stdout


def test_mock_rules_were_all_used(played: Played) -> None:
    """Every scripted reply was asked for: the session went where the script says."""
    unused = [r.when for r in played.box.mock.rules if r.times]
    assert not unused, unused
