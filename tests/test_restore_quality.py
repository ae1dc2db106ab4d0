"""Restore after compaction, scored by the fixture sets' own rule (transcripts2/FORMAT2.md).

For every session of both sets, the SessionStart(compact) briefing built from what
PreCompact saw must carry the live fragments (goal, now, next, waiting on the user, open
blockers, live decisions, constraints, open failures), present no stale fragment as current,
keep every fact of the older `facts.json`, fit its budget and show no placeholder.
`tests/benchmark/restore_eval.py` prints the same figures as a table.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
MIN_RECALL = 0.95  # overall gated recall over the messy sessions


def load_eval() -> ModuleType:
    path = REPO / "tests" / "benchmark" / "restore_eval.py"
    spec = importlib.util.spec_from_file_location("restore_eval", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["restore_eval"] = module
    spec.loader.exec_module(module)
    return module


EVAL = load_eval()
SCORER = EVAL.load_scorer()
MESSY = sorted(
    p
    for name in ("transcripts2", "transcripts3")
    for p in (FIXTURES / name).glob("*/")
    if (p / "facts2.json").is_file()
)
TIDY = sorted(p for p in (FIXTURES / "transcripts").glob("*/") if (p / "facts.json").is_file())


def test_the_sets_are_there() -> None:
    assert len(MESSY) >= 4
    assert len(TIDY) >= 3


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, object]]:
    return {folder.name: EVAL.evaluate(folder, SCORER) for folder in [*MESSY, *TIDY]}


@pytest.mark.parametrize("folder", MESSY, ids=lambda p: p.name)
def test_no_stale_fragment_is_presented_as_current(
    rows: dict[str, dict[str, object]], folder: Path
) -> None:
    assert rows[folder.name]["stale"] == []


@pytest.mark.parametrize("folder", MESSY, ids=lambda p: p.name)
def test_live_fragments_are_restored(rows: dict[str, dict[str, object]], folder: Path) -> None:
    row = rows[folder.name]
    # Per session at most one fragment may be missed; overall the bar is MIN_RECALL.
    assert len(row["missing"]) <= 1, row["missing"]  # type: ignore[arg-type]


def test_overall_recall(rows: dict[str, dict[str, object]]) -> None:
    found = sum(int(rows[f.name]["found"]) for f in MESSY)  # type: ignore[call-overload]
    total = sum(int(rows[f.name]["total"]) for f in MESSY)  # type: ignore[call-overload]
    assert found / total >= MIN_RECALL


@pytest.mark.parametrize("folder", [*MESSY, *TIDY], ids=lambda p: p.name)
def test_old_facts_budget_and_no_placeholder(
    rows: dict[str, dict[str, object]], folder: Path
) -> None:
    row = rows[folder.name]
    assert row["old_facts_missing_in_checkpoint"] == []
    assert row["old_facts_missing_in_briefing"] == []
    assert row["within_budget"]
    assert row["placeholders"] == []


@pytest.mark.parametrize("folder", MESSY, ids=lambda p: p.name)
def test_what_the_host_keeps_is_not_injected(folder: Path) -> None:
    import json

    facts = json.loads((folder / "facts.json").read_text(encoding="utf-8"))
    text = EVAL.briefing_for(folder)
    assert facts["last_assistant_message"] not in text
    assert "Earlier replies" not in text
    assert "Written, most recent last" not in text  # files are listed once


def test_the_scorer_catches_a_stale_line() -> None:
    """The rule really bites: the same fragment, unmarked, is a violation."""
    folder = MESSY[0]
    import json

    facts = json.loads((folder / "facts2.json").read_text(encoding="utf-8"))
    stale = facts["stale"][0]["fragment"]
    assert SCORER.stale_violations(facts, f"- Blocker: {stale}")
    assert not SCORER.stale_violations(facts, f"- Resolved blocker: {stale}")
