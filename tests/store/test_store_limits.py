"""The store's caps, orders and containment, as behaviour."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memhooks.store import (
    Entry,
    MemoryPaths,
    index_line,
    inside,
    keep_prompt,
    leave_pointers,
    load_verdicts,
    log_line,
    mark_filed,
    marker_path,
    read_offsets,
    read_prompts,
    read_status,
    read_text,
    record_injected,
    record_shown,
    resolves_inside,
    save_offset,
    save_verdicts,
    shown_statuses,
    take_pointers,
)
from memhooks.store.caches import HANDOFF_KEPT, HANDOFF_SECONDS, PROMPTS_KEPT, VERDICTS_KEPT
from memhooks.store.filed_marks import MARKERS_KEPT
from memhooks.store.injection_ledger import LEDGER_SESSIONS
from memhooks.store.journal import MAX_OFFSETS
from memhooks.store.pages import LINE_MAX_CHARS
from memhooks.store.reminder import REMINDER_SESSIONS
from memhooks.store.session import MAX_SESSIONS_KEPT, session_record


def test_a_sibling_folder_sharing_the_prefix_is_not_inside(tmp_path: Path) -> None:
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    (tmp_path / "proj2").mkdir()
    assert resolves_inside(tmp_path / "proj", tmp_path / "proj" / "sub")
    assert resolves_inside(tmp_path / "proj", tmp_path / "proj")
    assert not resolves_inside(tmp_path / "proj", tmp_path / "proj2")
    assert not resolves_inside(tmp_path / "proj", tmp_path / "proj2" / "x")
    assert not inside(tmp_path / "proj", tmp_path / "proj2" / "file.md")
    assert inside(tmp_path / "proj", tmp_path / "proj" / "sub" / "file.md")


def test_a_link_out_of_the_base_is_not_inside(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "proj" / "out").symlink_to(tmp_path / "elsewhere")
    assert not resolves_inside(tmp_path / "proj", tmp_path / "proj" / "out")
    assert not inside(tmp_path / "proj", tmp_path / "proj" / "out" / "file.md")


def test_the_session_list_keeps_the_newest_records(tmp_path: Path) -> None:
    state: dict[str, object] = {}
    for n in range(MAX_SESSIONS_KEPT + 7):
        session_record(state, f"s{n}")
    sessions = state["sessions"]
    assert isinstance(sessions, list)
    assert len(sessions) == MAX_SESSIONS_KEPT
    assert sessions[-1]["id"] == f"s{MAX_SESSIONS_KEPT + 6}"
    assert sessions[0]["id"] == "s7"  # the oldest seven went


def test_the_offsets_keep_the_newest_sessions(tmp_path: Path) -> None:
    memory = tmp_path / ".claude" / "memory"
    paths = MemoryPaths(memory)
    Path(paths.offsets).parent.mkdir(parents=True)
    offsets: dict[str, int] = {}
    for n in range(MAX_OFFSETS + 5):
        save_offset(paths, offsets, f"s{n}", n)
        offsets = json.loads(Path(paths.offsets).read_text(encoding="utf-8"))
    assert len(offsets) == MAX_OFFSETS
    assert f"s{MAX_OFFSETS + 4}" in offsets
    assert "s0" not in offsets
    save_offset(paths, offsets, "s5", 999)  # an old session writes again: it moves last
    offsets = json.loads(Path(paths.offsets).read_text(encoding="utf-8"))
    assert list(offsets)[-1] == "s5"
    assert offsets["s5"] == 999


def _paths(tmp_path: Path) -> MemoryPaths:
    paths = MemoryPaths(tmp_path / ".claude" / "memory")
    for file in (paths.prompts, paths.handoff, paths.injected):
        Path(file).parent.mkdir(parents=True, exist_ok=True)
    return paths


def test_the_kept_prompts_are_the_newest(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    for n in range(PROMPTS_KEPT + 3):
        keep_prompt(paths, "s1", f"prompt {n}")
    kept = [p["prompt"] for p in read_prompts(paths)]
    assert kept == [f"prompt {n}" for n in range(3, PROMPTS_KEPT + 3)]


def test_the_ledger_keeps_the_newest_sessions(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    for n in range(LEDGER_SESSIONS + 2):
        record_injected(paths.injected, f"s{n}", "UserPromptSubmit", 10)
    record_injected(paths.injected, "s5", "UserPromptSubmit", 5)  # s5 is active again
    data = json.loads(Path(paths.injected).read_text(encoding="utf-8"))
    assert len(data) == LEDGER_SESSIONS
    assert "s0" not in data
    assert "s1" not in data
    assert data["s5"]["UserPromptSubmit"] == [2, 15]
    assert list(data)[-1] == "s5"
    record_injected(paths.injected, "s12", "UserPromptSubmit", 5)
    assert "s2" not in json.loads(Path(paths.injected).read_text(encoding="utf-8"))


def test_handoffs_go_in_call_order_and_stale_ones_expire(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    now = time.time()
    leave_pointers(paths, "s1", "second call", at=now - 1)
    leave_pointers(paths, "s1", "first call", at=now - 2)  # finished ranking later
    leave_pointers(paths, "s1", "too old", at=now - HANDOFF_SECONDS - 5)
    assert take_pointers(paths, "s1") == "first call"
    assert take_pointers(paths, "s1") == "second call"
    assert take_pointers(paths, "s1") == ""  # the stale one was dropped


def test_the_handoff_queue_keeps_the_newest(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    now = time.time()
    for n in range(HANDOFF_KEPT + 3):
        leave_pointers(paths, "s1", f"call {n}", at=now - 60 + n)
    assert take_pointers(paths, "s1") == "call 3"


def test_citation_verdicts_keep_the_newest(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    verdicts = {f"decisions/m{n}.md": {"stale": False} for n in range(VERDICTS_KEPT + 4)}
    save_verdicts(paths.base, verdicts)
    kept = load_verdicts(paths.base)
    assert len(kept) == VERDICTS_KEPT
    assert "decisions/m0.md" not in kept
    assert f"decisions/m{VERDICTS_KEPT + 3}.md" in kept


def test_the_reminder_file_keeps_the_latest_sessions(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    Path(paths.reminder).parent.mkdir(parents=True, exist_ok=True)
    for n in range(REMINDER_SESSIONS + 3):
        record_shown(paths, shown_statuses(paths), f"s{n}", f"status {n}")
    shown = shown_statuses(paths)
    assert len(shown) == REMINDER_SESSIONS
    assert "s0" not in shown
    assert shown[f"s{REMINDER_SESSIONS + 2}"] == f"status {REMINDER_SESSIONS + 2}"


def test_a_negative_or_foreign_offset_is_not_trusted(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    Path(paths.offsets).parent.mkdir(parents=True, exist_ok=True)
    Path(paths.offsets).write_text(
        json.dumps({"a": -5, "b": "12", "c": 7, "d": 1.5}), encoding="utf-8"
    )
    assert read_offsets(paths) == {"c": 7}


def test_a_symlinked_file_is_never_inside_even_pointing_within(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "real.md").write_text("x", encoding="utf-8")
    (tmp_path / "proj" / "link.md").symlink_to(tmp_path / "proj" / "real.md")
    assert inside(tmp_path / "proj", tmp_path / "proj" / "real.md")
    assert not inside(tmp_path / "proj", tmp_path / "proj" / "link.md")


def test_read_text_keeps_to_its_limit(tmp_path: Path) -> None:
    file = tmp_path / "f.txt"
    file.write_text("abcdefghij" * 100, encoding="utf-8")
    assert read_text(file, 25) == "abcdefghij" * 2 + "abcde"
    assert len(read_text(file)) == 1_000


def test_a_log_line_is_one_bounded_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "memhooks.log"
    log.touch()
    log_line(log, "first\nsecond " + "x" * 5_000)
    written = log.read_text(encoding="utf-8")
    assert written.count("\n") == 1
    assert "first second" in written
    assert len(written) < 2_100
    assert capsys.readouterr().err.count("\n") == 1


def test_the_filed_marks_are_pruned_to_the_newest(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    folder = Path(marker_path(paths, "a0")).parent
    folder.mkdir(parents=True)
    for n in range(MARKERS_KEPT * 2):
        mark = folder / f"old{n}"
        mark.touch()
        os.utime(mark, (1_000 + n, 1_000 + n))
    mark_filed(marker_path(paths, "newest"))
    left = {p.name for p in folder.iterdir()}
    assert len(left) == MARKERS_KEPT
    assert "newest" in left
    assert "old0" not in left


def test_an_index_line_is_capped() -> None:
    entry = Entry(
        path="decisions/x.md", category="decision", title="Use SQLite", description="why " * 200
    )
    line = index_line(entry)
    assert len(line) <= LINE_MAX_CHARS
    assert line.startswith("- [Use SQLite](decisions/x.md) — why why")


def test_the_status_shows_the_first_three_blockers(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    Path(paths.blockers).parent.mkdir(parents=True, exist_ok=True)
    Path(paths.blockers).write_text(
        "# Blockers\n\n" + "".join(f"- blocker {n}\n" for n in range(6)), encoding="utf-8"
    )
    assert list(read_status(paths).blockers) == ["blocker 0", "blocker 1", "blocker 2"]


def test_nothing_injected_is_not_counted(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    record_injected(paths.injected, "s1", "UserPromptSubmit", 0)
    assert not Path(paths.injected).exists()


def test_a_marker_name_is_capped(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    assert len(Path(marker_path(paths, "a" * 500)).name) == 100
    assert marker_path(paths, "../../") == ""
