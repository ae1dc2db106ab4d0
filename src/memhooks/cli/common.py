"""What the command modules share: finding the tree, opening the store, mapping errors."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from memhooks.cli.errors import Exit, UserError
from memhooks.config import Settings, validate_config
from memhooks.invocation import cli_hint
from memhooks.paths import MemoryPaths, project_root
from memhooks.store import Store


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def memory_paths(args: argparse.Namespace) -> MemoryPaths:
    """The tree; refused (exit 9) when `.claude/memory` or its `.cache/` is a symlink."""
    from memhooks.safe_fs import tree_problem

    project = Path(args.project) if getattr(args, "project", None) else Path(project_root())
    if not project.is_dir():
        raise UserError(f"no such project directory: {project}", Exit.NOT_FOUND)
    paths = MemoryPaths.for_project(project.resolve())
    problem = tree_problem(paths.base)
    if problem:
        raise UserError(problem, Exit.REFUSED)
    return paths


def require_tree(paths: MemoryPaths) -> None:
    if not paths.session.exists():
        raise UserError(
            f"no memory here ({paths.root} has no _session.json): run `/memory start` in "
            f"Claude Code (or {cli_hint('start')}) first",
            Exit.NOT_STARTED,
        )


def settings(paths: MemoryPaths) -> Settings:
    """config.json, strictly: a typo is a clear error here (hooks only log it)."""
    from memhooks.config import CONFIG_CAP
    from memhooks.safe_fs import read_bytes

    try:
        raw = read_bytes(paths.config, CONFIG_CAP, whole=True).decode("utf-8")
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"config.json cannot be read: {exc}", Exit.REFUSED) from None
    try:
        data = json.loads(raw) if raw.strip() else {}
    except ValueError as exc:
        raise UserError(f"config.json is not JSON: {exc}", Exit.INVALID_INPUT) from None
    try:
        return validate_config(data)
    except ValueError as exc:
        raise UserError(str(exc), Exit.INVALID_INPUT) from None


def open_tree(args: argparse.Namespace) -> tuple[MemoryPaths, Store]:
    """The started tree the command works on, and its store; exit 3 when there is none."""
    paths = memory_paths(args)
    require_tree(paths)
    return paths, open_store(paths)


def open_store(paths: MemoryPaths) -> Store:

    return Store(paths, settings(paths))


@contextlib.contextmanager
def store_errors() -> Iterator[None]:
    """Turn the store's refusals into exit codes."""
    from memhooks.locking import LockTimeoutError
    from memhooks.naming import UnsafePathError
    from memhooks.session_state import StateUnreadableError
    from memhooks.store import ConflictError, NotFoundError, ResurrectionError, StoreError

    try:
        yield
    except ConflictError as exc:
        raise UserError(str(exc), Exit.CONFLICT) from None
    except NotFoundError as exc:
        raise UserError(str(exc), Exit.NOT_FOUND) from None
    except (ResurrectionError, UnsafePathError, StateUnreadableError) as exc:
        raise UserError(str(exc), Exit.REFUSED) from None
    except LockTimeoutError as exc:
        raise UserError(str(exc), Exit.LOCKED) from None
    except StoreError as exc:
        raise UserError(str(exc), Exit.REFUSED) from None


def read_stdin_text() -> str:
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    return sys.stdin.read()
