"""Helpers shared by the tests: where things are, and running the launcher as the host does."""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memhooks.guard.write_guard import Verdict
    from memhooks.store import HookWriter, Store

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
LAUNCHER = REPO / "hooks" / "memhooks.py"


def hot_path_banned() -> frozenset[str]:
    """The modules no hot folder imports at module level: pyproject's one statement of the rule
    (ruff's `banned-module-level-imports`), read with a regex since tomllib is 3.11+."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r"^banned-module-level-imports = \[(.*?)\]", text, re.MULTILINE | re.DOTALL)
    assert found, "pyproject.toml: banned-module-level-imports is gone"
    return frozenset(re.findall(r'"([\w.]+)"', found.group(1)))


def git(*args: str, cwd: Path) -> str:
    """git in `cwd`, as a test's person runs it (a name and address of its own, no signing):
    its output; a failing git fails the test."""
    person = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    person += ["-c", "commit.gpgsign=false"]
    done = subprocess.run(
        ["git", *person, *args], cwd=cwd, check=True, capture_output=True, text=True, timeout=60
    )
    return done.stdout


def as_text(paths: Iterable[Path]) -> str:
    """The regular files among `paths` (no symlink followed) as one text, each also with its
    JSON escapes undone: where a value written anywhere can be looked for."""
    parts: list[str] = []
    for path in sorted(paths):
        if path.is_file() and not path.is_symlink():
            text = path.read_bytes().decode("utf-8", "replace")
            parts += [text, text.replace('\\"', '"').replace("\\\\", "\\")]
            if path.suffix == ".json":
                with contextlib.suppress(ValueError):
                    parts.append(json.dumps(json.loads(text), ensure_ascii=False))
    return "\n".join(parts)


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The CLI in a new process, exactly as the plugin's commands run it."""
    return subprocess.run(
        [sys.executable, str(LAUNCHER), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=120,
        check=False,
    )


def run_hook(
    event: str,
    payload: object,
    *,
    env: dict[str, str] | None = None,
    raw: bytes | None = None,
    timeout: float = 30,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """The hook in a new process, as hooks.json runs it (`cwd`: the project, as the host sets)."""
    data = raw if raw is not None else json.dumps(payload).encode()
    return subprocess.run(
        [sys.executable, str(LAUNCHER), "hook", event],
        input=data,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        check=False,
    )


def hook_as_plugin(
    event: str,
    payload: object,
    data: Path,
    *,
    project: Path | None = None,
    flags: tuple[str, ...] = (),
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """The hook as an installed plugin's hooks.json runs it: `python -S` (`flags` added)
    without the test run's PYTHON* and CLAUDE_* variables, the plugin's data folder `data`,
    the payload on stdin; `project`, as the host sets it, the working directory and
    CLAUDE_PROJECT_DIR."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CLAUDE_"))}
    env["CLAUDE_PLUGIN_DATA"] = str(data)
    if project is not None:
        env["CLAUDE_PROJECT_DIR"] = str(project)
        env.pop("MEMHOOKS_PROJECT_DIR", None)
    return subprocess.run(
        [sys.executable, "-S", *flags, str(LAUNCHER), "hook", event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=timeout,
        check=False,
    )


def modules_loaded(done: subprocess.CompletedProcess[str]) -> set[str]:
    """The modules a process run with `-X importtime` imported."""
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}


def injected(done: subprocess.CompletedProcess[bytes]) -> str:
    """The additionalContext a hook run printed ('' when it printed nothing)."""
    assert done.returncode == 0, done.stderr
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def transcript_turns(lines: list[bytes]) -> list[list[bytes]]:
    """A transcript's lines, one chunk per turn (a user's typed prompt starts one)."""
    chunks: list[list[bytes]] = [[]]
    for line in lines:
        record = json.loads(line)
        content = (record.get("message") or {}).get("content")
        typed = record.get("type") == "user" and isinstance(content, str) and content[:1] != "<"
        if typed and not record.get("isMeta") and any(chunks[-1]):
            chunks.append([])
        chunks[-1].append(line)
    return chunks


def wait_for(check: Callable[[], bool], seconds: float = 90) -> bool:
    """Poll `check` until it holds (a background job's result), for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


def hook_in(
    project: Path, event: str, session_id: str, **fields: object
) -> subprocess.CompletedProcess[bytes]:
    """One hook run in `project` as the host runs it: the recorded payload of `event` with
    this project as its cwd (and the working directory), this session and these fields."""
    payload = dict(hook_examples().get(event, {}))
    payload.update(
        {"hook_event_name": event, "session_id": session_id, "cwd": str(project), **fields}
    )
    done = run_hook(event, payload, cwd=project, timeout=30)
    assert done.returncode == 0, done.stderr
    return done


def hook_reply(project: Path, event: str, session_id: str, **fields: object) -> dict[str, object]:
    """The JSON reply ({} for none) of one hook run in `project` as the host runs it."""
    out = hook_in(project, event, session_id, **fields).stdout.decode()
    return json.loads(out) if out.strip() else {}


def context_of(reply: dict[str, object]) -> str:
    """The additionalContext of a hook's reply ('' for none)."""
    specific = reply.get("hookSpecificOutput")
    return str(specific.get("additionalContext", "")) if isinstance(specific, dict) else ""


def assert_denied(
    verdict: Verdict | None, expected: tuple[str, tuple[str, ...]] | None, shown: str
) -> None:
    """The guard's verdict is None where nothing was `expected`, else a denial of the file
    `expected` names (its path in the tree, the words its reason holds), named `shown/<path>`
    in the reason."""
    if expected is None:
        assert verdict is None
        return
    assert verdict is not None
    assert verdict.action == "deny"
    relative, words = expected
    assert verdict.target is not None
    assert verdict.target.relative == relative
    assert f"`{shown}/{relative}`" in verdict.reason
    for word in words:
        assert word in verdict.reason, (word, verdict.reason)


def turn_on_here(project: Path, *, state_home: Path | None = None) -> None:
    """Record that the user turned memory on for `project` on this machine, as `memhooks
    start` does (for trees a test makes by hand): in the test's HOME, or in `state_home`
    (the XDG_STATE_HOME a subprocess of the test is given)."""
    from memhooks.store import CONSENT_ON, STATE_ENV, record_consent

    before = os.environ.get(STATE_ENV)
    if state_home is not None:
        os.environ[STATE_ENV] = str(state_home)
    try:
        record_consent(str(project / ".claude" / "memory"), CONSENT_ON)
        # ... and, as `start` does, the session record on this machine: the one a test made by
        # hand in the tree (as an older memhooks kept it), else a plain active one.
        session = local_of(project / ".claude" / "memory") / "session.json"
        if not session.exists():
            hand_made = project / ".claude" / "memory" / "_session.json"
            session.parent.mkdir(parents=True, exist_ok=True)
            text = hand_made.read_text("utf-8") if hand_made.is_file() else '{"active": true}'
            session.write_text(text, encoding="utf-8")
    finally:
        if before is None:
            os.environ.pop(STATE_ENV, None)
        else:
            os.environ[STATE_ENV] = before


def hook_examples() -> dict[str, dict[str, object]]:
    """One real stdin payload per event, recorded from the real CLI."""
    examples: dict[str, dict[str, object]] = {}
    path = FIXTURES / "hook_stdin_examples.jsonl"
    if not path.exists():
        return examples
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            payload = record["stdin"]
            examples.setdefault(record["case"], payload)
            examples.setdefault(payload["hook_event_name"], payload)
    return examples


#: Symlinks need administrator rights (or developer mode) on Windows.
needs_symlinks = pytest.mark.skipif(
    sys.platform == "win32", reason="creating symlinks needs admin rights on Windows"
)


def memory_snapshot(root: Path) -> dict[str, bytes]:
    """The bytes of every memory file (category folders), by relative path."""
    from memhooks.store import BY_FOLDER

    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for folder in BY_FOLDER
        for p in sorted((root / folder).glob("*.md"))
    }


class FuzzCounts:
    """Counts the fuzzers' inputs and prints them after pytest's own summary."""

    def __init__(self, name: str, out: Path, counts: collections.Counter[str]) -> None:
        self.name, self.out, self.counts = name, out, counts

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.counts:
            return
        total = sum(self.counts.values())
        terminalreporter.write_sep("=", f"memhooks fuzz inputs ({self.name}): {total}")
        for key, value in sorted(self.counts.items()):
            terminalreporter.write_line(f"{key:45} {value:6}")
        self.out.write_text(json.dumps(dict(self.counts), indent=2) + "\n", encoding="utf-8")
        terminalreporter.write_line(f"written to {self.out}")


def report_fuzz_counts(
    config: pytest.Config, basetemp: Path, name: str, counts: collections.Counter[str]
) -> None:
    """Register one fuzz module's counter as a reporting plugin, once per session."""
    plugin_name = f"memhooks-fuzz-{name}"
    if config.pluginmanager.get_plugin(plugin_name) is None:
        reporter = FuzzCounts(name, basetemp / f"fuzz-counts-{name}.json", counts)
        config.pluginmanager.register(reporter, plugin_name)


def run_main(
    capsys: pytest.CaptureFixture[str],
    *argv: str,
    monkeypatch: pytest.MonkeyPatch | None = None,
    stdin: str = "",
) -> tuple[int, str, str]:
    """The CLI in-process: (exit code, stdout, stderr), with `stdin` when a monkeypatch is given."""
    from memhooks.cli.main import main

    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def open_store(root: Path, settings: object = None, **options: float) -> Store:
    """The commands' store of the tree at `root`, composed as `memhooks` opens it."""
    from memhooks.recall.citations import with_hashes
    from memhooks.recall.search_index import SearchIndex
    from memhooks.store import MemoryPaths, Settings, Store

    given = settings if isinstance(settings, Settings) else Settings()
    return Store(MemoryPaths(root), given, search=SearchIndex, cite=with_hashes, **options)


def hook_writer(root: Path, **options: float) -> HookWriter:
    """The hooks' writer of the tree at `root`, composed as SubagentStop opens it."""
    from memhooks.recall.citations import with_hashes
    from memhooks.recall.search_index import SearchIndex
    from memhooks.store import HookWriter, MemoryPaths, Settings

    return HookWriter(
        MemoryPaths(root), Settings(), search=SearchIndex, cite=with_hashes, **options
    )


def local_of(memory: Path | str) -> Path:
    """The machine-local folder of the tree at `memory` (`store.local`, outside the checkout):
    what was `.claude/memory/.cache/`, with the session record as `session.json`."""
    from memhooks.store import MemoryPaths

    return Path(MemoryPaths(str(memory)).cache)
