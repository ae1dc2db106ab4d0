"""UserPromptSubmit with code citations present, against the interpreter floor.

Builds one project with --memories memories (every one citing two spans of its --files source
files) and the same tree without citations, then times the hook, interleaved with the floor
(`python -c 'import json'`):

- no-cites: the tree without any `cites:`;
- cites-warm: the verdicts in `.cache/citations.json` are valid (stats only);
- cites-cold: every cited file is touched before each run, so each pointed-at memory's
  cited files are read and hashed again.

Usage: python tests/benchmark/citations_bench.py [--memories 1000] [--repeats 30] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "hooks" / "memhooks.py"
sys.path.insert(0, str(REPO / "src"))

from memhooks.recall import citations

WORDS = [
    "invoice",
    "payment",
    "retry",
    "cache",
    "token",
    "deploy",
    "schema",
    "migration",
    "queue",
    "worker",
    "session",
    "login",
    "price",
    "tax",
    "report",
    "export",
    "import",
    "search",
    "index",
    "render",
    "template",
    "config",
    "secret",
    "rotate",
    "backup",
    "restore",
    "webhook",
    "signature",
    "upload",
    "image",
    "thumbnail",
    "audit",
    "ledger",
    "refund",
]


def build(root: Path, memories: int, files: int, *, cite: bool, seed: int = 7) -> Path:
    rng = random.Random(seed)  # noqa: S311 - fixtures, not secrets
    project = root / ("cites" if cite else "plain")
    src = project / "src"
    src.mkdir(parents=True)
    for n in range(files):
        body = "\n".join(f"def f{n}_{i}(x):  # {rng.choice(WORDS)}" for i in range(300))
        (src / f"mod{n}.py").write_text(body + "\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_PROJECT_DIR": str(project)}
    subprocess.run(
        [sys.executable, str(LAUNCHER), "start"], env=env, check=True, stdout=subprocess.DEVNULL
    )
    folder = project / ".claude" / "memory" / "decisions"
    for n in range(memories):
        words = rng.sample(WORDS, 4)
        title = f"Decision {n}: {' '.join(words)}"
        a, b = rng.randrange(files), rng.randrange(files)
        body = (
            f"# {title}\n\n## Decision\nWe handle {words[0]} and {words[1]} in "
            f"src/mod{a}.py:{rng.randint(1, 280)}-{rng.randint(281, 290)} and "
            f"src/mod{b}.py:{rng.randint(1, 299)}.\n"
        )
        meta: dict[str, object] = {"title": title, "category": "decision", "created": "2025-01-01"}
        if cite:
            meta = citations.with_hashes(str(project), meta, body)
        front = "\n".join(f"{k}: {json.dumps(v)}" for k, v in meta.items())
        (folder / f"2025-01-01_{n:03d}_d{n}.md").write_text(
            f"---\n{front}\n---\n\n{body}", encoding="utf-8"
        )
    subprocess.run(
        [sys.executable, str(LAUNCHER), "rebuild"], env=env, check=True, stdout=subprocess.DEVNULL
    )
    return project


def timed(argv: list[str], env: dict[str, str], stdin: bytes) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, env=env, stdout=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memhooks-cites-"))
    # The run's own machine-local state and user tier, removed with it.
    os.environ["XDG_STATE_HOME"] = str(root / "state")
    os.environ["XDG_DATA_HOME"] = str(root / "share")
    try:
        projects = {
            "plain": build(root, args.memories, args.files, cite=False),
            "cites": build(root, args.memories, args.files, cite=True),
        }
        base = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        floor_argv = [sys.executable, "-c", "import json"]
        hook_argv = [sys.executable, str(LAUNCHER), "hook", "UserPromptSubmit"]
        rng = random.Random(1)  # noqa: S311 - fixtures, not secrets
        times: dict[str, list[float]] = {
            "floor": [],
            "no-cites": [],
            "cites-warm": [],
            "cites-cold": [],
        }
        sources = sorted((projects["cites"] / "src").glob("*.py"))
        for _ in range(args.repeats):
            prompt = f"how do we handle {' '.join(rng.sample(WORDS, 3))}?"
            times["floor"].append(timed(floor_argv, base, b""))
            for name, project, cold in (
                ("no-cites", projects["plain"], False),
                ("cites-warm", projects["cites"], False),
                ("cites-cold", projects["cites"], True),
            ):
                payload = json.dumps(
                    {
                        "hook_event_name": "UserPromptSubmit",
                        "session_id": "bench",
                        "prompt": prompt,
                        "cwd": str(project),
                    }
                ).encode()
                env = {**base, "MEMHOOKS_PROJECT_DIR": str(project)}
                if cold:
                    now = time.time()
                    for f in sources:
                        os.utime(f, (now, now))
                else:
                    subprocess.run(
                        hook_argv, input=payload, env=env, stdout=subprocess.DEVNULL, check=True
                    )
                times[name].append(timed(hook_argv, env, payload))
        floor = statistics.median(times["floor"])
        report = {
            name: {
                "median_ms": round(statistics.median(v), 1),
                "p95_ms": round(sorted(v)[int(len(v) * 0.95) - 1], 1),
                "x_floor": round(statistics.median(v) / floor, 2),
            }
            for name, v in times.items()
        }
        stale = json.loads(
            (projects["cites"] / ".claude/memory/.cache/citations.json").read_text(encoding="utf-8")
        )
        report["memories"] = {"count": args.memories, "cache_entries": len(stale)}  # type: ignore[dict-item]
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            print(f"{'case':<12} {'median ms':>10} {'p95 ms':>8} {'x floor':>8}")
            for name in times:
                r = report[name]
                print(f"{name:<12} {r['median_ms']:>10} {r['p95_ms']:>8} {r['x_floor']:>8}")
            print(
                f"{args.memories} memories, each citing 2 spans of {args.files} files; "
                f"{len(stale)} memories pointed at and checked"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
