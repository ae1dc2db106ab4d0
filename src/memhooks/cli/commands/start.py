"""`memhooks start`: create the tree (seed 000) and mark memory active."""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
from pathlib import Path

from memhooks.atomic import write_atomic
from memhooks.categories import CATEGORIES
from memhooks.cli.common import add_json, memory_paths, open_store, settings, store_errors
from memhooks.cli.errors import Exit, UserError
from memhooks.cli.output import emit
from memhooks.clock import iso
from memhooks.paths import MemoryPaths
from memhooks.session_state import StateUnreadableError, read_state, repair_state, write_state
from memhooks.status_line import (
    ACTIVE_TEMPLATE,
    BLOCKERS_TEMPLATE,
    COMPLETED_TEMPLATE,
    CURRENT_TASK_TEMPLATE,
)

CONFIRMATION = "Infinite memory mode active. I'll manage my context autonomously."
GITIGNORE = """# memhooks: derived and machine-local files (rebuild with `memhooks rebuild`)
.cache/
_session.json
*.tmp
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "start",
        help="create .claude/memory/ and turn memory on",
        description="Create the memory tree if needed (category folders, "
        "context and progress placeholders, .gitignore) and mark memory "
        "active. Existing files are kept.",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def git_branch(project: Path) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(project), "rev-parse", "--abbrev-ref", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def create_tree(paths: MemoryPaths, created: list[str] | None = None) -> list[str]:
    """Folders and placeholders; returns what was created (also appended to `created`)."""
    created = [] if created is None else created
    for folder in [c.folder for c in CATEGORIES] + ["context", "progress", "checkpoints", ".cache"]:
        target = paths.root / folder
        if not target.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            created.append(folder + "/")
    placeholders = {
        paths.current_task: CURRENT_TASK_TEMPLATE,
        paths.blockers: BLOCKERS_TEMPLATE,
        paths.progress / "active.md": ACTIVE_TEMPLATE,
        paths.progress / "completed.md": COMPLETED_TEMPLATE,
        paths.gitignore: GITIGNORE,
    }
    for path, text in placeholders.items():
        if not path.exists():
            write_atomic(path, text)
            created.append(paths.relative(path))
    return created


def _activate(paths: MemoryPaths) -> tuple[dict[str, object], bool]:
    now = iso()
    store = open_store(paths)
    with store_errors(), store.locked():
        try:
            state = read_state(paths.session) or {}
        except StateUnreadableError as exc:
            raise UserError(f"{exc}; fix or move it, then run start again", Exit.REFUSED) from None
        repaired = repair_state(state)
        if repaired:
            sys.stderr.write(
                f"memhooks: {paths.relative(paths.session)}: dropped what was not valid "
                f"({', '.join(repaired)}); start sets it again\n"
            )
        was_active = state.get("active") is True
        state.setdefault("version", 1)
        state["active"] = True
        if not was_active or not state.get("started"):
            state["started"] = now
        state.pop("stopped", None)
        state["project"] = paths.root.parent.parent.name
        state["branch"] = git_branch(paths.root.parent.parent)
        state["lastActivity"] = now
        state.setdefault(
            "stats", {"decisions": 0, "analyses": 0, "indexArchived": 0, "subagentOutputs": 0}
        )
        write_state(paths.session, state)
    with store_errors():
        store.refresh()
    return state, was_active


def _undo(paths: MemoryPaths, created: list[str], fresh: bool) -> None:
    """Remove what this run created: the whole tree when it made it, else its own files
    (then the folders it made, if still empty)."""
    if fresh:
        shutil.rmtree(paths.root, ignore_errors=True)  # ours entirely; never follows links
        return
    for name in reversed(created):
        target = paths.root / name.rstrip("/")
        with contextlib.suppress(OSError):
            if name.endswith("/"):
                target.rmdir()
            else:
                target.unlink()


def run(args: argparse.Namespace) -> int:
    paths = memory_paths(args)
    settings(paths)  # a broken config.json is reported before anything is written
    fresh = not paths.root.exists()
    created: list[str] = []
    try:
        create_tree(paths, created)
        state, was_active = _activate(paths)
    except BaseException:
        _undo(paths, created, fresh)  # all or nothing: never a half-started tree
        raise
    data = {
        "active": True,
        "already_active": was_active,
        "root": str(paths.root),
        "started": state["started"],
        "created": created,
        "message": CONFIRMATION,
    }
    text = (
        CONFIRMATION
        + f"\nMemory tree: {paths.root}"
        + (f"\nCreated: {', '.join(created)}" if created else "")
    )
    emit(data, text, as_json=args.json)
    return Exit.OK
