"""`memhooks show PATH`: one memory, with the hash that `save --update --if-hash` expects."""

from __future__ import annotations

import argparse

from memhooks.cli.common import add_json, open_tree
from memhooks.errors import Exit, UserError
from memhooks.store import TREE_PREFIX, UnparsableMemoryError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "show",
        help="print one memory and its content hash",
        description="Print a memory (path relative to .claude/memory/).",
    )
    parser.add_argument("path")
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from memhooks.cli.output import emit

    _, store = open_tree(args)
    relative = args.path.removeprefix(TREE_PREFIX)
    try:
        meta, body, digest = store.read(relative)
    except UnparsableMemoryError as exc:
        raise UserError(f"{relative} does not parse: {exc}", Exit.REFUSED) from None
    head = "\n".join(f"{k}: {v}" for k, v in meta.items())
    emit(
        {"path": relative, "hash": digest, "meta": meta, "body": body},
        f"{relative}  (hash {digest})\n{head}\n\n{body}",
        as_json=args.json,
    )
    return Exit.OK
