"""The turns' renders kept from one build to the next: what they give is what the render gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memhooks.continuity import earlier_words, excerpt, thread_parts, turn_memo
from memhooks.continuity.evidence import Evidence, new_state


def _states(turns: int) -> list[dict[str, Any]]:
    """A session as it grows, turn by turn (each state a copy, as each Stop loads it)."""
    evidence = Evidence(new_state("s"))
    states = []
    for n in range(1, turns + 1):
        evidence.prompt(f"step {n}: keep the public API as it is, and " + "mind the parser. " * n)
        evidence.said(f"Looking at step {n}. I'll read the header first. " * 3)
        evidence.said(f"Decided: the parser stays. Shall I go on with step {n + 1}?")
        evidence.ran("pytest -q", ok=n % 3 != 0, output="3 passed" if n % 3 else "1 failed", turn=n)
        states.append(json.loads(json.dumps(evidence.state)))
    return states


def _parts(state: dict[str, Any]) -> list[str]:
    return [
        thread_parts.last_part(state, 6_000),
        thread_parts.last_part(state, 1_500),
        thread_parts.earlier_part(state, 2_500),
        thread_parts.earlier_part(state, 600),
    ]


def test_a_kept_render_is_the_render() -> None:
    """Build after build, each one starting from the memo the one before kept (through
    JSON, as on disk): every part is what the render alone makes."""
    kept: object = None
    for state in _states(9):
        with turn_memo.keeping(kept) as memo:
            parts = _parts(state)
            assert _parts(state) == parts  # the second time all from the memo
        assert parts == _parts(state)  # off: rendered
        kept = json.loads(json.dumps(memo.doc()))
    assert isinstance(kept, dict)
    assert kept["entries"]


def test_only_the_new_turns_are_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    states = _states(6)
    with turn_memo.keeping(None) as memo:
        thread_parts.earlier_part(states[-2], 2_500)
    cut: list[str] = []
    words_first = excerpt.words_first

    def counted(text: str, limit: int) -> str:
        cut.append(text)
        return words_first(text, limit)

    monkeypatch.setattr(earlier_words, "words_first", counted)
    with turn_memo.keeping(json.loads(json.dumps(memo.doc()))):
        thread_parts.earlier_part(states[-1], 2_500)
    assert cut
    assert all(text.startswith(("step 5:", "step 6:")) for text in cut)  # grew, or is new


def test_a_memo_of_other_code_or_of_the_wrong_shape_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _states(4)[-1]
    want = _parts(state)
    with turn_memo.keeping(None) as memo:
        _parts(state)
    doc = memo.doc()
    wrong = {key: [doc["build"], ["[1] user: not what was said"]] for key in doc["entries"]}
    monkeypatch.setattr(turn_memo, "code_stamp", lambda: "another version")
    with turn_memo.keeping({**doc, "entries": wrong}):
        assert _parts(state) == want
    monkeypatch.undo()
    broken = {key: [1, [2, None]] for key in doc["entries"]}
    kept: object
    for kept in ({**doc, "entries": broken}, {**doc, "entries": []}, [], "x", {"version": 99}):
        with turn_memo.keeping(kept):
            assert _parts(state) == want


def test_an_entry_unused_for_some_builds_is_dropped() -> None:
    first, later = _states(2)
    with turn_memo.keeping(None) as memo:
        thread_parts.last_part(first, 3_000)
    doc = memo.doc()
    kept = set(doc["entries"])
    later["turns"][0]["prompt"] += " (edited)"
    for _ in range(turn_memo.KEEP_BUILDS - 1):
        with turn_memo.keeping(doc) as memo:
            thread_parts.last_part(later, 3_000)
        doc = json.loads(json.dumps(memo.doc()))
    assert kept <= set(doc["entries"])  # kept while the builds since are few
    with turn_memo.keeping(doc) as memo:
        thread_parts.last_part(later, 3_000)
    assert not kept & set(memo.doc()["entries"])  # then dropped


def test_stop_keeps_the_memo_and_a_memo_that_breaks_the_render_is_dropped(
    memory: Path,
) -> None:
    from memhooks.hooks import thread_build
    from memhooks.store import MemoryPaths, load_settings, read_memo, read_thread, save_evidence

    paths = MemoryPaths(memory)
    settings = load_settings(paths.config)
    session = "aaaaaaaa-0000-4000-8000-00000000000a"
    first, later = _states(8)[-2:]
    for state in (first, later):
        save_evidence(paths, session, state)
        thread_build.render_thread(paths, settings, (session, state), "Stop")
    kept = read_memo(paths)
    assert isinstance(kept, dict)
    assert kept["entries"]
    shown = read_thread(paths)
    Path(paths.thread).unlink()
    Path(paths.thread_memo).unlink()
    thread_build.render_thread(paths, settings, (session, later), "Stop")
    assert _texts(read_thread(paths)) == _texts(shown)  # the same without the memo
    broken = {key: [1, 7] for key in kept["entries"]}  # a number where lines were
    Path(paths.thread_memo).write_text(json.dumps({**kept, "entries": broken}))
    Path(paths.thread).unlink()
    thread_build.render_thread(paths, settings, (session, later), "Stop")
    assert read_thread(paths) is None  # not rendered (one line in the log) ...
    assert read_memo(paths) is None  # ... and the memo is gone
    thread_build.render_thread(paths, settings, (session, later), "Stop")
    assert _texts(read_thread(paths)) == _texts(shown)


def _texts(doc: dict[str, Any] | None) -> list[str]:
    from memhooks.hooks import thread_build

    return [part["text"] for part in thread_build.parts(doc or {})]
