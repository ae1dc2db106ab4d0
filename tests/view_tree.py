"""A memory store for the view's tests: sessions, checkpoints, a chain of superseded
decisions, a stale citation, a sub-agent result, the injected-characters ledger and hostile
memories whose title, tags, body and file name try to break out of the page."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from memhooks.cli.main import main
from memhooks.store import MemoryPaths, load_catalog, record_injected

HOSTILE_TITLE = 'Evil </script><script>document.title="PWNED"</script> </style> \u2028 <!--'
HOSTILE_TAG = "<img src=x onerror=alert(1)>"
HOSTILE_BODY = (
    "## Notes\n\n"
    "<img src=x onerror=\"document.title='PWNED'\">\n\n"
    "[click me](javascript:alert(1)) and [ok](../decisions/none.md)\n\n"
    "</script><script>var m=document.createElement('pwned-marker');"
    "document.body.appendChild(m);document.title='PWNED'</script>\n\n"
    "</style><style>body{display:none}</style>\n\n"
    "line\u2028separator <!-- comment\n\n"
    "- item with `<b>code</b>`\n"
)
CODE = "".join(f"line {n}\n" for n in range(1, 21))


def _cli(project: Path, *args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["--project", str(project), *args])
    assert code == 0, (args, out.getvalue())
    return out.getvalue()


def _path_of(paths: MemoryPaths, title: str) -> str:
    cat = load_catalog(paths.catalog)
    assert cat is not None
    return next(e.path for e in cat.entries.values() if e.title == title)


def build_store(project: Path) -> MemoryPaths:
    """Fills `project` (a folder) with a started memory tree; returns its paths."""
    project.mkdir(parents=True, exist_ok=True)
    _cli(project, "start")
    paths = MemoryPaths.for_project(project)
    for title in ("Use SQLite", "Use Postgres", "Use CockroachDB"):
        _cli(
            project,
            "save",
            "decision",
            "--title",
            title,
            "--tags",
            "db,storage",
            "--body",
            f"## Decision\n\n{title} for **orders**.\n\n- fast\n- simple\n",
        )
    first, second, third = (
        _path_of(paths, t) for t in ("Use SQLite", "Use Postgres", "Use CockroachDB")
    )
    _cli(project, "retire", first, "--reason", f"superseded by {second}")
    _cli(project, "retire", second, "--reason", f"superseded by {third}")
    _cli(
        project,
        "save",
        "runbook",
        "--title",
        "Deploy the frontend",
        "--tags",
        "deploy",
        "--body",
        "## Steps\n\n1. build\n2. `make deploy`\n\nSee [the db](../" + third + ")\n",
    )
    _cli(project, "save", "constraint", "--title", "Old rule", "--body", "gone")
    _cli(project, "archive", _path_of(paths, "Old rule"), "--reason", "no longer applies")
    _cli(
        project,
        "save",
        "decision",
        "--title",
        HOSTILE_TITLE,
        "--tags",
        HOSTILE_TAG,
        "--body",
        HOSTILE_BODY,
    )
    _cli(
        project,
        "save",
        "subagent",
        "--title",
        "Explore the payments module",
        "--body",
        "## Summary\n\nThe payments module rounds half-even.\n",
    )
    (project / "src").mkdir(exist_ok=True)
    (project / "src" / "pricing.py").write_text(CODE)
    _cli(
        project,
        "remember",
        "--category",
        "decision",
        "we decided prices are rounded half-even in src/pricing.py:10-12",
    )
    (project / "src" / "pricing.py").write_text(CODE.replace("line 11\n", "line eleven\n"))
    sessions = Path(paths.base) / "sessions"
    sessions.mkdir(exist_ok=True)
    (sessions / "s-111.md").write_text("# Session s-111\n\n- started\n- edited `src/a.py`\n")
    (sessions / "s-222.md").write_text("# Session s-222 <script>alert(1)</script>\n\n- compacted\n")
    checkpoints = Path(paths.base) / "checkpoints" / "sessions"
    checkpoints.mkdir(parents=True, exist_ok=True)
    (checkpoints / "s-222.md").write_text("# Checkpoint\n\n## Current task\n\nShip the view\n")
    (Path(paths.base) / "checkpoints" / "latest.md").write_text("# Latest checkpoint\n\nShip it\n")
    record_injected(paths.injected, "s-111", "SessionStart", 1200)
    record_injected(paths.injected, "s-222", "SessionStart", 2400)
    record_injected(paths.injected, "s-222", "UserPromptSubmit", 300)
    record_injected(paths.injected, "s-222", "UserPromptSubmit", 500)
    return paths
