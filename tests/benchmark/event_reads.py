"""What each hook event and `memhooks remember` load and touch, counted in-process.

    python tests/benchmark/event_reads.py [--json] [--memories N] [--only LABEL]
                                          [--verbose [--where]]

The project and session of `call_paths.py` (a git repository, `memhooks start`, N generated
memories, the search index, an earlier session with evidence); each hook runs in a fresh
process with the worktree's `src/` first, then `memhooks remember` twice (a new sentence; the
same sentence again, which a similar memory refuses). Counted through `sys.addaudithook`:

- modules: modules imported while it ran (all, and `memhooks.*` alone), and whether pydantic
  was among them;
- reads: files opened for reading under the session's folder (project, state, cache), as
  opens and as distinct files; the files read more than once are listed with --verbose;
- writes: files opened for writing there;
- index: sqlite connections opened (the search index, the citations);
- lock turns: exclusive `flock`s taken of the store lock (locks), and of the others (other:
  the ledger's, the handoff's), told apart by the locked file's name (Linux).

After the session, SessionStart runs again as a resume of it and as a /clear (a new session).

Standard library only; the numbers are counts, not times.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from call_paths import SESSION, SRC, Session, table  # noqa: E402

#: The store lock's file (store.paths): its turns are told apart from the other locks'.
STORE_LOCK = "store.lock"
CLEARED = "c1ea4ed0-1111-4222-8333-444455556666"
REMEMBER = ("remember", "we always squash-merge pull requests before the release branch is cut")


class Counter:
    """The audit hook: opens, sqlite connections and exclusive locks under `root`."""

    def __init__(self, root: str) -> None:
        self.root = root.rstrip(os.sep) + os.sep
        self.reads: collections.Counter[str] = collections.Counter()
        self.writes: collections.Counter[str] = collections.Counter()
        self.connects = 0
        self.locks = 0
        self.other_locks = 0
        #: Where each read and lock turn came from: memhooks' innermost frames.
        self.where: collections.defaultdict[str, list[str]] = collections.defaultdict(list)

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            self._open(args)
        elif event == "sqlite3.connect":
            self.connects += 1
        elif event == "fcntl.flock":
            import fcntl

            if args[1] & fcntl.LOCK_EX:
                store = lock_name(args[0]) == STORE_LOCK
                if store:
                    self.locks += 1
                else:
                    self.other_locks += 1
                self.where["(store lock)" if store else "(other lock)"].append(caller())

    def _open(self, args: tuple[Any, ...]) -> None:
        path, mode, flags = args[0], args[1], args[2]
        if not isinstance(path, (str, bytes, os.PathLike)):
            return  # an open descriptor
        text = os.fsdecode(os.fspath(path))
        if not text.startswith(self.root):
            return
        relative = text[len(self.root) :]
        if mode is not None:
            writing = any(c in str(mode) for c in "wax+")
        else:
            writing = bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        (self.writes if writing else self.reads)[relative] += 1
        if not writing:
            self.where[relative].append(caller())


def lock_name(fd: int) -> str:
    """The name of the file a descriptor holds (Linux: /proc), or ""."""
    try:
        return Path(f"/proc/self/fd/{fd}").readlink().name
    except OSError:
        return ""


def caller(depth: int = 4) -> str:
    """The innermost memhooks frames of the current stack, innermost first."""
    frame = sys._getframe(2)  # the audit hook's caller
    found: list[str] = []
    src = str(SRC / "memhooks") + os.sep
    while frame is not None and len(found) < depth:
        path = frame.f_code.co_filename
        if path.startswith(src):
            module = path[len(src) : -3].replace(os.sep, ".")
            found.append(f"{module}:{frame.f_code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return " < ".join(found)


def worker(kind: str, what: str, payload_file: str, out_file: str) -> None:
    """One hook (kind "hook") or one CLI command (kind "cli", `what` a JSON argv)."""
    import io

    sys.path.insert(0, str(SRC))
    before = set(sys.modules)
    counter = Counter(str(Path(payload_file).parent))
    captured = io.StringIO()
    real_stdout = sys.stdout
    sys.addaudithook(counter)
    sys.stdout = captured
    code = 0
    try:
        if kind == "hook":
            read_end, write_end = os.pipe()
            os.write(write_end, Path(payload_file).read_bytes())
            os.close(write_end)
            sys.stdin = os.fdopen(read_end)
            from memhooks.hooks import entry

            entry.run(what)
        else:
            from memhooks.cli.main import main

            code = main(json.loads(what))
    finally:
        sys.stdout = real_stdout
    loaded = sorted(set(sys.modules) - before)
    result = {
        "modules": len(loaded),
        "memhooks": len([m for m in loaded if m.startswith("memhooks")]),
        "pydantic": any(m == "pydantic" or m.startswith("pydantic.") for m in loaded),
        "reads": dict(counter.reads),
        "writes": dict(counter.writes),
        "connects": counter.connects,
        "locks": counter.locks,
        "other_locks": counter.other_locks,
        "where": counter.where,
        "exit": code,
        "output": captured.getvalue(),
    }
    Path(out_file).write_text(json.dumps(result), encoding="utf-8")


def measure(session: Session, kind: str, what: str, payload: dict[str, Any]) -> dict[str, Any]:
    payload_file = session.base / "payload.json"
    out_file = session.base / "out.json"
    payload_file.write_text(json.dumps(payload), encoding="utf-8")
    worker_argv = ("--worker", kind, what, str(payload_file), str(out_file))
    session.run(sys.executable, str(Path(__file__)), *worker_argv)
    result: dict[str, Any] = json.loads(out_file.read_text(encoding="utf-8"))
    return result


def rows(session: Session, only: str | None) -> list[dict[str, Any]]:
    out = []
    cases: list[tuple[str, str, str, dict[str, Any]]] = []
    after = [
        ("SessionStart resume", "SessionStart", {"source": "resume"}),
        ("SessionStart clear", "SessionStart", {"source": "clear", "session_id": CLEARED}),
    ]
    for label, event, fields in [*session.cases(), *after]:
        payload = {
            "session_id": SESSION,
            "transcript_path": str(session.base / "transcript_at_precompact.jsonl"),
            "cwd": str(session.project),
            "hook_event_name": event,
            **fields,
        }
        cases.append((label, "hook", event, payload))
    argv = json.dumps([*REMEMBER, "--json"])
    cases.append(("remember (new)", "cli", argv, {}))
    cases.append(("remember (similar)", "cli", argv, {}))
    for label, kind, what, payload in cases:
        if only and only not in label:
            continue
        result = measure(session, kind, what, payload)
        reads = result["reads"]
        out.append(
            {
                "event": label,
                "modules": result["modules"],
                "memhooks": result["memhooks"],
                "pydantic": "yes" if result["pydantic"] else "",
                "opens": sum(reads.values()),
                "files": len(reads),
                "writes": len(result["writes"]),
                "index": result["connects"],
                "locks": result["locks"],
                "other": result["other_locks"],
                "read_twice": sorted(p for p, n in reads.items() if n > 1),
                "where": {
                    p: w for p, w in result["where"].items() if p.startswith("(") or reads[p] > 1
                },
            }
        )
    return out


COLUMNS = (
    "modules",
    "memhooks",
    "pydantic",
    "opens",
    "files",
    "writes",
    "index",
    "locks",
    "other",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--memories", type=int, default=60, help="memories in the tree")
    parser.add_argument("--only", help="only the rows whose label holds this")
    parser.add_argument("--verbose", action="store_true", help="list the files read twice")
    parser.add_argument(
        "--where",
        action="store_true",
        help="with --verbose: where each repeated read and each lock turn came from",
    )
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return 0
    base = Path(tempfile.mkdtemp(prefix="event-reads-"))
    try:
        session = Session(base, args.memories)
        session.setup()
        found = rows(session, args.only)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    if args.json:
        print(json.dumps(found, indent=1))
        return 0
    print(table(found, COLUMNS))
    if args.verbose:
        for r in found:
            if r["read_twice"] or (args.where and r["where"]):
                twice = ", ".join(r["read_twice"]) or "nothing"
                print(f"\n{r['event']}: read more than once: {twice}")
            if args.where:
                for path, stacks in r["where"].items():
                    print(f"  {path}:")
                    for stack in stacks:
                        print(f"    {stack}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
