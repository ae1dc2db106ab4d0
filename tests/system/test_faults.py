"""Injected faults: a writer killed mid-write, a read-only tree, a full disk, held and orphaned
locks, a transcript that grows while it is read, a stdin that never closes, skewed clocks."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from memhooks.cli.main import main
from memhooks.continuity import transcript
from memhooks.continuity.briefing import HEADER
from memhooks.errors import Exit
from memhooks.hooks.subagent_stop import LOCK_TIMEOUT as SUBAGENT_LOCK_TIMEOUT
from memhooks.store import MemoryPaths
from support import LAUNCHER, hook_examples, hook_writer, local_of, run_cli
from test_fuzz_hooks import assert_valid_output, memory_snapshot, run_in_process, seed_memories

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX faults")

AGENT_RESULT = "The sub-agent looked at the parser and found three bugs in the tokenizer. " * 3


def _payload(event: str, **extra: object) -> bytes:
    examples = hook_examples()
    base = dict(examples.get(event, {}))
    base.update({"hook_event_name": event, "session_id": "fault-session", **extra})
    if event == "SubagentStop":
        base.update(agent_type="general-purpose", last_assistant_message=AGENT_RESULT)
    return json.dumps(base).encode()


def _python(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _cli(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    saved = sys.stderr, sys.stdout, sys.stdin
    sys.stderr, sys.stdout, sys.stdin = err, io.StringIO(), io.StringIO("")
    try:
        code = main(argv)
    finally:
        sys.stderr, sys.stdout, sys.stdin = saved
    return code, err.getvalue()


def _temp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.tmp") if p.is_file()]


def _rebuild_json() -> dict[str, object]:
    done = run_cli("rebuild", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# ------------------------------------------------------------- killed between write and rename

KILL = """
import os, sys
from pathlib import Path
from memhooks.store.config import Settings
from memhooks.hooks.subagent_stop import LOCK_TIMEOUT as SUBAGENT_LOCK_TIMEOUT
from memhooks.store.paths import MemoryPaths
from memhooks.recall.citations import with_hashes
from memhooks.recall.search_index import SearchIndex
from memhooks.store.tree import HookWriter
from memhooks.store.writer import Store

def die(*args, **kwargs):
    os._exit(9)

root, mode = Path(sys.argv[1]), sys.argv[2]
parts = (MemoryPaths(root), Settings())
opened = {"search": SearchIndex, "cite": with_hashes}
store = HookWriter(*parts, **opened) if mode == "hook-create" else Store(*parts, **opened)
if mode in ("create", "hook-create"):
    os.link = die  # create_exclusive links the temp file into place
    store.create("decision", {"title": "Half written"}, "# Half written\\n\\nbody")
else:
    os.replace = die
    store.update(sys.argv[3], {"description": "changed"}, "# New body", expected_hash=None)
"""


@pytest.mark.parametrize("mode", ["create", "hook-create", "update"])
def test_killed_between_temp_write_and_rename(started: Path, mode: str) -> None:
    before = seed_memories(started)
    target = min(before)
    done = _python(KILL, str(started), mode, target)
    assert done.returncode == 9, done.stderr
    # The temp file is left behind under its hidden name; nothing partial under a real name.
    leftovers = _temp_files(started)
    assert leftovers
    assert all(p.name.startswith(".") for p in leftovers)
    assert memory_snapshot(started) == before  # nothing lost, nothing half-written
    assert not list(started.rglob("*half-written*.md"))
    # rebuild ignores the leftover; the dead writer's lock was released by the OS.
    report = _rebuild_json()
    assert report["total"] == len(before)
    assert report["skipped"] == []
    done = run_cli("save", "decision", "--title", "After the crash", "--body", "fine", "--json")
    assert done.returncode == 0, done.stderr
    assert (started / json.loads(done.stdout)["path"]).is_file()
    assert _rebuild_json()["total"] == len(before) + 1


# ----------------------------------------------------------------- read-only tree, full disk


def _raise(code: int):
    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    return fail


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES, errno.ENOSPC])
def test_unwritable_tree_hooks_fail_open(
    started: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    before = seed_memories(started)
    if code == errno.ENOSPC:
        monkeypatch.setattr(os, "fsync", _raise(code))  # the data did not fit
    else:
        monkeypatch.setattr("memhooks.store.files._temp_file", _raise(code))
    for event in (
        "SessionStart",
        "UserPromptSubmit",
        "PreCompact",
        "Stop",
        "SubagentStop",
        "SessionEnd",
    ):
        result = run_in_process(event, _payload(event, prompt="sqlite", source="startup"))
        assert_valid_output(*result)
    assert memory_snapshot(started) == before
    assert _temp_files(started) == []  # a failed write cleans up its temp file


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC])
def test_unwritable_tree_cli_fails_clearly(
    started: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    before = seed_memories(started)
    if code == errno.ENOSPC:
        monkeypatch.setattr(os, "fsync", _raise(code))
    else:
        monkeypatch.setattr("memhooks.store.files._temp_file", _raise(code))
    exit_code, err = _cli(["save", "decision", "--title", "Nope", "--body", "x"])
    lines = err.strip().splitlines()
    assert exit_code == Exit.IO_ERROR, err
    assert len(lines) == 1
    assert lines[0].startswith("memhooks: ")
    assert os.strerror(code) in lines[0]
    assert memory_snapshot(started) == before
    assert _temp_files(started) == []


def test_session_start_still_briefs_when_the_tree_is_read_only(
    started: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_memories(started)
    monkeypatch.setattr("memhooks.store.files._temp_file", _raise(errno.EROFS))
    code, out, err = run_in_process("SessionStart", _payload("SessionStart", source="startup"))
    data = assert_valid_output(code, out, err)
    assert data is not None
    assert "Use SQLite" in json.dumps(data)


# ------------------------------------------------------------------------------------ locks

HOLD = """
import sys, time
from pathlib import Path
from memhooks.store.locking import quick_lock
with quick_lock(Path(sys.argv[1]), 5):
    print("locked", flush=True)
    if sys.argv[2] == "die":
        import os
        os._exit(0)
    time.sleep(60)
"""


class LockClock:
    """The lock's clock, made of its own waits: `waited` is how long a lock wait lasted by
    the lock's own reckoning (its sleeps), whatever the machine's load did to the real one."""

    def __init__(self) -> None:
        self.waited = 0.0

    def monotonic(self) -> float:
        return self.waited

    def sleep(self, seconds: float) -> None:
        self.waited += seconds
        time.sleep(0.001)  # the holder's process still needs its turn to run


@pytest.fixture
def lock_clock(monkeypatch: pytest.MonkeyPatch) -> LockClock:
    from memhooks.store import locking

    clock = LockClock()
    monkeypatch.setattr(locking, "time", clock)
    return clock


def test_lock_of_a_dead_process_is_free(started: Path, lock_clock: LockClock) -> None:
    lock = MemoryPaths(started).lock
    done = _python(HOLD, str(lock), "die")
    assert done.stdout.strip() == "locked"
    hook_writer(started).create("decision", {"title": "Next"}, "")
    assert lock_clock.waited == 0  # taken at the first try: the kernel freed it


@pytest.fixture
def held_lock(started: Path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(MemoryPaths(started).lock), "hold"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    yield started
    holder.kill()
    holder.wait()


def test_live_lock_hooks_skip_within_budget(held_lock: Path, lock_clock: LockClock) -> None:
    started = held_lock
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd"):
        lock_clock.waited = 0.0
        assert_valid_output(*run_in_process(event, _payload(event, prompt="sqlite")))
        # SubagentStop waits longer (a skipped write loses the result); the rest skip fast.
        budget = SUBAGENT_LOCK_TIMEOUT + 0.1 if event == "SubagentStop" else 1.1
        assert lock_clock.waited <= budget, event
    assert not list((started / "subagent").glob("*.md"))  # skipped, not queued behind the lock
    assert "lock" in (local_of(started) / "memhooks.log").read_text(encoding="utf-8")


def test_live_lock_briefing_still_arrives(held_lock: Path) -> None:
    """The store lock held by another process: SessionStart skips its writes, not its reply."""
    code, out, err = run_in_process("SessionStart", _payload("SessionStart", source="startup"))
    data = assert_valid_output(code, out, err)
    assert data is not None
    specific = data["hookSpecificOutput"]
    assert isinstance(specific, dict)
    context = str(specific["additionalContext"])
    assert context.startswith(HEADER)
    assert "fault-session" in context  # this session's id: the briefing, not a fallback line


def test_live_lock_cli_waits_then_fails_with_exit_8(
    held_lock: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.store import command_lock

    real = command_lock
    monkeypatch.setattr(
        "memhooks.store.writer.command_lock", lambda path, _timeout: real(path, 0.3)
    )
    code, err = _cli(["save", "decision", "--title", "Blocked", "--body", "x"])
    assert code == Exit.LOCKED
    lines = err.strip().splitlines()
    assert lines[0].startswith("memhooks: waiting up to")
    assert lines[-1].startswith("memhooks: store lock")
    assert "still held" in lines[-1]


# ----------------------------------------------------------- a transcript that grows as read


def test_transcript_growing_while_read(tmp_path: Path) -> None:
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(b"")
    lines = [
        json.dumps(
            {
                "type": "user" if n % 2 else "assistant",
                "uuid": f"u{n}",
                "message": {"content": f"message {n} " + "x" * (n % 97)},
            }
        ).encode()
        + b"\n"
        for n in range(3000)
    ]
    blob = b"".join(lines)

    def writer() -> None:
        with path.open("ab") as handle:
            for at in range(0, len(blob), 777):  # cuts lines anywhere
                handle.write(blob[at : at + 777])
                handle.flush()

    thread = threading.Thread(target=writer)
    thread.start()
    seen: list[str] = []
    offset = 0
    while thread.is_alive() or offset < len(blob):
        records, offset = transcript.read_new(path, offset)
        seen.extend(r.uuid for r in records)
        assert offset <= path.stat().st_size
    thread.join()
    assert seen == [f"u{n}" for n in range(3000)]  # every record once, in order


WRITER_LINES = 100_000


def test_stop_hook_while_transcript_grows(started: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"")
    stop = threading.Event()

    def writer() -> None:
        n = 0
        with path.open("ab") as handle:
            # Bounded and paced: unbounded, the writer outran the hooks on a loaded machine
            # (several GB written, one test taking over ten minutes).
            while not stop.is_set() and n < WRITER_LINES:
                if n % 100 == 0:
                    time.sleep(0.001)
                line = json.dumps(
                    {"type": "user", "uuid": f"u{n}", "message": {"content": f"please do {n}"}}
                )
                handle.write(line.encode()[:10])
                handle.flush()
                handle.write(line.encode()[10:] + b"\n")
                handle.flush()
                n += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(15):
            payload = _payload("Stop", transcript_path=str(path), session_id="grow")
            assert_valid_output(*run_in_process("Stop", payload))
    finally:
        stop.set()
        thread.join()
    assert_valid_output(
        *run_in_process("Stop", _payload("Stop", transcript_path=str(path), session_id="grow"))
    )
    journal = (started / "sessions" / "grow.md").read_text(encoding="utf-8")
    asked = [line for line in journal.splitlines() if line.startswith("- Asked: please do ")]
    assert len(asked) == len(set(asked))  # no request journalled twice


# ------------------------------------------------------------------------ stdin never closed


@pytest.mark.parametrize(
    "data",
    [b"", b'{"session_id": "x", "prompt": "half', b'{"session_id": "x"}'],
    ids=["nothing", "half a payload", "whole payload"],
)
@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "SessionEnd"])
def test_stdin_never_closed(started: Path, event: str, data: bytes) -> None:
    """The hook gives up on a stdin that never closes and exits (120 s only catches a hang:
    how fast is the benchmark's business)."""
    proc = subprocess.Popen(
        [sys.executable, "-S", str(LAUNCHER), "hook", event],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.flush()
    try:
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
    assert proc.returncode == 0
    assert proc.stdout is not None
    assert proc.stderr is not None
    assert_valid_output(0, proc.stdout.read().decode(), proc.stderr.read().decode())


# -------------------------------------------------------------------------------- clock skew


def test_clock_skew_in_frontmatter_and_session(started: Path) -> None:
    decisions = started / "decisions"
    (decisions / "2999-01-01_001_future.md").write_text(
        "---\ntitle: From the future\ncreated: 2999-01-01T00:00:00Z\n"
        "updated: 9999-12-31T23:59:59Z\n---\n\n# From the future\n",
        encoding="utf-8",
    )
    (decisions / "1970-01-01_001_past.md").write_text(
        "---\ntitle: From the past\ncreated: 1970-01-01\nupdated: 1970-01-01 00:00:00\n---\n",
        encoding="utf-8",
    )
    (decisions / "2020-01-01_001_retired-future.md").write_text(
        "---\ntitle: Retired in the future\nrecord_status: retired\n"
        "retired_at: 2999-01-01T00:00:00Z\n---\n",
        encoding="utf-8",
    )
    (decisions / "2020-01-01_002_naive.md").write_text(
        "---\ntitle: Naive dates\ncreated: 2026-01-01 10:00:00\n"
        "updated: 2026-01-01 10:00:00+05:00\n"
        "---\n",
        encoding="utf-8",
    )
    state = json.loads((local_of(started) / "session.json").read_text(encoding="utf-8"))
    state.update(
        started="2999-01-01T00:00:00Z",
        lastMemoryWrite="2999-01-01T00:00:00Z",
        lastNudge="9999-12-31T23:59:59Z",
        lastActivity="1970-01-01T00:00:00Z",
    )
    (local_of(started) / "session.json").write_text(json.dumps(state), encoding="utf-8")
    assert _rebuild_json()["skipped"] == []
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd"):
        code, out, err = run_in_process(event, _payload(event, prompt="future", source="resume"))
        assert_valid_output(code, out, err)
        assert "failed open" not in err
    done = run_cli("gc", "--json")
    assert done.returncode == 0, done.stderr
    assert (decisions / "2020-01-01_001_retired-future.md").exists()  # not past its grace yet
    state["lastMemoryWrite"] = "1970-01-01T00:00:00Z"
    state["lastNudge"] = "2999-01-01T00:00:00Z"
    (local_of(started) / "session.json").write_text(json.dumps(state), encoding="utf-8")
    code, out, err = run_in_process("Stop", _payload("Stop"))
    assert_valid_output(code, out, err)
    assert out == ""  # a nudge "in the future" is not due
    listed = run_cli("list", "--json")
    assert listed.returncode == 0, listed.stderr
