"""`memhooks gc`: delete retired memories past the grace period (archived ones are kept)."""

from __future__ import annotations

import argparse

from memhooks.cli.common import add_json, open_tree, store_errors
from memhooks.cli.errors import Exit
from memhooks.cli.output import emit


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "gc",
        help="delete retired memories past the grace period",
        description="Delete memories retired longer ago than "
        "delete.grace_period_days (default 30). Archived memories are "
        "never deleted.",
    )
    parser.add_argument("--dry-run", action="store_true", help="list what would be deleted")
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _, store = open_tree(args)
    with store_errors():
        removed = store.gc(dry_run=args.dry_run)
    verb = "Would delete" if args.dry_run else "Deleted"
    text = "\n".join(f"{verb}: {p}" for p in removed) or "Nothing to collect."
    emit({"removed": removed, "dry_run": args.dry_run}, text, as_json=args.json)
    return Exit.OK
