"""PostCompact: keep the host's own `compact_summary` in the session's record. Injects nothing.

The summary is model-written and free: `/memory summarize`, `/memory synthesize` and the next
session's restore use it. It is not injected again in this session (the host already put it
in the context). It is redacted, cut to a size, appended to `sessions/<session-id>.md`'s
journal and kept in the session's evidence (`.cache/restore/<session-id>.json`), where the
next session's restore starts from it. When the store lock stays taken the evidence write
is skipped, and nothing is lost: the next Stop (or SessionEnd) reads the same summary from
the record the host wrote into the transcript (`isCompactSummary`, continuity.evidence).
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity.evidence import Evidence, summary_text
from memhooks.hooks.event import HookInput
from memhooks.hooks.evidence_update import load
from memhooks.store import MemoryPaths, Settings, append_journal, save_evidence, tree_turn
from memhooks.text.clock import iso
from memhooks.text.redact import redact

if TYPE_CHECKING:
    from typing import Any

LOCK_TIMEOUT = 0.5


def render_entry(raw: str, *, trigger: str, when: str, patterns: tuple[str, ...] = ()) -> str:
    text = summary_text(redact(raw, patterns))
    if not text:
        return ""
    how = trigger if trigger in ("manual", "auto") else "unknown"
    body = "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
    return f"### {when} compaction ({how}): the host's own summary\n\n{body}\n"


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    if not settings.capture_journal or not hook.session_id:
        return None
    entry = render_entry(
        hook.compact_summary,
        trigger=hook.trigger,
        when=iso(),
        patterns=settings.redact_patterns,
    )
    if entry:
        append_journal(paths, hook.session_id, entry)
    text = summary_text(hook.compact_summary)
    if text:
        with tree_turn(paths, LOCK_TIMEOUT):
            state = load(paths, hook.session_id)
            if state is not None:
                Evidence(state, settings.redact_patterns).summary(text)
                save_evidence(paths, hook.session_id, state)
    return None
