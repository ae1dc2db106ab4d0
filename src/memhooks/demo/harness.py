# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Drive the real `claude` CLI headless and offline, with the plugin installed as a user would.

Standard library only. A `Sandbox` is one throwaway world: a clean HOME, a project
directory, a private `bin/` that decides which `python3` the hooks get, and a `MockApi`.
The plugin is staged into the sandbox (a developer's venv beside it is not copied into the
plugin cache) and installed through its marketplace, or loaded with `--plugin-dir`. Each
`run` is one `claude -p` process; its result carries the requests the mock recorded and
each hook's time as the host measured it (from `--debug-file`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memhooks.demo.mock_api import MockApi, Recorded, hook_contexts

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

CLI_PACKAGE = "@anthropic-ai/claude-code"
CLI_VERSION = "2.1.332"
MARKETPLACE = "memhooks"
PLUGIN = "memory"
E2E_DIR_ENV = "MEMHOOKS_E2E_DIR"
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
DEPENDENCIES = ("pydantic", "python-frontmatter", "filelock")
SCRIPTED_TOOLS = "Bash Write Edit Read TodoWrite ToolSearch Agent"
_STAGE_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", ".e2e", ".bench", "__pycache__", "*.pyc", ".mypy_cache", ".ruff_cache",
    ".pytest_cache", ".hypothesis", "build", "dist", "*.egg-info", "tests",
)  # fmt: skip
# "Hooks: SessionStart:resume [cmd] (plugin memory@memhooks) finished with status 0 (50ms)"
_HOOK_DONE = re.compile(
    r"^(?P<ts>\S+) \[DEBUG\] (?:Hooks: )?(?P<event>[A-Za-z]+)(?::(?P<qual>\S+))? "
    r"\[(?P<cmd>.*)\](?: \(plugin (?P<plugin>[^)]*)\))? "
    r"(?:finished|completed) with status (?P<status>-?\d+)(?: \((?P<ms>\d+)ms\))?"
)


# '"Hook SessionStart:resume (SessionStart) success:\n{...hook stdout...}"', one JSON string
_HOOK_OUTPUT = re.compile(r'^\S+ \[DEBUG\] (?P<quoted>"Hook (?P<label>\S+) \(\w+\) success:.*")$')


class HarnessError(RuntimeError):
    """The CLI or the plugin could not be set up; the message says what to do."""


def repo_root() -> Path | None:
    """The plugin checkout this package runs from, or None for an installed wheel."""
    root = Path(__file__).resolve().parents[3]
    return root if (root / ".claude-plugin" / "plugin.json").is_file() else None


def cache_dir() -> Path:
    """Where the pinned CLI and other downloads are kept between runs: $MEMHOOKS_E2E_DIR, else
    the user cache (~/.cache/memhooks), shared by `.ci/run`, the tests and the demo, and
    never inside the plugin's folder (a marketplace install copies that folder whole)."""
    override = os.environ.get(E2E_DIR_ENV)
    if override:
        return Path(override)
    home = Path.home()
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "memhooks"


def _cli_dir(cache: Path, version: str) -> Path:
    return cache / f"cli-{version}"


def find_claude(
    cache: Path, version: str = CLI_VERSION, *, allow_path: bool = False
) -> Path | None:
    """$CLAUDE_BIN, then the pinned CLI in the cache, then (if allowed) `claude` on PATH."""
    candidates = [
        os.environ.get("CLAUDE_BIN"),
        _cli_dir(cache, version) / "node_modules/.bin/claude",
    ]
    if allow_path:
        candidates.append(shutil.which("claude"))
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate).resolve()
    return None


def install_claude(cache: Path, version: str = CLI_VERSION, *, progress: bool = True) -> Path:
    """Install the pinned CLI with npm into the cache, once; safe when runs race.

    With `progress`, says what it fetches and where, and lets npm's own output through
    (to stderr: stdout may be a report or JSON)."""
    found = find_claude(cache, version)
    if found:
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise HarnessError(
            "npm is not on PATH, so the pinned claude CLI cannot be fetched: install Node.js "
            "(it brings npm), or set CLAUDE_BIN to a claude binary"
        )
    cache.mkdir(parents=True, exist_ok=True)
    # npm works in a private folder that is renamed into place whole, so a concurrent
    # run never sees a half-installed CLI and the loser of the race just drops its copy.
    work = Path(tempfile.mkdtemp(prefix=f"cli-{version}.", dir=cache))
    (work / "package.json").write_text('{"name": "memhooks-e2e-cli", "private": true}\n')
    spec = f"{CLI_PACKAGE}@{version}"
    if progress:
        print(
            f"memhooks: fetching {spec} with npm into {_cli_dir(cache, version)} "
            "(about 400 MB, once; a minute or two)...",
            file=sys.stderr,
            flush=True,
        )
    proc = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--prefix", str(work), spec],
        stdout=sys.stderr if progress else subprocess.PIPE,
        stderr=None if progress else subprocess.PIPE,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise HarnessError(
            f"npm install {spec} failed (exit {proc.returncode})"
            + (f":\n{proc.stderr[-2000:]}" if proc.stderr else "")
        )
    try:
        work.rename(_cli_dir(cache, version))
    except OSError:
        shutil.rmtree(work, ignore_errors=True)
    found = find_claude(cache, version)
    if found is None:
        raise HarnessError(f"npm installed {spec} but no claude binary appeared")
    return found


def base_python() -> Path:
    """The interpreter behind `python3` on PATH, outside any venv: what a user's hooks get."""
    python = shutil.which("python3") or sys.executable
    probe = "import sys; print(getattr(sys, '_base_executable', '') or sys.executable)"
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=False)
    found = out.stdout.strip()
    return Path(found) if out.returncode == 0 and found else Path(sys.executable)


def python_tag(python: Path) -> str:
    """ "py311" for a Python 3.11: the launcher's name for its dependency folder."""
    probe = "import sys; print('py%d%d' % sys.version_info[:2])"
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def has_deps(python: Path) -> bool:
    probe = [str(python), "-c", "import pydantic, frontmatter, filelock"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def ensure_deps(cache: Path, python: Path) -> Path:
    """The plugin's dependencies for `python`, installed once with pip into the cache."""
    target = cache / "e2e-deps" / python_tag(python)  # not deps/: the plugin's own layout
    if (target / ".complete").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{target.name}.", dir=target.parent))
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    proc = subprocess.run(
        [*pip, "--target", str(work), *DEPENDENCIES], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise HarnessError(
            f"pip could not install {' '.join(DEPENDENCIES)}:\n{proc.stderr[-1500:]}"
        )
    (work / ".complete").write_text("", encoding="utf-8")
    try:
        work.rename(target)
    except OSError:  # another run finished first; its copy is as good as ours
        shutil.rmtree(work, ignore_errors=True)
    return target


def bare_python(cache: Path) -> Path:
    """A Python with pip and nothing else (a venv of the base interpreter, made once): what a
    new user's machine gives the plugin, whatever this machine has installed system-wide."""
    base = base_python()
    folder = cache / "bare-python" / python_tag(base)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if (folder / ".complete").is_file():
        return python
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bare.", dir=cache))
    proc = subprocess.run(
        [str(base), "-m", "venv", str(work / "venv")], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise HarnessError(f"{base} -m venv failed: {proc.stderr[-1000:]}")
    (work / "venv" / ".complete").write_text("", encoding="utf-8")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # another run made it first
        (work / "venv").rename(folder)
    shutil.rmtree(work, ignore_errors=True)
    return python


def tree_size(root: Path) -> tuple[int, dict[str, int]]:
    """Bytes under `root` (symlinks not followed), and by top-level entry."""
    by_entry: dict[str, int] = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            top = path.relative_to(root).parts[0]
            by_entry[top] = by_entry.get(top, 0) + path.stat().st_size
    return sum(by_entry.values()), by_entry


def stage_plugin(source: Path, dest: Path) -> Path:
    """Copy the plugin as a user's checkout would have it, without caches and venvs."""
    shutil.copytree(source, dest, ignore=_STAGE_IGNORE, symlinks=True)
    return dest


@dataclass(frozen=True)
class HookRun:
    """One hook process as the host saw it. `ms` is None when the host logged no duration."""

    event: str
    qualifier: str
    status: int
    ms: float | None
    command: str
    measured: str  # "host" (its own figure) or "log-gap" (time since the previous log line)
    context: str = ""  # the additionalContext it printed, when the host logged it

    @property
    def label(self) -> str:
        return f"{self.event}:{self.qualifier}" if self.qualifier else self.event


def _timestamp(text: str) -> float | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _additional_context(quoted: str) -> str:
    """The additionalContext inside one logged hook output, or "" when there is none."""
    try:
        logged = json.loads(quoted)
        output = json.loads(str(logged).split("success:\n", 1)[1])
    except (ValueError, IndexError):
        return ""
    specific = output.get("hookSpecificOutput") if isinstance(output, dict) else None
    return str(specific.get("additionalContext") or "") if isinstance(specific, dict) else ""


def parse_hook_runs(debug_log: str, command_part: str = "") -> list[HookRun]:
    """The hook runs in a `--debug-file` log whose command contains `command_part`."""
    runs: list[HookRun] = []
    previous: float | None = None
    for line in debug_log.splitlines():
        stamp = _timestamp(line.split(" ", 1)[0])
        output = _HOOK_OUTPUT.match(line)
        if output:
            # The host logs a hook's stdout just after its "finished" line.
            context = _additional_context(output["quoted"])
            for index in range(len(runs) - 1, -1, -1):
                if runs[index].label == output["label"]:
                    if context and not runs[index].context:
                        runs[index] = replace(runs[index], context=context)
                    break
        match = _HOOK_DONE.match(line)
        if match and command_part in match["cmd"]:
            ms: float | None = float(match["ms"]) if match["ms"] else None
            measured = "host"
            if ms is None and stamp is not None and previous is not None:
                # SessionEnd is logged without a duration; the gap since the line before
                # is an upper bound that includes the host's own shutdown work.
                ms, measured = round((stamp - previous) * 1000, 1), "log-gap"
            qualifier = match["qual"] or ""
            runs.append(
                HookRun(match["event"], qualifier, int(match["status"]), ms, match["cmd"], measured)
            )
        if stamp is not None:
            previous = stamp
    return runs


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
        target = self.plugin_data / "deps" / python_tag(self.python)
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


def stop_hook_durations(transcript: Path) -> list[tuple[str, int]]:
    """(command, durationMs) from the transcript's stop_hook_summary records."""
    found: list[tuple[str, int]] = []
    if not transcript.is_file():
        return found
    for line in transcript.read_text(encoding="utf-8", errors="replace").splitlines():
        if '"stop_hook_summary"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        infos = record.get("hookInfos") or []
        found.extend((str(i.get("command", "")), int(i.get("durationMs") or 0)) for i in infos)
    return found
