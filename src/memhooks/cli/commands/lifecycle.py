"""`memhooks retire|archive|restore PATH`: lifecycle changes with reasons and dates.

Nothing is deleted here; `memhooks gc` does that after the grace period.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit
from memhooks.store import TREE_PREFIX, MemoryPaths

LOG_CAP = 8_000_000  # bytes read of the consolidation log or a memory file

VERBS = {
    "retire": ("retired", "take a memory out of the index (GC deletes it after the grace period)"),
    "archive": ("archived", "take a memory out of the index for good, never GC'd"),
    "restore": (
        "active",
        "bring a retired or archived memory back, or take back the rewrite "
        "`consolidate --apply` made of an active one",
    ),
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for verb, (state, summary) in VERBS.items():
        parser = sub.add_parser(verb, help=summary, description=summary.capitalize() + ".")
        parser.add_argument("path", help="memory path relative to .claude/memory/")
        if state != "active":
            parser.add_argument("--reason", required=True, help="why (kept in the file)")
        parser.add_argument(
            "--user", action="store_true", help="PATH is in the user tier, not this project"
        )
        add_json(parser)
        parser.set_defaults(func=run, state=state, verb=verb)


def run(args: argparse.Namespace) -> int:
    paths, store = open_tree(args)
    prefix = TREE_PREFIX
    if args.user:
        from memhooks.cli.user_store import open_user_store
        from memhooks.store import display

        store = open_user_store(paths, store.settings)
        paths, prefix = store.paths, display(store.paths)
    relative = args.path.removeprefix(prefix).removeprefix(TREE_PREFIX)
    if args.verb == "restore" and _rewritten_and_active(paths, relative):
        from memhooks.cli.commands.consolidate import undo_rewrite

        return undo_rewrite(args, paths, store, relative)
    saved = store.set_record_status(relative, args.state, getattr(args, "reason", ""))
    emit(
        {"path": saved.entry.path, "record_status": saved.entry.record_status},
        f"{args.verb.capitalize()}d: {prefix}{saved.entry.path}",
        as_json=args.json,
    )
    return Exit.OK


def _rewritten_and_active(paths: MemoryPaths, relative: str) -> bool:
    """An active memory whose body `consolidate --apply` rewrote (its diff is in the log):
    `restore` then takes the rewrite back, as `consolidate --undo` does."""
    from memhooks.curate.undo import last_diff
    from memhooks.store import UnparsableMemoryError, UnsafeFileError, parse_bytes, read_bytes

    try:
        log = read_bytes(paths.consolidation_log, LOG_CAP).decode("utf-8", "replace")
        if not last_diff(log, relative):
            return False
        meta = parse_bytes(read_bytes(str(Path(paths.base, relative)), LOG_CAP)).meta
    except (OSError, UnsafeFileError, UnparsableMemoryError, ValueError):
        return False
    return str(meta.get("record_status", "active")) == "active"
