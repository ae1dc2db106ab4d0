# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""One scripted session through the real CLI, with the plugin installed from its marketplace.

The session is played once per module (about a dozen `claude -p` runs) and each test
checks one thing it left behind: files in `.claude/memory/`, hook runs, and above all the
text that reached the model in the requests the mock recorded. Assertions are on the
session's content (task, todos, files, decision, blocker), not on the plugin's wording.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from sandbox_tools import Played

from memhooks.demo import harness, scenario
from memhooks.demo.mock_api import Rule
from memhooks.demo.mock_replies import text_block
from memhooks.demo.mock_requests import hook_contexts

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from conftest import SandboxFactory

AUTO_PROMPT = "Keep going: what is the next todo on the list?"
RECALL_QUERY = "audit price formatting"
AFTER_CLEAR = "Fresh start. What does the project memory say?"
NEW_SESSION = "New session: is anything left over from last time?"


def subagent_turn(project: str) -> tuple[scenario.Turn, Rule]:
    """A turn that runs a sub-agent, and the rule that answers inside the sub-agent."""
    prompt = "Use a sub-agent to audit report.py for any price that skips format_price."
    agent_prompt = (
        f"Audit {project}/report.py: list every price that is printed without format_price."
    )
    finding = (
        "AUDIT-FINDING: every price in report.py goes through format_price(); nothing skips it."
    )
    call = scenario.Call(
        "Agent",
        {
            "description": "Audit price formatting",
            "prompt": agent_prompt,
            "subagent_type": "general-purpose",
            "run_in_background": False,
        },
        "toolu_demo_20",
    )
    reply = scenario.Reply
    turn = scenario.Turn(
        prompt, (reply("Handing the audit to a sub-agent.", call), reply("The audit is clean."))
    )
    return turn, Rule(
        when="list every price that is printed without", content=[text_block(finding)]
    )


#: What the briefing after compaction must bring back, by fact name.
BRIEFING_FACTS = ("task", "todo", "file_written", "file_edited", "decision")
CHECKPOINT_FACTS = (*BRIEFING_FACTS, "failed_command", "blocker")
#: What we add beside the host's summary of a compaction (after it, and in the next
#: session's restore of a session that compacted): the record's proofs and the user's own
#: words. The decision is Claude's words, which the host's summary keeps; the mock's summary
#: keeps nothing, so it is not asked for there.
COMPLEMENT_FACTS = ("task", "todo", "file_written", "file_edited", "blocker")


def _missing(text: str, facts: Iterable[str]) -> list[str]:
    return [
        f"{name}={scenario.FACTS[name]!r}" for name in facts if scenario.FACTS[name] not in text
    ]


def _hook_context(step: harness.Step, event: str) -> str:
    """What `event` hooks injected into this step's requests (the request is the evidence)."""
    return "\n\n".join(step.contexts(event))


def _context_of_run(step: harness.Step, label: str) -> str:
    return "\n".join(run.context for run in step.hooks if run.label == label)


@pytest.fixture(scope="module")
def played(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> Played:
    box = sandboxes("session")
    for name, content in scenario.project_files().items():
        (box.project / name).write_text(content, encoding="utf-8")
    project = str(box.project.resolve())
    for turn in scenario.turns(project):
        box.mock.add(*turn.rules())
    agent_turn, in_agent = subagent_turn(project)
    box.mock.add(*agent_turn.rules(), in_agent, Rule.too_long(AUTO_PROMPT[:40]))
    # /memory recall prints the resolved CLI; the model runs the search itself, quoting the
    # query (the user's words never go through the command file's shell injection).
    recall_call = scenario.Call(
        "Bash",
        {
            "command": f'python3 "{box.root / "plugin-src"}/hooks/memhooks.py" recall -- '
            f"'{RECALL_QUERY}'",
            "description": "Search the project memory",
        },
        "toolu_recall_01",
    )
    recall_turn = scenario.Turn(
        "memory:recall",
        (scenario.Reply(call=recall_call), scenario.Reply(text="Recalled the audit.")),
    )
    box.mock.add(*recall_turn.rules())
    plan = [
        ("start", "/memory start", False),
        ("work", scenario.TASK, True),
        ("blocker", scenario.BLOCKER, True),
        ("status", "/memory status", True),
        ("compact", "/compact", True),
        ("after_compact", scenario.AFTER_COMPACT, True),
        ("auto_compact", AUTO_PROMPT, True),
        ("agent", agent_turn.prompt, True),
        ("recall", f"/memory recall {RECALL_QUERY}", True),
        ("next_day", scenario.NEXT_DAY, True),
        ("clear", "/clear", True),
        ("after_clear", AFTER_CLEAR, True),
        ("new_session", NEW_SESSION, False),  # not --continue: a new session id
    ]
    steps = {name: box.run(prompt, name=name, resume=resume) for name, prompt, resume in plan}
    record_times("session", box)
    return Played(box, steps)


def test_every_run_exits_zero(played: Played) -> None:
    assert not played.failures()


def test_hooks_come_from_the_marketplace_install(played: Played) -> None:
    installed = json.loads((played.box.home / ".claude/plugins/installed_plugins.json").read_text())
    assert f"{harness.PLUGIN}@{harness.MARKETPLACE}" in installed["plugins"]
    # No --plugin-dir anywhere: the hooks run from the installed plugin (for a directory
    # marketplace the CLI runs it from the marketplace's folder or its plugin cache).
    assert not any("--plugin-dir" in s.argv for s in played.steps.values())
    places = (str(played.box.home / ".claude" / "plugins"), str(played.box.root / "plugin-src"))
    ours = [r for s in played.steps.values() for r in s.hooks if "memhooks.py" in r.command]
    assert ours, "no memhooks hook ran"
    resolved = [r.command for r in ours if "${CLAUDE_PLUGIN_ROOT}" not in r.command]
    assert resolved
    assert all(any(p in command for p in places) for command in resolved), resolved[:3]
    assert all(r.status == 0 for r in ours), [(r.label, r.status) for r in ours if r.status]


def test_start_creates_the_tree(played: Played) -> None:
    assert (played.local / "session.json").is_file()
    assert (played.memory / "MEMORY.md").is_file()
    state = json.loads((played.local / "session.json").read_text())
    assert state.get("active") is True
    # The command body, with the CLI's output inlined, is what the model saw.
    assert "memory:start" in played.steps["start"].model_text()


def test_prompts_get_no_empty_reminder(played: Played) -> None:
    # No status was set by hand and no memory matches: the reminder has nothing to say, so
    # it says nothing (and never "(not set)").
    for name in ("work", "blocker"):
        reminder = _hook_context(played.steps[name], "UserPromptSubmit")
        assert "(not set)" not in reminder, name
        assert reminder == "" or ".claude/memory/" in reminder, name


def test_scripted_tools_ran_like_a_real_session(played: Played) -> None:
    project = played.box.project
    assert "ROUND_HALF_UP" in (project / "money.py").read_text()
    assert "format_price(price)" in (project / "report.py").read_text()
    transcript = played.box.transcript(played.steps["work"].session_id).read_text()
    assert '"name":"TodoWrite"' in transcript.replace(" ", "")
    assert '"is_error":true' in transcript.replace(" ", "")


def test_manual_compact_writes_the_checkpoint(played: Played) -> None:
    labels = played.steps["compact"].hook_labels()
    assert "PreCompact:manual" in labels
    assert "SessionStart:compact" in labels
    assert (played.memory / "checkpoints" / "latest.md").is_file()  # the auto compaction's now
    manual = [
        p.read_text()
        for p in (played.memory / "checkpoints").glob("*.md")
        if "trigger: manual" in p.read_text()
    ]
    assert manual
    assert not _missing(manual[0], CHECKPOINT_FACTS)


def test_briefing_after_compact_reaches_the_model(played: Played) -> None:
    briefing = _context_of_run(played.steps["compact"], "SessionStart:compact")
    assert not _missing(briefing, COMPLEMENT_FACTS), briefing[:2000]
    # /compact sends no prompt of its own: the next run's request carries the briefing.
    # (Facts, not the verbatim text: the host's debug log, where the hook output is read
    # from, redacts strings such as "session_id: …"; the request itself is unredacted.)
    after = played.steps["after_compact"]
    assert not _missing(after.model_text(), COMPLEMENT_FACTS)
    assert "MOCK-COMPACT-SUMMARY" in after.model_text()  # the host's own summary, beside ours
    assert not _missing(_hook_context(after, "SessionStart"), COMPLEMENT_FACTS)
    # The host's summary is in the transcript: we add only its complement (the record's
    # proofs and the user's own words), never the whole restore again.
    assert "What the compaction summary may not keep" in briefing
    assert "## What was said" not in briefing
    assert scenario.TASK[:60] in briefing


def test_auto_compaction_briefs_the_retried_request(played: Played) -> None:
    step = played.steps["auto_compact"]
    assert {"PreCompact:auto", "SessionStart:compact"} <= set(step.hook_labels())
    retried = step.requests[-1]
    assert AUTO_PROMPT in json.dumps(retried.body)
    contexts = "\n".join(c.text for c in hook_contexts(retried.body) if c.event == "SessionStart")
    assert "What the compaction summary may not keep" in contexts
    assert not _missing(contexts, COMPLEMENT_FACTS), contexts[:2000]


def test_continue_needs_no_restore(played: Played) -> None:
    """`--continue`/resume: the host restores the conversation itself; we add no restore."""
    step = played.steps["next_day"]
    assert "SessionStart:resume" in step.hook_labels()
    briefing = _context_of_run(step, "SessionStart:resume")
    assert ".claude/memory/" in briefing
    assert not _restored(briefing)
    assert "This session's restore" not in briefing


def test_subagent_result_is_filed(played: Played) -> None:
    assert "SubagentStop" in played.steps["agent"].hook_labels()
    filed = [
        p for p in (played.memory / "subagent").glob("*.md") if "AUDIT-FINDING" in p.read_text()
    ]
    assert filed, sorted(p.name for p in played.memory.rglob("*"))


def test_status_command_reaches_the_model(played: Played) -> None:
    text = played.steps["status"].model_text()
    assert "memory:status" in text
    assert str(played.memory) in text or ".claude/memory" in text
    assert "active" in text.lower()


def test_recall_command_reaches_the_model(played: Played) -> None:
    text = played.steps["recall"].model_text()
    assert "memory:recall" in text
    assert RECALL_QUERY in text
    assert 'hooks/memhooks.py" recall' in text  # the resolved command, from `recall --how`
    # The model's search ran for real and its result came back in the next request.
    assert f'matching \\"{RECALL_QUERY}\\"' in text  # inside a JSON-encoded tool_result
    assert "AUDIT-FINDING" in text, "the filed sub-agent audit should be recalled"


def test_clear_starts_a_new_briefed_session(played: Played) -> None:
    clear = played.steps["clear"]
    assert {"SessionEnd:clear", "SessionStart:clear"} <= set(clear.hook_labels())
    briefing = _context_of_run(clear, "SessionStart:clear")
    assert ".claude/memory/" in briefing
    first = played.steps["after_clear"].requests[0]
    delivered = "\n".join(c.text for c in hook_contexts(first.body) if c.event == "SessionStart")
    assert _restored(delivered)
    # A new session gets where the last one stood, from what Stop kept turn by turn.
    assert _restored(briefing)
    assert "it ended cleanly" in briefing  # /clear ended the last one with SessionEnd
    # That session compacted: its restore is the host's last summary, the user's words and
    # what the record proves from before it, and everything said after it.
    assert "MOCK-COMPACT-SUMMARY" in briefing
    assert not _missing(briefing, COMPLEMENT_FACTS), briefing[:2000]
    assert scenario.AFTER_COMPACT in briefing


def _restored(briefing: str) -> bool:
    """The new session's restore is there: the last session's alone, or the thread of the
    recent sessions with the last one fullest."""
    return (
        "Where the last session on this project stood" in briefing
        or "The recent work on this project" in briefing
    )


def test_a_new_session_gets_the_last_sessions_restore(played: Played) -> None:
    """A new `claude -p` (not --continue) after the last session ended: its first request
    carries where that session stood, with the user's words from it."""
    step = played.steps["new_session"]
    assert "SessionStart:startup" in step.hook_labels()
    assert step.session_id != played.steps["after_clear"].session_id
    first = step.requests[0]
    contexts = "\n".join(c.text for c in hook_contexts(first.body) if c.event == "SessionStart")
    assert _restored(contexts)
    assert "it ended cleanly" in contexts  # its `claude -p` run ended with SessionEnd
    assert AFTER_CLEAR in contexts, contexts[:3000]


def test_session_end_closes_the_session_record(played: Played) -> None:
    state = json.loads((played.local / "session.json").read_text())
    records = {r.get("id"): r for r in state.get("sessions", []) if isinstance(r, dict)}
    work = records.get(played.steps["work"].session_id)
    assert work is not None, sorted(records)
    assert work.get("ended")
    cleared = [r for r in records.values() if r.get("end_reason") == "clear"]
    assert cleared, records


def test_every_hook_time_is_recorded(played: Played) -> None:
    ours = [r for s in played.steps.values() for r in s.hooks if "memhooks.py" in r.command]
    events = {r.event for r in ours}
    assert {
        "SessionStart",
        "UserPromptSubmit",
        "PreCompact",
        "Stop",
        "SubagentStop",
        "SessionEnd",
    } <= events
    assert all(r.ms is not None for r in ours)
