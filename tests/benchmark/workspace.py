"""What a benchmark run works in: the cached fixtures (generated trees and transcripts), the
plugin's data folder with its dependencies, and a `Workspace` of started projects, with the
hook environment, the CLI and the payloads every case is built from. Standard library only."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import generate
from hook_process import (
    FIXTURE_SESSION,
    LAUNCHER,
    REPO,
    hook_argv,
    load_payloads,
    log,
    minimal_env,
    run_process,
)

MB = 1_000_000


class Fixtures:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.fixtures_dir: Path | None = args.fixtures if args.fixtures.is_dir() else None
        self.corpus = generate.Corpus.load(self.fixtures_dir, seed=args.seed)
        self.episodes = generate.load_episodes(self.fixtures_dir)
        kind = "fixtures" if self.fixtures_dir else "builtin"
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

    Links the packages this interpreter finds (pydantic, python-frontmatter and what they
    import) and writes the marker, so SessionStart does not start a pip install.
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
        "import frontmatter, yaml, annotated_types, memhooks.store.models\n"
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


class Workspace:
    """The projects of one run (copies of the cached trees, started and rebuilt), and what
    every case needs to run a hook or the CLI in one; setup problems are kept as notes."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.python = args.python
        self.fixtures = Fixtures(args)
        self.run_dir: Path = args.bench_dir / "run"
        self.data: Path = args.bench_dir / "data"
        # The run's own machine-local state and user tier (XDG_STATE_HOME, XDG_DATA_HOME):
        # the projects are made again on every run, and their state never reaches the user's.
        self.machine: Path = args.bench_dir / "machine"
        shutil.rmtree(self.machine, ignore_errors=True)
        self.payloads = load_payloads(args.fixtures)
        self.env = minimal_env(dont_write_bytecode=True)
        self.notes: list[str] = []
        self.projects: dict[str, Path] = {}
        self.rebuild: list[dict[str, Any]] = []
        self.mid = min(args.sizes, key=lambda n: abs(n - 1_000))

    def hook_env(
        self, project: Path, *, data: bool = True, bytecode: bool = False
    ) -> dict[str, str]:
        env = minimal_env(dont_write_bytecode=not bytecode)
        env["CLAUDE_PLUGIN_ROOT"] = str(REPO)
        env["CLAUDE_PROJECT_DIR"] = str(project)
        env["XDG_STATE_HOME"] = str(self.machine / "state")
        env["XDG_DATA_HOME"] = str(self.machine / "share")
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

    def stop_transcript(self, project: Path, mb: float) -> Path:
        """A private copy of the cached transcript: Stop cases append to it."""
        target = project / f"transcript-{mb:g}mb.jsonl"
        shutil.copyfile(self.fixtures.transcript(mb), target)
        return target

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
