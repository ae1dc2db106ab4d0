"""The plugin as the host installs and runs it (issue 25, item 2).

A marketplace install copies the repository's tracked files into
`~/.claude/plugins/cache/<marketplace>/<plugin>/<version>/`, keeps state in
`~/.claude/plugins/data/<plugin>-<marketplace>/`, and runs each hook as
`python3 -S "${CLAUDE_PLUGIN_ROOT}/hooks/memhooks.py" hook <Event>` on the system's Python,
where neither memhooks nor its dependencies are installed, with CLAUDE_PLUGIN_ROOT,
CLAUDE_PLUGIN_DATA and CLAUDE_PROJECT_DIR set and the project as the working directory.
Tests that ran the hooks on the suite's own interpreter (memhooks installed) could not see
what fails there, such as a background job that cannot import the package.

No network: the dependencies the plugin would install into its data folder are copied from
this interpreter's own distributions.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from memhooks.install.deps import MARKER, REQUIREMENTS

REPO = Path(__file__).resolve().parents[1]
TAG = f"py{sys.version_info[0]}{sys.version_info[1]}"
SESSION = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9"


def install_plugin(base: Path) -> Path:
    """A copy of the tracked files where a marketplace install puts them; its root."""
    root = base / ".claude" / "plugins" / "cache" / "memhooks" / "memory" / "0.1.0"
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():  # a file deleted in the work tree is no longer the plugin's
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name)  # keeps the executable bit of bin/ files
    return root


def bare_python(base: Path) -> Path:
    """An interpreter with nothing installed (no memhooks, no pydantic, no pip)."""
    venv = base / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    probe = (
        "import importlib.util as u; print([m for m in ('memhooks', 'pydantic') if u.find_spec(m)])"
    )
    # Without PYTHONPATH & co, as the host runs it: a PYTHONPATH=src in the test run's own
    # environment must not make the bare interpreter find memhooks.
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    out = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, check=True, env=clean
    )
    assert out.stdout.strip() == "[]", out.stdout
    return python


def _closure(names: list[str]) -> list[importlib.metadata.Distribution]:
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in found:
            continue
        dist = importlib.metadata.distribution(name)
        found[key] = dist
        for requirement in dist.requires or ():
            if "extra ==" not in requirement:
                match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
                if match:
                    todo.append(match.group(0))
    return list(found.values())


def seed_deps(folder: Path) -> Path:
    """The plugin's dependencies as its own installer leaves them (`deps/<tag>/` with the
    marker), copied from this interpreter's distributions."""
    names = [re.split(r"[<>=!~ ]", r, maxsplit=1)[0] for r in REQUIREMENTS]
    target = folder / TAG
    for dist in _closure(names):
        for file in dist.files or ():
            if ".." in file.parts or file.suffix == ".pyc":
                continue
            source = Path(str(dist.locate_file(file)))
            if source.is_file():
                (target / file).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / file)
    (target / MARKER).write_text("seeded by the tests\n", encoding="utf-8")
    return target


class Host:
    """One user's machine: a home, the installed plugin, its data folder, a project."""

    def __init__(self, python: Path, root: Path, deps: Path, home: Path, project: Path) -> None:
        self.python = python
        self.root = root
        self.home = home
        self.project = project
        self.data = home / ".claude" / "plugins" / "data" / "memory-memhooks"
        (self.data / "deps").mkdir(parents=True, exist_ok=True)  # a second project, same home
        if not (self.data / "deps" / TAG).exists():
            (self.data / "deps" / TAG).symlink_to(deps, target_is_directory=True)
        project.mkdir(parents=True, exist_ok=True)
        # The `python3` a shell finds: this bare interpreter (a wrapper, not a link, so that
        # it keeps its own venv and sees nothing of the suite's packages).
        self.python_bin = home / "python-bin"
        self.python_bin.mkdir(exist_ok=True)
        wrapper = self.python_bin / "python3"
        wrapper.write_text(f'#!/bin/sh\nexec "{python}" "$@"\n', encoding="utf-8")
        wrapper.chmod(0o755)

    @property
    def memory(self) -> Path:
        return self.project / ".claude" / "memory"

    def env(self, *, hook: bool = True) -> dict[str, str]:
        """The host's environment: for a hook, its three variables; for Claude's own Bash
        calls (`hook=False`), none of them."""
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTHON", "PIP_", "CLAUDE_", "MEMHOOKS_", "VIRTUAL_ENV"))
        }
        env["HOME"] = str(self.home)
        env["PIP_NO_INDEX"] = "1"  # nothing here may reach the network
        if hook:
            env["CLAUDE_PLUGIN_ROOT"] = str(self.root)
            env["CLAUDE_PLUGIN_DATA"] = str(self.data)
            env["CLAUDE_PROJECT_DIR"] = str(self.project)
        return env

    def hook(
        self,
        event: str,
        *,
        env: dict[str, str] | None = None,
        timeout: float = 60,
        **fields: object,
    ) -> dict[str, object]:
        """Run one hook as hooks.json does; its JSON reply ({} when it printed nothing).
        `env`: variables added to the host's (a project's `.claude/settings.json` `env`)."""
        payload = {
            "session_id": SESSION,
            "transcript_path": str(self.project / "t.jsonl"),
            "cwd": str(self.project),
            "hook_event_name": event,
            **fields,
        }
        done = subprocess.run(
            [str(self.python), "-S", str(self.root / "hooks" / "memhooks.py"), "hook", event],
            input=json.dumps(payload),
            cwd=self.project,
            env={**self.env(), **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        reply: dict[str, object] = json.loads(done.stdout) if done.stdout.strip() else {}
        return reply

    def context(self, event: str, **fields: object) -> str:
        specific = self.hook(event, **fields).get("hookSpecificOutput")
        return str(specific.get("additionalContext", "")) if isinstance(specific, dict) else ""

    def command(self, *args: str) -> subprocess.CompletedProcess[str]:
        """A command file's `!`python3 "${CLAUDE_PLUGIN_ROOT}/hooks/memhooks.py" <verb>
        --plugin-data "${CLAUDE_PLUGIN_DATA}"``, the variables substituted by the host."""
        return self.run(
            str(self.python),
            str(self.root / "hooks" / "memhooks.py"),
            *args[:1],
            "--plugin-data",
            str(self.data),
            *args[1:],
        )

    def run(self, *argv: str, path: str = "") -> subprocess.CompletedProcess[str]:
        """A command in Claude's Bash tool: the project as cwd, no plugin variables, and
        `path` (the plugin's bin/, as the host adds it) first on PATH."""
        env = self.env(hook=False)
        env["PATH"] = os.pathsep.join(
            [*([path] if path else []), str(self.python_bin), env.get("PATH", "")]
        )
        return subprocess.run(
            list(argv),
            cwd=self.project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
