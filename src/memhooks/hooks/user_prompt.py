"""UserPromptSubmit: a one-line reminder plus pointers to the few most relevant memories."""

from __future__ import annotations

import os
import re

from memhooks import TYPE_CHECKING
from memhooks.continuity import briefing
from memhooks.hooks.event import HookInput
from memhooks.hooks.output import context_output
from memhooks.recall.pointer import Pointer
from memhooks.store import MemoryPaths, Settings, read_status, record_shown, shown_statuses
from memhooks.text.redact import redact_prefix

if TYPE_CHECKING:
    from typing import Any

PROMPT_CHARS_KEPT = 4_000
#: Notifications and command echoes are not the user's task: never cached as a request.
NOT_A_REQUEST = ("<task-notification>", "<command-name>", "<command-message>", "<local-command-")
#: Session journals repeat the user's own words: pointing at them says nothing new. They stay
#: searchable with `/memory recall`. (Checkpoints are state, never indexed.)
NOT_POINTED_AT = ("session_summary",)
_SLASH_COMMAND = re.compile(r"/[A-Za-z][\w:.-]*(?:\s|$)")


def is_request(prompt: str) -> bool:
    """False for `/memory status` and other slash commands, notifications and echoes."""
    text = prompt.lstrip()
    return not text.startswith(NOT_A_REQUEST) and not _SLASH_COMMAND.match(text)


def prompt_to_keep(paths: MemoryPaths, hook: HookInput, settings: Settings) -> str:
    """The prompt as PreCompact will read it (redacted whole, then cut: a secret straddling
    the cut must not leave its head), or "" when it is not kept."""
    if not settings.capture_prompts or not is_request(hook.prompt):
        return ""
    try:
        return redact_prefix(hook.prompt, PROMPT_CHARS_KEPT, settings.redact_patterns)
    except RuntimeError as exc:  # a redact.extra_patterns entry ran past its deadline
        from memhooks.store import log_line, mark_slow

        log_line(paths.log, f"UserPromptSubmit: prompt not kept: {exc}")
        mark_slow(paths.patterns, str(getattr(exc, "pattern", "")))
        return ""


def save_turn(
    paths: MemoryPaths,
    session_id: str,
    prompt: str,
    shown: tuple[dict[str, str], str] | None,
    verdicts: dict[str, dict[str, object]] | None = None,
) -> None:
    """The prompt's one write step: the prompt kept for PreCompact, which can run before the
    transcript has it, the status text shown (with what was shown before), and the
    citations' verdicts when the check changed them (each only when there is one)."""
    from memhooks.store import keep_prompt, save_verdicts

    if prompt:
        try:
            keep_prompt(paths, session_id, prompt)
        except OSError as exc:  # a read-only tree or a full disk: the reminder still goes out
            from memhooks.store import log_line

            log_line(paths.log, f"UserPromptSubmit: prompt not kept for PreCompact: {exc}")
    if shown is not None:
        record_shown(paths, shown[0], session_id, shown[1])
    if verdicts is not None:
        save_verdicts(paths.citations, verdicts)


def relevant(paths: MemoryPaths, prompt: str, settings: Settings) -> list[Pointer]:
    if settings.max_inject <= 0 or not prompt.strip() or not os.path.exists(paths.search_db):
        return []
    from memhooks.recall.search_index import DEFAULT_TABLE, SearchIndex

    table = None if settings.semantic == "off" else DEFAULT_TABLE
    with SearchIndex(paths.search_db, table=table) as index:
        hits = index.query(
            prompt, limit=settings.max_inject, min_score=settings.min_score, exclude=NOT_POINTED_AT
        )
        if index.last_error:
            from memhooks.store import log_line

            log_line(paths.log, f"UserPromptSubmit: no pointers: {index.last_error}")
    return [Pointer(h.path, h.title, h.description) for h in hits]


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    # Read: the ranked pointers, the status and what this session was last shown of it.
    pointers = relevant(paths, hook.prompt, settings) if is_request(hook.prompt) else []
    verdicts = None
    if pointers:  # a few stats: only the memories about to be pointed at are checked
        from memhooks.recall.citation_check import mark_with
        from memhooks.store import load_verdicts

        verdicts = load_verdicts(paths.citations)
        if not mark_with(paths.base, pointers, verdicts):
            verdicts = None  # unchanged: not written again
    status = read_status(paths)
    status_text = briefing.status_text(status)
    shown = shown_statuses(paths) if status_text else {}
    remind = bool(status_text) and shown.get(hook.session_id, "") != status_text
    # Decide, then write once.
    text = briefing.prompt_reminder(
        status=status if remind else None, pointers=pointers, budget=settings.prompt_chars
    )
    save_turn(
        paths,
        hook.session_id,
        prompt_to_keep(paths, hook, settings),
        (shown, status_text) if remind else None,
        verdicts,
    )
    return context_output("UserPromptSubmit", text)
