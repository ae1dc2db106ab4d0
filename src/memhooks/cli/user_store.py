"""The commands' side of the user tier (`memhooks.store.user_tier`): its store, and the
words that say which tier a memory is in.

The user tier is the user's own folder: no consent is asked for it (nothing in it came
from a repository), and its `config.json`, if the user writes one, is read as theirs. The
project's redaction patterns apply as well to what is filed there from a project.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memhooks.errors import Exit, UserError
from memhooks.store import (
    PROJECT,
    USER,
    InsideProjectError,
    MemoryPaths,
    Settings,
    Store,
    checked_user_paths,
    display,
    made,
    user_paths,
)

if TYPE_CHECKING:
    from memhooks.recall.search_read import Hit


def user_tree(project: MemoryPaths) -> MemoryPaths:
    """The user tier for a command on `project`'s tree; exit 9 when it would sit inside the
    project, or when its folder is a symlink."""
    from memhooks.store import project_of, tree_problem

    try:
        paths = checked_user_paths(project_of(project))
    except InsideProjectError as exc:
        raise UserError(str(exc), Exit.REFUSED) from None
    problem = tree_problem(paths.base) if Path(paths.base).exists() else ""
    if problem:
        raise UserError(problem, Exit.REFUSED)
    return paths


def _no_citations(_project: str, meta: dict[str, object], _body: str) -> dict[str, object]:
    """The user tier belongs to no project: nothing there cites a project's code."""
    return meta


def open_user_store(project: MemoryPaths, project_settings: Settings | None = None) -> Store:
    """The user tier's store (its folder made on first use); its settings are its own
    config.json's, with the project's redaction patterns added."""
    from memhooks.cli.common import _configured
    from memhooks.recall.search_index import SearchIndex

    paths = user_tree(project)
    made(paths)
    found = _configured(paths)
    if project_settings is not None:
        extra = [p for p in project_settings.redact_patterns if p not in found.redact_patterns]
        found.redact_patterns = (*found.redact_patterns, *extra)
    return Store(paths, found, search=SearchIndex, cite=_no_citations)


def where(paths: MemoryPaths, why: str = "") -> str:
    """`the user tier (~/.local/share/memhooks-user/, every project)`: the output's words,
    with why it went there when that was chosen (`--user`, a cue)."""
    return f"the user tier ({display(paths)}, every project{'; ' + why if why else ''})"


def add_tier_options(parser: argparse.ArgumentParser, *, cue: bool) -> None:
    """`--user` (file it in the user tier) and `--tier user|project`."""
    guessed = (
        " (default: the user tier when the text is plainly about you, 'I prefer …', "
        "'answer in British English'; else the project)"
        if cue
        else " (default: project)"
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--user",
        dest="tier",
        action="store_const",
        const=USER,
        help="file it in the user tier: memories about you, used in every project, kept in "
        f"{display(user_paths())}",
    )
    group.add_argument("--tier", choices=(USER, PROJECT), help="where to file it" + guessed)


def choose_tier(args: argparse.Namespace, text: str = "") -> tuple[str, str]:
    """(tier, why): the flag, else the personal cue in `text`, else the project."""
    if getattr(args, "tier", None):
        return str(args.tier), f"--tier {args.tier}" if args.tier == PROJECT else "--user"
    from memhooks.curate.tier_cue import personal_cue

    cue = personal_cue(text) if text else ""
    return (USER, f"cue {cue!r}") if cue else (PROJECT, "")


def readable_user_tree(project: MemoryPaths) -> MemoryPaths | None:
    """The user tier for reading beside `project` (recall, status, view, export), or None
    when there is none yet, or its folder is inside the project (never read twice)."""
    from memhooks.store import inside_project, project_of

    paths = user_paths()
    if not Path(paths.base).is_dir() or inside_project(project_of(project), paths):
        return None
    return paths


def user_hits(project: MemoryPaths, query: str, limit: int, floor: float) -> tuple[str, list[Hit]]:
    """recall's second part: the user tier's folder as the output names it, and its matches
    (none when there is no user tier yet)."""
    from memhooks.recall.search_index import SearchIndex

    paths = readable_user_tree(project)
    if paths is None or not Path(paths.search_db).exists():
        return "", []
    with SearchIndex(paths.search_db) as index:
        return display(paths), list(index.query(query, limit=limit, min_score=floor))


def user_overview(project: MemoryPaths, cap: int) -> str:
    """recall's overview of the user tier: its index, framed, or ""."""
    from memhooks.continuity.briefing import index_pointers
    from memhooks.store import read_text
    from memhooks.text.frame import frame

    paths = readable_user_tree(project)
    pointers = index_pointers(read_text(paths.index, cap)) if paths else ""
    if paths is None or not pointers:
        return ""
    source = display(paths) + "MEMORY.md"
    return f"=== {source} (the user tier: about you, every project) ===\n\n" + frame(
        source, pointers
    )


def user_summary(project: MemoryPaths) -> dict[str, object] | None:
    """status's view of the user tier: its folder and active memories per category, or
    None when there is none."""
    from memhooks.store import load_catalog

    paths = readable_user_tree(project)
    if paths is None:
        return None
    cat = load_catalog(paths.catalog)
    counts = cat.counts() if cat is not None else {}
    return {"root": display(paths), "counts": counts, "total": sum(counts.values())}


def user_memories(project: MemoryPaths) -> list[dict[str, Any]]:
    """The view's rows for the user tier: each path under the tier's folder, each category
    named `user tier: <category>`, so the page groups and says them apart."""
    from memhooks.view.data import memories

    paths = readable_user_tree(project)
    if paths is None:
        return []
    prefix = display(paths)
    return [
        {
            **row,
            "path": prefix + row["path"],
            "category": f"user tier: {row['category']}",
            "tier": USER,
        }
        for row in memories(paths, {})
    ]
