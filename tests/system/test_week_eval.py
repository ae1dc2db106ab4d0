"""The week scenarios' harness (tests/benchmark/week_eval.py): how a recorded session is cut
and what the replay does at each point, then one short scenario through the real hooks."""

from __future__ import annotations

import datetime as dt
import importlib.util
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[1] / "benchmark"
FIXTURES = Path(__file__).parents[1] / "fixtures"
FOLDER = FIXTURES / "transcripts3" / "t3-bash-backup-rotation"


def load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("week_sessions", BENCH / "week_sessions.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["week_sessions"] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


week_sessions = load_module()
RECORDS = week_sessions.read_records(week_sessions.transcript_of(FOLDER))
PROMPTS = [p for p in map(week_sessions.prompt_text, RECORDS) if p is not None]


def test_a_cut_keeps_every_record_and_cuts_before_a_prompt() -> None:
    parts = week_sessions.cut(RECORDS, 3)
    assert len(parts) == 3
    assert [r for part in parts for r in part] == RECORDS
    counts = [sum(week_sessions.prompt_text(r) is not None for r in part) for part in parts]
    assert sum(counts) == len(PROMPTS)
    assert max(counts) - min(counts) <= 1
    for part in parts[1:]:
        first = next(r for r in part if r.get("type") != "queue-operation")
        assert week_sessions.prompt_text(first) is not None


def test_the_steps_run_the_hooks_where_the_host_ran_them() -> None:
    steps = week_sessions.session_steps(RECORDS)
    events = [s.event for s in steps if s.event]
    assert events.count("UserPromptSubmit") == len(PROMPTS)
    assert events.count("Stop") == len(PROMPTS)
    # Each prompt's hook runs before its record is written; Stop before the host's summary.
    assert all(a != b for a, b in itertools.pairwise(events))
    written: list[dict[str, object]] = []
    for step in steps:
        written += step.lines
        if step.event == "UserPromptSubmit":
            assert all(week_sessions.prompt_text(r) != step.fields["prompt"] for r in written)
        if step.event == "Stop":
            assert written[-1].get("subtype") != "stop_hook_summary"
    assert written == RECORDS


def test_a_compaction_in_the_records_runs_its_hooks() -> None:
    part = week_sessions.cut(RECORDS, 3)[0]
    records = part + week_sessions.compaction_records(part[-1], "SUMMARY-TEXT", "manual")
    steps = week_sessions.session_steps(records)
    events = [(s.event, s.fields.get("source") or s.fields.get("trigger")) for s in steps]
    at = events.index(("PreCompact", "manual"))
    assert events[at + 1 :] == [("SessionStart", "compact"), ("PostCompact", "manual")]
    assert "SUMMARY-TEXT" in steps[-1].fields["compact_summary"]


def test_a_rewritten_session_is_its_own() -> None:
    start = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.timezone.utc)
    part = week_sessions.cut(RECORDS, 3)[1]
    rewritten = week_sessions.Rewrite("s-2", Path("/tmp/p"), start).records(part)
    assert len(rewritten) == len(part)
    assert {r["sessionId"] for r in rewritten if "sessionId" in r} == {"s-2"}
    assert not any(week_sessions.RECORDED_CWD in json.dumps(r) for r in rewritten)
    stamps = sorted(r["timestamp"] for r in rewritten if r.get("timestamp"))
    assert stamps[0].startswith("2026-11-20T09:30")
    chained = [r for r in rewritten if r.get("type") in ("user", "assistant")]
    assert chained[0]["parentUuid"] is None


def test_sessions_are_days_apart() -> None:
    now = dt.datetime(2026, 11, 29, 3, 0, tzinfo=dt.timezone.utc)
    starts = week_sessions.start_days(3, trivial=True, now=now)
    assert [s.day for s in starts] == [23, 25, 27, 28]


@pytest.mark.slow
def test_one_scenario_through_the_hooks(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "week_eval.py"),
            "--json",
            "--sessions",
            "2",
            "--variant",
            "b",
            "--dump",
            str(tmp_path / "dump"),
            "--keep",
            str(tmp_path / "keep"),
            str(FOLDER),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (row,) = json.loads(done.stdout)["rows"]
    assert row["scenario"] == "t3-bash-backup-rotation+trivial"
    assert sum(row["prompts"]) == len(PROMPTS)
    assert not row["hook_problems"], row["hook_problems"]
    assert row["timing"]["Stop"]["n"] == len(PROMPTS) + 1
    assert row["total"] > 0
    assert 0 <= row["tail_found"] <= row["total"]
    folder = tmp_path / "dump" / row["scenario"]
    ours = (folder / "ours.txt").read_text(encoding="utf-8")
    assert len(ours) == row["chars"] > 0
    assert len((folder / "tail.txt").read_text(encoding="utf-8")) <= row["chars"]
    assert json.loads((folder / "scenario.json").read_text())["session"] == FOLDER.name
    recall_in_the_kept_project(tmp_path / "keep", row["scenario"])


def recall_in_the_kept_project(keep: Path, scenario: str) -> None:
    """`--keep` leaves the project: the CLI run there, as a user would, finds the turns of the
    sessions played (the first prompt's longest words find its turn)."""
    words = sorted(set(PROMPTS[0].split()), key=len)[-3:]
    env = dict(
        os.environ,
        HOME=str(keep / scenario / "home"),
        CLAUDE_PLUGIN_DATA=str(keep / "data"),
        CLAUDE_PLUGIN_ROOT=str(BENCH.parents[1]),
    )
    env.pop("MEMHOOKS_PROJECT_DIR", None)
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH.parents[1] / "hooks" / "memhooks.py"),
            "recall",
            "--json",
            "--limit",
            "50",
            "--",
            *words,
        ],
        cwd=keep / scenario / "project",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    turns = json.loads(done.stdout)["turns"]
    assert any(t["turn"] == 1 for t in turns), turns
