"""SessionStart(startup) in a project with twenty earlier sessions of evidence (issue 31).

A new session's restore may draw on the project's recent sessions, not only the last one, so
its cost is measured where there are many: nineteen short sessions (a few turns each, Stop
after every turn, SessionEnd) and, newest, a long one on the run's largest transcript (50 MB
in a full run): its evidence built by PreCompact from the whole transcript, as after an
auto-compaction, then one more turn, Stop and SessionEnd. The hooks run as everywhere else in
the benchmark (hooks.json's command, a new process); the case then times SessionStart(startup).

`behind_case`: SessionStart(startup) when the thread is behind the evidence (Stops after the
last render, no SessionEnd: a crash, a killed terminal, a second live session), reported
apart from the budgeted rows, which measure the start after SessionEnd rendered the thread.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path

import generate
from hook_process import Case, constant, hook_argv, mb_label
from workspace import Workspace

#: Earlier sessions, and the turns of each short one.
EARLIER = 20
TURNS = 4
KEY = "SessionStart:startup@{size}:sessions"
BEHIND_KEY = "SessionStart:startup@{size}:behind"


def _session_id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"memhooks-bench-sessions-{name}"))


class _Driver:
    """The hooks of a project's sessions as the host runs them (setup calls, not timed)."""

    def __init__(self, ws: Workspace, project: Path) -> None:
        self.ws, self.project = ws, project

    def hook(self, event: str, case: str, transcript: str, session: str, **extra: object) -> None:
        path = self.project / transcript
        payload = self.ws.payload(case, self.project, path, session_id=session, **extra)
        self.ws.run_hook(event, self.project, payload)

    def turn(self, maker: generate.TurnMaker, transcript: str, session: str) -> None:
        """One more turn in `transcript`, then Stop."""
        with (self.project / transcript).open("a", encoding="utf-8") as out:
            out.writelines(maker.turn(big=False))
        said = maker.last_assistant_message
        self.hook("Stop", "Stop", transcript, session, last_assistant_message=said)


def sessions_case(ws: Workspace) -> Case:
    """The case; building its project runs the earlier sessions' hooks (not timed)."""
    project = ws.prepare_project("sessions", ws.mid)
    corpus = ws.fixtures.corpus
    driver = _Driver(ws, project)
    hook, turn = driver.hook, driver.turn

    for number in range(EARLIER - 1):
        session, transcript = _session_id(str(number)), f"session-{number}.jsonl"
        maker = generate.TurnMaker(session, "/home/user/project", corpus, seed=100 + number)
        hook("SessionStart", "SessionStart:startup", transcript, session)
        for _ in range(TURNS):
            turn(maker, transcript, session)
        hook("SessionEnd", "SessionEnd:other", transcript, session)
    big = ws.args.transcript_mb[-1]
    session = _session_id("long")
    transcript = ws.stop_transcript(project, big).name
    maker = generate.TurnMaker(session, "/home/user/project", corpus, seed=99)
    hook("SessionStart", "SessionStart:startup", transcript, session)
    hook("PreCompact", "PreCompact:auto", transcript, session)
    turn(maker, transcript, session)
    hook("SessionEnd", "SessionEnd:other", transcript, session)
    label = f"{ws.mid:,} mem, {EARLIER} sessions (one {mb_label(big)})"
    return _start_case(ws, project, KEY, label)


def behind_case(ws: Workspace) -> Case:
    """The start that renders the thread itself, at its worst: a short session that ended,
    then one on the run's smallest transcript whose Stops no SessionEnd followed. Before each
    run (not timed) that session takes one more turn and Stop, and the turn memo is removed:
    none of its turns was rendered before (it crashed before any end or start saw it)."""
    project = ws.prepare_project("behind", ws.mid)
    corpus = ws.fixtures.corpus
    driver = _Driver(ws, project)
    hook, turn = driver.hook, driver.turn

    ended = _session_id("behind-ended")
    maker = generate.TurnMaker(ended, "/home/user/project", corpus, seed=7)
    for _ in range(TURNS):
        turn(maker, "ended.jsonl", ended)
    hook("SessionEnd", "SessionEnd:other", "ended.jsonl", ended)
    crashed = _session_id("behind-crashed")
    transcript = ws.stop_transcript(project, ws.args.transcript_mb[0]).name
    maker = generate.TurnMaker(crashed, "/home/user/project", corpus, seed=8)
    evidence = f"restore/{crashed}.json"

    def behind(_i: int) -> None:
        turn(maker, transcript, crashed)
        for found in (ws.machine / "state").rglob(evidence):
            (found.parent.parent / "thread-memo.json").unlink(missing_ok=True)

    label = f"{ws.mid:,} mem, after Stops no SessionEnd rendered (crash), memo cold"
    return _start_case(ws, project, BEHIND_KEY, label, behind)


def _start_case(
    ws: Workspace, project: Path, key: str, label: str, before: Callable[[int], None] | None = None
) -> Case:
    """SessionStart(startup) of a new session in `project`, timed."""
    body = json.dumps(ws.payload("SessionStart:startup", project, project / "new.jsonl"))
    return Case(
        key.format(size=ws.mid),
        "SessionStart startup",
        label,
        hook_argv("SessionStart", ws.python),
        ws.hook_env(project),
        constant(body.encode()),
        cwd=project,
        repeats=ws.args.repeats,
        before=before,
    )
