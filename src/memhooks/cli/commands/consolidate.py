"""`memhooks consolidate [--apply] [--json]`: duplicates, superseded memories, contradictions,
relative dates and stale code citations; a dry run unless --apply."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit
from memhooks.install.invocation import cli_hint
from memhooks.store import TREE_PREFIX as PREFIX
from memhooks.store import read_text

if TYPE_CHECKING:
    from memhooks.curate.proposals import Action
    from memhooks.store import MemoryPaths, Store


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "consolidate",
        help="propose (or --apply) merges, retirements and date fixes that keep memory true",
        description="Look over the live memories for: near-duplicates in a category (retire the "
        "older: 'duplicate of <path>'); a newer memory that reverses or names an older one "
        "(retire the older: 'superseded by <path>'); contradictions (flagged, never resolved); "
        "relative dates such as 'next week' (rewritten from the memory's created date); and "
        "memories whose cited code (path:line) changed (flagged for review). Nothing changes "
        "without --apply. Every applied change is logged with its reason and diff in "
        f"{PREFIX}consolidation.log.md, and `memhooks restore PATH` takes any of them back.",
        epilog="Example: memhooks consolidate --json; then memhooks consolidate --apply",
    )
    parser.add_argument(
        "--apply", action="store_true", help="carry out the retirements and date rewrites"
    )
    parser.add_argument(
        "--undo",
        metavar="PATH",
        help="take back the last logged rewrite (relative dates) of this memory; "
        "`memhooks restore PATH` undoes either",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from memhooks.curate import consolidate, proposals

    paths, store = open_tree(args)
    if args.undo:
        return _undo(args, paths, store)
    actions = proposals.analyse(paths)
    done: list[Action] = []
    if args.apply:
        done = consolidate.apply(store, actions)
        left = [a for a in actions if a not in done]
        consolidate.record_pending(paths, left)
    else:
        consolidate.record_pending(paths, actions)
    emit(
        {
            "applied": bool(args.apply),
            "actions": [a.as_json() for a in actions],
            "done": [a.as_json() for a in done],
        },
        _text(actions, done, applied=args.apply),
        as_json=args.json,
    )
    return Exit.OK


def _undo(args: argparse.Namespace, paths: MemoryPaths, store: Store) -> int:
    return undo_rewrite(args, paths, store, str(args.undo).removeprefix(PREFIX))


def undo_rewrite(args: argparse.Namespace, paths: MemoryPaths, store: Store, relative: str) -> int:
    """Take back the newest rewrite `--apply` made of `relative` (also `memhooks restore`)."""
    from memhooks.curate.undo import undo

    log = read_text(paths.consolidation_log)
    diff = undo(store, relative, log)
    emit(
        {"undone": relative, "diff": diff},
        f"Undid the consolidation rewrite of {PREFIX}{relative}:\n{diff.rstrip()}",
        as_json=args.json,
    )
    return Exit.OK


def _text(listed: list[Action], done: list[Action], *, applied: bool) -> str:
    if not listed:
        return (
            f"Nothing to consolidate in {PREFIX}: no duplicates, reversals, contradictions, "
            "relative dates or stale citations."
        )
    lines = [
        f"{'Applied' if applied else 'Proposed'} consolidation of {PREFIX} "
        f"({len(listed)} finding(s)):"
    ]
    for action in listed:
        mark = "done" if action in done else ("flag" if not action.applicable else "todo")
        lines.append(f"[{mark}] {action.kind}: {action.proposal}")
        lines.append(f"       why: {action.reason}")
        if action.diff:
            lines += ["       " + line for line in action.diff.rstrip("\n").splitlines()]
    if not applied and any(a.applicable for a in listed):
        lines.append(
            f"Dry run: nothing changed. {cli_hint('consolidate --apply')} carries out the todo "
            "items (contradictions and stale citations stay for you to decide)."
        )
    if applied and done:
        lines.append(
            f"Logged in {PREFIX}consolidation.log.md; undo a retirement with "
            f"{cli_hint('restore <path>')}."
        )
    return "\n".join(lines)
