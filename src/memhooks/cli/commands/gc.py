"""`memhooks gc`: delete retired memories past the grace period (archived ones are kept)."""

from __future__ import annotations

import argparse

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "gc",
        help="expire old memories, delete retired ones past the grace period",
        description="First retire active memories not updated for their category's "
        "categories.<name>.retention_days (0 = keep forever, the default; 90 for session "
        "summaries), then delete memories retired longer ago than delete.grace_period_days "
        "(default 30). Archived memories are never deleted.",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="list what would be retired and deleted"
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _, store = open_tree(args)
    expired = store.expire(dry_run=args.dry_run)
    removed = store.gc(dry_run=args.dry_run)
    retire, delete = ("Would retire", "Would delete") if args.dry_run else ("Retired", "Deleted")
    lines = [f"{retire} (retention): {p}" for p in expired]
    lines += [f"{delete}: {p}" for p in removed]
    emit(
        {"expired": expired, "removed": removed, "dry_run": args.dry_run},
        "\n".join(lines) or "Nothing to collect.",
        as_json=args.json,
    )
    return Exit.OK
