"""Mutation run: does the suite notice when a cap, an order or a check is changed?

    python tests/benchmark/mutation_run.py [--only ID[,ID]] [--list] [--check] [--work DIR]
                                           [--json FILE]

The tracked files are copied once into a work folder (`--work`, else a temporary one); then,
for each mutant of `mutants.py`, one textual change is made to one module of the copy (the
`old` text must occur exactly once), the mutant's own test files run there (`-x -q -n 0`,
one process: the machine is shared), and the module is put back. A mutant is killed when the
tests fail (or time out), survived when they pass. The tests run against the copy's `src/`
and the copy's launcher, so hooks run as subprocesses see the mutant too.

Standard library only; prints one line per mutant and the killed ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

from mutants import MUTANTS, Mutant  # noqa: E402

TIMEOUT = 900  # seconds per mutant's tests; a hang counts as killed


def copy_tracked(work: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file() and not source.is_symlink():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, work / name)
        elif source.is_symlink():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).symlink_to(source.readlink())


def run_tests(work: Path, tests: tuple[str, ...]) -> tuple[bool, str]:
    """(passed, the last lines of pytest's output)."""
    tests = tuple(t for t in tests if (work / t).exists())  # a copy made before a new test
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(work / "src")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    argv = [sys.executable, "-m", "pytest", *tests, "-x", "-q", "-n", "0", "-p", "no:cacheprovider"]
    try:
        done = subprocess.run(
            argv, cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return False, "timed out"
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-3:])
    if done.returncode not in (0, 1):
        raise SystemExit(f"pytest could not run {tests} (exit {done.returncode}):\n{tail}")
    return done.returncode == 0, tail


def located(package: Path, mutant: Mutant) -> tuple[Mutant, str]:
    """The mutant where its `old` text is now, and a problem ('' for none): in its module,
    else in the one module of the package that holds it (a module split or renamed since)."""
    path = package / mutant.path
    if path.is_file() and path.read_text(encoding="utf-8").count(mutant.old) == 1:
        return mutant, ""
    holding = [
        p.relative_to(package).as_posix()
        for p in sorted(package.rglob("*.py"))
        if p.read_text(encoding="utf-8").count(mutant.old) == 1
    ]
    if len(holding) == 1:
        return mutant._replace(path=holding[0]), ""
    return mutant, f"{mutant.id}: {mutant.old!r} is not once in {mutant.path} (nor in one module)"


def apply(work: Path, mutant: Mutant) -> str:
    """Make the change in the copy (`mutant` as `located` found it); returns the original."""
    path = work / "src" / "memhooks" / mutant.path
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
    return original


def check(chosen: list[Mutant]) -> int:
    """1 when a mutant no longer applies to this tree: its `old` text is not in its module
    exactly once (the code moved on), or the change leaves a module Python cannot compile
    (its tests would fail, and count a broken file as a mutant killed)."""
    stale = []
    for m in chosen:
        found, problem = located(REPO / "src" / "memhooks", m)
        if problem:
            stale.append(problem)
            continue
        if found.path != m.path:
            print(f"{m.id}: now in {found.path}")
        text = (REPO / "src" / "memhooks" / found.path).read_text(encoding="utf-8")
        try:
            compile(text.replace(m.old, m.new), found.path, "exec")
        except SyntaxError as exc:
            stale.append(f"{m.id}: the mutated {found.path} does not compile ({exc.msg})")
    print("\n".join(stale) or f"all {len(chosen)} mutants apply")
    return 1 if stale else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated mutant ids (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--check", action="store_true", help="check that each mutant applies to this tree, and exit"
    )
    parser.add_argument("--work", type=Path, help="the copy to mutate (made if missing)")
    parser.add_argument("--json", type=Path, help="append one JSON line per mutant here")
    parser.add_argument("--tests", help="comma-separated test files instead of each mutant's own")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.only or m.id in args.only.split(",")]
    if args.list:
        for m in chosen:
            print(f"{m.id:28} {m.path}: {m.why}")
        return 0
    if args.check:
        return check(chosen)
    work = args.work or Path(tempfile.mkdtemp(prefix="mutation-"))
    if not (work / "src" / "memhooks").is_dir():
        copy_tracked(work)
    killed = 0
    try:
        for wanted in chosen:
            mutant, problem = located(work / "src" / "memhooks", wanted)
            if problem:
                raise SystemExit(problem)
            original = apply(work, mutant)
            started = time.monotonic()
            try:
                tests = tuple(args.tests.split(",")) if args.tests else mutant.tests
                passed, tail = run_tests(work, tests)
            finally:
                (work / "src" / "memhooks" / mutant.path).write_text(original, encoding="utf-8")
            killed += not passed
            verdict = "survived" if passed else "killed"
            print(f"{verdict:8} {mutant.id:28} {time.monotonic() - started:5.0f}s  {mutant.why}")
            if args.json:
                row = {"id": mutant.id, "killed": not passed, "tail": tail, "why": mutant.why}
                with args.json.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"killed {killed} of {len(chosen)} ({killed / max(len(chosen), 1):.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
