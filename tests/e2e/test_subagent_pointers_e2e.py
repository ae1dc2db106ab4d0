# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""A sub-agent started by Claude receives the pointer its task needs, and nothing otherwise.

Through the real CLI and the marketplace install: the scripted model starts two sub-agents
with the `Agent` tool, one whose task a saved decision answers and one unrelated; the
requests the mock recorded inside each sub-agent show what SubagentStart gave it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox_tools import PRICE_TITLE, save_price_decision

from memhooks.demo import scenario
from memhooks.demo.mock_api import Rule
from memhooks.demo.mock_replies import text_block
from memhooks.demo.mock_requests import hook_contexts, request_texts

if TYPE_CHECKING:
    from conftest import SandboxFactory
    from memhooks.demo import harness

RELATED_TASK = "Audit report.py: list every printed price that skips format_price rounding."
UNRELATED_TASK = "Write a short haiku about autumn leaves falling on a quiet pond."


def _agent_turn(prompt: str, task: str, tool_id: str) -> scenario.Turn:
    call = scenario.Call(
        "Agent",
        {"description": "sub-task", "prompt": task, "subagent_type": "general-purpose"},
        tool_id,
    )
    return scenario.Turn(
        prompt, (scenario.Reply("Starting a sub-agent.", call), scenario.Reply("Done."))
    )


def _inside(step: harness.Step, task: str) -> list[str]:
    """What SubagentStart injected into the sub-agent's own requests (those carrying `task`)."""
    found = []
    for request in step.requests:
        if not any(task in text for _role, text in request_texts(request.body)):
            continue
        found += [c.text for c in hook_contexts(request.body) if c.event == "SubagentStart"]
    return found


def test_subagent_receives_the_pointer_its_task_needs(sandboxes: SandboxFactory) -> None:
    box = sandboxes("subagent-pointers")
    assert box.run("/memory start", name="start").rc == 0
    path = save_price_decision(box)
    related = _agent_turn("Use a sub-agent for the price audit.", RELATED_TASK, "toolu_sub_01")
    unrelated = _agent_turn("Use a sub-agent for a poem.", UNRELATED_TASK, "toolu_sub_02")
    box.mock.add(
        *related.rules(),
        Rule(when=RELATED_TASK[:40], content=[text_block("AUDIT: clean.")]),
        *unrelated.rules(),
        Rule(when=UNRELATED_TASK[:40], content=[text_block("Leaves drift; pond stills.")]),
    )
    step = box.run(related.prompt, name="related", resume=True)
    assert step.rc == 0, step.stderr
    given = _inside(step, RELATED_TASK)
    assert given, [r.body for r in step.requests][:1]
    assert any(path.removeprefix(".claude/memory/") in text for text in given), given
    assert any(PRICE_TITLE in text for text in given)
    step = box.run(unrelated.prompt, name="unrelated", resume=True)
    assert step.rc == 0, step.stderr
    assert any(UNRELATED_TASK in t for r in step.requests for _, t in request_texts(r.body))
    assert _inside(step, UNRELATED_TASK) == []
