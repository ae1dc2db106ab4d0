"""Progress lines: in a terminal, what runs and how far along it is; silent elsewhere."""

from __future__ import annotations

import io
import os
import sys

import pytest

from memhooks.text import progress
from memhooks.text.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _terminal(monkeypatch: pytest.MonkeyPatch) -> _Terminal:
    """stderr as a terminal. Set in the test's body: pytest puts its own capture back in
    sys.stderr between a fixture's setup and the test."""
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    return err


def test_a_long_step_says_what_it_does_and_how_far(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _terminal(monkeypatch)
    report = Progress("rebuild", every=0).step("indexing")
    for done in range(1, 4):
        report(done, 3)
    lines = terminal.getvalue().splitlines()
    assert lines[0].startswith("memhooks: rebuild: indexing: 1 of 3 (33%), ")
    assert lines[-1].startswith("memhooks: rebuild: indexing: 3 of 3 (100%), ")


def test_a_short_step_says_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _terminal(monkeypatch)
    report = Progress("rebuild")  # the first line comes after EVERY_SECONDS
    for done in range(1, 1001):
        report(done, 1000)
    progress.say("starting")
    assert terminal.getvalue() == "memhooks: starting\n"


def test_silent_outside_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    Progress("rebuild", every=0)(1, 1)
    progress.say("starting")
    assert err.getvalue() == ""


def test_json_silences_the_command_and_its_children(
    monkeypatch: pytest.MonkeyPatch, started: object
) -> None:
    from memhooks.cli.main import main

    terminal = _terminal(monkeypatch)
    monkeypatch.setattr(progress, "EVERY_SECONDS", 0.0)
    assert main(["rebuild", "--json"]) == 0
    assert terminal.getvalue() == ""
    assert os.environ[progress.QUIET_ENV] == "0"  # inherited by pip and the build
    monkeypatch.delenv(progress.QUIET_ENV)


def test_rebuild_says_what_it_reads_and_indexes(
    monkeypatch: pytest.MonkeyPatch, started: object
) -> None:
    from memhooks.cli.main import main

    assert main(["remember", "we decided to use Postgres 16 for the job queue"]) == 0
    terminal = _terminal(monkeypatch)
    monkeypatch.setattr(progress, "EVERY_SECONDS", 0.0)
    assert main(["rebuild"]) == 0
    text = terminal.getvalue()
    assert "memhooks: rebuild: reading memory files: 1 of 1 (100%)" in text
    assert "memhooks: rebuild: indexing (each memory's vector too): 1 of 1 (100%)" in text
