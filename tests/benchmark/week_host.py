"""One machine of the week scenarios: a HOME of its own, the plugin's data folder, a project
with memory started in it, and its hooks run exactly as the host runs them.

The plugin is any checkout (`tree`): its `hooks/memhooks.py` runs as `python3 -S
…/hooks/memhooks.py hook <Event>` with the project as the working directory, the host's three
variables and nothing of this interpreter's environment (no PYTHONPATH), so the hooks run the
tree's own `src/`. Memory is started with the tree's own `memhooks start`, in this HOME.
Standard library only.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from hook_process import load_payloads

#: What the host's hooks.json allows each event (seconds): a hook over it is reported.
TIMEOUTS = {
    "SessionStart": 15,
    "UserPromptSubmit": 10,
    "Stop": 10,
    "PreCompact": 60,
    "PostCompact": 10,
    "SessionEnd": 2,
}
DROPPED_ENV = ("PYTHON", "PIP_", "CLAUDE_", "MEMHOOKS_", "VIRTUAL_ENV", "XDG_STATE_HOME")


def code_tree(given: Path | None) -> Path:
    """The checkout whose hooks run: `given`, else the one `memhooks` is imported from
    (PYTHONPATH=<worktree>/src picks that worktree)."""
    if given is not None:
        return given.resolve()
    import importlib.util

    spec = importlib.util.find_spec("memhooks")
    if spec is None or spec.origin is None:
        raise SystemExit("memhooks is not importable: set PYTHONPATH=<checkout>/src or --tree")
    return Path(spec.origin).resolve().parents[2]


class World:
    """A HOME, a project in it with memory started, and the plugin's data folder."""

    def __init__(self, base: Path, tree: Path, data: Path, fixtures: Path) -> None:
        self.tree = tree
        self.home = base / "home"
        self.project = base / "project"
        self.data = data
        self.payloads = load_payloads(fixtures)
        self.python = sys.executable
        self.times: dict[str, list[float]] = {}
        self.problems: list[str] = []
        self.notes: dict[str, None] = {}
        self.project.mkdir(parents=True)
        self.home.mkdir(parents=True)
        slug = str(self.project).replace("/", "-")
        self.transcripts = self.home / ".claude" / "projects" / slug
        self.transcripts.mkdir(parents=True)

    @property
    def memory(self) -> Path:
        return self.project / ".claude" / "memory"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED_ENV)}
        env.update(
            HOME=str(self.home),
            PIP_NO_INDEX="1",
            CLAUDE_PLUGIN_ROOT=str(self.tree),
            CLAUDE_PLUGIN_DATA=str(self.data),
            CLAUDE_PROJECT_DIR=str(self.project),
        )
        return env

    def start(self) -> None:
        """`memhooks start` in the project, as the user runs it (this HOME's consent)."""
        done = subprocess.run(
            [self.python, str(self.tree / "hooks" / "memhooks.py"), "start"],
            cwd=self.project,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"memhooks start failed: {done.stderr.strip()[-500:]}")

    def transcript(self, session_id: str) -> Path:
        return self.transcripts / f"{session_id}.jsonl"

    def hook(self, event: str, session_id: str, **fields: Any) -> dict[str, Any]:
        """Run one hook; its JSON reply ({} when it printed nothing)."""
        case = f"{event}:{fields.get('source') or fields.get('trigger') or fields.get('reason')}"
        payload = dict(self.payloads.get(case) or self.payloads.get(event) or {})
        payload.update(
            session_id=session_id,
            transcript_path=str(self.transcript(session_id)),
            cwd=str(self.project),
            hook_event_name=event,
            **fields,
        )
        if "prompt_id" in payload:
            payload["prompt_id"] = fields.get("prompt_id") or str(uuid.uuid4())
        started = time.perf_counter()
        done = subprocess.run(
            [self.python, "-S", str(self.tree / "hooks" / "memhooks.py"), "hook", event],
            input=json.dumps(payload).encode(),
            cwd=self.project,
            env=self.env(),
            capture_output=True,
            timeout=TIMEOUTS.get(event, 30) * 4,
            check=False,
        )
        ms = (time.perf_counter() - started) * 1000
        self.times.setdefault(event, []).append(ms)
        err = done.stderr.decode("utf-8", "replace").strip()
        if done.returncode != 0:
            self.problems.append(f"{event}: exit {done.returncode}: {err[-300:]}")
        elif err:  # a notice for the user (the host shows it in verbose mode)
            self.notes.setdefault(f"{event}: {err[-300:]}", None)
        if ms > TIMEOUTS.get(event, 30) * 1000:
            self.problems.append(f"{event}: {ms:.0f} ms, over the host's timeout")
        out = done.stdout.decode("utf-8", "replace").strip()
        if not out:
            return {}
        try:
            reply = json.loads(out)
        except ValueError:
            self.problems.append(f"{event}: stdout is not JSON: {out[:200]}")
            return {}
        return reply if isinstance(reply, dict) else {}

    def context(self, reply: dict[str, Any]) -> str:
        specific = reply.get("hookSpecificOutput")
        return str(specific.get("additionalContext") or "") if isinstance(specific, dict) else ""

    def log_lines(self) -> list[str]:
        """What the hooks logged (they fail open: a failure shows here, not in their exit):
        `memhooks.log` in the tree's cache, or in this HOME's machine-local state."""
        found = [
            *self.memory.glob(".cache/memhooks.log"),
            *(self.home / ".local" / "state").glob("memhooks/**/memhooks.log"),
        ]
        return [
            line
            for path in found
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        ]

    def timing(self) -> dict[str, dict[str, float]]:
        return {
            event: {
                "n": len(ms),
                "median_ms": round(statistics.median(ms)),
                "max_ms": round(max(ms)),
            }
            for event, ms in sorted(self.times.items())
        }
