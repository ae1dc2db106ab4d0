"""SessionStart(startup) in a project with twenty earlier sessions of evidence (issue 31).

A new session's restore may draw on the project's recent sessions, not only the last one, so
its cost is measured where there are many: nineteen short sessions (a few turns each, Stop
after every turn, SessionEnd) and, newest, a long one on the run's largest transcript (50 MB
in a full run): its evidence built by PreCompact from the whole transcript, as after an
auto-compaction, then one more turn, Stop and SessionEnd. The hooks run as everywhere else in
the benchmark (hooks.json's command, a new process); the case then times SessionStart(startup).
"""

from __future__ import annotations

import json
import uuid

import generate
from hook_process import Case, constant, hook_argv, mb_label
from workspace import Workspace

#: Earlier sessions, and the turns of each short one.
EARLIER = 20
TURNS = 4
KEY = "SessionStart:startup@{size}:sessions"


def _session_id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"memhooks-bench-sessions-{name}"))


def sessions_case(ws: Workspace) -> Case:
    """The case; building its project runs the earlier sessions' hooks (not timed)."""
    project = ws.prepare_project("sessions", ws.mid)
    corpus = ws.fixtures.corpus

    def hook(event: str, case: str, transcript: object, session: str, **extra: object) -> None:
        path = project / str(transcript)
        ws.run_hook(event, project, ws.payload(case, project, path, session_id=session, **extra))

    def turn(maker: generate.TurnMaker, transcript: str, session: str) -> None:
        with (project / transcript).open("a", encoding="utf-8") as out:
            out.writelines(maker.turn(big=False))
        hook(
            "Stop", "Stop", transcript, session, last_assistant_message=maker.last_assistant_message
        )

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
    body = json.dumps(ws.payload("SessionStart:startup", project, project / "new.jsonl"))
    return Case(
        KEY.format(size=ws.mid),
        "SessionStart startup",
        f"{ws.mid:,} mem, {EARLIER} sessions (one {mb_label(big)})",
        hook_argv("SessionStart", ws.python),
        ws.hook_env(project),
        constant(body.encode()),
        cwd=project,
        repeats=ws.args.repeats,
    )
