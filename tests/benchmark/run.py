#!/usr/bin/env python3
"""Benchmark: hook latency, scale and context cost, against the interpreter floor.

Runs every hook exactly as Claude Code does (the command from `hooks/hooks.json`, a new
process each time, the JSON payload on stdin) against generated memory trees and
transcripts, interleaved with bare-interpreter floors so that every figure is a ratio
measured under the same noise. Judges the budgets of design.md ("Budgets") and exits 1 when
one is missed (unless --no-fail).

    .venv/bin/python tests/benchmark/run.py            # full: 100/1,000/10,000, 1/10/50 MB
    .venv/bin/python tests/benchmark/run.py --quick    # 100/1,000, 1 MB, few repeats
    .venv/bin/python tests/benchmark/run.py --json     # one JSON document on stdout

Fixtures are cached under `~/.cache/memhooks/bench/fixtures/` (`--bench-dir`), keyed by
size. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import generate

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "hooks" / "memhooks.py"
HOT_HOOKS = (
    "SessionStart:startup",
    "SessionStart:compact",
    "UserPromptSubmit",
    "Stop",
    "SessionEnd",
    "PreToolUse:Write",
    "PreToolUse:Bash",
)
SESSION_START_CHARS = 9_000  # design.md defaults: briefing.session_start_chars
PROMPT_CHARS = 1_500  # briefing.prompt_chars
FIXTURE_SESSION = "5e55b0b0-0000-4000-8000-00000000be7c"
MB = 1_000_000


# ---------------------------------------------------------------------------------------------
# Options


def _user_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memhooks"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats")
    parser.add_argument("--no-fail", action="store_true", help="exit 0 even when a budget fails")
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    parser.add_argument(
        "--python",
        help="interpreter that replaces hooks.json's `python3` (default: this interpreter; "
        "a pyenv shim would add ~100 ms to every call)",
    )
    parser.add_argument(
        "--bench-dir",
        type=Path,
        default=_user_cache() / "bench",
        help="fixtures, runs and results (default: the user cache, never the plugin's folder, "
        "which a marketplace install copies whole)",
    )
    parser.add_argument(
        "--fixtures", type=Path, default=REPO / "tests" / "fixtures", help="the test fixtures"
    )
    parser.add_argument("--sizes", help="memory counts, comma-separated")
    parser.add_argument(
        "--transcript-mb", help="transcript sizes in MB (10^6 bytes), comma-separated"
    )
    parser.add_argument("--repeats", type=int, help="timed runs per hot-path case")
    parser.add_argument("--warmup", type=int, help="untimed runs per case first")
    parser.add_argument("--slow-repeats", type=int, help="timed runs of PreCompact and first Stop")
    parser.add_argument("--saves", type=int, help="sequential `memhooks save` calls")
    parser.add_argument("--writers", type=int, default=4, help="concurrent writers")
    parser.add_argument("--out", type=Path, help="where to write the JSON (default: bench dir)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--semantic-table",
        default=str(REPO / "tests" / "fixtures" / "semantic" / "tokens-subset.sqlite3"),
        help="token table put into ${CLAUDE_PLUGIN_DATA}/semantic/ so every hook and rebuild "
        "runs with semantic signals on (default: the committed fixture table; the full one "
        "comes from `python -m memhooks.recall.semantic_build OUT`); 'none' turns them off",
    )
    parser.add_argument("--from-json", type=Path, help="print the table of a saved report and exit")
    args = parser.parse_args(argv)
    quick = args.quick
    args.sizes = _ints(args.sizes) or ([100, 1_000] if quick else [100, 1_000, 10_000])
    args.transcript_mb = _floats(args.transcript_mb) or ([1.0] if quick else [1.0, 10.0, 50.0])
    args.repeats = args.repeats or (5 if quick else 30)
    args.warmup = args.warmup if args.warmup is not None else (1 if quick else 3)
    args.slow_repeats = args.slow_repeats or (2 if quick else 8)
    args.saves = args.saves or (4 if quick else 20)
    args.python = args.python or sys.executable
    args.bench_dir = args.bench_dir.resolve()
    args.out = args.out or args.bench_dir / "results" / ("quick.json" if quick else "latest.json")
    return args


def _ints(text: str | None) -> list[int]:
    return sorted({int(x) for x in text.split(",") if x.strip()}) if text else []


def _floats(text: str | None) -> list[float]:
    return sorted({float(x) for x in text.split(",") if x.strip()}) if text else []


def _mb_label(mb: float) -> str:
    return f"{mb:g} MB"


def log(message: str) -> None:
    sys.stderr.write(f"[bench] {message}\n")
    sys.stderr.flush()


# ---------------------------------------------------------------------------------------------
# Environment, commands, payloads


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


def load_payloads(shared: Path) -> dict[str, dict[str, Any]]:
    """The real payload shapes by case name, with built-in stand-ins when shared/ is absent."""
    payloads: dict[str, dict[str, Any]] = {}
    path = shared / "hook_stdin_examples.jsonl"
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


# ---------------------------------------------------------------------------------------------
# Fixtures


class Fixtures:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.shared: Path | None = args.fixtures if args.fixtures.is_dir() else None
        self.corpus = generate.Corpus.load(self.shared, seed=args.seed)
        self.episodes = generate.load_episodes(self.shared)
        kind = "shared" if self.shared else "builtin"
        self.key = f"g{generate.GENERATOR_VERSION}-{kind}-s{args.seed}"
        self.root: Path = args.bench_dir / "fixtures"
        self.root.mkdir(parents=True, exist_ok=True)

    def tree(self, size: int) -> tuple[Path, float]:
        """A cached `.claude/memory/` with `size` memory files (no derived files)."""
        path = self.root / f"tree-n{size}-{self.key}"
        started = time.perf_counter()
        if not (path / ".complete").exists():
            shutil.rmtree(path, ignore_errors=True)
            generate.write_tree(path, size, self.corpus, seed=self.args.seed + size)
            (path / ".complete").write_text("ok\n", encoding="utf-8")
            log(f"generated {size} memories in {time.perf_counter() - started:.1f} s")
        return path, time.perf_counter() - started

    def transcript(self, mb: float) -> Path:
        path = self.root / f"transcript-{mb:g}mb-{self.key}.jsonl"
        if not path.exists():
            started = time.perf_counter()
            generate.write_transcript(
                path,
                target_bytes=int(mb * MB),
                corpus=self.corpus,
                episodes=self.episodes,
                session_id=FIXTURE_SESSION,
                cwd="/home/user/project",
                seed=self.args.seed,
            )
            log(f"generated a {mb:g} MB transcript in {time.perf_counter() - started:.1f} s")
        return path


def setup_semantic_table(data: Path, table: str) -> str:
    """The token table where the installer puts it (or none), before any tree is built."""
    sys.path.insert(0, str(REPO / "src"))
    from memhooks.recall.semantic import TABLE_FILE

    target = data / "semantic" / TABLE_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    disabled = target.parent / "disabled"  # SessionStart must not go and build the real one
    disabled.touch()
    if table == "none":
        return "off (no token table)"
    shutil.copyfile(table, target)
    return f"on ({table})"


def setup_plugin_data(data: Path, python: str) -> str:
    """${CLAUDE_PLUGIN_DATA} as an installed plugin has it: the dependencies under deps/pyXY.

    Links the packages this interpreter finds (pydantic, python-frontmatter, filelock and what
    they import) and writes the marker, so SessionStart does not start a pip install.
    """
    tag = subprocess.run(
        [python, "-S", "-c", "import sys; print('py%d%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    target = data / "deps" / tag
    if (target / ".memhooks-deps-ok").exists():
        return f"{target} (cached)"
    probe = (
        f"import json, sys; sys.path.insert(0, {str(REPO / 'src')!r})\n"
        "import filelock, frontmatter, yaml, annotated_types, memhooks.store.models\n"
        "tops = {}\n"
        "for name, mod in list(sys.modules.items()):\n"
        "    f = getattr(mod, '__file__', None) or ''\n"
        "    if 'site-packages' in f and not name.startswith('_distutils'):\n"
        "        top = name.split('.')[0]\n"
        "        root = f.split('site-packages')[0] + 'site-packages'\n"
        "        tops[top] = root\n"
        "print(json.dumps({'tag': 'py%d%d' % sys.version_info[:2], 'tops': tops}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return f"not set up: {done.stderr.strip().splitlines()[-1:] or done.returncode}"
    found = json.loads(done.stdout)
    if found["tag"] != tag:
        return f"not set up: dependencies are for {found['tag']}, the hooks run {tag}"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for top, site in sorted(found["tops"].items()):
        for entry in Path(site).iterdir():
            stem = entry.name.split(".")[0]
            if stem == top and not entry.name.endswith((".dist-info", ".pth")):
                (target / entry.name).symlink_to(entry)
    (target / ".memhooks-deps-ok").write_text("bench\n", encoding="utf-8")
    return str(target)


# ---------------------------------------------------------------------------------------------
# Processes


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


# ---------------------------------------------------------------------------------------------
# The benchmark


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.python = args.python
        self.fixtures = Fixtures(args)
        self.run_dir: Path = args.bench_dir / "run"
        self.data: Path = args.bench_dir / "data"
        self.payloads = load_payloads(args.fixtures)
        self.env = minimal_env(dont_write_bytecode=True)
        self.notes: list[str] = []
        self.cases: list[Case] = []
        self.projects: dict[str, Path] = {}
        self.rebuild: list[dict[str, Any]] = []
        self.mid = min(args.sizes, key=lambda n: abs(n - 1_000))

    # -- plumbing ----------------------------------------------------------------------------

    def hook_env(
        self, project: Path, *, data: bool = True, bytecode: bool = False
    ) -> dict[str, str]:
        env = minimal_env(dont_write_bytecode=not bytecode)
        env["CLAUDE_PLUGIN_ROOT"] = str(REPO)
        env["CLAUDE_PROJECT_DIR"] = str(project)
        if data:
            env["CLAUDE_PLUGIN_DATA"] = str(self.data)
        return env

    def cli(self, project: Path, *command: str) -> tuple[float, int, str, str]:
        argv = [self.python, str(LAUNCHER), "--project", str(project), *command]
        return run_process(argv, self.hook_env(project), cwd=project)

    def payload(self, case: str, project: Path, transcript: Path, **extra: Any) -> dict[str, Any]:
        data = dict(self.payloads[case])
        data.update(cwd=str(project), transcript_path=str(transcript), session_id=FIXTURE_SESSION)
        data.update(extra)
        return data

    def prepare_project(self, name: str, size: int) -> Path:
        """A fresh working copy of the cached tree, started and rebuilt (rebuild is timed)."""
        source, _ = self.fixtures.tree(size)
        project = self.run_dir / name
        shutil.rmtree(project, ignore_errors=True)
        memory = project / ".claude" / "memory"
        shutil.copytree(source, memory, ignore=shutil.ignore_patterns(".complete"))
        _, code, _, err = self.cli(project, "start")
        if code != 0:
            raise SystemExit(f"memhooks start failed in {project}: {err}")
        elapsed, code, out, err = self.cli(project, "rebuild")
        if code != 0:
            self.notes.append(f"rebuild in {name} exited {code}: {(err or out).strip()[:300]}")
        self.rebuild.append(
            {"project": name, "memories": size, "seconds": round(elapsed / 1000, 3), "exit": code}
        )
        self.projects[name] = project
        return project

    # -- cases -------------------------------------------------------------------------------

    def floors(self) -> None:
        reps = self.args.repeats
        py = self.python
        main, bytecode = self.env, minimal_env(dont_write_bytecode=False)
        inherited = dict(os.environ)
        self.cases += [
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
            self.cases.append(
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

    def tree_cases(self, size: int) -> None:
        name = f"n{size}"
        project = self.prepare_project(name, size)
        small = self.args.transcript_mb[0]
        transcript = self.stop_transcript(project, small)
        # A checkpoint for SessionStart(compact), as after a real compaction.
        self.run_hook("PreCompact", project, self.payload("PreCompact:auto", project, transcript))
        prompts = self.fixtures.corpus.prompts
        reps = self.args.repeats
        env = self.hook_env(project)
        label = f"{size:,} mem"

        def fixed(case: str) -> Callable[[int], bytes]:
            body = json.dumps(self.payload(case, project, transcript)).encode()
            return lambda _i: body

        def tool(case: str, **tool_input: str) -> Callable[[int], bytes]:
            data = self.payload(case, project, transcript, tool_input=tool_input)
            return _constant(json.dumps(data).encode())

        def prompt_payload(i: int) -> bytes:
            return json.dumps(
                self.payload(
                    "UserPromptSubmit", project, transcript, prompt=prompts[i % len(prompts)]
                )
            ).encode()

        self.cases += [
            Case(
                f"SessionStart:startup@{size}",
                "SessionStart startup",
                label,
                hook_argv("SessionStart", self.python),
                env,
                fixed("SessionStart:startup"),
                cwd=project,
                repeats=reps,
            ),
            Case(
                f"SessionStart:compact@{size}",
                "SessionStart compact",
                label,
                hook_argv("SessionStart", self.python),
                env,
                fixed("SessionStart:compact"),
                cwd=project,
                repeats=reps,
            ),
            Case(
                f"UserPromptSubmit@{size}",
                "UserPromptSubmit",
                label,
                hook_argv("UserPromptSubmit", self.python),
                env,
                prompt_payload,
                cwd=project,
                repeats=reps,
            ),
            Case(
                f"SessionEnd@{size}",
                "SessionEnd",
                label,
                hook_argv("SessionEnd", self.python),
                env,
                fixed("SessionEnd:other"),
                cwd=project,
                repeats=reps,
            ),
            self.stop_case(
                f"Stop@{size}", project, transcript, f"{label}, {_mb_label(small)}", reps
            ),
            # The write guard runs on every Write/Edit/Bash call; nearly all are elsewhere.
            Case(
                f"PreToolUse:Write@{size}",
                "PreToolUse Write",
                f"{label}, elsewhere",
                hook_argv("PreToolUse", self.python),
                env,
                tool("PreToolUse:Write", file_path=str(project / "src" / "app.py")),
                cwd=project,
                repeats=reps,
            ),
            Case(
                f"PreToolUse:Bash@{size}",
                "PreToolUse Bash",
                f"{label}, elsewhere",
                hook_argv("PreToolUse", self.python),
                env,
                tool("PreToolUse:Bash", command="pytest -q > /tmp/out.txt 2>&1 && git status"),
                cwd=project,
                repeats=reps,
            ),
        ]
        if size == self.mid:
            self.cases += [
                Case(
                    f"PreToolUse:deny@{size}",
                    "PreToolUse Write",
                    f"{label}, into MEMORY.md: denied",
                    hook_argv("PreToolUse", self.python),
                    env,
                    tool("PreToolUse:Write", file_path=str(project / ".claude/memory/MEMORY.md")),
                    cwd=project,
                    repeats=reps,
                ),
                Case(
                    f"UserPromptSubmit@{size}:bytecode",
                    "UserPromptSubmit",
                    f"{label}, bytecode on",
                    hook_argv("UserPromptSubmit", self.python),
                    self.hook_env(project, bytecode=True),
                    prompt_payload,
                    cwd=project,
                    repeats=reps,
                ),
                Case(
                    f"UserPromptSubmit@{size}:no-data",
                    "UserPromptSubmit",
                    f"{label}, no PLUGIN_DATA",
                    hook_argv("UserPromptSubmit", self.python),
                    self.hook_env(project, data=False),
                    prompt_payload,
                    cwd=project,
                    repeats=reps,
                ),
            ]

    def stop_transcript(self, project: Path, mb: float) -> Path:
        """A private copy of the cached transcript: Stop cases append to it."""
        target = project / f"transcript-{mb:g}mb.jsonl"
        shutil.copyfile(self.fixtures.transcript(mb), target)
        return target

    def stop_case(self, key: str, project: Path, transcript: Path, label: str, reps: int) -> Case:
        """Stop as a session drives it: a turn is appended, then Stop reads from its offset."""
        maker = generate.TurnMaker(
            FIXTURE_SESSION, "/home/user/project", self.fixtures.corpus, seed=len(key)
        )
        session = str(uuid.uuid5(uuid.NAMESPACE_URL, key))

        def grow(_i: int) -> None:
            with transcript.open("a", encoding="utf-8") as out:
                out.writelines(maker.turn(big=False))

        def body(_i: int) -> bytes:
            return json.dumps(
                self.payload(
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
            hook_argv("Stop", self.python),
            self.hook_env(project),
            body,
            cwd=project,
            repeats=reps,
            before=grow,
        )

    def transcript_cases(self) -> None:
        sizes = self.args.transcript_mb
        mid_project = self.projects[f"n{self.mid}"]
        slow = self.args.slow_repeats
        label = f"{self.mid:,} mem"
        for mb in sizes[1:]:
            transcript = self.stop_transcript(mid_project, mb)
            self.cases.append(
                self.stop_case(
                    f"Stop@{self.mid}:{mb:g}MB",
                    mid_project,
                    transcript,
                    f"{label}, {_mb_label(mb)}",
                    self.args.repeats,
                )
            )
        # PreCompact and the first Stop of a resumed long session, on their own copies.
        pc = self.prepare_project("precompact", self.mid)
        for mb in sizes:
            body = json.dumps(
                self.payload("PreCompact:auto", pc, self.fixtures.transcript(mb))
            ).encode()
            self.cases.append(
                Case(
                    f"PreCompact@{mb:g}MB",
                    "PreCompact",
                    f"{label}, {_mb_label(mb)}",
                    hook_argv("PreCompact", self.python),
                    self.hook_env(pc),
                    _constant(body),
                    cwd=pc,
                    repeats=slow,
                )
            )
        first = self.prepare_project("first-stop", self.mid)
        big = self.fixtures.transcript(sizes[-1])

        def fresh_session(_i: int) -> bytes:
            return json.dumps(
                self.payload(
                    "Stop", first, big, session_id=str(uuid.uuid4()), last_assistant_message="Done."
                )
            ).encode()

        self.cases.append(
            Case(
                f"Stop:first@{sizes[-1]:g}MB",
                "Stop first call",
                f"{label}, {_mb_label(sizes[-1])}",
                hook_argv("Stop", self.python),
                self.hook_env(first),
                fresh_session,
                cwd=first,
                repeats=slow,
            )
        )

    def run_hook(self, event: str, project: Path, payload: dict[str, Any]) -> str:
        _, code, out, err = run_process(
            hook_argv(event, self.python),
            self.hook_env(project),
            json.dumps(payload).encode(),
            project,
        )
        if code != 0 or err.strip():
            self.notes.append(f"{event} setup call: exit {code}: {err.strip()[:300]}")
        return out

    # -- write path --------------------------------------------------------------------------

    def write_path(self) -> dict[str, Any]:
        project = self.prepare_project("saves", self.mid)
        corpus, rng = self.fixtures.corpus, random.Random(5)  # noqa: S311 - fixtures, not secrets
        counter = iter(range(1_000_000))

        def save() -> tuple[float, int, str]:
            number = next(counter)
            category = ("decision", "runbook", "constraint", "tech_debt", "preference")[number % 5]
            elapsed, code, _, err = self.cli(
                project,
                "save",
                category,
                "--title",
                f"{corpus.title(rng)} {number}",
                "--description",
                corpus.paragraph(rng, 1, 1)[:180],
                "--tags",
                ",".join(rng.sample(corpus.tags, k=min(3, len(corpus.tags)))),
                "--body",
                corpus.paragraph(rng, 3, 6),
            )
            return elapsed, code, err.strip()[:200]

        result: dict[str, Any] = {"tree": self.mid}
        started = time.perf_counter()
        sequential = [save() for _ in range(self.args.saves)]
        wall = time.perf_counter() - started
        result["sequential"] = _throughput(sequential, wall, 1)
        writers = self.args.writers
        per_writer = max(1, self.args.saves // writers)
        started = time.perf_counter()
        with ThreadPoolExecutor(writers) as pool:
            futures = [
                pool.submit(lambda: [save() for _ in range(per_writer)]) for _ in range(writers)
            ]
            concurrent = [item for f in futures for item in f.result()]
        wall = time.perf_counter() - started
        result["concurrent"] = _throughput(concurrent, wall, writers)
        _, code, out, err = self.cli(project, "rebuild")
        result["rebuild_after_saves_exit"] = code
        if code != 0:
            self.notes.append(f"rebuild after saves: exit {code}: {(err or out).strip()[:200]}")
        return result

    # -- the whole run -----------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        shutil.rmtree(self.run_dir, ignore_errors=True)
        self.run_dir.mkdir(parents=True)
        started = time.perf_counter()
        data_note = setup_plugin_data(self.data, self.python)
        log(f"interpreter {self.python}; CLAUDE_PLUGIN_DATA {self.data}; deps {data_note}")
        log(f"semantic signals: {setup_semantic_table(self.data, self.args.semantic_table)}")
        for mb in self.args.transcript_mb:
            self.fixtures.transcript(mb)
        self.floors()
        for size in self.args.sizes:
            self.tree_cases(size)
        self.transcript_cases()
        log(
            f"fixtures ready in {time.perf_counter() - started:.0f} s; "
            f"measuring {len(self.cases)} cases"
        )
        measure(self.cases, self.args.warmup)
        log("write path")
        write = self.write_path()
        pycache = self.data / "pycache"
        cached = sum(1 for _ in pycache.rglob("*.pyc")) if pycache.is_dir() else 0
        report = self.report(write)
        report["environment"].update(
            deps=data_note,
            pycache_files=cached,
            seconds=round(time.perf_counter() - started, 1),
        )
        return report

    def report(self, write: dict[str, Any]) -> dict[str, Any]:
        by_key = {c.key: c for c in self.cases}
        floor = by_key["floor:json"].stats()["median_ms"] or 1.0
        floor_s = by_key["floor:json-S"].stats()["median_ms"] or 1.0
        rows = []
        for case in self.cases:
            stats = case.stats()
            med = stats["median_ms"] or 0.0
            rows.append(
                {
                    "key": case.key,
                    "hook": case.hook,
                    "size": case.size,
                    "group": case.group,
                    **stats,
                    "x_floor": round(med / floor, 2),
                    "x_floor_S": round(med / floor_s, 2),
                    "errors": len(case.errors),
                    "first_error": case.errors[0] if case.errors else "",
                }
            )
        checks = judge(rows, self.args, self.mid, floor)
        context = context_cost(self.cases, self.args.sizes)
        checks += context_checks(context)
        failed = [c["name"] for c in checks if c["passed"] is False]
        return {
            "version": 1,
            "mode": "quick" if self.args.quick else "full",
            "passed": not failed,
            "failures": failed,
            "environment": {
                "python": self.python,
                "python_source": "--python"
                if self.args.python != sys.executable
                else "sys.executable",
                "hooks_json_python": hooks_json_python(),
                "python_version": sys.version.split()[0],
                "plugin_root": str(REPO),
                "plugin_data": str(self.data),
                "hook_env": "env -i PATH HOME PYTHONDONTWRITEBYTECODE=1 "
                "+ CLAUDE_PLUGIN_ROOT/DATA/PROJECT_DIR",
                "cpus": os.cpu_count(),
                "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
                "corpus": self.fixtures.corpus.source,
                "transcript_episodes": len(self.fixtures.episodes),
            },
            "sizes": {"memories": self.args.sizes, "transcript_mb": self.args.transcript_mb},
            "repeats": {
                "hot": self.args.repeats,
                "slow": self.args.slow_repeats,
                "warmup": self.args.warmup,
            },
            "floor_ms": {"import_json": floor, "import_json_S": floor_s},
            "latency": rows,
            "checks": checks,
            "context": context,
            "write_path": write,
            "rebuild": self.rebuild,
            "notes": self.notes,
        }


def _constant(body: bytes) -> Callable[[int], bytes]:
    return lambda _i: body


def _throughput(results: list[tuple[float, int, str]], wall: float, writers: int) -> dict[str, Any]:
    ok = [r for r in results if r[1] == 0]
    times = sorted(r[0] for r in results)
    return {
        "writers": writers,
        "saves": len(results),
        "ok": len(ok),
        "wall_s": round(wall, 3),
        "saves_per_s": round(len(ok) / wall, 2) if wall else None,
        "median_ms": round(statistics.median(times), 1) if times else None,
        "failures": sorted({f"exit {r[1]}: {r[2]}" for r in results if r[1] != 0})[:5],
    }


# ---------------------------------------------------------------------------------------------
# Budgets (design.md, "Budgets")


def _check(
    name: str, value: float | None, limit: float, unit: str, detail: str = ""
) -> dict[str, Any]:
    return {
        "name": name,
        "value": None if value is None else round(value, 2),
        "limit": limit,
        "unit": unit,
        "passed": None if value is None else value <= limit,
        "detail": detail,
    }


def judge(
    rows: list[dict[str, Any]], args: argparse.Namespace, mid: int, floor: float
) -> list[dict[str, Any]]:
    by_key = {r["key"]: r for r in rows}
    checks: list[dict[str, Any]] = []

    def med(key: str) -> float | None:
        row = by_key.get(key)
        return row["median_ms"] if row else None

    def ratio(key: str) -> float | None:
        value = med(key)
        return None if value is None else value / floor

    checks.append(
        _check(
            f"UserPromptSubmit @{mid:,}: median vs floor",
            ratio(f"UserPromptSubmit@{mid}"),
            2.0,
            "x floor",
        )
    )
    checks.extend(
        _check(
            f"PreToolUse {tool} @{mid:,}: median vs floor",
            ratio(f"PreToolUse:{tool}@{mid}"),
            2.0,
            "x floor",
            "every Write/Edit/Bash call: the UserPromptSubmit budget",
        )
        for tool in ("Write", "Bash", "deny")
    )
    checks.extend(
        _check(
            f"SessionStart {source} @{mid:,}: median vs floor",
            ratio(f"SessionStart:{source}@{mid}"),
            3.0,
            "x floor",
        )
        for source in ("startup", "compact")
    )
    checks.extend(
        _check(f"Stop steady ({row['size']}): median vs floor", ratio(row["key"]), 2.0, "x floor")
        for row in rows
        if row["hook"] == "Stop steady"
    )
    small, large = args.transcript_mb[0], args.transcript_mb[-1]
    if large > small:
        a, b = med(f"Stop@{mid}"), med(f"Stop@{mid}:{large:g}MB")
        checks.append(
            _check(
                f"Stop flat: {large:g} MB vs {small:g} MB",
                None if not (a and b) else b / a,
                1.5,
                "x",
                "steady state, median",
            )
        )
    first = by_key.get(f"Stop:first@{large:g}MB")
    if first:
        checks.append(
            {
                "name": f"Stop first call on an existing {large:g} MB transcript",
                "value": first["median_ms"],
                "limit": None,
                "unit": "ms",
                "passed": None,
                "detail": "reported, no budget",
            }
        )
    ends = [r["max_ms"] for r in rows if r["hook"] == "SessionEnd" and r["max_ms"] is not None]
    checks.append(
        _check(
            "SessionEnd worst case (all sizes)",
            max(ends) if ends else None,
            200.0,
            "ms",
            "max of all runs",
        )
    )
    pre = med(f"PreCompact@{large:g}MB")
    checks.append(
        _check(
            f"PreCompact on {large:g} MB: median",
            pre,
            1000.0,
            "ms",
            "" if large >= 50 else "budget is for 50 MB",
        )
    )
    lo, hi = args.sizes[0], args.sizes[-1]
    if hi > lo:
        for hook in HOT_HOOKS:
            a, b = med(f"{hook}@{lo}"), med(f"{hook}@{hi}")
            checks.append(
                _check(
                    f"{hook} scale: {hi:,} vs {lo:,} memories",
                    None if not (a and b) else b / a,
                    1.5,
                    "x",
                    "median",
                )
            )
    broken = [f"{r['key']}: {r['first_error']}" for r in rows if r["errors"]]
    checks.append(
        {
            "name": "every hook ran clean (exit 0, empty stderr)",
            "value": len(broken),
            "limit": 0,
            "unit": "cases",
            "passed": not broken,
            "detail": "; ".join(broken)[:1000],
        }
    )
    return checks


def _injected(stdout: str) -> str:
    text = stdout.strip()
    if not text:
        return ""
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            return text
        return str((data.get("hookSpecificOutput") or {}).get("additionalContext") or "")
    return text


def context_cost(cases: list[Case], sizes: list[int]) -> list[dict[str, Any]]:
    by_key = {c.key: c for c in cases}
    rows = []
    for size in sizes:
        for hook, key in (
            ("SessionStart startup", f"SessionStart:startup@{size}"),
            ("SessionStart compact", f"SessionStart:compact@{size}"),
            ("UserPromptSubmit", f"UserPromptSubmit@{size}"),
        ):
            case = by_key.get(key)
            if case is None:
                continue
            lengths = [len(_injected(o)) for o in case.outputs] or [0]
            rows.append(
                {
                    "hook": hook,
                    "memories": size,
                    "calls": len(case.outputs),
                    "max_chars": max(lengths),
                    "mean_chars": round(statistics.fmean(lengths)),
                    "max_tokens_est": max(lengths) // 4,
                    "silent_calls": sum(1 for n in lengths if n == 0),
                    "limit_chars": PROMPT_CHARS
                    if hook == "UserPromptSubmit"
                    else SESSION_START_CHARS,
                }
            )
    return rows


def context_checks(context: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        _check(
            f"{r['hook']} context @{r['memories']:,}: max chars",
            r["max_chars"],
            r["limit_chars"],
            "chars",
        )
        for r in context
    ]


# ---------------------------------------------------------------------------------------------
# Output


def _fmt(value: float | None, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def _budget_for(row: dict[str, Any], checks: list[dict[str, Any]]) -> tuple[str, str]:
    for check in checks:
        name = check["name"]
        if row["group"] != "hook":
            break
        hit = (
            (
                row["hook"] == "Stop steady"
                and name.startswith("Stop steady")
                and row["size"] in name
            )
            or (
                row["key"].startswith("UserPromptSubmit@")
                and ":" not in row["key"]
                and name.startswith("UserPromptSubmit @")
                and row["size"].split()[0] in name
            )
            or (
                row["key"].startswith("PreToolUse:")
                and name.startswith(f"PreToolUse {row['key'].split(':')[1].split('@')[0]} @")
                and row["size"].split()[0] in name
            )
            or (
                row["key"].startswith("SessionStart:")
                and name.startswith(f"SessionStart {row['key'].split(':')[1].split('@')[0]} @")
                and row["size"].split()[0] in name
            )
            or (
                row["hook"] == "PreCompact"
                and name.startswith("PreCompact on")
                and f"{row['size'].split(', ')[-1].split()[0]} MB" in name
            )
        )
        if hit:
            limit = f"<= {check['limit']:g}{'x' if check['unit'] == 'x floor' else ' ms'}"
            return limit, _verdict(check["passed"])
    if row["hook"] == "SessionEnd":
        return "<= 200 ms max", _verdict(row["max_ms"] is not None and row["max_ms"] <= 200)
    return "", ""


def _verdict(passed: bool | None) -> str:
    return "n/a" if passed is None else ("PASS" if passed else "FAIL")


def _check_line(check: dict[str, Any]) -> tuple[str, ...]:
    unit = "ms" if check["unit"] == "ms" else "x"
    limit = "" if check["limit"] is None else f"<= {check['limit']:g}{unit}"
    value = "" if check["value"] is None else f" ({_fmt(check['value'], '.2f')}{unit})"
    return (check["name"], "", "", "", "", "", "", "", limit, _verdict(check["passed"]) + value)


def render_table(report: dict[str, Any]) -> str:
    checks = report["checks"]
    header = ("hook", "size", "n", "median", "p95", "max", "x floor", "x -S", "budget", "result")
    lines: list[tuple[str, ...]] = []
    for row in report["latency"]:
        budget, verdict = _budget_for(row, checks)
        if row["errors"]:
            verdict = (verdict + " ERR").strip()
        lines.append(
            (
                row["hook"],
                row["size"],
                str(row["n"]),
                _fmt(row["median_ms"]),
                _fmt(row["p95_ms"]),
                _fmt(row["max_ms"]),
                _fmt(row["x_floor"], ".2f"),
                _fmt(row["x_floor_S"], ".2f"),
                budget,
                verdict,
            )
        )
    lines.extend(
        _check_line(c)
        for c in checks
        if c["unit"] == "x" or c["name"].startswith(("SessionEnd worst", "Stop first"))
    )
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    out = [
        "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)),
        "  ".join("-" * w for w in widths),
    ]
    out += [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in lines
    ]
    env = report["environment"]
    out.append("")
    out.append(
        f"times in ms; floor = `{Path(env['python']).name} -c 'import json'` = "
        f"{report['floor_ms']['import_json']:.1f} ms "
        f"(with -S: {report['floor_ms']['import_json_S']:.1f} ms), same env as the hooks; "
        f"interpreter {env['python']} ({env['python_source']}; hooks.json says "
        f"`{env['hooks_json_python']}`)"
    )
    out.append("")
    out.append("context injected (chars, ~tokens = chars/4):")
    for row in report["context"]:
        flag = "PASS" if row["max_chars"] <= row["limit_chars"] else "FAIL"
        out.append(
            f"  {row['hook']:<22} {row['memories']:>6,} mem  max {row['max_chars']:>5} "
            f"(~{row['max_tokens_est']} tok)  mean {row['mean_chars']:>5}  "
            f"silent {row['silent_calls']}/{row['calls']}  limit {row['limit_chars']}  {flag}"
        )
    write = report["write_path"]
    out.append("")
    out.append(f"write path (`memhooks save`, new processes, {write['tree']:,}-memory tree):")
    for kind in ("sequential", "concurrent"):
        w = write[kind]
        out.append(
            f"  {kind:<10} {w['writers']} writer(s): {w['ok']}/{w['saves']} ok "
            f"in {w['wall_s']:.2f} s = "
            f"{w['saves_per_s']} saves/s (median {w['median_ms']} ms per save)"
            + ("  " + "; ".join(w["failures"]) if w["failures"] else "")
        )
    out.append(
        "rebuild (`memhooks rebuild`, one run each): "
        + ", ".join(
            f"{r['project']} ({r['memories']:,}) {r['seconds']:.2f} s"
            + ("" if r["exit"] == 0 else f" exit {r['exit']}")
            for r in report["rebuild"]
        )
    )
    clean = next(c for c in report["checks"] if c["name"].startswith("every hook ran clean"))
    out.append(
        f"hooks ran clean (exit 0, empty stderr): {_verdict(clean['passed'])} "
        f"{clean['detail']}".rstrip()
    )
    for note in report["notes"]:
        out.append(f"note: {note}")
    verdict = "all budgets met" if report["passed"] else "FAILED: " + "; ".join(report["failures"])
    out.append(f"\n{verdict}  ({env['seconds']} s, JSON: {report.get('json_path', '')})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.from_json:
        sys.stdout.write(
            render_table(json.loads(args.from_json.read_text(encoding="utf-8"))) + "\n"
        )
        return 0
    report = Bench(args).run()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report["json_path"] = str(args.out)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write(render_table(report) + "\n")
    if report["passed"] or args.no_fail:
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
