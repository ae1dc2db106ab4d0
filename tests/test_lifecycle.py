"""The lifecycle rules: what stays live, what is settled, in real phrasing."""

from __future__ import annotations

from typing import Any

from memhooks.checkpoint import render_checkpoint, without_host_kept
from memhooks.extract import extract_facts
from memhooks.lifecycle import LiveState, LiveTracker
from memhooks.transcript import Record, record_from_json


def track(*turns: tuple[str, str]) -> LiveState:
    """("user"|"claude", text) in order."""
    tracker = LiveTracker()
    for who, text in turns:
        (tracker.prompt if who == "user" else tracker.reply)(text)
    return tracker.finish()


def test_a_resolved_blocker_is_retired_and_the_good_news_is_no_blocker() -> None:
    state = track(
        ("user", "Ship the export. I'm blocked on OPS-2291 though, ops must approve the bucket."),
        ("claude", "Understood, I'll prepare the code meanwhile."),
        ("user", "Good news: OPS-2291 got approved, we're no longer blocked. go ahead"),
    )
    assert state.blockers == []
    assert len(state.resolved_blockers) == 1
    assert "OPS-2291" in state.resolved_blockers[0]


def test_a_negated_or_conditional_cue_resolves_nothing() -> None:
    state = track(
        ("user", "I'm blocked on the allowlist: pnpm/action-setup isn't approved yet."),
        ("user", "also I can't tag the release until INFRA-7 is done."),
    )
    assert len(state.blockers) == 2  # "can't … until" is a blocker too, and nothing resolved
    assert state.resolved_blockers == []


def test_an_unrelated_resolution_leaves_the_blocker_open() -> None:
    state = track(
        ("user", "I'm blocked on the mobile team for the deploy (MOB-1184)."),
        ("user", "Sentry access is sorted."),
    )
    assert state.blockers
    assert not state.resolved_blockers


def test_claude_restating_a_blocker_is_not_a_second_one() -> None:
    state = track(
        ("user", "I'm blocked on product sign-off for the pricing page copy."),
        ("claude", "Done with the layout. We are still blocked on product sign-off for the copy."),
    )
    assert len(state.blockers) == 1


def test_decisions_from_natural_phrasing() -> None:
    state = track(
        ("user", "add caching"),
        ("claude", "I'll go with Redis rather than memcached because we already run it."),
        ("claude", "Let's use a 5 minute TTL for now, since the data changes hourly."),
        ("claude", "I chose msgpack over JSON since the payloads are binary-heavy."),
        ("claude", "I'll look at the code first."),
    )
    assert len(state.decisions) == 3
    assert not any("look at the code" in d for d in state.decisions)


def test_a_decision_turned_down_by_a_later_one_is_superseded() -> None:
    state = track(
        ("user", "cache the store"),
        ("claude", "Let's use setup-node's built-in cache, because it is a one-line change."),
        ("user", "it misses on every lockfile bump"),
        ("claude", "I chose actions/cache over setup-node's cache since it supports restore-keys."),
    )
    assert state.decisions == [
        "I chose actions/cache over setup-node's cache since it supports restore-keys."
    ]
    assert state.superseded_decisions[0].startswith("Let's use setup-node's")


def test_the_user_rejecting_a_proposal_and_claude_reversing_itself() -> None:
    state = track(
        ("user", "add a --json mode"),
        ("claude", "I'll print the rows as one JSON array, so it is easy to read."),
        ("user", "no, not like that. they read stdin line by line, an array is useless"),
        ("claude", "Let's use NDJSON instead: one object per line and no enclosing array."),
        ("user", "ok and the ordering"),
        (
            "claude",
            "I chose Meta.ordering on the model over per-view ordering, since it is one place.",
        ),
        ("user", "we're in a migration freeze"),
        ("claude", "So I'm reversing that choice: let's order in the querysets instead."),
    )
    assert len(state.superseded_decisions) == 2
    assert any("NDJSON" in d for d in state.decisions)
    assert any("querysets" in d for d in state.decisions)
    assert not any("Meta.ordering" in d for d in state.decisions)


def test_a_for_now_decision_goes_with_its_blocker() -> None:
    state = track(
        ("user", "I'm blocked on the allowlist: pnpm/action-setup isn't approved yet."),
        ("claude", "Then I'll install pnpm through corepack for now, so no third-party action."),
        ("user", "pnpm/action-setup got approved on the allowlist, switch to it"),
    )
    assert state.decisions == []
    assert state.superseded_decisions
    assert state.resolved_blockers


def test_constraints_said_in_passing() -> None:
    state = track(
        ("user", "fix the bug. don't touch deploy/ btw, ops owns it. and keep the public API."),
        ("user", "only the stdlib please, no new dependencies"),
        ("user", "run the tests"),
    )
    assert len(state.constraints) == 3
    assert not any("run the tests" in c for c in state.constraints)


def test_goal_next_plan_and_waiting_on_the_user() -> None:
    tracker = LiveTracker()
    tracker.prompt("I want a --json output mode so the dashboards team can ingest the stats.")
    tracker.reply("Plan:\n1. A JSON writer\n2. Tests\n\nNext I'll write the JSON writer.")
    for n in range(4):
        tracker.prompt(f"step {n}")
        tracker.reply("Done.")
    tracker.prompt("they also want a totals line")
    tracker.reply(
        "Two ways:\n\n(a) a type field\n(b) a --totals flag\n\nWhich one should I build? "
        "I'll hold off until you answer. After that, the next step is the totals renderer."
    )
    state = tracker.finish()
    assert state.goal.startswith("I want a --json output mode")
    assert state.plan == []  # five prompts old: done or replaced
    assert state.next_steps == ["After that, the next step is the totals renderer."]
    assert "Which one should I build?" in state.waiting
    assert "(a) a type field" in state.waiting


def test_an_answered_question_is_not_waiting_and_the_yes_carries_the_proposal() -> None:
    state = track(
        ("user", "fix the ordering"),
        (
            "claude",
            "I'd move the tiebreaker into the querysets, then rerun the migrations check and "
            "the suite.\n\nShall I go ahead?",
        ),
        ("user", "yes, do it"),
    )
    assert state.waiting == []
    assert "rerun the migrations check" in state.proposal


_UUIDS = iter(range(1_000_000))


def _record(obj: dict[str, Any]) -> Record:
    record = record_from_json({"uuid": f"u{next(_UUIDS)}", **obj})
    assert record is not None
    return record


def _bash(n: int, command: str, *, description: str = "") -> Record:
    return _record(
        {
            "type": "assistant",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{n}",
                        "name": "Bash",
                        "input": {"command": command, "description": description},
                    }
                ]
            },
        }
    )


def _result(n: int, text: str, *, error: bool) -> Record:
    return _record(
        {
            "type": "user",
            "toolUseResult": text,
            "message": {
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": f"t{n}",
                        "content": text,
                        "is_error": error,
                    }
                ]
            },
        }
    )


def _say(who: str, text: str) -> Record:
    if who == "user":
        return _record({"type": "user", "message": {"role": "user", "content": text}})
    return _record({"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}})


def test_failures_fixed_meant_and_open() -> None:
    records = [
        _say("user", "make the tests pass"),
        _bash(1, "pytest -q"),
        _result(1, "Exit code 1\nFAILED test_a - AssertionError", error=True),
        _say("claude", "pytest fails: test_a asserts the old slug."),
        _bash(2, "pytest -q"),
        _result(2, "3 passed", error=False),
        _say("claude", "This one is expected to fail: it checks the guard."),
        _bash(3, "./tool --bogus"),
        _result(3, "Exit code 2\nerror: unknown flag", error=True),
        _bash(4, "ruff check .", description="Lint"),
        _result(4, "Exit code 1\nE501 line too long", error=True),
        _say("claude", "ruff still fails on E501 in legacy.py, which you asked me not to touch."),
    ]
    facts = extract_facts(records, track_live=True)
    by_command = {f.command: f for f in facts.failed_commands}
    assert by_command["pytest -q"].later_succeeded
    assert by_command["./tool --bogus"].intended
    assert not by_command["ruff check ."].intended
    assert "E501 in legacy.py" in by_command["ruff check ."].note
    text = without_host_kept(
        render_checkpoint(
            facts, current_task_md="", blockers_md="", session_id="s", trigger="auto", created="t"
        )
    )
    open_part = text.split("## Open failures")[1].split("## ")[0]
    assert "ruff check ." in open_part
    assert "pytest -q" not in open_part
    assert "./tool --bogus" not in open_part
    assert "Expected to fail (a deliberate check): `./tool --bogus`" in text
    assert "Fixed, passes now: `pytest -q`" in text


def test_a_temporary_constraint_goes_with_its_blocker() -> None:
    state = track(
        ("user", "add the export"),
        (
            "user",
            "I'm blocked on Sam for the field names, he is out with the rest of the dashboards "
            "team this week. And don't touch the output format yet.",
        ),
        ("user", "Sam confirmed the field names: path, hits. go ahead"),
    )
    assert state.constraints == []
    assert state.lifted_constraints == ["And don't touch the output format yet."]
    assert state.resolved_blockers


def test_the_goal_keeps_its_instruction_but_not_a_blocker_settled_since() -> None:
    state = track(
        ("user", "Migrate the cron jobs to systemd timers. I'm blocked on INFRA-88 for root."),
        ("user", "INFRA-88 is done, I have root now"),
    )
    assert state.goal.startswith("Migrate the cron jobs to systemd timers.")
    assert "INFRA-88" not in state.goal
    assert state.resolved_blockers


def test_a_recent_plan_with_a_step_done_and_claude_changing_its_mind() -> None:
    state = track(
        ("user", "speed up the build"),
        ("claude", "Let's use ccache for the C files, because most rebuilds touch one file."),
        ("claude", "Plan:\n1. Add ccache\n2. Measure a rebuild"),
        ("user", "ok"),
        ("claude", "Step 1 is done. On reflection, let's use sccache instead of ccache."),
    )
    assert state.plan == ["Add ccache (done)", "Measure a rebuild"]
    assert any("sccache" in d for d in state.decisions)
    assert state.superseded_decisions == [
        "Let's use ccache for the C files, because most rebuilds touch one file."
    ]
