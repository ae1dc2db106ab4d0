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
from memhooks.cli.user_store import add_tier_options, choose_tier, open_user_store, where
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
from memhooks.store import USER, display, resolve_category
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
    add_tier_options(parser, cue=True)
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


def _category_in(tier: str, explicit: str | None, text: str) -> tuple[str, str]:
    """pick_category, where a sentence filed in the user tier with no category cue is a
    preference (what the tier is for), not a decision."""
    category, why = pick_category(explicit, text)
    if tier == USER and not explicit and why.startswith("no cue"):
        return "preference", "the user tier's default"
    return category, why


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
    tier, tier_why = choose_tier(args, "" if args.update else text)
    prefix, place = PREFIX, "this project" + (f" ({tier_why})" if tier_why else "")
    if tier == USER:
        store = open_user_store(paths, store.settings)
        paths, prefix, place = store.paths, display(store.paths), where(store.paths, tier_why)
        patterns = store.settings.redact_patterns
        text = statement(redact(text, patterns))  # the user tier's own patterns too
    if args.update:
        return _update(args, store, text, prefix)
    category, why = _category_in(tier, args.category, text)
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
        # Asked once, under the store lock: six parallel identical calls file one memory.
        return None if args.new else similar(paths, text, category) or None

    try:
        saved = store.create(category, validate_draft(draft), draft.body, unless=already)
    except DuplicateError as exc:
        _refuse_similar(args, list(exc.found), category, prefix)  # type: ignore[call-overload]
        raise
    if tier != USER:
        refresh_if_old(paths)
    entry = saved.entry
    emit(
        {
            "path": prefix + entry.path,
            "category": entry.category,
            "title": entry.title,
            "why": why,
            "tier": tier,
            "created": True,
        },
        f"Remembered as a {entry.category} ({why}) in {place}: {prefix}{entry.path} — "
        f"{entry.title}\n" + _correction_hint(tier, category, entry.path),
        as_json=args.json,
    )
    return Exit.OK


def _correction_hint(tier: str, category: str, path: str) -> str:
    """How to move it if the tier is wrong, or fix a wrong category."""
    if tier == USER:
        return f"About this project only? {cli_hint('demote ' + path)} moves it into {PREFIX}."
    hint = (
        f"Wrong category? Retire it ({cli_hint('forget ' + PREFIX + path + ' --yes')}) "
        "and run remember again with --category."
    )
    if category == "preference":
        hint += f" About you, in every project? {cli_hint('promote ' + PREFIX + path)}."
    return hint


def _refuse_similar(
    args: argparse.Namespace, close: list[dict[str, Any]], category: str, prefix: str = PREFIX
) -> None:
    """Exit 6, listing the similar memories, when there are any."""
    if not close:
        return
    best = close[0]
    emit(
        {"conflict": True, "category": category, "similar": close},
        f"A similar {category} is already in {prefix}:\n"
        + "\n".join(f"- {prefix}{c['path']} — {c['title']}: {c['description']}" for c in close),
        as_json=args.json,
    )
    raise UserError(
        f"not saved: {prefix}{best['path']} looks like the same {category}. Run again "
        f"with --update {best['path']} to add to it, or --new to file a separate one",
        Exit.CONFLICT,
    )


def _update(args: argparse.Namespace, store: Store, text: str, prefix: str) -> int:
    relative = str(args.update).removeprefix(prefix).removeprefix(PREFIX)
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
            "path": prefix + entry.path,
            "category": entry.category,
            "title": entry.title,
            "created": False,
            "previous_title": meta.get("title"),
        },
        f"Updated {entry.category}: {prefix}{entry.path} — {entry.title}",
        as_json=args.json,
    )
    return Exit.OK
