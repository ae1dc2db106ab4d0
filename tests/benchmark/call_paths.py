"""Each hook event's call path through memhooks, measured: what the handler touches.

    python tests/benchmark/call_paths.py [--json] [--memories N] [--keep DIR]

A representative project is set up once (a git repository with a change, `memhooks start`
with consent given, N generated memories with a task and blockers, the search index built,
an earlier session with evidence), then one session's hooks run in order, each in a fresh
process with the worktree's `src/` first, as the host runs them: `memhooks.hooks.entry.run`
with the recorded payload on stdin, under `sys.setprofile`. For memhooks code only (files
under `src/memhooks/`), it counts:

- modules: modules one of whose functions ran;
- edges: distinct (caller function, callee function) pairs; a callee called from outside
  memhooks (a `sorted` key, a callback) is charged to the nearest memhooks frame below it,
  comprehension and generator-expression frames are folded into their function, and calls
  made while a module is being imported (its top-level code and what that calls) are left
  out: they depend on what an earlier import loaded, not on the path (so is a package's lazy
  `__getattr__`, which resolves `from memhooks.store import X` the first time);
- crossings: distinct edges whose caller's package differs from the callee's (the package
  is the folder under `src/memhooks/`; `memhooks/__init__.py` is its own, "memhooks");
- store entries: distinct crossing edges whose callee is in `store/`;
- files: files created, changed or deleted in the project and the consent state (size,
  mtime and inode compared before and after; `.git/` left out).

Standard library only; the numbers are counts, not times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SRC = REPO / "src"
FIXTURES = REPO / "tests" / "fixtures"
TRANSCRIPTS = FIXTURES / "transcripts"
SESSION = "c0ffee00-1111-4222-8333-444455556666"
EARLIER = "beefcafe-1111-4222-8333-444455556666"
FOLDED = ("<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>")
SUBAGENT_RESULT = (
    "The slug generator lives in blog/slugs.py. It lower-cases titles, folds accents with "
    "unicodedata, collapses runs of dashes and caps the slug at 60 characters. Two call "
    "sites bypass it (the admin import and the RSS importer); both should call make_slug."
)


# ---------------------------------------------------------------------------------------------
# The worker: one hook, in this process, profiled


class Tracer:
    """Collects memhooks frames' calls; see the module docstring for what counts."""

    def __init__(self, src: str) -> None:
        self.src = src.rstrip(os.sep) + os.sep
        self.importing = 0
        self.edges: set[tuple[str, str]] = set()
        self.functions: set[str] = set()
        self.calls = 0
        self._names: dict[Any, str | None] = {}

    def name(self, code: Any) -> str | None:
        """`package.module:qualname` of a memhooks function, or None."""
        if code in self._names:
            return self._names[code]
        found: str | None = None
        path = code.co_filename
        if path.startswith(self.src) and path.endswith(".py"):
            module = path[len(self.src) : -3].replace(os.sep, ".")
            module = module.removesuffix(".__init__")
            found = f"{module}:{getattr(code, 'co_qualname', code.co_name)}"
        self._names[code] = found
        return found

    def caller(self, frame: Any) -> str | None:
        while frame is not None:
            code = frame.f_code
            if code.co_name not in FOLDED:
                found = self.name(code)
                if found is not None:
                    return found
            frame = frame.f_back
        return None

    def __call__(self, frame: Any, event: str, _arg: object) -> None:
        code = frame.f_code
        if code.co_name == "<module>" or (
            # A package's lazy `__getattr__` (the store's face) resolves an import: it is
            # import machinery, not a step of the path, and runs once per name and process.
            code.co_name == "__getattr__" and code.co_filename.endswith("__init__.py")
        ):
            if event == "call":
                self.importing += 1
            elif event == "return":
                self.importing -= 1
            return
        if event != "call" or self.importing or code.co_name in FOLDED:
            return
        callee = self.name(code)
        if callee is None:
            return
        self.calls += 1
        self.functions.add(callee)
        caller = self.caller(frame.f_back)
        if caller is not None and caller != callee:
            self.edges.add((caller, callee))


def package(function: str) -> str:
    module = function.split(":", 1)[0]
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else parts[0]


def worker(event: str, payload_file: str, out_file: str) -> None:
    """Run one hook as the host does, stdin a pipe holding the payload, and write the counts."""
    import io

    sys.path.insert(0, str(SRC))
    from memhooks.hooks import entry

    read_end, write_end = os.pipe()
    os.write(write_end, Path(payload_file).read_bytes())
    os.close(write_end)
    sys.stdin = os.fdopen(read_end)
    captured = io.StringIO()
    real_stdout = sys.stdout
    tracer = Tracer(str(SRC / "memhooks"))
    sys.stdout = captured
    sys.setprofile(tracer)
    try:
        entry.run(event)
    finally:
        sys.setprofile(None)
        sys.stdout = real_stdout
    result = {
        "functions": sorted(tracer.functions),
        "edges": sorted(tracer.edges),
        "calls": tracer.calls,
        "output": captured.getvalue(),
    }
    Path(out_file).write_text(json.dumps(result), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The parent: the project, the session, the table


def files_state(roots: list[Path]) -> dict[str, tuple[int, int, int]]:
    state: dict[str, tuple[int, int, int]] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git"]
            for name in files:
                path = Path(folder) / name
                try:
                    st = path.lstat()
                except OSError:
                    continue
                state[str(path)] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return state


class Session:
    def __init__(self, base: Path, memories: int) -> None:
        self.base = base
        self.project = base / "project"
        self.memory = self.project / ".claude" / "memory"
        self.env = {
            **os.environ,
            "HOME": str(base / "home"),
            "XDG_STATE_HOME": str(base / "state"),
            "XDG_CACHE_HOME": str(base / "cache"),
            "MEMHOOKS_PROJECT_DIR": str(self.project),
            "PYTHONPATH": str(SRC),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        for name in ("CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT"):
            self.env.pop(name, None)
        self.memories = memories
        self.prompt = ""

    def run(self, *argv: str, stdin: str = "") -> str:
        done = subprocess.run(
            argv,
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env,
            cwd=self.project,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"{argv} failed ({done.returncode}): {done.stderr[-2000:]}")
        return done.stdout

    def cli(self, *args: str) -> str:
        code = f"import sys; from memhooks.cli.main import main; sys.exit(main({list(args)!r}))"
        return self.run(sys.executable, "-c", code)

    def setup(self) -> None:
        sys.path.insert(0, str(HERE))
        import generate

        for folder in ("home", "state", "cache", "project"):
            (self.base / folder).mkdir(parents=True, exist_ok=True)
        (self.project / "app.py").write_text("print('hello')\n", encoding="utf-8")
        git = ("git", "-c", "user.name=bench", "-c", "user.email=bench@example.com")
        self.run("git", "init", "-q")
        self.run("git", "add", "-A")
        self.run(*git, "commit", "-qm", "initial")
        self.cli("start")
        corpus = generate.Corpus.load(FIXTURES, seed=7)
        generate.write_tree(self.memory, self.memories, corpus, seed=11)
        self.cli("rebuild")
        (self.project / "app.py").write_text("print('hello, world')\n", encoding="utf-8")
        first = min((self.memory / "decisions").glob("*.md")).read_text(encoding="utf-8")
        title = next(line for line in first.splitlines() if line.startswith("# "))[2:]
        self.prompt = f"How did we decide on {title.lower()}? Check it before changing it."
        for name in ("transcript.jsonl", "transcript_at_precompact.jsonl", "earlier.jsonl"):
            source = "transcript.jsonl" if name == "earlier.jsonl" else name
            shutil.copyfile(TRANSCRIPTS / "a1-blog-slugs" / source, self.base / name)
        # An earlier session on this project, with evidence: the startup restore has one.
        for event, fields in self.earlier():
            self.hook(event, fields)

    def earlier(self) -> list[tuple[str, dict[str, Any]]]:
        transcript = str(self.base / "earlier.jsonl")
        return [
            ("SessionStart", {"source": "startup", "session_id": EARLIER}),
            ("UserPromptSubmit", {"prompt": "Fix the slug tests", "session_id": EARLIER}),
            ("Stop", {"session_id": EARLIER, "transcript_path": transcript}),
            ("SessionEnd", {"session_id": EARLIER, "reason": "other"}),
        ]

    def cases(self) -> list[tuple[str, str, dict[str, Any]]]:
        """(label, event, payload fields): one session, in the order the host runs them."""
        memory_file = str(self.memory / "decisions" / "2026-01-01_001_direct.md")
        agent = {"subagent_type": "Explore", "prompt": self.prompt, "description": "look"}
        agent_transcript = TRANSCRIPTS / "a2-invoice-config" / "subagents"
        agent_file = next(iter(sorted(agent_transcript.glob("*.jsonl"))))
        summary = "The user asked to fix the blog's slugs; tests pass; next: the RSS importer."
        return [
            ("SessionStart startup", "SessionStart", {"source": "startup"}),
            ("UserPromptSubmit (first)", "UserPromptSubmit", {"prompt": self.prompt}),
            ("UserPromptSubmit (next)", "UserPromptSubmit", {"prompt": self.prompt + " Now."}),
            (
                "PreToolUse Write (memory)",
                "PreToolUse",
                {"tool_name": "Write", "tool_input": {"file_path": memory_file, "content": "x"}},
            ),
            (
                "PreToolUse Bash",
                "PreToolUse",
                {"tool_name": "Bash", "tool_input": {"command": "pytest -q"}},
            ),
            (
                "PostToolUse Bash",
                "PostToolUse",
                {"tool_name": "Bash", "tool_input": {"command": "pytest -q"}},
            ),
            ("PreToolUse Agent", "PreToolUse", {"tool_name": "Agent", "tool_input": agent}),
            ("SubagentStart", "SubagentStart", {"agent_id": "a1", "agent_type": "Explore"}),
            (
                "SubagentStop",
                "SubagentStop",
                {
                    "agent_id": "a1",
                    "agent_type": "Explore",
                    "agent_transcript_path": str(agent_file),
                    "last_assistant_message": SUBAGENT_RESULT,
                },
            ),
            ("Stop", "Stop", {"last_assistant_message": "Done: slugs fixed."}),
            ("PreCompact", "PreCompact", {"trigger": "auto"}),
            ("SessionStart compact", "SessionStart", {"source": "compact"}),
            (
                "PostCompact",
                "PostCompact",
                {"trigger": "auto", "compact_summary": summary},
            ),
            ("UserPromptSubmit (after)", "UserPromptSubmit", {"prompt": self.prompt}),
            ("SessionEnd", "SessionEnd", {"reason": "other"}),
        ]

    def hook(self, event: str, fields: dict[str, Any]) -> dict[str, Any]:
        payload = {
            "session_id": SESSION,
            "transcript_path": str(self.base / "transcript_at_precompact.jsonl"),
            "cwd": str(self.project),
            "hook_event_name": event,
            **fields,
        }
        payload_file = self.base / "payload.json"
        out_file = self.base / "out.json"
        payload_file.write_text(json.dumps(payload), encoding="utf-8")
        self.run(
            sys.executable, str(Path(__file__)), "--worker", event, str(payload_file), str(out_file)
        )
        result: dict[str, Any] = json.loads(out_file.read_text(encoding="utf-8"))
        return result

    def measure(self) -> list[dict[str, Any]]:
        rows = []
        for label, event, fields in self.cases():
            roots = [self.project, self.base / "state"]
            before = files_state(roots)
            result = self.hook(event, fields)
            after = files_state(roots)
            rows.append(row(label, result, before, after, self.base))
        return rows


def row(
    label: str,
    result: dict[str, Any],
    before: dict[str, tuple[int, int, int]],
    after: dict[str, tuple[int, int, int]],
    base: Path,
) -> dict[str, Any]:
    edges = [tuple(e) for e in result["edges"]]
    crossings = [(a, b) for a, b in edges if package(a) != package(b)]
    into_store = [(a, b) for a, b in crossings if package(b) == "store"]
    modules = sorted({f.split(":", 1)[0] for f in result["functions"]})
    changed = sorted(
        os.path.relpath(p, base) for p in set(before) | set(after) if before.get(p) != after.get(p)
    )
    return {
        "event": label,
        "modules": len(modules),
        "packages": len({package(f) for f in result["functions"]}),
        "edges": len(edges),
        "crossings": len(crossings),
        "store_entries": len(into_store),
        "files_written": len(changed),
        "calls": result["calls"],
        "module_names": modules,
        "crossing_edges": [f"{a} -> {b}" for a, b in crossings],
        "files": changed,
        "output_chars": len(result["output"]),
        "output": result["output"],
    }


COLUMNS = ("modules", "packages", "edges", "crossings", "store_entries", "files_written")


def table(rows: list[dict[str, Any]], columns: tuple[str, ...] = COLUMNS) -> str:
    head = ["event", *columns]
    lines = [head] + [[r["event"], *(str(r[c]) for c in columns)] for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = []
    for n, line in enumerate(lines):
        cells = [line[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(line[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells))
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--memories", type=int, default=60, help="memories in the tree")
    parser.add_argument("--keep", type=Path, help="set up the project here and keep it")
    parser.add_argument("--verbose", action="store_true", help="list crossings and files too")
    parser.add_argument(
        "--worker", nargs=3, metavar=("EVENT", "PAYLOAD", "OUT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return 0
    base = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="call-paths-"))
    if args.keep:
        shutil.rmtree(base, ignore_errors=True)
    try:
        session = Session(base, args.memories)
        session.setup()
        rows = session.measure()
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(table(rows))
    if args.verbose:
        for r in rows:
            print(f"\n{r['event']}: files {r['files']}")
            for edge in r["crossing_edges"]:
                print(f"  {edge}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
