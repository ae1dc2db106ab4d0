"""`memhooks retire|archive|restore PATH`: lifecycle changes with reasons and dates.

Nothing is deleted here; `memhooks gc` does that after the grace period.
"""

from __future__ import annotations

import argparse

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit
from memhooks.store.paths import TREE_PREFIX

VERBS = {
    "retire": ("retired", "take a memory out of the index (GC deletes it after the grace period)"),
    "archive": ("archived", "take a memory out of the index for good, never GC'd"),
    "restore": ("active", "bring a retired or archived memory back"),
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for verb, (state, summary) in VERBS.items():
        parser = sub.add_parser(verb, help=summary, description=summary.capitalize() + ".")
        parser.add_argument("path", help="memory path relative to .claude/memory/")
        if state != "active":
            parser.add_argument("--reason", required=True, help="why (kept in the file)")
        add_json(parser)
        parser.set_defaults(func=run, state=state, verb=verb)


def run(args: argparse.Namespace) -> int:
    _, store = open_tree(args)
    relative = args.path.removeprefix(TREE_PREFIX)
    saved = store.set_record_status(relative, args.state, getattr(args, "reason", ""))
    emit(
        {"path": saved.entry.path, "record_status": saved.entry.record_status},
        f"{args.verb.capitalize()}d: {TREE_PREFIX}{saved.entry.path}",
        as_json=args.json,
    )
    return Exit.OK
