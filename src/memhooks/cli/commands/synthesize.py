"""`memhooks synthesize`: what is new since the last synthesis, and saving the new master.md.

Seed 002: master.md is distilled by theme from the session summaries, the checkpoints, the
decisions, the project's docs and its git history, incrementally (only what is newer than
the last synthesis). Claude writes the prose; the CLI checks it, keeps the previous version
in the machine-local `master.previous.md`, writes it atomically under the store lock and
shows a diff.
"""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path

from memhooks.cli.chunk_output import check_chunk_chars, print_chunk, print_overview
from memhooks.cli.common import (
    add_budget,
    add_json,
    add_mode_options,
    memory_paths,
    open_store,
    read_stdin_text,
    require_tree,
)
from memhooks.cli.output import emit
from memhooks.continuity.chunks import split
from memhooks.curate.summary_format import MASTER_TEMPLATE, Footer, master_problems, with_footer
from memhooks.curate.summary_material import (
    DEFAULT_BUDGET,
    UNCUT,
    doc_files,
    memories,
    read_if_present,
    synthesis_material,
)
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_command
from memhooks.store import TREE_PREFIX as PREFIX
from memhooks.store import MemoryPaths, replace_master
from memhooks.text.clock import iso
from memhooks.text.redact import redact

DIFF_CAP = 30_000
MIN_BUDGET = 2_000


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "synthesize",
        help="gather material for master.md, or save a new one from stdin",
        description="--material prints the previous master.md, then what is new since it was "
        "synthesized (its footer date, else its mtime): session summaries, the latest "
        "checkpoint, decisions, other memories' titles, docs/ and _docs/ markdown and the "
        "git log, within a character budget. --save reads the new master.md on stdin, checks "
        "the five sections (Current Status, Key Decisions, Learnings & Discoveries, "
        "Evolution & Changes, Active Questions), sets the '*Last synthesized: …*' footer, "
        "keeps the previous version as master.previous.md in the machine-local folder and "
        "prints a unified diff.",
        epilog="Example: memhooks synthesize --save <<'EOF'\n# Project Memory\n…\nEOF",
    )
    add_mode_options(
        parser,
        save_help="save master.md read from stdin",
        chunks_help="overview of the whole material, uncut, in numbered chunks (for an agent, "
        "when --material says something was cut or left out)",
    )
    add_budget(parser, DEFAULT_BUDGET)
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths = memory_paths(args)
    require_tree(paths)
    if args.material:
        if args.budget < MIN_BUDGET:
            raise UserError(f"--budget must be at least {MIN_BUDGET} characters", Exit.USAGE)
        return _material(paths, args.budget, as_json=args.json)
    if args.chunks or args.chunk is not None:
        return _chunks(paths, args)
    return _save(paths, as_json=args.json)


def _chunks(paths: MemoryPaths, args: argparse.Namespace) -> int:
    check_chunk_chars(args.chunk_chars)
    found = synthesis_material(paths, Path(paths.base).parent.parent, UNCUT, piece_cap=UNCUT)
    structure = "=== Required structure ===\n\n" + MASTER_TEMPLATE
    text = (found.pack.render() + "\n\n" + structure).strip()
    chunks = split(text.split("\n"), args.chunk_chars)
    if args.chunk is not None:
        return print_chunk(chunks, args.chunk, "Synthesis material", {}, as_json=args.json)
    how = f"{cli_command()} synthesize --chunk K"
    head = [
        f"Synthesis material for {PREFIX}master.md, uncut: {len(chunks)} chunk(s) of at most "
        f"{args.chunk_chars:,} characters. Read each in turn with:\n  {how}",
    ]
    return print_overview(chunks, args.chunk_chars, head, {}, as_json=args.json)


def _material(paths: MemoryPaths, budget: int, *, as_json: bool) -> int:
    project = Path(paths.base).parent.parent
    found = synthesis_material(paths, project, budget)
    since = iso(found.since) if found.since else None
    head = [
        f"Synthesis material for {PREFIX}master.md",
        (
            f"New since the last synthesis ({since}): "
            if since
            else "No master.md yet: everything counts as new: "
        )
        + f"{found.sessions} session file(s), {found.docs} doc(s), "
        + ("git log included." if found.git else "no git history."),
    ]
    if found.previous is None and not found.pack.pieces:
        head.append("Nothing to synthesize from yet: save session summaries first.")
    tail = "=== Required structure (synthesize by theme, not by date) ===\n\n" + MASTER_TEMPLATE
    emit(
        {
            "previous": found.previous,
            "since": since,
            "sessions": found.sessions,
            "docs": found.docs,
            "git": found.git,
            "material": [{"heading": p.heading, "text": p.text} for p in found.pack.pieces],
            "omitted": found.pack.omitted,
            "template": MASTER_TEMPLATE,
        },
        "\n".join(head) + "\n\n" + found.pack.render() + "\n\n" + tail,
        as_json=as_json,
    )
    return Exit.OK


def _save(paths: MemoryPaths, *, as_json: bool) -> int:
    text = read_stdin_text()
    if not text.strip():
        raise UserError("no master.md on stdin: pipe the markdown in (a heredoc works)")
    problems = master_problems(text)
    if problems:
        raise UserError(
            "master.md does not follow the required structure (`synthesize --material` "
            "shows it): " + "; ".join(problems)
        )
    store = open_store(paths)
    project = Path(paths.base).parent.parent
    sessions = len(memories(paths, "sessions"))
    docs = len(doc_files(project, None))
    new = with_footer(
        redact(text, store.settings.redact_patterns),
        Footer(iso(), f"{sessions} conversations, {docs} docs"),
    )
    with store.locked():
        old = read_if_present(Path(paths.master))
        replace_master(paths, new, old)
    diff = "".join(
        difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile="a/master.md" if old is not None else "/dev/null",
            tofile="b/master.md",
        )
    )
    shown = diff if len(diff) <= DIFF_CAP else diff[:DIFF_CAP] + "\n[… diff cut …]\n"
    verb = "Updated" if old is not None else "Created"
    previous = paths.previous_master
    summary = f"{verb} {PREFIX}master.md"
    if old is not None:
        summary += f" (previous version kept in {previous})"
    emit(
        {
            "path": PREFIX + "master.md",
            "created": old is None,
            "previous": previous if old is not None else None,
            "diff": diff,
        },
        summary + ("\n\n" + shown if shown else "\n(no change)"),
        as_json=as_json,
    )
    return Exit.OK
