"""The thread's caps as behaviour: which of the kept sessions it is built from."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memhooks.continuity.evidence import Evidence, new_state
from memhooks.hooks import thread_build
from memhooks.store import MemoryPaths, save_evidence


def test_the_thread_is_built_from_the_newest_sessions(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(thread_build, "MAX_SESSIONS", 3)  # 40: the same rule, fewer files
    paths = MemoryPaths(str(memory))
    ids = [f"{n:08x}-0000-4000-8000-000000000000" for n in range(5)]  # oldest first
    now = time.time()
    for n, session in enumerate(ids):
        evidence = Evidence(new_state(session))
        evidence.prompt(f"step {n}: keep the API stable")
        evidence.said("Done.")
        save_evidence(paths, session, evidence.state)
        stamp = now - 10 * (len(ids) - n)
        os.utime(Path(paths.restore) / f"{session}.json", (stamp, stamp))
    doc = thread_build.build(paths, 7_000, seconds=600)
    assert {entry["id"] for entry in doc["sessions"]} == set(ids[-3:])  # the oldest left out
