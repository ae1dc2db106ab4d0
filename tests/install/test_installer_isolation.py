"""The dependency installer never runs code of the project (issue 10, item 1).

A repository can commit a `pip/` package, a `subprocess.py` or a `sitecustomize.py`, and
even a `.claude/memory/_session.json` that says memory is active. The hooks run with the
project as their working directory, so an installer started as `python -c …` or
`python -m pip` from there would import the project's modules instead of the real ones.
These tests mount that attack as a repository would and run the launcher as hooks.json and
the command files run it, on an interpreter that has none of the dependencies.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from support import turn_on_here

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "hooks" / "memhooks.py"


def _payload(project: Path, event: str) -> str:
    return json.dumps(
        {
            "session_id": "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9",
            "transcript_path": str(project / "t.jsonl"),
            "cwd": str(project),
            "hook_event_name": event,
            "source": "startup",
        }
    )


def hostile_project(root: Path, witness: Path, *, active: bool) -> Path:
    """A cloned repository whose modules shadow pip and subprocess, each leaving a witness."""
    project = root / "project"
    project.mkdir()
    plant = f"open({str(witness)!r}, 'a').write(__name__ + ' ' + __file__ + '\\n')\n"
    (project / "pip").mkdir()
    (project / "pip" / "__init__.py").write_text(plant, encoding="utf-8")
    (project / "pip" / "__main__.py").write_text(plant, encoding="utf-8")
    for name in ("subprocess.py", "sitecustomize.py", "shutil.py", "importlib.py"):
        (project / name).write_text(plant, encoding="utf-8")
    if active:
        memory = project / ".claude" / "memory"
        memory.mkdir(parents=True)
        state = {"version": 1, "active": True, "started": "2026-01-01T00:00:00Z"}
        (memory / "_session.json").write_text(json.dumps(state), encoding="utf-8")  # kept by:
        turn_on_here(project, state_home=root / "state")  # the user did, on this machine
    return project


def _env(root: Path, data: Path | None) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "PIP_", "CLAUDE_", "MEMHOOKS_", "VIRTUAL_ENV"))
    }
    env["HOME"] = str(root / "home")
    env["XDG_CACHE_HOME"] = str(root / "cache")
    env["XDG_STATE_HOME"] = str(root / "state")
    env["PIP_NO_INDEX"] = "1"  # a real pip, if one were found, fails at once and offline
    if data is not None:
        env["CLAUDE_PLUGIN_DATA"] = str(data)
    return env


def _run_hook(
    python: Path, project: Path, event: str, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """The hook as hooks.json runs it, with the project as the working directory."""
    return subprocess.run(
        [str(python), "-S", str(LAUNCHER), "hook", event],
        input=_payload(project, event),
        cwd=project,  # as the host runs hooks
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def _wait_for_installer(data: Path, witness: Path, timeout: float = 60.0) -> str:
    log = data / "deps" / "install.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert not witness.exists(), witness.read_text()
        if log.exists() and not (data / "deps" / ".installing").exists():
            return log.read_text(encoding="utf-8", errors="replace")
        time.sleep(0.2)
    raise AssertionError(f"the background installer did not finish within {timeout}s")


def test_session_start_installer_runs_nothing_from_the_project(
    bare_python: Path, tmp_path: Path
) -> None:
    witness = tmp_path / "WITNESS"
    project = hostile_project(tmp_path, witness, active=True)
    data = tmp_path / "plugin-data"
    done = _run_hook(bare_python, project, "SessionStart", _env(tmp_path, data))
    assert done.returncode == 0, done.stderr
    log = _wait_for_installer(data, witness)
    # The installer did run (so the attack had its chance), and failed for want of pip.
    assert "No module named pip" in log, log
    assert not witness.exists(), witness.read_text()


def test_no_installer_where_memory_was_never_started(bare_python: Path, tmp_path: Path) -> None:
    witness = tmp_path / "WITNESS"
    project = hostile_project(tmp_path, witness, active=False)
    data = tmp_path / "plugin-data"
    for event in ("SessionStart", "UserPromptSubmit"):
        done = _run_hook(bare_python, project, event, _env(tmp_path, data))
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
    time.sleep(0.5)
    assert not (data / "deps").exists(), "nothing is started where memory is not active"
    assert not witness.exists()


def test_a_command_installs_isolated_and_start_stays_all_or_nothing(
    bare_python: Path, tmp_path: Path
) -> None:
    witness = tmp_path / "WITNESS"
    project = hostile_project(tmp_path, witness, active=False)
    data = tmp_path / "plugin-data"
    # As commands/start.md runs it once the host substituted ${CLAUDE_PLUGIN_DATA}.
    done = subprocess.run(
        [str(bare_python), str(LAUNCHER), "start", "--plugin-data", str(data)],
        cwd=project,
        env=_env(tmp_path, None),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 4, done.stdout + done.stderr
    assert not witness.exists(), witness.read_text()
    assert f"installing pydantic, frontmatter into {data}" in done.stderr
    # The way out names only what the user has: a pip command with the resolved folder.
    hint = done.stderr.splitlines()[-1].strip()
    assert hint.startswith(("python3 -m pip install --target", "python -m pip"))
    assert str(data / "deps") in hint
    assert "${" not in done.stderr
    assert "memhooks doctor" not in done.stderr
    assert not (project / ".claude").exists(), "a failed start leaves nothing behind"
    # The folder the host gave is recorded for Claude's own Bash calls of the launcher.
    records = list((tmp_path / "cache" / "memhooks" / "plugin-data").iterdir())
    assert [r.read_text().strip() for r in records] == [str(data)]


def test_a_command_waits_for_the_install_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One install at a time: a command that finds one running waits for it (saying so),
    then uses its result instead of running pip a second time."""
    import threading

    from memhooks.install import deps
    from memhooks.store import quick_lock

    data = tmp_path / "plugin-data"
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(data))
    marker = deps.marker(data)
    monkeypatch.setattr(deps, "missing_modules", lambda: [] if marker.exists() else ["pydantic"])

    def no_pip(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("pip ran a second time")

    monkeypatch.setattr(subprocess, "run", no_pip)
    holding = threading.Event()

    def other_installer() -> None:
        with quick_lock(data / "deps" / ".install.lock", 5):
            (data / "deps" / ".installing").write_text("1")
            holding.set()
            time.sleep(1.0)
            marker.parent.mkdir(parents=True)
            marker.write_text("done")
            (data / "deps" / ".installing").unlink()

    thread = threading.Thread(target=other_installer)
    thread.start()
    assert holding.wait(5)
    assert deps.ensure_now(fallback=False) is True
    thread.join()
    err = capsys.readouterr().err
    assert "waiting for the install of pydantic, frontmatter already running into " in err
