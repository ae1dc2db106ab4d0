"""`memhooks list`: the memories, newest first, optionally by category or lifecycle state."""

from __future__ import annotations

import argparse

from memhooks.cli.common import add_json, category_name, memory_paths, require_tree
from memhooks.cli.output import emit, table
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.store import load_catalog


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "list", help="list memories", description="List memories from the catalog, newest first."
    )
    parser.add_argument("--category", help="only this category")
    parser.add_argument(
        "--state",
        choices=("active", "retired", "archived", "all"),
        default="active",
        help="lifecycle state (default: active)",
    )
    parser.add_argument("--limit", type=int, default=0, help="at most this many (0 = all)")
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths = memory_paths(args)
    require_tree(paths)
    cat = load_catalog(paths.catalog)
    if cat is None:
        raise UserError(f"the catalog is missing; run {cli_hint('rebuild')}", Exit.NOT_FOUND)
    category = None
    if args.category:
        category = category_name(args.category)
    entries = sorted(cat.entries.values(), key=lambda e: e.sort_key(), reverse=True)
    entries = [
        e
        for e in entries
        if args.state in ("all", e.record_status) and (category is None or e.category == category)
    ]
    if args.limit > 0:
        entries = entries[: args.limit]
    rows = [[e.category, (e.updated or e.created)[:10], e.path, e.title[:60]] for e in entries]
    text = table(rows, ["category", "updated", "path", "title"]) if rows else "No memories."
    emit({"memories": [e.as_dict() for e in entries]}, text, as_json=args.json)
    return Exit.OK
