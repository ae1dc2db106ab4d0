"""`memhooks summarize`: the material for a session summary, and saving the one Claude wrote.

Seed 002: one file per session, `sessions/<session-id>.md`, so running it again in the same
session updates the same file. The Stop hook's `## Automatic journal` in that file is kept.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

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
from memhooks.continuity.session_checkpoint import read_session_checkpoint
from memhooks.curate.summary_format import (
    SUMMARY_TEMPLATE,
    summary_description,
    summary_problems,
    tracking_labels,
    without_journal,
)
from memhooks.curate.summary_material import (
    SUMMARY_BUDGET,
    Pack,
    latest_session_id,
    read_if_present,
)
from memhooks.errors import Exit, UserError
from memhooks.store import JOURNAL_HEADING, MemoryPaths, Settings, first_heading
from memhooks.store import TREE_PREFIX as PREFIX
from memhooks.text import clip
from memhooks.text.redact import redact, redact_field

DESCRIPTION_MAX = 200
EVIDENCE_LOCK_SECONDS = 2.0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "summarize",
        help="gather material for a session summary, or save one from stdin",
        description="--material prints what a session summary is written from: the session "
        "id (given, or the latest session in the session record), the existing summary (a re-run "
        "updates it), the session's automatic journal, checkpoints/latest.md and the required "
        "structure. --save reads the summary markdown on stdin ('# Title', '## Context', "
        "'## Tracking Points' with labelled points such as '- Decision: …', optional "
        "'## Related Files/Artifacts'), checks it, redacts secrets and writes "
        "sessions/<session-id>.md, keeping the automatic journal.",
        epilog="Example: memhooks summarize --save <<'EOF'\n# Title\n## Context\n…\nEOF",
    )
    add_mode_options(
        parser,
        save_help="save the summary read from stdin",
        chunks_help="overview of the session's whole material (transcript, compaction "
        "summaries, checkpoints) in numbered chunks, for the summarize agent",
    )
    parser.add_argument(
        "--transcript-file",
        type=Path,
        metavar="PATH",
        help="--chunks/--chunk: the session's JSONL transcript (default: found in the host's "
        "projects folder by session id)",
    )
    parser.add_argument("--session", metavar="ID", help="session id (default: the latest one)")
    parser.add_argument(
        "session_arg",
        nargs="?",
        default="",
        metavar="SESSION",
        help="the session id as a plain argument, as `/memory summarize [id]` passes it",
    )
    add_budget(parser, SUMMARY_BUDGET)
    add_json(parser)
    parser.set_defaults(func=run)


def resolve_session(paths: MemoryPaths, explicit: str | None) -> str:
    from memhooks.store import StateUnreadableError, UnsafePathError, read_state, session_file_stem

    # The host names the running session in its environment; with parallel sessions that
    # beats "the latest one _session.json saw".
    chosen: str | None = (explicit or "").strip() or os.environ.get(
        "CLAUDE_CODE_SESSION_ID", ""
    ).strip()
    if not chosen:
        try:
            state = read_state(paths.session) or {}
        except StateUnreadableError as exc:
            raise UserError(str(exc), Exit.REFUSED) from None
        chosen = latest_session_id(state)
        if not chosen:
            raise UserError(
                "no session recorded in _session.json yet: pass --session ID (the id is in "
                "the SessionStart briefing)",
                Exit.NOT_FOUND,
            )
    try:
        return session_file_stem(chosen)
    except UnsafePathError as exc:
        raise UserError(f"{exc}: ids are letters, digits, '-' and '_'", Exit.REFUSED) from None


def run(args: argparse.Namespace) -> int:
    paths = memory_paths(args)
    require_tree(paths)
    if args.session and args.session_arg.strip() and args.session != args.session_arg.strip():
        raise UserError("two different session ids given: use one", Exit.USAGE)
    session_id = resolve_session(paths, args.session or args.session_arg)
    if args.material:
        return _material(paths, session_id, args.budget, as_json=args.json)
    if args.chunks or args.chunk is not None:
        from memhooks.cli.commands.summarize_chunks import print_chunks

        return print_chunks(paths, session_id, args)
    return _save(paths, session_id, as_json=args.json)


def _split(path_text: str | None) -> tuple[str, str]:
    """(summary, journal) of a session file's body."""
    if path_text is None:
        return "", ""
    from memhooks.store import UnparsableMemoryError, parse_text

    try:
        body = parse_text(path_text).body
    except UnparsableMemoryError:
        body = path_text
    at = body.find(JOURNAL_HEADING)
    summary, journal = (body, "") if at < 0 else (body[:at], body[at:])
    # The Stop hook's file starts with a bare title: that is no summary yet.
    if "\n## " not in "\n" + summary:
        summary = ""
    return summary.strip(), journal.strip()


def _material(paths: MemoryPaths, session_id: str, budget: int, *, as_json: bool) -> int:
    relative = f"sessions/{session_id}.md"
    summary, journal = _split(read_if_present(Path(paths.base) / relative))
    # This session's own checkpoint, never another session's (latest.md is per project).
    checkpoint, where = read_session_checkpoint(paths, session_id)
    pack = Pack(max(budget, 2_000))
    pack.add("Required structure", SUMMARY_TEMPLATE)
    source = PREFIX + relative
    pack.add(f"Existing summary in {source} (update it)", summary, source=source)
    pack.add(
        f"Automatic journal of this session ({source})", journal, source=source, keep_tail=True
    )
    pack.add(f"This session's checkpoint ({PREFIX}{where})", checkpoint, source=f"{PREFIX}{where}")
    head = [
        f"Session: {session_id}",
        f"Summary file: {PREFIX}{relative} ("
        + ("exists: a re-run updates it" if summary else "new")
        + ")",
    ]
    if not journal and not checkpoint:
        head.append("No journal or checkpoint for this session: write from the conversation.")
    emit(
        {
            "session_id": session_id,
            "path": PREFIX + relative,
            "existing_summary": summary or None,
            "journal": journal or None,
            "checkpoint": checkpoint or None,
            "template": SUMMARY_TEMPLATE,
        },
        "\n".join(head) + "\n\n" + pack.render(),
        as_json=as_json,
    )
    return Exit.OK


def _save(paths: MemoryPaths, session_id: str, *, as_json: bool) -> int:
    text = read_stdin_text()
    if not text.strip():
        raise UserError("no summary on stdin: pipe the markdown in (a heredoc works)")
    meta_in: dict[str, Any] = {}
    if text.lstrip().startswith("---"):
        from memhooks.store import UnparsableMemoryError, parse_text

        try:
            raw = parse_text(text.lstrip())
        except UnparsableMemoryError as exc:
            raise UserError(f"stdin: {exc}") from None
        text = raw.body
        meta_in = {k: v for k, v in raw.meta.items() if k in ("tags", "outcome", "description")}
    body = without_journal(text).strip() + "\n"
    problems = summary_problems(body)
    if problems:
        raise UserError(
            "the summary does not follow the required structure (`summarize --material` "
            "shows it): " + "; ".join(problems)
        )
    store = open_store(paths)
    patterns = store.settings.redact_patterns
    body = redact(body, patterns)
    title = (first_heading(body) or session_id)[:120]
    meta: dict[str, Any] = {
        **meta_in,
        "title": title,
        "description": meta_in.get("description") or summary_description(body),
    }
    meta = {k: redact_field(k, v, patterns) for k, v in meta.items()}
    meta = _validated(meta)
    saved = store.write_session_file(session_id, meta, body)
    _keep_in_evidence(paths, store.settings, session_id, body)
    entry = saved.entry
    verb = "Saved" if saved.created else "Updated"
    text_out = f"{verb} the session summary: {PREFIX}{entry.path} — {entry.title}"
    labels = tracking_labels(body)
    if labels:
        text_out += f"\nTracking points: {', '.join(labels)}"
    for retired in saved.retired_by_window:
        text_out += f"\nRetired by the session rolling window: {PREFIX}{retired}"
    emit(
        {
            "session_id": session_id,
            "path": PREFIX + entry.path,
            "created": saved.created,
            "title": entry.title,
            "tracking_points": labels,
            "retired": list(saved.retired_by_window),
        },
        text_out,
        as_json=as_json,
    )
    return Exit.OK


def _keep_in_evidence(paths: MemoryPaths, settings: Settings, session_id: str, body: str) -> None:
    """The summary (redacted) kept in the session's evidence as well, where the thread of the
    next sessions finds it (continuity/thread.py: framed as a model's summary, never as
    proof). A session without evidence (capture off, another machine's) keeps none."""
    from memhooks.continuity.evidence import summary_text
    from memhooks.hooks.thread_build import render_thread
    from memhooks.store import UnsafePathError, quick_lock, read_evidence, save_evidence
    from memhooks.text.clock import iso

    try:
        with quick_lock(paths.lock, EVIDENCE_LOCK_SECONDS):
            state = read_evidence(paths, session_id)
            if state is None or not isinstance(state.get("turns"), list):
                return
            turns = state["turns"]
            state["summarized"] = {
                "text": summary_text(body),
                "at": iso(),
                "after_turn": turns[-1].get("n", 0) if turns else 0,
            }
            save_evidence(paths, session_id, state)
            render_thread(paths, settings, (session_id, state), "summarize")
    except (OSError, UnsafePathError):  # the summary file is what was asked for: it is saved
        return


def _validated(meta: dict[str, Any]) -> dict[str, Any]:
    from pydantic import ValidationError

    from memhooks.store import meta_to_dict, parse_meta

    if isinstance(meta.get("description"), str):
        meta["description"] = clip(meta["description"], DESCRIPTION_MAX)
    try:
        model = parse_meta({**meta, "category": "session_summary"})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise UserError(f"invalid session summary: {problems}") from None
    out = meta_to_dict(model)
    out.pop("category", None)
    out.pop("record_status", None)
    return out
