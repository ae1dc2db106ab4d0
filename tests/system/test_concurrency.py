"""Many processes on one tree: parallel sessions' hooks, sub-agents, CLI saves, racing updaters."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.errors import Exit
from memhooks.store import MemoryPaths, load_catalog, memory_files
from support import FIXTURES, LAUNCHER, hook_examples, local_of, run_cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process model")
SHARED_TRANSCRIPTS = sorted((FIXTURES / "transcripts").glob("*/transcript.jsonl"))
RESULT = "The sub-agent traced the failing build to a stale lock file and removed it. " * 2


def _spawn_hook(event: str, payload: dict[str, object]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-S", str(LAUNCHER), "hook", event],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    assert proc.stdin is not None
    proc.stdin.write(json.dumps({"hook_event_name": event, **payload}).encode())
    proc.stdin.close()
    proc.stdin = None  # communicate() would flush the closed pipe
    return proc


def _spawn_cli(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(LAUNCHER), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )


def _finish(procs: list[subprocess.Popen[bytes]]) -> list[tuple[int, str, str]]:
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        results.append((proc.returncode, out.decode(), err.decode()))
    return results


def _consistent(root: Path) -> dict[str, object]:
    """The catalog, the index and `rebuild --json` all agree with the files."""
    paths = MemoryPaths(root)
    files = {paths.relative(p) for p in memory_files(paths)}
    cat = load_catalog(paths.catalog)
    assert cat is not None
    assert set(cat.entries) == files
    index = (root / "MEMORY.md").read_text(encoding="utf-8") + (
        (root / "MEMORY-archive.md").read_text(encoding="utf-8")
        if (root / "MEMORY-archive.md").exists()
        else ""
    )
    for entry in cat.active():
        assert f"]({entry.path})" in index, entry.path
    counts_before = cat.counts()
    done = run_cli("rebuild", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["counts"] == counts_before
    assert report["total"] == len(files)
    return report


def test_parallel_sessions_subagents_and_saves(started: Path, tmp_path: Path) -> None:
    examples = hook_examples()
    procs: list[subprocess.Popen[bytes]] = []
    kinds: list[str] = []
    for n in range(4):
        transcript = tmp_path / f"t{n}.jsonl"
        if SHARED_TRANSCRIPTS:
            transcript.write_bytes(SHARED_TRANSCRIPTS[n % len(SHARED_TRANSCRIPTS)].read_bytes())
        base = {
            **examples.get("Stop", {}),
            "session_id": f"session-{n}",
            "transcript_path": str(transcript),
        }
        procs.append(_spawn_hook("SessionStart", {**base, "source": "startup"}))
        procs.append(_spawn_hook("UserPromptSubmit", {**base, "prompt": f"task {n}"}))
        procs.append(_spawn_hook("Stop", base))
        kinds += ["hook", "hook", "hook"]
    subagents = [
        {
            "session_id": f"session-{n % 4}",
            "agent_id": f"agent-{n}",
            "agent_type": f"worker{n}",
            "last_assistant_message": f"Result {n}. " + RESULT,
        }
        for n in range(8)
    ]
    for payload in subagents:
        procs.append(_spawn_hook("SubagentStop", payload))
        kinds.append("subagent")
    for n in range(6):
        procs.append(
            _spawn_cli(
                "save",
                "decision",
                "--title",
                f"Parallel decision {n}",
                "--body",
                f"body {n}",
                "--json",
            )
        )
        kinds.append("save")
    results = _finish(procs)
    for kind, (code, out, err) in zip(kinds, results, strict=True):
        assert code == 0, (kind, err)
        if kind != "save":
            assert out == "" or json.loads(out)
    saved = [
        json.loads(out)["path"]
        for kind, (_, out, _) in zip(kinds, results, strict=True)
        if kind == "save"
    ]
    assert len(set(saved)) == 6
    assert all((started / p).is_file() for p in saved)
    # How many sub-agents find the lock busy past their wait depends on the machine's load: a
    # hook skips only then (tests/system/test_faults.py holds the lock to test the skip itself),
    # says so, and a retry files what was skipped, once.
    subagent_errs = [err for k, (_, _, err) in zip(kinds, results, strict=True) if k == "subagent"]
    skipped = [n for n, err in enumerate(subagent_errs) if err]
    assert all("LockTimeoutError" in subagent_errs[n] for n in skipped), subagent_errs
    assert len(list((started / "subagent").glob("*.md"))) == 8 - len(skipped)
    _finish([_spawn_hook("SubagentStop", subagents[n]) for n in skipped])
    assert len(list((started / "subagent").glob("*.md"))) == 8
    report = _consistent(started)
    assert report["counts"]["decision"] == 6  # type: ignore[index]
    # Session bookkeeping may be skipped under contention (logged), but never corrupted.
    state = json.loads((local_of(started) / "session.json").read_text(encoding="utf-8"))
    sessions = state.get("sessions", [])  # all skipped, when the saves held the lock throughout
    assert {s["id"] for s in sessions} <= {f"session-{n}" for n in range(4)}


def test_retried_subagent_stop_files_once(started: Path) -> None:
    payload = {
        "session_id": "s",
        "agent_id": "agent-same",
        "agent_type": "worker",
        "last_assistant_message": RESULT,
    }
    _finish([_spawn_hook("SubagentStop", payload)])
    _finish([_spawn_hook("SubagentStop", payload)])
    assert len(list((started / "subagent").glob("*.md"))) == 1


def test_retried_cli_update_does_not_duplicate(started: Path) -> None:
    done = run_cli("save", "decision", "--title", "Retry me", "--body", "v1", "--json")
    path = json.loads(done.stdout)["path"]
    for _ in range(3):
        again = run_cli("save", "decision", "--update", path, "--body", "v2", "--json")
        assert again.returncode == 0, again.stderr
    assert len(list((started / "decisions").glob("*.md"))) == 1
    _consistent(started)


def test_two_updaters_with_the_same_hash(started: Path) -> None:
    done = run_cli("save", "decision", "--title", "Contested", "--body", "v1", "--json")
    path = json.loads(done.stdout)["path"]
    digest = json.loads(run_cli("show", path, "--json").stdout)["hash"]
    for round_ in range(3):
        # Bodies differ per round: an update that rewrites identical bytes (same body, same
        # second) leaves the hash unchanged, and the other writer rightly proceeds.
        body = "writer {n} round {round_}"
        procs = [
            _spawn_cli(
                "save",
                "decision",
                "--update",
                path,
                "--if-hash",
                digest,
                "--body",
                body.format(n=n, round_=round_),
            )
            for n in range(2)
        ]
        codes = sorted(code for code, _, _ in _finish(procs))
        assert codes == [Exit.OK, Exit.CONFLICT]
        digest = json.loads(run_cli("show", path, "--json").stdout)["hash"]
    _consistent(started)


def _record_many(args: tuple[str, int]) -> None:
    from memhooks.store import record_injected

    file, times = args
    for _ in range(times):
        record_injected(file, "s-1", "UserPromptSubmit", 10)


def test_the_injection_ledger_loses_no_count_under_parallel_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parallel hooks (sub-agents, several sessions) all add to `.cache/injected.json`: each
    injection that had its turn is counted once, and the file always parses. The turn's wait
    is made long here (the forked workers inherit it): how long a busy machine makes a turn
    last is not what this tests (the next test holds the lock to test the drop)."""
    import multiprocessing

    from memhooks.store import injection_ledger, session_counts

    monkeypatch.setattr(injection_ledger, "LOCK_SECONDS", 120.0)
    local_of(tmp_path).mkdir(parents=True)
    file = str(local_of(tmp_path) / "injected.json")
    with multiprocessing.get_context("fork").Pool(6) as pool:
        pool.map(_record_many, [(file, 40)] * 6)
    assert json.loads(Path(file).read_text())  # whole, never torn
    assert session_counts(file, "s-1")[1]["UserPromptSubmit"] == (240, 2400)


def test_a_count_that_cannot_have_its_turn_is_dropped_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decided behaviour: a hook waits at most LOCK_SECONDS for the ledger, then drops its
    count (the session is not stalled for bookkeeping; `status` shows at least what was
    injected). The file stays whole and the next count is taken as usual."""
    from memhooks.store import injection_ledger, quick_lock, record_injected, session_counts

    file = str(tmp_path / ".cache" / "injected.json")
    (tmp_path / ".cache").mkdir()
    assert record_injected(file, "s-1", "SessionStart", 100)
    monkeypatch.setattr(injection_ledger, "LOCK_SECONDS", 0.0)
    with quick_lock(tmp_path / ".cache" / "injected.lock", 0):  # another hook's turn
        assert not record_injected(file, "s-1", "SessionStart", 50)
    assert session_counts(file, "s-1")[1]["SessionStart"] == (1, 100)
    assert record_injected(file, "s-1", "SessionStart", 50)
    assert session_counts(file, "s-1")[1]["SessionStart"] == (2, 150)


def test_parallel_hooks_count_what_they_injected(started: Path) -> None:
    """The real hooks, several at once: every SessionStart and UserPromptSubmit that injected
    is in the ledger `status` reads."""
    procs = [
        _spawn_hook(
            "SessionStart",
            {"session_id": "s-1", "cwd": str(started.parent.parent), "source": "startup"},
        )
        for _ in range(6)
    ]
    outs = [p.communicate(timeout=60)[0] for p in procs]
    injected = sum(
        len(json.loads(o)["hookSpecificOutput"]["additionalContext"]) for o in outs if o.strip()
    )
    assert injected
    from memhooks.store import session_counts

    local = local_of(started)
    runs, chars = session_counts(str(local / "injected.json"), "s-1")[1]["SessionStart"]
    # A count dropped because the ledger stayed busy (a loaded machine) is said in the log.
    log = (
        (local / "memhooks.log").read_text(encoding="utf-8")
        if (local / "memhooks.log").exists()
        else ""
    )
    dropped = [int(n) for n in re.findall(r"SessionStart: ledger busy, (\d+) characters", log)]
    assert (runs + len(dropped), chars + sum(dropped)) == (
        sum(1 for o in outs if o.strip()),
        injected,
    )


def _leave_many(args: tuple[str, int, int]) -> None:
    from memhooks.store import MemoryPaths, leave_pointers

    root, worker, times = args
    paths = MemoryPaths.for_project(root)
    for i in range(times):
        leave_pointers(paths, "s-1", f"pointers {worker}-{i}")


def test_parallel_subagent_starts_lose_no_handoff(
    started: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude starts several sub-agents at once: every PreToolUse(Agent) leaves its entry, so
    each SubagentStart takes its own, not a neighbour's."""
    import multiprocessing

    from memhooks.store import HANDOFF_KEPT, caches, take_pointers

    monkeypatch.setattr(caches, "HANDOFF_LOCK_SECONDS", 120.0)  # a turn, however slow
    paths = MemoryPaths.for_project(started.parent.parent)
    workers, times = 4, HANDOFF_KEPT // 4
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pool.map(_leave_many, [(str(started.parent.parent), w, times) for w in range(workers)])
    taken = [take_pointers(paths, "s-1") for _ in range(workers * times)]
    left = [f"pointers {w}-{i}" for w in range(workers) for i in range(times)]
    assert sorted(taken) == sorted(left)
