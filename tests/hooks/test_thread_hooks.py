"""The thread as the host drives it: Stop after each turn (the transcript as it stood then),
SessionEnd, a trivial session, then a new session's SessionStart(startup)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memhooks.store import MemoryPaths
from support import FIXTURES, injected, run_cli, run_hook, transcript_turns

REAL = "aaaaaaaa-0000-4000-8000-00000000000a"
GREETING = "bbbbbbbb-0000-4000-8000-00000000000b"
NEW = "cccccccc-0000-4000-8000-00000000000c"
MESSY = FIXTURES / "transcripts2" / "c1-rust-json-output" / "transcript_at_precompact.jsonl"
SUMMARY = """# JSON output for hitcount

## Context
hitcount gets a --json mode for the dashboards team.

## Tracking Points
- Decision: NDJSON, one object per line, keys path, hits, error_count, avg_ms
- Status: waiting for the user's choice between a type field and a --totals flag
"""


def _payload(project: Path, session: str, **extra: Any) -> dict[str, Any]:
    return {"session_id": session, "cwd": str(project), **extra}


def _session(project: Path, session: str, transcript: Path, turns: list[list[bytes]]) -> None:
    """A session as the host runs it: SessionStart, Stop after each turn, SessionEnd."""
    run_hook("SessionStart", _payload(project, session, source="startup"))
    transcript.write_bytes(b"")
    for turn in turns:
        with transcript.open("ab") as out:
            out.writelines(turn)
        stop = _payload(project, session, transcript_path=str(transcript))
        assert run_hook("Stop", stop).returncode == 0
    end = _payload(project, session, transcript_path=str(transcript), reason="prompt_input_exit")
    assert run_hook("SessionEnd", end).returncode == 0


def _greeting(project: Path, tmp_path: Path) -> None:
    def record(kind: str, content: object) -> bytes:
        message = {"role": kind, "content": content}
        line = {"type": kind, "message": message, "timestamp": "2026-11-27T08:00:00Z"}
        return json.dumps(line).encode() + b"\n"

    reply = [{"type": "text", "text": "Good morning! What would you like to work on today?"}]
    turns = [[record("user", "Good morning"), record("assistant", reply)], [record("user", "ok")]]
    _session(project, GREETING, tmp_path / "greeting.jsonl", turns)


def _week(started: Path, tmp_path: Path) -> Path:
    """A real session, then a trivial one; returns the project."""
    project = started.parent.parent
    lines = MESSY.read_bytes().splitlines(keepends=True)
    _session(project, REAL, tmp_path / "real.jsonl", transcript_turns(lines))
    _greeting(project, tmp_path)
    return project


def test_a_trivial_session_never_hides_the_real_one_before_it(
    started: Path, tmp_path: Path
) -> None:
    project = _week(started, tmp_path)
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "The recent work on this project" in text
    real = text.index("# Session 1 of 2, the last one (the fullest): aaaaaaaa")
    assert real < text.index("# Session 2 of 2, a short one after it")
    assert "it ended cleanly at" in text
    assert "I want a --json output mode" in text  # the real session's goal
    assert "also want a totals line at the end" in text  # its last request
    assert "Which one should I build?" in text  # its open question
    assert "[1] user: Good morning" in text
    assert 6_000 < len(text) <= 9_000  # the budget is used


def _rebuild_ended(paths: MemoryPaths) -> None:
    """Wait (a minute at most) for the background rebuild a SessionStart started to end."""
    import time

    from memhooks.store import rebuilding

    deadline = time.monotonic() + 60
    while rebuilding(paths) and time.monotonic() < deadline:
        time.sleep(0.05)


def test_session_start_reads_the_thread_rendered_at_the_end(started: Path, tmp_path: Path) -> None:
    project = _week(started, tmp_path)
    paths = MemoryPaths(started)
    kept = json.loads(Path(paths.thread).read_text(encoding="utf-8"))
    last = next(e for e in kept["sessions"] if e.get("role") == "last")
    assert last["id"] == REAL
    # What SessionStart shows is the file as the last hook rendered it (no render of its own).
    last["text"] = "## What was said\n[1] user: rendered at the end, read at the start"
    Path(paths.thread).write_text(json.dumps(kept), encoding="utf-8")
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "rendered at the end, read at the start" in text
    # Missing (a crash before any Stop wrote it): rendered at the start, and kept (when the
    # lock is free: the search index's first build, started by a start, holds it meanwhile).
    _rebuild_ended(paths)
    Path(paths.thread).unlink()
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "I want a --json output mode" in text
    assert Path(paths.thread).is_file()


def test_a_summarize_summary_is_shown_for_its_session_as_a_summary(
    started: Path, tmp_path: Path
) -> None:
    project = _week(started, tmp_path)
    saved = run_cli("summarize", "--save", "--session", REAL, stdin=SUMMARY)
    assert saved.returncode == 0, saved.stderr
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "summary Claude wrote with `/memory summarize`" in text
    assert "not the record's proof" in text
    assert "one object per line, keys path, hits" in text
    # The compaction's complement is as before: the thread is for new sessions only.
    compact = injected(run_hook("SessionStart", _payload(project, REAL, source="compact")))
    assert "The recent work on this project" not in compact


def test_a_build_renders_only_what_changed(memory: Path, monkeypatch: Any) -> None:
    """Finished sessions' parts are kept by their evidence and share: the next Stop renders
    its own session's part only."""
    import os
    import time

    from memhooks.continuity import thread_parts
    from memhooks.continuity.evidence import Evidence, new_state
    from memhooks.hooks import thread_build
    from memhooks.store import save_evidence

    paths = MemoryPaths(memory)
    states = {}
    for k, name in enumerate(("a", "b", "c")):
        evidence = Evidence(new_state(name))
        for n in range(8):
            evidence.prompt(f"session {name} step {n}: " + "keep the API stable. " * 10)
            evidence.said("Done. " + "The parser reads the header first. " * 12)
        session = f"{name * 8}-0000-4000-8000-00000000000{k}"
        save_evidence(paths, session, evidence.state)
        os.utime(paths.restore + f"/{session}.json", (time.time() - 100 + k, time.time() - 100 + k))
        states[session] = evidence.state
    calls: list[str] = []
    earlier = thread_parts.earlier_part

    def counted(state: dict[str, Any], budget: int) -> str:
        calls.append(str(state["session_id"]))
        return earlier(state, budget)

    monkeypatch.setattr(thread_parts, "earlier_part", counted)
    current = (
        "c" * 8 + "-0000-4000-8000-000000000002",
        states["c" * 8 + "-0000-4000-8000-000000000002"],
    )
    doc = thread_build.build(paths, 7_000, current=current)
    assert {p["role"] for p in thread_build.parts(doc)} == {"earlier", "last"}
    assert calls  # the earlier sessions were rendered once
    Path(paths.thread).write_text(json.dumps(doc), encoding="utf-8")
    calls.clear()
    again = thread_build.build(paths, 7_000, current=current)
    assert calls == []  # nothing of theirs changed: their parts are used again
    assert [p["text"] for p in thread_build.parts(again)] == [
        p["text"] for p in thread_build.parts(doc)
    ]


def test_the_room_the_last_part_leaves_goes_to_the_earlier_parts(memory: Path) -> None:
    """The last session needs little, the earlier ones more than their shares: what the
    shares (in steps) and the parts leave is rendered into the earlier parts cut short."""
    import os
    import time

    from memhooks.continuity import thread
    from memhooks.continuity.evidence import Evidence, new_state
    from memhooks.hooks import thread_build
    from memhooks.store import save_evidence

    paths = MemoryPaths(memory)
    for k, (name, turns) in enumerate((("a", 12), ("b", 12), ("c", 1))):
        evidence = Evidence(new_state(name))
        for n in range(turns):
            evidence.prompt(f"session {name} step {n}: " + "keep the API stable. " * 10)
            evidence.said("Done. " + "The parser reads the header first. " * 12)
        session = f"{name * 8}-0000-4000-8000-00000000000{k}"
        save_evidence(paths, session, evidence.state)
        os.utime(paths.restore + f"/{session}.json", (time.time() - 100 + k, time.time() - 100 + k))
    room = 7_000
    doc = thread_build.build(paths, room)
    shown = thread_build.parts(doc)
    earlier = [p for p in shown if p["role"] == "earlier"]
    assert len(earlier) == 2
    assert any(len(p["text"]) < p["need"] for p in earlier)  # cut short, yet:
    text = thread.compose(shown, 0, time.time(), room)
    assert room * 0.95 <= len(text) <= room  # (it left 870 of 7,000 unused before)


def test_session_end_adds_the_turn_stop_never_saw(started: Path, tmp_path: Path) -> None:
    """The user interrupted the last turn (no Stop): SessionEnd reads it and renders the
    thread with it."""
    project = started.parent.parent
    turns = transcript_turns(MESSY.read_bytes().splitlines(keepends=True))
    transcript = tmp_path / "cut.jsonl"
    _session(project, REAL, transcript, turns[:-1])
    with transcript.open("ab") as out:
        out.writelines(turns[-1])
    end = _payload(project, REAL, transcript_path=str(transcript), reason="other")
    assert run_hook("SessionEnd", end).returncode == 0
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "also want a totals line at the end" in text  # the last turn's prompt


def test_a_thread_file_of_the_wrong_shape_costs_only_the_restore(
    started: Path, tmp_path: Path
) -> None:
    project = _week(started, tmp_path)
    paths = MemoryPaths(started)
    kept = json.loads(Path(paths.thread).read_text(encoding="utf-8"))
    kept["hidden"] = "many"
    kept["sessions"] = [{"id": 7, "text": ["x"], "role": "last", "turns": "two"}, "junk"]
    Path(paths.thread).write_text(json.dumps(kept), encoding="utf-8")
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "Session id: " + NEW in text  # the briefing comes, without a restore
    Path(paths.thread).write_text("{not json", encoding="utf-8")
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "I want a --json output mode" in text  # unreadable: rendered again


def test_session_start_shows_a_current_file_and_renders_one_behind_the_evidence(
    started: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    """SessionEnd rendered the thread: SessionStart renders nothing (whichever session id
    starts, one with evidence of its own too, as the benchmark's project has). Evidence
    written after that render (a Stop with no SessionEnd after it) or a missing file: the
    start renders it once, and keeps it for the next start."""
    import os
    import time

    from memhooks.continuity import thread_parts
    from memhooks.hooks import handover_pick, thread_build
    from memhooks.hooks.event import HookInput
    from memhooks.store import load_settings

    project = _week(started, tmp_path)
    paths = MemoryPaths(started)
    builds: list[str] = []
    renders: list[str] = []
    build = thread_build.build

    def counted_build(*args: Any, **kwargs: Any) -> dict[str, Any]:
        builds.append("build")
        return build(*args, **kwargs)

    def counted(name: str) -> Any:
        part = getattr(thread_parts, name)

        def render(*args: Any) -> str:
            renders.append(name)
            return str(part(*args))

        return render

    monkeypatch.setattr(thread_build, "build", counted_build)
    for name in ("last_part", "earlier_part", "trivial_part"):
        monkeypatch.setattr(thread_parts, name, counted(name))
    settings = load_settings(paths.config)

    def start(session: str = NEW) -> None:
        hook = HookInput.from_payload("SessionStart", _payload(project, session, source="startup"))
        chosen = handover_pick.pick(hook, paths, settings)
        assert chosen is not None
        assert "I want a --json output mode" in chosen.render(8_000)
        handover_pick.keep_thread(paths, chosen)

    for session in (NEW, REAL, GREETING):
        start(session)
    assert builds == []
    assert renders == []
    later = time.time() + 60
    os.utime(f"{paths.restore}/{REAL}.json", (later, later))  # a turn after the last render
    start()
    assert builds == ["build"]
    assert "last_part" in renders
    start()  # kept: current again
    assert builds == ["build"]
    Path(paths.thread).unlink()  # missing: rendered once, then kept
    start()
    start()
    assert builds == ["build", "build"]


def test_stop_keeps_the_turn_and_the_next_start_renders_it(started: Path, tmp_path: Path) -> None:
    """Stop renders no restore; a session that never reached SessionEnd (a crash, a killed
    terminal) still reaches the next start whole, its last turn too."""
    project = started.parent.parent
    paths = MemoryPaths(started)
    turns = transcript_turns(MESSY.read_bytes().splitlines(keepends=True))
    transcript = tmp_path / "crashed.jsonl"
    for turn in turns:
        with transcript.open("ab") as out:
            out.writelines(turn)
        stop = _payload(project, REAL, transcript_path=str(transcript))
        assert run_hook("Stop", stop).returncode == 0
    assert not Path(paths.thread).exists()  # the evidence is kept, the restore not rendered
    assert Path(f"{paths.restore}/{REAL}.json").is_file()
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "I want a --json output mode" in text  # its goal
    assert "also want a totals line at the end" in text  # its last turn
    assert "Which one should I build?" in text
    assert Path(paths.thread).is_file()  # kept for the next start


def test_a_clean_end_shows_even_when_session_end_could_not_render(
    started: Path, tmp_path: Path
) -> None:
    """SessionEnd's render is skipped when the lock stays busy (a background rebuild); the
    clean end it recorded still reaches the next start: the marks come from the session
    record, not the thread file."""
    project = _week(started, tmp_path)
    paths = MemoryPaths(started)
    kept = json.loads(Path(paths.thread).read_text(encoding="utf-8"))
    for entry in kept["sessions"]:
        entry["ended"] = ""  # as if every SessionEnd's render had been skipped
    Path(paths.thread).write_text(json.dumps(kept), encoding="utf-8")
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "it ended cleanly" in text


def test_session_end_renders_for_the_room_the_grown_index_leaves(
    memory: Path, monkeypatch: Any
) -> None:
    """The room a SessionStart noted was measured before this session's journal line joined
    the index: SessionEnd renders for the smaller room now, so the next start need not cut
    the restore's lines."""
    from memhooks.hooks import thread_build
    from memhooks.store import Settings

    paths = MemoryPaths(memory)
    rooms: list[int] = []
    monkeypatch.setattr(thread_build, "read_thread", lambda _paths: {"room": 8_200})
    monkeypatch.setattr(thread_build, "estimate_room", lambda _paths, _settings: 7_800)
    monkeypatch.setattr(thread_build, "save_thread", lambda _paths, _doc: None)
    monkeypatch.setattr(thread_build, "build", lambda _paths, room, **_kw: rooms.append(room) or {})
    for event in ("summarize", "SessionEnd"):
        thread_build.render_thread(paths, Settings(), None, event)
    assert rooms == [8_200, 7_800]


def test_a_stop_in_the_same_stamp_as_the_last_render_still_reaches_the_next_start(
    started: Path, tmp_path: Path
) -> None:
    """A filesystem that stamps files by the second (or coarser) gives the evidence a Stop
    wrote after another session's SessionEnd rendered the thread the stamp that render saw:
    the file is behind all the same (its session's evidence grew), and a start after a crash
    renders the last turn rather than show the part without it as current."""
    import os

    project = started.parent.parent
    paths = MemoryPaths(started)
    turns = transcript_turns(MESSY.read_bytes().splitlines(keepends=True))
    transcript = tmp_path / "live.jsonl"
    for turn in turns[:-1]:
        with transcript.open("ab") as out:
            out.writelines(turn)
        assert (
            run_hook("Stop", _payload(project, REAL, transcript_path=str(transcript))).returncode
            == 0
        )
    _greeting(project, tmp_path)  # another session ends: its SessionEnd renders the thread
    evidence = f"{paths.restore}/{REAL}.json"
    seen = Path(evidence).stat().st_mtime
    with transcript.open("ab") as out:
        out.writelines(turns[-1])
    assert (
        run_hook("Stop", _payload(project, REAL, transcript_path=str(transcript))).returncode == 0
    )
    os.utime(evidence, (seen, seen))  # the same stamp: a coarse clock
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "I want a --json output mode" in text
    assert "also want a totals line at the end" in text  # the last turn, after the render


def test_a_start_keeps_its_memo_only_with_its_thread(
    started: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    """A start that rendered the thread behind the evidence, while another session's
    SessionEnd rendered a current one and saved its turn memo: the write step keeps neither
    its thread nor its memo (older than the end's: it would drop the turns that end rendered)."""
    import os
    import time

    from memhooks.hooks import handover_pick, thread_build
    from memhooks.hooks.event import HookInput
    from memhooks.store import load_settings

    project = _week(started, tmp_path)
    paths = MemoryPaths(started)
    later = time.time() + 60
    os.utime(f"{paths.restore}/{REAL}.json", (later, later))  # a turn after the last render
    settings = load_settings(paths.config)
    hook = HookInput.from_payload("SessionStart", _payload(project, NEW, source="startup"))
    chosen = handover_pick.pick(hook, paths, settings)
    assert chosen is not None
    assert chosen.rebuilt
    assert chosen.memo is not None
    thread_build.render_thread(paths, settings, None, "SessionEnd")  # meanwhile, elsewhere
    saved: list[object] = []
    monkeypatch.setattr(handover_pick, "save_memo", lambda _paths, memo: saved.append(memo))
    monkeypatch.setattr(handover_pick, "save_thread", lambda _paths, doc: saved.append(doc))
    handover_pick.keep_thread(paths, chosen)
    assert saved == []
    Path(paths.thread).unlink()  # no current one kept: the start keeps both
    handover_pick.keep_thread(paths, chosen)
    assert [type(s) for s in saved] == [dict, dict]


def test_a_session_resumed_after_its_end_is_not_shown_as_ended(
    started: Path, tmp_path: Path
) -> None:
    """A session that ended, was resumed (SessionStart resume) and went on, then crashed: its
    turns after the resume reach the next start, and its header does not say it ended cleanly
    (the end recorded before the resume is not its end)."""
    project = started.parent.parent
    turns = transcript_turns(MESSY.read_bytes().splitlines(keepends=True))
    transcript = tmp_path / "resumed.jsonl"
    _session(project, REAL, transcript, turns[:-1])
    resume = _payload(project, REAL, source="resume", transcript_path=str(transcript))
    assert run_hook("SessionStart", resume).returncode == 0
    with transcript.open("ab") as out:
        out.writelines(turns[-1])
    assert (
        run_hook("Stop", _payload(project, REAL, transcript_path=str(transcript))).returncode == 0
    )
    text = injected(run_hook("SessionStart", _payload(project, NEW, source="startup")))
    assert "also want a totals line at the end" in text  # the turn after the resume
    assert "ended cleanly" not in text
