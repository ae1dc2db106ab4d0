"""`memhooks export`: chosen memories in one portable bundle (`.tar.gz` with a manifest)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from memhooks import __version__
from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.store import CATEGORIES, MemoryPaths, Store, resolve_category
from memhooks.store import TREE_PREFIX as PREFIX
from memhooks.text import one_line
from memhooks.text.clock import epoch, iso, parse_iso
from memhooks.transfer.plan import KNOWLEDGE, SESSION_CATEGORIES


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "export",
        help="pack chosen memories into one bundle (.tar.gz) for another project",
        description="Write the chosen memories of .claude/memory/ into one .tar.gz bundle with "
        "a manifest (format version, source project, export date, the sha256 of each file), "
        "for `memhooks import` in another project. By default: the active decisions, "
        "constraints, runbooks, preferences, tech debt and analyses. Never the derived files "
        "(MEMORY.md, the archive, .cache/), checkpoints, context/ or progress/; session "
        "summaries, their journals and sub-agent outputs only with --sessions. Every file is "
        "validated and its secrets redacted again on the way out.",
        epilog="Examples: memhooks export --category runbook --category constraint "
        "--out team-conventions.tar.gz | memhooks export --query deploy --since 2025-01-01 | "
        "memhooks export --sessions --state all --out backup.tar.gz (a whole store)",
    )
    names = ", ".join(c.name for c in CATEGORIES)
    parser.add_argument(
        "--category",
        action="append",
        default=[],
        metavar="C",
        help=f"only this category (repeatable; one of: {names})",
    )
    parser.add_argument("--query", metavar="Q", help="only memories that `memhooks recall Q` finds")
    parser.add_argument(
        "--since", metavar="DATE", help="only memories updated on or after DATE (YYYY-MM-DD)"
    )
    parser.add_argument(
        "--sessions",
        action="store_true",
        help="also session summaries with their automatic journals, and sub-agent outputs",
    )
    parser.add_argument(
        "--state",
        choices=("active", "retired", "archived", "all"),
        default="active",
        help="lifecycle state to export (default: active; `all` for a backup)",
    )
    parser.add_argument(
        "--out",
        metavar="FILE",
        type=Path,
        help="where to write the bundle (default: beside the project's folder, "
        "../memhooks-<project>-<date>-<hhmmss>.tar.gz); "
        "an existing file is never overwritten",
    )
    parser.add_argument(
        "--user",
        action="store_true",
        help="export the user tier (memories about you, kept outside every project) "
        "instead of this project's memories",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def _categories(args: argparse.Namespace) -> tuple[str, ...]:
    if not args.category:
        return KNOWLEDGE + (SESSION_CATEGORIES if args.sessions else ())
    unknown = [name for name in args.category if _known(name) is None]
    if unknown:
        names = ", ".join(c.name for c in CATEGORIES)
        raise UserError(f"unknown category {unknown[0]!r}; use one of: {names}", Exit.INVALID_INPUT)
    chosen = [str(_known(name)) for name in args.category]
    return tuple(dict.fromkeys(chosen))


def _known(name: str) -> str | None:
    try:
        return resolve_category(name).name
    except KeyError:
        return None


def default_bundle(paths: MemoryPaths, name: str, stamp: str) -> Path:
    """Beside the project, not in it (where git would list it as a change of the project's,
    and `import` would find it again): `<parent>/memhooks-<name>-<date>-<hhmmss>.tar.gz`.
    No colon: `tar` reads `host:file` as a remote archive."""
    clock = stamp[11:19].replace(":", "")
    return Path(paths.base).parent.parent.parent / f"memhooks-{name}-{stamp[:10]}-{clock}.tar.gz"


def _output(args: argparse.Namespace, paths: MemoryPaths, project: str, stamp: str) -> Path:
    from memhooks.store import slugify

    out = args.out or default_bundle(paths, slugify(project), stamp)
    out = out.expanduser().absolute()  # the atomic write's temp file goes beside it
    if out.exists() or out.is_symlink():
        raise UserError(
            f"{out} exists; choose another --out (export never overwrites a file)", Exit.REFUSED
        )
    resolved = out.resolve()
    root = Path(paths.base).resolve()
    if resolved == root or root in resolved.parents:
        raise UserError(f"{out} is inside {PREFIX}; write the bundle somewhere else", Exit.REFUSED)
    return out


def run(args: argparse.Namespace) -> int:
    from memhooks.recall.lookup import matching
    from memhooks.store import BundleFile, BundleManifest, safe_state, write_atomic
    from memhooks.transfer.bundle import pack, sha256
    from memhooks.transfer.plan import InvalidMemoryError, Selection, clean, select

    paths, store, prefix = _tree(args)
    since = None
    if args.since:
        since = parse_iso(args.since)
        if since is None:
            raise UserError(f"--since takes a date (YYYY-MM-DD), got {args.since!r}", Exit.USAGE)
    categories = _categories(args)
    query_paths = matching(paths, args.query) if args.query else None
    chosen, problems = select(paths, Selection(categories, args.state, since, query_paths))
    if not chosen:
        raise UserError(
            f"nothing to export: no {args.state} memory in {prefix} matches "
            f"({', '.join(categories)}"
            + (f", query {args.query!r}" if args.query else "")
            + (f", since {args.since}" if args.since else "")
            + ")",
            Exit.NOT_FOUND,
        )
    patterns = store.settings.redact_patterns
    stamp = iso()
    project = str(safe_state(paths.session).get("project") or Path(paths.base).parent.parent.name)
    project = "user tier" if args.user else project
    project = one_line(project)[:300] or "project"
    out = _output(args, paths, project, stamp)
    files: dict[str, bytes] = {}
    redacted: dict[str, int] = {}
    skipped = [{"path": p, "reason": why} for p, why in problems]
    from memhooks.store import read_entry, read_memory

    for relative in chosen:
        target = Path(paths.base) / relative
        try:
            entry, _ = read_entry(paths, target)
            memory = clean(
                relative,
                read_memory(target),
                patterns,
                defaults={"title": entry.title, "created": entry.created},
            )
        except (OSError, InvalidMemoryError, ValueError) as exc:
            skipped.append({"path": relative, "reason": str(exc)})
            continue
        # What was validated and redacted, rendered as the store writes it (for a file the
        # store wrote, the same bytes: the renderer is deterministic and keeps key order).
        files[relative] = memory.render()
        if memory.redacted:
            redacted[relative] = memory.redacted
    manifest = BundleManifest(
        format="memhooks-bundle",
        format_version=1,
        source_project=project,
        exported_at=stamp,
        memhooks_version=__version__,
        selection={
            "categories": list(categories),
            "state": args.state,
            "query": args.query,
            "since": args.since,
            "sessions": bool(args.sessions),
        },
        files=[
            BundleFile(
                path=p,
                category=_category(p),
                size=len(data),
                sha256=sha256(data),
            )
            for p, data in sorted(files.items())
        ],
    )
    bundle = pack(manifest, files, int(epoch(stamp) or 0))
    write_atomic(out, bundle)
    counts: dict[str, int] = {}
    for relative in files:
        counts[_category(relative)] = counts.get(_category(relative), 0) + 1
    text = (
        f"Exported {len(files)} memories from {prefix} to {out} ({len(bundle):,} bytes): "
        + ", ".join(f"{n} {c}" for c, n in sorted(counts.items()))
        + ".\nImport it in another project with: "
        + cli_hint(f"import {_quoted(out)} --dry-run")
    )
    if redacted:
        text += f"\nSecrets redacted on the way out: {sum(redacted.values())} value(s) in " + (
            ", ".join(sorted(redacted))
        )
    for item in skipped:
        text += f"\nSkipped (not parsed or not valid): {item['path']}: {item['reason']}"
    emit(
        {
            "out": str(out),
            "bytes": len(bundle),
            "source_project": project,
            "tier": "user" if args.user else "project",
            "exported_at": stamp,
            "count": len(files),
            "counts": counts,
            "files": sorted(files),
            "redacted": redacted,
            "skipped": skipped,
        },
        text,
        as_json=args.json,
    )
    return Exit.OK


def _tree(args: argparse.Namespace) -> tuple[MemoryPaths, Store, str]:
    """The tree to export, its store and how the output names it: this project's, or with
    --user the user tier."""
    paths, store = open_tree(args)
    if not args.user:
        return paths, store, PREFIX
    from memhooks.cli.user_store import open_user_store, where

    store = open_user_store(paths, store.settings)
    return store.paths, store, where(store.paths)


def _category(relative: str) -> str:
    from memhooks.store import BY_FOLDER

    return BY_FOLDER[relative.split("/", 1)[0]].name


def _quoted(path: Path) -> str:
    import shlex

    return shlex.quote(os.fspath(path))
