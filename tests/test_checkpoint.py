"""The PreCompact checkpoint: every real fact shows, and it always fits its cap."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memhooks.restore.checkpoint import (
    MAX_CHARS,
    STATUS_MARKS,
    fit_lines,
    render_checkpoint,
    without_host_kept,
)
from memhooks.restore.extract import extract_facts
from memhooks.restore.facts import FailedCommand, SessionFacts, Todo
from memhooks.restore.transcript import iter_records
from memhooks.text import clip_counted
from support import FIXTURES

TRANSCRIPTS = FIXTURES / "transcripts"
SESSIONS = sorted(p.name for p in TRANSCRIPTS.glob("*/")) if TRANSCRIPTS.is_dir() else []
FILES = ["transcript_at_precompact.jsonl", "transcript.jsonl"]

CURRENT_TASK_MD = "---\ntitle: Current task\n---\n\nShip the slugs.\n\n```sh\nmake\n```\n"


def _render(facts: SessionFacts, **overrides: Any) -> str:
    arguments: dict[str, Any] = {
        "current_task_md": CURRENT_TASK_MD,
        "blockers_md": "- CDN token\n",
        "session_id": "9572e3cc",
        "trigger": "manual",
        "created": "2026-11-25T21:47:32Z",
    }
    arguments.update(overrides)
    return render_checkpoint(facts, **arguments)


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("session", SESSIONS)
def test_every_listed_fact_appears(session: str, name: str) -> None:
    expected = json.loads((TRANSCRIPTS / session / "facts.json").read_text(encoding="utf-8"))
    text = _render(extract_facts(iter_records(TRANSCRIPTS / session / name)))
    assert len(text) <= MAX_CHARS
    assert expected["task"] in text
    for todo in expected["todos"]:
        assert f"- {STATUS_MARKS[todo['status']]} {todo['content']}" in text
    for key in ("files_written", "files_edited", "failed_commands"):
        for item in expected[key]:
            assert f"`{item}`" in text, (key, item)
    for item in [*expected["decisions"], *expected["blockers"]]:
        assert item in text
    if name == "transcript_at_precompact.jsonl":
        # Kept in the file for people, after the part a briefing injects (the host keeps it).
        assert expected["last_assistant_message"] in text
        assert expected["last_assistant_message"] not in without_host_kept(text)
    assert "Ship the slugs." in text
    assert "- CDN token" in text


def test_sections_and_marks() -> None:
    facts = SessionFacts(
        prompts=("first", "second"),
        custom_instructions="keep the todo list",
        todos=(Todo("a", "completed"), Todo("b", "in_progress"), Todo("c", "pending", "why")),
        failed_commands=(FailedCommand("make", "boom", 2, later_succeeded=True),),
        last_assistant_message="bye",
    )
    text = _render(facts, current_task_md="", blockers_md="")
    assert "Latest request: second" in text
    assert "Compaction instructions: keep the todo list" in text
    assert "- [x] a (done)\n- [~] b (in progress)\n- [ ] c — why" in text
    assert "Fixed, passes now: `make` (exit 2): boom; later succeeded" in text
    assert "Context files" not in text
    assert "not a set of orders" in text


def test_empty_facts_render_no_placeholder() -> None:
    text = _render(SessionFacts(), current_task_md="", blockers_md="")
    assert "## " not in text  # no empty section, no "(none)" or "(not set)" line
    assert "(none" not in text
    assert "(not set" not in text
    assert len(text) < 500


def test_template_context_files_are_not_shown() -> None:
    from memhooks.store.context_files import BLOCKERS_TEMPLATE, CURRENT_TASK_TEMPLATE

    text = _render(
        SessionFacts(prompts=("go",)),
        current_task_md=CURRENT_TASK_TEMPLATE,
        blockers_md=BLOCKERS_TEMPLATE,
    )
    assert "Context files" not in text
    assert "none yet" not in text


def test_huge_facts_fit_the_cap_and_say_what_was_cut() -> None:
    long = "word " * 3000
    facts = SessionFacts(
        prompts=tuple(f"prompt {i} {long}" for i in range(5)),
        custom_instructions=long,
        todos=tuple(Todo(f"todo {i} {long}", "pending") for i in range(300)),
        files_written=tuple(f"src/module_{i}/" + "deep/" * 30 + "file.py" for i in range(300)),
        files_edited=tuple(f"lib/{i}.py" for i in range(300)),
        failed_commands=tuple(FailedCommand(f"cmd {i} {long}", long, 1) for i in range(50)),
        decisions=tuple(f"decision {i} {long}" for i in range(100)),
        blockers=tuple(f"blocker {i} {long}" for i in range(100)),
        last_assistant_message=long,
        earlier_replies=(long, long),
    )
    text = _render(facts, current_task_md=long, blockers_md=long, session_id="s" * 500)
    assert len(text) <= MAX_CHARS
    assert "more not shown (cut to fit)" in text
    assert "more chars cut]" in text
    # The newest items are the ones kept.
    assert "decision 99" in text
    assert "lib/299.py" in text
    assert "- [ ] todo 0" in text


def test_context_file_fences_survive_backticks() -> None:
    text = _render(SessionFacts(), current_task_md="````\ninner\n````", blockers_md="")
    assert "`````markdown\n````\ninner\n````\n`````" in text


def test_context_files_are_redacted() -> None:
    text = _render(SessionFacts(), current_task_md="PASSWORD=hunter2", blockers_md="")
    assert "hunter2" not in text


def test_clip_and_fit_lines() -> None:
    assert clip_counted("short", 10) == "short"
    clipped = clip_counted("x" * 100, 50)
    assert len(clipped) <= 50
    assert clipped.endswith("more chars cut]")
    lines = [f"- {i:03}" for i in range(100)]
    kept = fit_lines(lines, 100, keep="last")
    assert kept[0].startswith("- … ")
    assert kept[-1] == "- 099"
    assert fit_lines(lines[:2], 100) == lines[:2]
