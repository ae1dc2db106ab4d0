"""Running a hook exactly as Claude Code does, timed: the `hooks.json` command with `python3`
replaced, a minimal environment, the real payload shapes; `Case`, one thing timed repeatedly,
and `measure`, which interleaves every case so that all share the machine's noise.
Standard library only."""

from __future__ import annotations

import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "hooks" / "memhooks.py"
FIXTURE_SESSION = "5e55b0b0-0000-4000-8000-00000000be7c"


def log(message: str) -> None:
    sys.stderr.write(f"[bench] {message}\n")
    sys.stderr.flush()


def mb_label(mb: float) -> str:
    return f"{mb:g} MB"


def constant(body: bytes) -> Callable[[int], bytes]:
    """A payload that is the same on every call."""
    return lambda _i: body


def minimal_env(*, dont_write_bytecode: bool) -> dict[str, str]:
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    if dont_write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def hook_argv(event: str, python: str) -> list[str]:
    """The hooks.json command for `event`, placeholders substituted, `python3` replaced."""
    config = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    command = config["hooks"][event][0]["hooks"][0]["command"]
    argv = shlex.split(command.replace("${CLAUDE_PLUGIN_ROOT}", str(REPO)))
    # `python3 … || python …`: the fallback runs only where python3 is missing (Windows).
    if "||" in argv:
        argv = argv[: argv.index("||")]
    if argv[0] in ("python3", "python"):
        argv[0] = python
    return argv


def hooks_json_python() -> str:
    config = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    return shlex.split(config["hooks"]["Stop"][0]["hooks"][0]["command"])[0]


def load_payloads(fixtures: Path) -> dict[str, dict[str, Any]]:
    """The real payload shapes by case name; built-in stand-ins where the fixtures are absent."""
    payloads: dict[str, dict[str, Any]] = {}
    path = fixtures / "hook_stdin_examples.jsonl"
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                payloads[item["case"]] = item["stdin"]
    base = {"session_id": FIXTURE_SESSION, "transcript_path": "", "cwd": ""}
    defaults: dict[str, dict[str, Any]] = {
        "SessionStart:startup": {"hook_event_name": "SessionStart", "source": "startup"},
        "SessionStart:compact": {"hook_event_name": "SessionStart", "source": "compact"},
        "UserPromptSubmit": {"hook_event_name": "UserPromptSubmit", "prompt": ""},
        "Stop": {
            "hook_event_name": "Stop",
            "stop_hook_active": False,
            "last_assistant_message": "",
        },
        "PreCompact:auto": {
            "hook_event_name": "PreCompact",
            "trigger": "auto",
            "custom_instructions": None,
        },
        "SessionEnd:other": {"hook_event_name": "SessionEnd", "reason": "other"},
        "PreToolUse:Write": {"hook_event_name": "PreToolUse", "tool_name": "Write"},
        "PreToolUse:Bash": {"hook_event_name": "PreToolUse", "tool_name": "Bash"},
    }
    for name, extra in defaults.items():
        payloads.setdefault(name, {**base, "prompt_id": str(uuid.uuid4()), **extra})
    return payloads


def run_process(
    argv: list[str], env: dict[str, str], stdin: bytes = b"", cwd: Path | None = None
) -> tuple[float, int, str, str]:
    started = time.perf_counter()
    done = subprocess.run(
        argv, input=stdin, capture_output=True, env=env, cwd=cwd, timeout=300, check=False
    )
    elapsed = (time.perf_counter() - started) * 1000
    return (
        elapsed,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


class Case:
    """One thing timed repeatedly: a hook on one fixture, or a floor."""

    def __init__(  # noqa: PLR0917 - cases are declared as table rows, positionally
        self,
        key: str,
        hook: str,
        size: str,
        argv: list[str],
        env: dict[str, str],
        payload: Callable[[int], bytes] | None = None,
        *,
        cwd: Path | None = None,
        repeats: int,
        before: Callable[[int], None] | None = None,
        group: str = "hook",
    ) -> None:
        self.key, self.hook, self.size, self.argv, self.env = key, hook, size, argv, env
        self.payload = payload or (lambda _i: b"")
        self.cwd, self.repeats, self.before, self.group = cwd, repeats, before, group
        self.samples: list[float] = []
        self.outputs: list[str] = []
        self.errors: list[str] = []
        self.calls = 0

    def run(self, *, record: bool) -> None:
        if self.before is not None:
            self.before(self.calls)
        stdin = self.payload(self.calls)
        elapsed, code, out, err = run_process(self.argv, self.env, stdin, self.cwd)
        self.calls += 1
        if code != 0 or err.strip():
            self.errors.append(f"exit {code}: {err.strip()[:300]}")
        if record:
            self.samples.append(elapsed)
            self.outputs.append(out)

    def stats(self) -> dict[str, Any]:
        data = sorted(self.samples)
        if not data:
            return {"n": 0, "median_ms": None, "p95_ms": None, "max_ms": None, "min_ms": None}
        p95 = data[min(len(data) - 1, max(0, -(-95 * len(data) // 100) - 1))]
        return {
            "n": len(data),
            "median_ms": round(statistics.median(data), 2),
            "p95_ms": round(p95, 2),
            "max_ms": round(data[-1], 2),
            "min_ms": round(data[0], 2),
        }


def measure(cases: list[Case], warmup: int) -> None:
    """Warm up each case, then rounds in a shuffled order so that all cases share the noise."""
    rng = random.Random(11)  # noqa: S311 - shuffling, not secrets
    for case in cases:
        for _ in range(warmup):
            case.run(record=False)
    rounds = max(c.repeats for c in cases)
    started = time.perf_counter()
    for number in range(rounds):
        order = [c for c in cases if c.repeats > number]
        rng.shuffle(order)
        for case in order:
            case.run(record=True)
        if number in (0, rounds // 2):
            log(f"round {number + 1}/{rounds} ({time.perf_counter() - started:.0f} s)")
