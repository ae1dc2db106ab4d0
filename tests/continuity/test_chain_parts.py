"""A failed `&&` chain is settled part by part: once each command of it that checks something
has passed in some later run, it is no longer shown as failing."""

from __future__ import annotations

import json

from records import bash as _bash
from records import edit as _edit
from records import prompt as _prompt

from memhooks.continuity import checks
from memhooks.continuity.evidence import Evidence
from memhooks.continuity.handover import next_session
from memhooks.continuity.transcript_records import Record

CHAIN = "cargo build --release && cargo test parser"
CARGO_OK = "test result: ok. 4 passed; 0 failed"


def _state(*later: list[Record]) -> dict[str, object]:
    records = [
        _prompt("speed up the parser"),
        *_bash("1", CHAIN, ok=False, output="error[E0425]: cannot find value `depth`"),
        *_edit("2", "/p/src/parser.rs"),
    ]
    records += [record for run in later for record in run]
    return Evidence().add_all(records).state


def _checks_text(state: dict[str, object]) -> str:
    return next_session(state, budget=6_000).split("## What was said")[0]


def _entry(state: dict[str, object]) -> dict[str, object]:
    entries = state["checks"]
    assert isinstance(entries, dict)
    (entry,) = [e for e in entries.values() if e["cmd"] == CHAIN]
    return dict(entry)


def test_open_parts_are_the_checks_of_an_and_chain_only() -> None:
    assert checks.open_parts(CHAIN, ok=False) == {
        "open": ["cargo build --release", "cargo test parser"]
    }
    assert checks.open_parts(CHAIN, ok=True) == {}
    assert checks.open_parts("cargo test parser", ok=False) == {}
    # a command that checks nothing needs no proof; `;` and `||` are never split
    assert checks.open_parts("rm -rf out && make unit", ok=False) == {"open": ["make unit"]}
    assert checks.open_parts("make fmt-check; make unit", ok=False) == {}
    assert checks.open_parts("make unit || make report", ok=False) == {}
    long = " && ".join(f"pytest tests/test_{i:03}_{'x' * 40}.py" for i in range(12))
    assert checks.open_parts(long, ok=False) == {}  # settled as a whole only


def test_a_failed_chain_closes_once_each_of_its_checks_passed_later() -> None:
    test_only = _bash("3", "cargo test parser", ok=True, output=CARGO_OK)
    state = _state(test_only)
    entry = _entry(state)
    assert not entry["ok"]
    assert entry["open"] == ["cargo build --release"]
    text = _checks_text(state)
    assert "but `cargo build --release` (not re-run since)" in text
    assert "not re-run (turn" not in text

    build = _bash("4", "cargo build --release && ls target/release", ok=True, output="app")
    state = _state(test_only, build)
    assert _entry(state)["ok"]
    text = _checks_text(state)
    assert "fixed, passes now" in text
    assert "earlier failure" not in text
    assert "FAILING" not in text


def test_a_part_never_run_again_keeps_the_chain_failing() -> None:
    state = _state(_bash("3", "cargo build --release", ok=True))
    entry = _entry(state)
    assert not entry["ok"]
    assert entry["open"] == ["cargo test parser"]
    # a narrower run does not prove the part: `cargo test parser::depth` checks less
    state = _state(
        _bash("3", "cargo build --release", ok=True),
        _bash("4", "cargo test parser::depth", ok=True, output=CARGO_OK),
    )
    assert not _entry(state)["ok"]


def test_a_piped_pass_proves_no_part() -> None:
    piped = _bash("3", "cargo test parser 2>&1 | tail -2", ok=True, output="Finished")
    state = _state(piped, _bash("4", "cargo build --release", ok=True))
    entry = _entry(state)
    assert not entry["ok"]
    assert entry["open"] == ["cargo test parser"]


def test_a_chain_joined_by_semicolons_is_not_settled_part_by_part() -> None:
    chain = "make fmt-check; make unit"
    records = [
        _prompt("tidy the build"),
        *_bash("1", chain, ok=False, output="make: *** [unit] Error 2"),
        *_bash("2", "make fmt-check", ok=True),
        *_bash("3", "make unit", ok=True, output="12 passed"),
    ]
    state = Evidence().add_all(records).state
    (entry,) = [e for e in state["checks"].values() if e["cmd"] == chain]
    assert not entry["ok"]
    assert "open" not in entry


def test_the_parts_left_survive_the_state_kept_between_turns() -> None:
    """Stop keeps the state as JSON between turns: a part proven in one turn stays proven."""
    state = json.loads(
        json.dumps(_state(_bash("3", "cargo test parser", ok=True, output=CARGO_OK)))
    )
    evidence = Evidence(state).add_all([*_bash("4", "cargo build --release", ok=True)])
    assert _entry(evidence.state)["ok"]


def test_a_failed_chain_kept_before_parts_were_kept_still_loads_and_settles() -> None:
    """Evidence an earlier version wrote has no `open` in a failed chain's entry: a later
    pass of one part leaves the chain failing as a whole (no part named), and the chain's
    own pass closes it as before."""
    state = json.loads(json.dumps(_state()))
    for entry in state["checks"].values():
        entry.pop("open", None)
    evidence = Evidence(state).add_all([*_bash("3", "cargo test parser", ok=True, output=CARGO_OK)])
    entry = _entry(evidence.state)
    assert not entry["ok"]
    assert "part_passed" not in entry
    text = _checks_text(evidence.state)
    assert "FAILING" in text or "earlier failure" in text
    assert "not re-run since" not in text
    evidence.add_all([*_bash("4", CHAIN, ok=True, output=CARGO_OK)])
    assert _entry(evidence.state)["ok"]
