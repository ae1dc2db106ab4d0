"""`memhooks list`: the memories, newest first, optionally by category or lifecycle state."""

from __future__ import annotations

import argparse
from dataclasses import asdict

from memhooks import catalog as catalog_io
from memhooks.categories import CATEGORIES, resolve
from memhooks.cli.common import add_json, memory_paths, require_tree
from memhooks.cli.errors import Exit, UserError
from memhooks.cli.output import emit, table
from memhooks.invocation import cli_hint


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
    cat = catalog_io.load(paths.catalog)
    if cat is None:
        raise UserError(f"the catalog is missing; run {cli_hint('rebuild')}", Exit.NOT_FOUND)
    category = None
    if args.category:
        try:
            category = resolve(args.category).name
        except KeyError:
            names = ", ".join(c.name for c in CATEGORIES)
            raise UserError(
                f"unknown category {args.category!r}; use one of: {names}", Exit.INVALID_INPUT
            ) from None
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
    emit({"memories": [asdict(e) for e in entries]}, text, as_json=args.json)
    return Exit.OK
