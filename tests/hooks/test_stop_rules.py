"""Stop's rules in process: the nudge's floor, and another Stop of the same session winning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memhooks.hooks import stop
from memhooks.hooks.event import HookInput
from memhooks.store import MemoryPaths, Settings
from memhooks.text.clock import stamp

NOW = 2_000_000_000.0


def _state(*, nudged_minutes_ago: float | None) -> dict[str, Any]:
    state: dict[str, Any] = {"lastMemoryWrite": stamp(NOW - 5 * 3600)}
    if nudged_minutes_ago is not None:
        state["lastNudge"] = stamp(NOW - nudged_minutes_ago * 60)
    return state


@pytest.mark.parametrize("nudge", ["remind", "save"])
def test_a_one_minute_interval_still_nudges_at_most_every_fifteen_minutes(nudge: str) -> None:
    settings = Settings(nudge=nudge, nudge_interval_minutes=1)
    hook = HookInput("Stop", session_id="s1")
    assert stop.nudge(_state(nudged_minutes_ago=5), hook, settings, NOW) is None
    assert stop.nudge(_state(nudged_minutes_ago=14), hook, settings, NOW) is None
    state = _state(nudged_minutes_ago=16)
    assert stop.nudge(state, hook, settings, NOW) is not None
    assert state["lastNudge"] == stamp(NOW)


def test_a_longer_interval_than_the_floor_is_kept() -> None:
    settings = Settings(nudge="remind", nudge_interval_minutes=60)
    hook = HookInput("Stop", session_id="s1")
    assert stop.nudge(_state(nudged_minutes_ago=30), hook, settings, NOW) is None
    assert stop.nudge(_state(nudged_minutes_ago=61), hook, settings, NOW) is not None
    assert stop.nudge(_state(nudged_minutes_ago=None), hook, settings, NOW) is not None


def test_no_nudge_while_memory_is_fresh_or_nudges_are_off() -> None:
    hook = HookInput("Stop", session_id="s1")
    fresh = {"lastMemoryWrite": stamp(NOW - 60)}
    assert stop.nudge(fresh, hook, Settings(nudge="remind"), NOW) is None
    assert stop.nudge(_state(nudged_minutes_ago=None), hook, Settings(nudge="off"), NOW) is None


def test_a_stop_of_the_same_session_that_saved_first_wins(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two Stops of one session read the same offset; the one that takes the lock second
    finds it moved and writes nothing (no journal entry twice, the offset not moved back)."""
    paths = MemoryPaths(started)
    transcript = tmp_path / "t.jsonl"
    prompt = {"type": "user", "message": {"role": "user", "content": "fix the flaky test"}}
    transcript.write_text(json.dumps(prompt) + "\n", encoding="utf-8")
    hook = HookInput(
        "Stop", session_id="s1", cwd=str(started.parent.parent), transcript_path=str(transcript)
    )
    real = stop.read_update

    def other_stop_saves_meanwhile(*args: Any) -> Any:
        update = real(*args)
        Path(paths.offsets).write_text(json.dumps({"s1": 12_345}), encoding="utf-8")
        return update

    monkeypatch.setattr(stop, "read_update", other_stop_saves_meanwhile)
    stop.handle(hook, paths, Settings())
    assert json.loads(Path(paths.offsets).read_text(encoding="utf-8")) == {"s1": 12_345}
    assert not (started / "sessions" / "s1.md").exists()  # no journal entry from this one


def test_a_save_nudge_never_blocks_a_stop_the_hook_already_continued() -> None:
    settings = Settings(nudge="save")
    again = HookInput("Stop", session_id="s1", stop_hook_active=True)
    state = _state(nudged_minutes_ago=None)
    assert stop.nudge(state, again, settings, NOW) is None
    assert "lastNudge" not in state  # not spent: the next Stop may still ask
    first = stop.nudge(state, HookInput("Stop", session_id="s1"), settings, NOW)
    assert first is not None
    assert first["decision"] == "block"
