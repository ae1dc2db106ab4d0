"""The latency cases of a run, in the order they are measured: the interpreter floors, each
hook on each tree size, Stop on each transcript size, PreCompact, and the first Stop of a
resumed long session. Each function returns its cases; `measure` times them together."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path

import generate
from hook_process import (
    FIXTURE_SESSION,
    Case,
    constant,
    hook_argv,
    hooks_json_python,
    mb_label,
    minimal_env,
)
from workspace import Workspace


def floors(ws: Workspace) -> list[Case]:
    """The bare interpreter, timed like a hook: every figure is a ratio to these."""
    reps = ws.args.repeats
    py = ws.python
    main, bytecode = ws.env, minimal_env(dont_write_bytecode=False)
    inherited = dict(os.environ)
    cases = [
        Case(
            "floor:pass",
            "python -c pass",
            "floor",
            [py, "-c", "pass"],
            main,
            repeats=reps,
            group="floor",
        ),
        Case(
            "floor:json",
            "python -c 'import json'",
            "floor",
            [py, "-c", "import json"],
            main,
            repeats=reps,
            group="floor",
        ),
        Case(
            "floor:json-S",
            "python -S -c 'import json'",
            "floor",
            [py, "-S", "-c", "import json"],
            main,
            repeats=reps,
            group="floor",
        ),
        Case(
            "floor:pass:bytecode",
            "python -c pass",
            "env -i, bytecode on",
            [py, "-c", "pass"],
            bytecode,
            repeats=reps,
            group="floor",
        ),
        Case(
            "floor:json:bytecode",
            "python -c 'import json'",
            "env -i, bytecode on",
            [py, "-c", "import json"],
            bytecode,
            repeats=reps,
            group="floor",
        ),
        Case(
            "floor:json:inherited",
            "python -c 'import json'",
            "inherited env",
            [py, "-c", "import json"],
            inherited,
            repeats=reps,
            group="floor",
        ),
    ]
    shim = shutil.which(hooks_json_python(), path=os.environ.get("PATH"))
    if shim and Path(shim).resolve() != Path(py).resolve():
        cases.append(
            Case(
                "floor:json:path-python3",
                f"{shim} -c 'import json'",
                "python3 on PATH",
                [shim, "-c", "import json"],
                inherited,
                repeats=max(3, reps // 6),
                group="floor",
            )
        )
    return cases


def tree_cases(ws: Workspace, size: int) -> list[Case]:
    """The hot hooks on a tree of `size` memories (and, at the middle size, their variants)."""
    name = f"n{size}"
    project = ws.prepare_project(name, size)
    small = ws.args.transcript_mb[0]
    transcript = ws.stop_transcript(project, small)
    # A checkpoint for SessionStart(compact), as after a real compaction.
    ws.run_hook("PreCompact", project, ws.payload("PreCompact:auto", project, transcript))
    prompts = ws.fixtures.corpus.prompts
    reps = ws.args.repeats
    ended = ws.payload("SessionEnd:other", project, transcript)
    env = ws.hook_env(project)
    label = f"{size:,} mem"

    def fixed(case: str) -> Callable[[int], bytes]:
        body = json.dumps(ws.payload(case, project, transcript)).encode()
        return lambda _i: body

    def tool(case: str, **tool_input: str) -> Callable[[int], bytes]:
        data = ws.payload(case, project, transcript, tool_input=tool_input)
        return constant(json.dumps(data).encode())

    def prompt_payload(i: int) -> bytes:
        return json.dumps(
            ws.payload("UserPromptSubmit", project, transcript, prompt=prompts[i % len(prompts)])
        ).encode()

    cases = [
        # The start as it follows a session's end: SessionEnd (not timed) rendered the thread
        # after the Stops other cases ran here (sessions_case.behind_case: without it).
        Case(
            f"SessionStart:startup@{size}",
            "SessionStart startup",
            label,
            hook_argv("SessionStart", ws.python),
            env,
            fixed("SessionStart:startup"),
            cwd=project,
            repeats=reps,
            before=lambda _i: ws.run_hook("SessionEnd", project, ended),
        ),
        Case(
            f"SessionStart:compact@{size}",
            "SessionStart compact",
            label,
            hook_argv("SessionStart", ws.python),
            env,
            fixed("SessionStart:compact"),
            cwd=project,
            repeats=reps,
        ),
        Case(
            f"UserPromptSubmit@{size}",
            "UserPromptSubmit",
            label,
            hook_argv("UserPromptSubmit", ws.python),
            env,
            prompt_payload,
            cwd=project,
            repeats=reps,
        ),
        Case(
            f"SessionEnd@{size}",
            "SessionEnd",
            label,
            hook_argv("SessionEnd", ws.python),
            env,
            fixed("SessionEnd:other"),
            cwd=project,
            repeats=reps,
        ),
        stop_case(ws, f"Stop@{size}", project, transcript, f"{label}, {mb_label(small)}", reps),
        # The write guard runs on every Write/Edit/Bash call; nearly all are elsewhere.
        Case(
            f"PreToolUse:Write@{size}",
            "PreToolUse Write",
            f"{label}, elsewhere",
            hook_argv("PreToolUse", ws.python),
            env,
            tool("PreToolUse:Write", file_path=str(project / "src" / "app.py")),
            cwd=project,
            repeats=reps,
        ),
        Case(
            f"PreToolUse:Bash@{size}",
            "PreToolUse Bash",
            f"{label}, elsewhere",
            hook_argv("PreToolUse", ws.python),
            env,
            tool("PreToolUse:Bash", command="pytest -q > /tmp/out.txt 2>&1 && git status"),
            cwd=project,
            repeats=reps,
        ),
    ]
    if size == ws.mid:
        cases += [
            Case(
                f"PreToolUse:deny@{size}",
                "PreToolUse Write",
                f"{label}, into MEMORY.md: denied",
                hook_argv("PreToolUse", ws.python),
                env,
                tool("PreToolUse:Write", file_path=str(project / ".claude/memory/MEMORY.md")),
                cwd=project,
                repeats=reps,
            ),
            Case(
                f"UserPromptSubmit@{size}:bytecode",
                "UserPromptSubmit",
                f"{label}, bytecode on",
                hook_argv("UserPromptSubmit", ws.python),
                ws.hook_env(project, bytecode=True),
                prompt_payload,
                cwd=project,
                repeats=reps,
            ),
            Case(
                f"UserPromptSubmit@{size}:no-data",
                "UserPromptSubmit",
                f"{label}, no PLUGIN_DATA",
                hook_argv("UserPromptSubmit", ws.python),
                ws.hook_env(project, data=False),
                prompt_payload,
                cwd=project,
                repeats=reps,
            ),
        ]
    return cases


def stop_case(  # noqa: PLR0917 - one row of the case table
    ws: Workspace, key: str, project: Path, transcript: Path, label: str, reps: int
) -> Case:
    """Stop as a session drives it: a turn is appended, then Stop reads from its offset."""
    maker = generate.TurnMaker(
        FIXTURE_SESSION, "/home/user/project", ws.fixtures.corpus, seed=len(key)
    )
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, key))

    def grow(_i: int) -> None:
        with transcript.open("a", encoding="utf-8") as out:
            out.writelines(maker.turn(big=False))

    def body(_i: int) -> bytes:
        return json.dumps(
            ws.payload(
                "Stop",
                project,
                transcript,
                session_id=session,
                last_assistant_message=maker.last_assistant_message,
            )
        ).encode()

    return Case(
        key,
        "Stop steady",
        label,
        hook_argv("Stop", ws.python),
        ws.hook_env(project),
        body,
        cwd=project,
        repeats=reps,
        before=grow,
    )


def transcript_cases(ws: Workspace) -> list[Case]:
    """Stop on each transcript size, PreCompact, and the first Stop of a resumed session."""
    cases: list[Case] = []
    sizes = ws.args.transcript_mb
    mid_project = ws.projects[f"n{ws.mid}"]
    slow = ws.args.slow_repeats
    label = f"{ws.mid:,} mem"
    for mb in sizes[1:]:
        transcript = ws.stop_transcript(mid_project, mb)
        cases.append(
            stop_case(
                ws,
                f"Stop@{ws.mid}:{mb:g}MB",
                mid_project,
                transcript,
                f"{label}, {mb_label(mb)}",
                ws.args.repeats,
            )
        )
    # PreCompact and the first Stop of a resumed long session, on their own copies.
    pc = ws.prepare_project("precompact", ws.mid)
    for mb in sizes:
        body = json.dumps(ws.payload("PreCompact:auto", pc, ws.fixtures.transcript(mb))).encode()
        cases.append(
            Case(
                f"PreCompact@{mb:g}MB",
                "PreCompact",
                f"{label}, {mb_label(mb)}",
                hook_argv("PreCompact", ws.python),
                ws.hook_env(pc),
                constant(body),
                cwd=pc,
                repeats=slow,
            )
        )
    first = ws.prepare_project("first-stop", ws.mid)
    big = ws.fixtures.transcript(sizes[-1])

    def fresh_session(_i: int) -> bytes:
        return json.dumps(
            ws.payload(
                "Stop", first, big, session_id=str(uuid.uuid4()), last_assistant_message="Done."
            )
        ).encode()

    cases.append(
        Case(
            f"Stop:first@{sizes[-1]:g}MB",
            "Stop first call",
            f"{label}, {mb_label(sizes[-1])}",
            hook_argv("Stop", ws.python),
            ws.hook_env(first),
            fresh_session,
            cwd=first,
            repeats=slow,
        )
    )
    return cases
