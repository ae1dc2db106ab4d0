"""What the command modules share: finding the tree, opening the store, mapping errors."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.store import (
    MemoryPaths,
    Settings,
    Store,
    command_project_root,
    is_on,
    untrusted,
    validate_config,
)


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def memory_paths(args: argparse.Namespace) -> MemoryPaths:
    """The tree; refused (exit 9) when `.claude/memory` or its `.cache/` is a symlink."""
    from memhooks.store import tree_problem

    project = Path(args.project) if getattr(args, "project", None) else Path(command_project_root())
    if not project.is_dir():
        raise UserError(f"no such project directory: {project}", Exit.NOT_FOUND)
    paths = MemoryPaths.for_project(project.resolve())
    problem = tree_problem(paths.base)
    if problem:
        raise UserError(problem, Exit.REFUSED)
    return local_paths(paths)


def local_paths(paths: MemoryPaths) -> MemoryPaths:
    """The tree's paths with this checkout's own machine-local folder: an older memhooks' state
    moved out of the checkout first (`install.local_state`), and an id made where the tree
    has none or shares one with the checkout it was copied from (`store.local`)."""
    from memhooks.install.local_state import migrate
    from memhooks.store import checkout_id, checkout_of, ensure_id, make_id, recorded_id

    paths = migrate(paths) or paths
    checkout = checkout_of(paths.base)
    kept = None if checkout_id(checkout) else recorded_id(paths.base)
    if kept:  # outside git, `rm -rf .claude` took the id file: this machine's record has it
        make_id(checkout, kept)
    if Path(paths.base).is_dir() or checkout_id(checkout) is not None:
        ensure_id(checkout)
    return MemoryPaths(paths.base)


def require_tree(paths: MemoryPaths) -> None:
    if not Path(paths.session).exists():
        raise UserError(
            f"no memory here ({paths.base} has no session record on this machine): run "
            f"`/memory start` in Claude Code (or {cli_hint('start')}) first",
            Exit.NOT_STARTED,
        )


def settings(paths: MemoryPaths) -> Settings:
    """config.json, strictly: a typo is a clear error here (hooks only log it). What in it
    widens what runs (config.WIDENING) waits until the user turned memory on here."""
    found = _configured(paths)
    if is_on(paths.base):
        return found
    kept, dropped = untrusted(found)
    if dropped:
        sys.stderr.write(
            f"memhooks: config.json's {', '.join(dropped)} is not used until you turn memory "
            "on for this checkout on this machine (`/memory start`)\n"
        )
    return kept


def report_config(paths: MemoryPaths) -> None:
    """For a command that reads config.json as the hooks do (what is wrong in it ignored):
    say so in one line on stderr, then carry on."""
    try:
        _validated(paths)
    except UserError as exc:
        problem = " ".join(str(exc).split())[:400]
        sys.stderr.write(
            f"memhooks: {problem} (ignored here: the defaults apply instead; "
            f"{cli_hint('doctor')} checks the file)\n"
        )


def _configured(paths: MemoryPaths) -> Settings:
    found = _validated(paths)
    if found.redact_patterns:  # as the hooks do: `status` and `doctor` name the dropped ones
        from memhooks.store import usable_patterns

        found.redact_patterns = usable_patterns(paths.patterns, found.redact_patterns)[0]
    return found


def _validated(paths: MemoryPaths) -> Settings:
    """config.json read and validated strictly; UserError says what is wrong."""
    from memhooks.store import CONFIG_CAP, read_bytes

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
    """The commands' store, given the search index and the citation hasher it keeps."""
    from memhooks.recall.citations import with_hashes
    from memhooks.recall.search_index import SearchIndex

    return Store(paths, settings(paths), search=SearchIndex, cite=with_hashes)


def add_mode_options(parser: argparse.ArgumentParser, *, save_help: str, chunks_help: str) -> None:
    """`summarize` and `synthesize`: --material, --save, --chunks or --chunk N (one of them),
    and --chunk-chars."""
    from memhooks.continuity.chunks import DEFAULT_CHUNK_CHARS

    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--material", action="store_true", help="print the material")
    mode.add_argument("--save", action="store_true", help=save_help)
    mode.add_argument("--chunks", action="store_true", help=chunks_help)
    mode.add_argument("--chunk", type=int, metavar="N", help="print chunk N of that material")
    parser.add_argument(
        "--chunk-chars",
        type=int,
        default=DEFAULT_CHUNK_CHARS,
        help=f"--chunks/--chunk: characters per chunk (default {DEFAULT_CHUNK_CHARS:,})",
    )


def add_budget(parser: argparse.ArgumentParser, default: int) -> None:
    """`summarize` and `synthesize`: --budget, the characters --material may print."""
    parser.add_argument(
        "--budget",
        type=int,
        default=default,
        help=f"--material: at most this many characters (default {default:,})",
    )


def category_name(text: str) -> str:
    """The category a user named (aliases allowed); exit 5 naming the choices otherwise."""
    from memhooks.store import CATEGORIES, resolve_category

    try:
        return resolve_category(text).name
    except KeyError:
        names = ", ".join(c.name for c in CATEGORIES)
        raise UserError(
            f"unknown category {text!r}; use one of: {names}", Exit.INVALID_INPUT
        ) from None


def read_stdin_text() -> str:
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    return sys.stdin.read()
