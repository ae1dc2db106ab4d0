# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The demo: play the scripted session and collect what each hook injected.

Two ways to play it, with the same scenario and the same report:
- `play_with_claude`: the real `claude` CLI against the mock API, with the plugin
  installed through its marketplace in a clean HOME. What "reached the model" is read
  from the requests the mock recorded.
- `play_direct`: no CLI. The hook entry points are run as the host runs them (a process
  per event, JSON on stdin) over a transcript written in the CLI's own record shape.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from memhooks.demo import harness, pinned_cli, scenario
from memhooks.demo.mock_api import MockApi
from memhooks.demo.mock_requests import request_texts
from memhooks.install import semantic_assets
from memhooks.store import MemoryPaths

JsonDict = dict[str, Any]
#: Called before each step with the report so far, the step's number and title, so that a
#: caller can print the run as it goes (`report.Stream.watch`).
Watch = Callable[["DemoReport", int, str], None]


@dataclass
class Injection:
    """One hook's output: the event, its context, and whether the model got it."""

    hook: str
    ms: float | None
    context: str
    reached_model: bool | None = None  # None when there is no model to ask (direct mode)


@dataclass
class DemoStep:
    title: str
    prompt: str
    hooks: list[Injection] = field(default_factory=list)
    reply: str = ""
    ok: bool = True


@dataclass
class DemoReport:
    mode: str  # "claude" or "direct"
    project: str
    why: str = ""  # why "direct": no CLI found, or --no-claude
    steps: list[DemoStep] = field(default_factory=list)
    memory_files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> JsonDict:
        return asdict(self)


def _write_project(project: Path) -> None:
    for name, content in scenario.project_files().items():
        (project / name).write_text(content, encoding="utf-8")


def _memory_files(project: Path) -> list[str]:
    root = project / ".claude" / "memory"
    if not root.is_dir():
        return []
    files = (p for p in root.rglob("*") if p.is_file() and ".cache" not in p.parts)
    return sorted(p.relative_to(project).as_posix() for p in files)


# --- the real CLI --------------------------------------------------------------------------


def play_with_claude(
    claude: Path,
    plugin_root: Path,
    workdir: Path,
    python: Path,
    deps: Path | None,
    *,
    watch: Watch | None = None,
) -> DemoReport:
    """Run the scenario through the real CLI; `deps` pre-seeds the plugin's dependencies."""
    with MockApi() as mock:
        box = harness.Sandbox(workdir, claude, mock, python=python)
        semantic_assets.disable(box.plugin_data, box.inline_plugin_data)  # no model download
        box.install_plugin(plugin_root)
        if deps is not None:
            box.seed_deps(deps)
        _write_project(box.project)
        for turn in scenario.turns(str(box.project.resolve())):
            mock.add(*turn.rules())
        report = DemoReport("claude", str(box.project))
        for number, (title, prompt, resume) in enumerate(scenario.PLAN, 1):
            if watch is not None:
                _mark_reached(report, box.steps)
                watch(report, number, title)
            step = box.run(prompt, name=title, resume=resume)
            hooks = [Injection(h.label, h.ms, h.context) for h in step.hooks]
            report.steps.append(DemoStep(title, prompt, hooks, step.reply, ok=step.rc == 0))
            if (
                prompt == "/memory start"
                # the tree, in the project (the session record is the sandbox HOME's)
                and not Path(MemoryPaths.for_project(str(box.project)).index).is_file()
            ):
                report.steps[-1].ok = False
                report.notes.append(
                    "`/memory start` did not create .claude/memory/: is the plugin complete?"
                )
        _mark_reached(report, box.steps)
        report.memory_files = _memory_files(box.project)
        return report


def _mark_reached(report: DemoReport, steps: list[harness.Step]) -> None:
    """A context reached the model when a later request holds it (compaction's shows up in
    the run after `/compact`, since `/compact` itself sends no prompt to the model)."""
    texts = [
        "\n".join(text for r in s.requests for _role, text in request_texts(r.body)) for s in steps
    ]
    for index, step in enumerate(report.steps):
        later = "\n".join(texts[index:])
        for injection in step.hooks:
            if injection.context:
                injection.reached_model = injection.context in later


# --- the hook entry points, without the CLI ------------------------------------------------


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _Transcript:
    """Appends records in the shape claude 2.1.332 writes (see e2e/transcripts/FORMAT.md)."""

    def __init__(self, path: Path, session_id: str, cwd: Path) -> None:
        self.path = path
        self.session_id = session_id
        self.cwd = str(cwd)
        self.parent: str | None = None
        self.last_text = ""

    def _append(self, record: JsonDict) -> str:
        uid = str(uuid.uuid4())
        envelope = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "entrypoint": "sdk-cli",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": pinned_cli.CLI_VERSION,
            "gitBranch": "HEAD",
            "uuid": uid,
            "timestamp": _now(),
        }
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps({**record, **envelope}, ensure_ascii=False) + "\n")
        self.parent = uid
        return uid

    def prompt(self, text: str) -> None:
        self._append(
            {
                "type": "user",
                "message": {"role": "user", "content": text},
                "promptId": str(uuid.uuid4()),
            }
        )

    def reply(self, reply: scenario.Reply) -> None:
        msg_id = "msg_demo_" + uuid.uuid4().hex[:16]
        stop = "tool_use" if reply.call else "end_turn"
        source = ""
        for block in reply.blocks():
            message = {
                "id": msg_id,
                "role": "assistant",
                "model": "claude-demo",
                "content": [block],
                "stop_reason": stop,
            }
            source = self._append({"type": "assistant", "message": message})
        if reply.text:
            self.last_text = reply.text
        if reply.call is not None:
            self._result(reply.call, source)

    def _result(self, call: scenario.Call, source: str) -> None:
        content, structured = _apply(call)
        block = {
            "type": "tool_result",
            "tool_use_id": call.tool_id,
            "content": content,
            "is_error": call.error,
        }
        record = {"type": "user", "message": {"role": "user", "content": [block]}}
        self._append({**record, "toolUseResult": structured, "sourceToolAssistantUUID": source})


def _write(args: JsonDict, _call: scenario.Call) -> tuple[Any, Any]:
    path = Path(args["file_path"])
    path.write_text(args["content"], encoding="utf-8")
    created = {"type": "create", "filePath": str(path), "content": args["content"]}
    return f"File created successfully at: {path}", {
        **created,
        "structuredPatch": [],
        "originalFile": None,
    }


def _edit(args: JsonDict, _call: scenario.Call) -> tuple[Any, Any]:
    path = Path(args["file_path"])
    before = path.read_text(encoding="utf-8")
    path.write_text(before.replace(args["old_string"], args["new_string"]), encoding="utf-8")
    result = {
        "filePath": str(path),
        "oldString": args["old_string"],
        "newString": args["new_string"],
    }
    result.update(originalFile=before, structuredPatch=[], userModified=False, replaceAll=False)
    return f"The file {path} has been updated successfully.", result


def _bash(_args: JsonDict, call: scenario.Call) -> tuple[Any, Any]:
    if call.error:  # the CLI stores a failed command's result as a bare string
        return call.output, "Error: " + call.output
    done = {"stdout": call.output, "stderr": "", "interrupted": False, "isImage": False}
    return call.output, {**done, "noOutputExpected": False}


def _todo_write(args: JsonDict, _call: scenario.Call) -> tuple[Any, Any]:
    return "Todos have been modified successfully.", {"oldTodos": [], "newTodos": args["todos"]}


def _tool_search(args: JsonDict, _call: scenario.Call) -> tuple[Any, Any]:
    found = {"matches": ["TodoWrite"], "query": args["query"], "total_deferred_tools": 12}
    return [{"type": "tool_reference", "tool_name": "TodoWrite"}], found


_TOOLS = {
    "Write": _write,
    "Edit": _edit,
    "Bash": _bash,
    "TodoWrite": _todo_write,
    "ToolSearch": _tool_search,
}


def _apply(call: scenario.Call) -> tuple[Any, Any]:
    """Do what the tool would (write files) and return (tool_result content, toolUseResult)."""
    tool = _TOOLS.get(call.name)
    return tool(call.tool_input, call) if tool else ("ok", {})


@dataclass
class _HookRunner:
    """Runs `memhooks.py hook <Event>` as the host would: a fresh process, JSON on stdin."""

    plugin_root: Path | None
    project: Path
    transcript: _Transcript

    def command(self, *args: str) -> list[str]:
        if self.plugin_root is not None:
            return [sys.executable, str(self.plugin_root / "hooks" / "memhooks.py"), *args]
        return [sys.executable, "-m", "memhooks", *args]

    def env(self) -> dict[str, str]:
        # The child sees exactly the modules this process sees, and none of the caller's
        # Claude Code variables: this demo must never touch the user's real memory.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "MEMHOOKS"))}
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        env["CLAUDE_PROJECT_DIR"] = str(self.project)
        env["MEMHOOKS_PROJECT_DIR"] = str(self.project)
        if self.plugin_root is not None:
            env["CLAUDE_PLUGIN_ROOT"] = str(self.plugin_root)
        return env

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.command(*args),
            cwd=self.project,
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )

    def hook(self, event: str, **fields: str | bool) -> Injection:
        payload = {
            "session_id": self.transcript.session_id,
            "transcript_path": str(self.transcript.path),
            "cwd": str(self.project),
            "hook_event_name": event,
            **fields,
        }
        started = time.monotonic()
        proc = subprocess.run(
            self.command("hook", event),
            input=json.dumps(payload),
            cwd=self.project,
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        ms = round((time.monotonic() - started) * 1000, 1)
        qualifier = fields.get("source") or fields.get("trigger") or fields.get("reason") or ""
        label = f"{event}:{qualifier}" if qualifier else event
        return Injection(label, ms, _context_of(proc.stdout))


def _context_of(stdout: str) -> str:
    """A hook's additionalContext, or its plain stdout (both reach the model)."""
    text = stdout.strip()
    if not text.startswith("{"):
        return text
    try:
        output = json.loads(text)
    except ValueError:
        return text
    specific = output.get("hookSpecificOutput") if isinstance(output, dict) else None
    return str(specific.get("additionalContext") or "") if isinstance(specific, dict) else ""


def play_direct(
    plugin_root: Path | None,
    workdir: Path,
    *,
    watch: Watch | None = None,
    why: str = "no claude CLI found",
) -> DemoReport:
    """Run the scenario through the hook entry points, with no CLI and no model."""
    project = workdir / "project"
    project.mkdir(parents=True, exist_ok=True)
    _write_project(project)
    session_id = str(uuid.uuid4())
    transcript = _Transcript(workdir / f"{session_id}.jsonl", session_id, project)
    runner = _HookRunner(plugin_root, project, transcript)
    report = DemoReport("direct", str(project), why=why)

    def begin(title: str, prompt: str) -> DemoStep:
        if watch is not None:
            watch(report, len(report.steps) + 1, title)
        return DemoStep(title, prompt)

    first = begin(scenario.PLAN[0][0], "/memory start")
    first.hooks.append(runner.hook("SessionStart", source="startup"))
    started = runner.cli("start")
    first.reply, first.ok = (started.stdout + started.stderr).strip(), started.returncode == 0
    report.steps.append(first)

    titles = (scenario.PLAN[1][0], scenario.PLAN[2][0])
    for title, turn in zip(titles, scenario.turns(str(project.resolve())), strict=True):
        step = begin(title, turn.prompt)
        step.hooks.append(
            runner.hook("UserPromptSubmit", prompt=turn.prompt, permission_mode="default")
        )
        transcript.prompt(turn.prompt)
        for reply in turn.replies:
            transcript.reply(reply)
        step.reply = transcript.last_text
        last = transcript.last_text
        step.hooks.append(runner.hook("Stop", stop_hook_active=False, last_assistant_message=last))
        report.steps.append(step)

    compact = begin(scenario.PLAN[3][0], "/compact")
    compact.hooks.append(runner.hook("PreCompact", trigger="manual", custom_instructions=""))
    compact.hooks.append(runner.hook("SessionStart", source="compact"))
    compact.hooks.append(runner.hook("SessionEnd", reason="other"))
    report.steps.append(compact)

    later, new = begin(scenario.PLAN[-1][0], scenario.NEXT_DAY), {"session_id": "n"}
    later.hooks.append(runner.hook("SessionStart", source="startup", **new))
    later.hooks.append(runner.hook("UserPromptSubmit", prompt=scenario.NEXT_DAY, **new))
    report.steps.append(later)
    report.memory_files = _memory_files(project)
    return report
