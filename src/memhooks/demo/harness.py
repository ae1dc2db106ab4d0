# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Drive the real `claude` CLI headless and offline, with the plugin installed as a user would.

Standard library only. A `Sandbox` is one throwaway world: a clean HOME, a project
directory, a private `bin/` that decides which `python3` the hooks get, and a `MockApi`.
The plugin is staged into the sandbox (a developer's venv beside it is not copied into the
plugin cache) and installed through its marketplace, or loaded with `--plugin-dir`. Each
`run` is one `claude -p` process; its result carries the requests the mock recorded and
each hook's time as the host measured it (from `--debug-file`, read by `host_log`).
The pinned CLI is `pinned_cli`'s, the hooks' interpreter `hook_python`'s.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memhooks.demo import HarnessError
from memhooks.demo.hook_python import base_python, python_tag
from memhooks.demo.host_log import HookRun, parse_hook_runs
from memhooks.demo.mock_api import MockApi, Recorded
from memhooks.demo.mock_requests import hook_contexts, request_texts
from memhooks.install.deps import target_dir

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

MARKETPLACE = "memhooks"
PLUGIN = "memory"
#: Keeps the CLI off the network: no bootstrap, telemetry, updater or error reports.
QUIET_ENV = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_BUG_COMMAND": "1",
}
#: TodoWrite instead of TaskCreate, as in the recorded fixtures (see claude-code.md).
TODO_ENV = {"CLAUDE_CODE_ENABLE_TODO_TOOLS": "1", "CLAUDE_CODE_ENABLE_TASKS": "0"}
SCRIPTED_TOOLS = "Bash Write Edit Read TodoWrite ToolSearch Agent"
_STAGE_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", ".e2e", ".bench", "__pycache__", "*.pyc", ".mypy_cache", ".ruff_cache",
    ".pytest_cache", ".hypothesis", "build", "dist", "*.egg-info", "tests",
)  # fmt: skip


def repo_root() -> Path | None:
    """The plugin checkout this package runs from, or None for an installed wheel."""
    root = Path(__file__).resolve().parents[3]
    return root if (root / ".claude-plugin" / "plugin.json").is_file() else None


def stage_plugin(source: Path, dest: Path) -> Path:
    """Copy the plugin as a user's checkout would have it, without caches and venvs."""
    shutil.copytree(source, dest, ignore=_STAGE_IGNORE, symlinks=True)
    return dest


@dataclass
class Step:
    """One `claude -p` run and everything it left behind."""

    name: str
    prompt: str
    argv: list[str]
    rc: int
    wall_s: float
    stdout: str
    stderr: str
    requests: list[Recorded]
    hooks: list[HookRun]
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def session_id(self) -> str:
        return str(self.result.get("session_id") or "")

    @property
    def reply(self) -> str:
        return str(self.result.get("result") or "")

    def request_text(self) -> str:
        """Every request body of this step as one string, for "did X reach the model"."""
        return "\n".join(json.dumps(r.body, ensure_ascii=False) for r in self.requests)

    def model_text(self) -> str:
        """Every text block the model was shown in this step (system prompt included), decoded."""
        return "\n".join(text for r in self.requests for _role, text in request_texts(r.body))

    def contexts(self, event: str = "") -> list[str]:
        """The hook contexts in this step's requests, newest request last, deduplicated."""
        seen: dict[str, None] = {}
        for request in self.requests:
            for ctx in hook_contexts(request.body):
                if not event or ctx.event == event:
                    seen.setdefault(ctx.text, None)
        return list(seen)

    def hook_labels(self) -> list[str]:
        return [h.label for h in self.hooks]


@dataclass
class Sandbox:
    """A clean HOME, a project and a mock API for running the real CLI."""

    root: Path
    claude: Path
    mock: MockApi
    python: Path = field(default_factory=base_python)
    extra_env: dict[str, str] = field(default_factory=dict)
    timeout: float = 180.0
    steps: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        for folder in (self.home, self.project, self.bin, self.logs):
            folder.mkdir(parents=True, exist_ok=True)
        # A wrapper rather than a symlink: a venv's interpreter only finds its packages
        # when it is started by its own path.
        python3 = self.bin / "python3"
        if not python3.exists():
            python3.write_text(f'#!/bin/sh\nexec "{self.python}" "$@"\n', encoding="utf-8")
            python3.chmod(0o755)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def plugin_data(self) -> Path:
        """${CLAUDE_PLUGIN_DATA} of the marketplace-installed plugin."""
        return self.home / ".claude" / "plugins" / "data" / f"{PLUGIN}-{MARKETPLACE}"

    @property
    def inline_plugin_data(self) -> Path:
        """${CLAUDE_PLUGIN_DATA} of the plugin loaded with `claude --plugin-dir`."""
        return self.home / ".claude" / "plugins" / "data" / f"{PLUGIN}-inline"

    def env(self) -> dict[str, str]:
        """A minimal environment: nothing of the caller's leaks in but PATH's tools."""
        # Our bin/ comes first so `python3` is the chosen interpreter; venv folders of
        # the caller are dropped so the hooks cannot borrow the test suite's packages.
        venv_bin = str(Path(sys.prefix) / "bin") if sys.prefix != sys.base_prefix else ""
        inherited = [
            p
            for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
            if p and p != venv_bin
        ]
        env = {
            "PATH": os.pathsep.join([str(self.bin), *inherited]),
            "HOME": str(self.home),
            "TERM": "dumb",
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "ANTHROPIC_BASE_URL": self.mock.url,
            "ANTHROPIC_API_KEY": "sk-ant-mock-key",
            **QUIET_ENV,
            **TODO_ENV,
        }
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"  # the CLI refuses some flags as root without it
        env.update(self.extra_env)
        return env

    def claude_cmd(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Run a non-session `claude` subcommand (plugin, --version) in the sandbox."""
        return subprocess.run(
            [str(self.claude), *args],
            cwd=cwd or self.project,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=self.timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )

    def install_plugin(self, source: Path) -> list[subprocess.CompletedProcess[str]]:
        """Stage the plugin and install it through its marketplace, as a user would."""
        stage = self.root / "plugin-src"
        if not stage.exists():
            stage_plugin(source, stage)
        done = [
            self.claude_cmd("plugin", "marketplace", "add", str(stage)),
            self.claude_cmd("plugin", "install", f"{PLUGIN}@{MARKETPLACE}"),
        ]
        for proc in done:
            if proc.returncode != 0:
                raise HarnessError(f"{proc.args} failed: {proc.stdout}{proc.stderr}")
        return done

    def seed_deps(self, deps: Path) -> Path:
        """Put pre-installed dependencies where the launcher looks, skipping the bootstrap."""
        target = target_dir(self.plugin_data, python_tag(self.python))
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            shutil.copytree(deps, target, symlinks=True, ignore=shutil.ignore_patterns(".complete"))
        return target

    def transcript(self, session_id: str) -> Path:
        slug = re.sub(r"[^A-Za-z0-9]", "-", str(self.project.resolve()))
        return self.home / ".claude" / "projects" / slug / f"{session_id}.jsonl"

    def run(
        self,
        prompt: str,
        *,
        name: str = "",
        resume: bool = False,
        extra: Sequence[str] = (),
        plugin_dirs: Iterable[Path] = (),
    ) -> Step:
        """One `claude -p PROMPT` (with `--continue` when `resume`)."""
        number = len(self.steps) + 1
        debug = self.logs / f"step-{number}.debug.log"
        argv = [
            str(self.claude),
            "-p",
            prompt,
            "--output-format",
            "json",
            "--debug-file",
            str(debug),
        ]
        argv += ["--allowedTools", SCRIPTED_TOOLS]
        for plugin_dir in plugin_dirs:
            argv += ["--plugin-dir", str(plugin_dir)]
        if resume:
            argv.append("--continue")
        argv += list(extra)
        first = len(self.mock.requests)
        started = time.monotonic()
        try:
            proc = subprocess.run(
                argv,
                cwd=self.project,
                env=self.env(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=self.timeout,
                check=False,
            )
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            rc, out, err = -1, _text(exc.stdout), _text(exc.stderr) + "\n[timed out]"
        wall = round(time.monotonic() - started, 3)
        (self.logs / f"step-{number}.stdout").write_text(out, encoding="utf-8")
        (self.logs / f"step-{number}.stderr").write_text(err, encoding="utf-8")
        log = debug.read_text(encoding="utf-8", errors="replace") if debug.exists() else ""
        step = Step(
            name=name or prompt[:40],
            prompt=prompt,
            argv=argv[1:],
            rc=rc,
            wall_s=wall,
            stdout=out,
            stderr=err,
            requests=self.mock.messages_since(first),
            hooks=parse_hook_runs(log),
        )
        try:
            parsed = json.loads(out)
            step.result = parsed if isinstance(parsed, dict) else {}
        except ValueError:
            step.result = {}
        self.steps.append(step)
        return step


def _text(data: bytes | str | None) -> str:
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return data or ""
