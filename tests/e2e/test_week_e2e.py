# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The thread of work across sessions, through the real CLI (issue 31).

Three sessions in one project, each a new `claude -p` (a new session id), as a user works
through a week: a working session where the user states a constraint and Claude ends on an
open question; a trivial one ("Good morning" / "ok"); then a third, whose SessionStart must
give Claude the first session's open question and constraint. A trivial session must never
hide the real one before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from sandbox_tools import Played

from memhooks.demo import scenario
from memhooks.demo.mock_requests import hook_contexts

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import SandboxFactory
    from memhooks.demo import harness

CONSTRAINT = "don't touch billing/legacy_rates.py, finance audits that file every quarter"
TASK = (
    "The invoice export times out for our biggest customers. Add paging to export_invoices() "
    f"in export.py. One thing: {CONSTRAINT}."
)
QUESTION = (
    "should a page that fails abort the whole export, or be skipped and listed at the end "
    "of the run?"
)
REPLY = (
    "export_invoices() now reads the invoices in pages of 500 and writes each page as it "
    "goes, so memory stays flat. I left billing/legacy_rates.py alone.\n\n"
    "Before I wire it into the CLI, one question: " + QUESTION + " (a) abort: simpler, "
    "and a re-run starts from scratch; (b) skip and list: the export always finishes."
)
EXPORT_PY = '''"""Invoice export, one page at a time."""

PAGE_SIZE = 500


def export_invoices(fetch_page, write):
    page = 0
    while rows := fetch_page(page, PAGE_SIZE):
        write(rows)
        page += 1
'''
TRIVIAL = "Good morning"
THIRD = "Let's pick up where we left off."


@pytest.fixture(scope="module")
def played(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> Played:
    box = sandboxes("week")
    export = str(box.project.resolve() / "export.py")
    work = scenario.Turn(
        TASK,
        (
            scenario.Reply(
                "I'll add the paging in export.py.",
                scenario.Call(
                    "Write", {"file_path": export, "content": EXPORT_PY}, "toolu_week_01"
                ),
            ),
            scenario.Reply(REPLY),
        ),
    )
    box.mock.add(*work.rules())  # the mock answers anything else with "ok"
    plan = [
        ("start", "/memory start", False),  # the first session
        ("work", TASK, True),
        ("trivial", TRIVIAL, False),  # a new session: "Good morning", "ok"
        ("third", THIRD, False),  # and another
    ]
    steps = {name: box.run(prompt, name=name, resume=resume) for name, prompt, resume in plan}
    record_times("week", box)
    return Played(box, steps)


def _start_context(step: harness.Step) -> str:
    """What SessionStart put into the first request the model got in this step."""
    first = step.requests[0]
    return "\n".join(c.text for c in hook_contexts(first.body) if c.event == "SessionStart")


def test_every_run_exits_zero(played: Played) -> None:
    assert not played.failures()


def test_each_run_is_its_own_session(played: Played) -> None:
    steps = played.steps
    assert steps["work"].session_id == steps["start"].session_id
    ids = {steps[name].session_id for name in ("work", "trivial", "third")}
    assert len(ids) == 3, ids
    for name in ("trivial", "third"):
        assert "SessionStart:startup" in steps[name].hook_labels(), name


def test_the_third_session_gets_the_first_sessions_question_and_constraint(
    played: Played,
) -> None:
    context = _start_context(played.steps["third"])
    flat = " ".join(context.split())
    assert QUESTION in flat, context[:4000]
    assert CONSTRAINT in flat, context[:4000]
