"""`memhooks remember TEXT…`: seed 003's "remember that …", filed in the right category.

The category comes from --category or from plain cues in the text (see
`memhooks.curate.category_guess`). Before creating anything, the search index is asked for a similar
memory of the same category: if one is close, nothing is written until the caller chooses
`--update PATH` (add to it) or `--new` (file a separate memory).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.curate.category_guess import (
    INITIAL_FIELDS,
    description_for,
    guess_category,
    sections_for,
    short_title,
    statement,
)
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.recall.lookup import similar
from memhooks.store import TREE_PREFIX as PREFIX
from memhooks.store import resolve_category
from memhooks.text import clip
from memhooks.text.clock import iso
from memhooks.text.redact import redact

if TYPE_CHECKING:
    from memhooks.store import Store

CHOOSABLE = ("decision", "constraint", "runbook", "preference", "tech_debt")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "remember",
        help="remember a sentence as a typed memory (category guessed from cues)",
        description="File TEXT as a memory. The category is --category, or guessed: 'when … "
        "fails / steps' -> runbook; 'todo / later / hack / workaround' -> tech_debt; "
        "'decided / we will use / chose' -> decision; 'must / cannot / limit' -> constraint; "
        "'always / never / prefer' -> preference; no cue -> decision. The title is the first "
        "clause unless --title is given. If a similar memory of the same category exists, "
        f"nothing is written (exit {int(Exit.CONFLICT)}) until you pass --update PATH or --new.",
        epilog="Example: memhooks remember 'we always squash-merge pull requests'",
    )
    parser.add_argument("text", nargs="+", help="what to remember")
    parser.add_argument("--category", help=f"one of: {', '.join(CHOOSABLE)}")
    parser.add_argument("--title", help="the memory's title (default: the first clause)")
    parser.add_argument("--tags", help="comma-separated")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--update", metavar="PATH", help="add TEXT to this existing memory instead")
    choice.add_argument("--new", action="store_true", help="create it even if a similar one exists")
    add_json(parser)
    parser.set_defaults(func=run)


def pick_category(explicit: str | None, text: str) -> tuple[str, str]:
    """(category, why) for the output, so the user can see and correct the choice."""
    if explicit:
        try:
            name = resolve_category(explicit).name
        except KeyError:
            name = ""
        if name not in CHOOSABLE:
            raise UserError(
                f"unknown category {explicit!r}; use one of: {', '.join(CHOOSABLE)}",
                Exit.INVALID_INPUT,
            )
        return name, "--category"
    guess = guess_category(text)
    why = f"cue {guess.cue!r}" if guess.cue else "no cue: the default"
    return guess.category, why


def run(args: argparse.Namespace) -> int:
    from memhooks.cli.commands.save import render_sections
    from memhooks.curate.consolidate import refresh_if_old
    from memhooks.store import Draft, validate_draft

    paths, store = open_tree(args)
    patterns = store.settings.redact_patterns
    # Redacted before it is put on one line: a YAML block or a quoted value needs its lines.
    text = statement(redact(" ".join(args.text), patterns))
    if not text:
        raise UserError("nothing to remember: give the text to keep")
    if args.update:
        return _update(args, store, text)
    category, why = pick_category(args.category, text)
    if not args.new:
        _refuse_similar(args, similar(paths, text, category), category)
    title = redact(args.title, patterns) if args.title else short_title(text)
    meta: dict[str, Any] = {"title": title, **INITIAL_FIELDS.get(category, {})}
    description = description_for(text, title)
    if description:
        meta["description"] = clip(description, 200, fold=True)
    if args.tags:
        meta["tags"] = [redact(t.strip(), patterns) for t in args.tags.split(",") if t.strip()]
    draft = Draft(category, meta, render_sections(title, sections_for(category, text)))
    from memhooks.store import DuplicateError

    def already() -> list[dict[str, Any]] | None:
        # Again under the store lock: six parallel identical calls file one memory.
        return None if args.new else similar(paths, text, category) or None

    try:
        saved = store.create(category, validate_draft(draft), draft.body, unless=already)
    except DuplicateError as exc:
        _refuse_similar(args, list(exc.found), category)  # type: ignore[call-overload]
        raise
    refresh_if_old(paths)
    entry = saved.entry
    emit(
        {
            "path": PREFIX + entry.path,
            "category": entry.category,
            "title": entry.title,
            "why": why,
            "created": True,
        },
        f"Remembered as a {entry.category} ({why}): {PREFIX}{entry.path} — {entry.title}\n"
        f"Wrong category? Retire it ({cli_hint('forget ' + PREFIX + entry.path + ' --yes')}) "
        "and run remember again with --category.",
        as_json=args.json,
    )
    return Exit.OK


def _refuse_similar(args: argparse.Namespace, close: list[dict[str, Any]], category: str) -> None:
    """Exit 6, listing the similar memories, when there are any."""
    if not close:
        return
    best = close[0]
    emit(
        {"conflict": True, "category": category, "similar": close},
        f"A similar {category} is already in {PREFIX}:\n"
        + "\n".join(f"- {PREFIX}{c['path']} — {c['title']}: {c['description']}" for c in close),
        as_json=args.json,
    )
    raise UserError(
        f"not saved: {PREFIX}{best['path']} looks like the same {category}. Run again "
        f"with --update {best['path']} to add to it, or --new to file a separate one",
        Exit.CONFLICT,
    )


def _update(args: argparse.Namespace, store: Store, text: str) -> int:
    relative = str(args.update).removeprefix(PREFIX)
    meta, body, digest = store.read(relative)
    addition = f"## Update {iso()[:10]}\n{text}"
    changes: dict[str, Any] = {}
    if args.title:
        changes["title"] = redact(args.title, store.settings.redact_patterns)
    from memhooks.store import Draft, validate_draft

    category = str(meta.get("category") or "decision")
    changes = validate_draft(Draft(category, changes), partial=True)
    saved = store.update(
        relative, changes, body.rstrip("\n") + "\n\n" + addition + "\n", expected_hash=digest
    )
    entry = saved.entry
    emit(
        {
            "path": PREFIX + entry.path,
            "category": entry.category,
            "title": entry.title,
            "created": False,
            "previous_title": meta.get("title"),
        },
        f"Updated {entry.category}: {PREFIX}{entry.path} — {entry.title}",
        as_json=args.json,
    )
    return Exit.OK
