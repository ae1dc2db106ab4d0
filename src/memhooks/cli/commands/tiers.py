"""`memhooks promote PATH` and `memhooks demote PATH`: move a memory between this project's
tree and the user tier (`memhooks.store.user_tier`), provenance kept, a duplicate refused,
both trees' index and search updated (`memhooks.store.tier_move`). Each undoes the other.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.cli.user_store import open_user_store, where
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.store import TREE_PREFIX, display

VERBS = {
    "promote": (
        "move a project memory up to the user tier (memories about you, used in every project)",
        "memory path relative to .claude/memory/, e.g. preferences/tabs.md",
    ),
    "demote": (
        "move a user-tier memory down into this project's .claude/memory/",
        "memory path relative to the user tier's folder, e.g. preferences/tabs.md",
    ),
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for verb, (summary, path_help) in VERBS.items():
        parser = sub.add_parser(
            verb,
            help=summary,
            description=summary[0].upper()
            + summary[1:]
            + ". The file keeps its name and frontmatter, gains moved_from, moved_at and a "
            "line in moves, and leaves the tree it was in; both trees' index and search are "
            "updated. Refused (exit 6) when the other tree holds the same file name or a "
            f"memory of the same category and title. `memhooks {_other(verb)}` moves it back.",
        )
        parser.add_argument("path", help=path_help)
        add_json(parser)
        parser.set_defaults(func=run, verb=verb)


def _other(verb: str) -> str:
    return "demote" if verb == "promote" else "promote"


def _relative(path: str, *prefixes: str) -> str:
    for prefix in prefixes:
        if prefix and path.startswith(prefix):
            return path[len(prefix) :].lstrip("/" + os.sep)
    return path


def run(args: argparse.Namespace) -> int:
    from memhooks.store import DuplicateError, move_between

    paths, project = open_tree(args)
    user = open_user_store(paths, project.settings)
    name = Path(paths.base).parent.parent.name
    user_prefix = display(user.paths)
    if args.verb == "promote":
        source, target = project, user
        relative = _relative(args.path, TREE_PREFIX, paths.base)
        origin, destination = f"project {name}", "user tier"
        old_prefix, new_prefix, place = TREE_PREFIX, user_prefix, where(user.paths)
    else:
        source, target = user, project
        relative = _relative(args.path, user_prefix, user.paths.base)
        origin, destination = "user tier", f"project {name}"
        old_prefix, new_prefix, place = user_prefix, TREE_PREFIX, f"this project ({TREE_PREFIX})"
    try:
        entry = move_between(source, target, relative, origin=origin, destination=destination)
    except DuplicateError as exc:
        found = exc.found if isinstance(exc.found, list) else []
        names = ", ".join(f"{new_prefix}{f['path']} — {f['title']}" for f in found)
        raise UserError(
            f"not moved: {place} already holds {names}. Retire one of the two first",
            Exit.CONFLICT,
        ) from None
    back = cli_hint(f"{_other(args.verb)} {entry.path}")
    emit(
        {
            "path": new_prefix + entry.path,
            "from": old_prefix + relative,
            "tier": "user" if args.verb == "promote" else "project",
            "category": entry.category,
            "title": entry.title,
        },
        f"{args.verb.capitalize()}d to {place}: {new_prefix}{entry.path} — {entry.title} "
        f"(was {old_prefix}{relative}). Undo: {back}",
        as_json=args.json,
    )
    return Exit.OK
