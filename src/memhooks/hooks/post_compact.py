"""PostCompact: keep the host's own `compact_summary` in the session's record. Injects nothing.

The summary is model-written and free: `/memory summarize`, `/memory synthesize` and the next
day's briefing can use it. It is not injected again (the host already put it in the context).
It is redacted, cut to a size, and appended to `sessions/<session-id>.md`'s journal.
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.store.config import Settings
from memhooks.store.paths import MemoryPaths
from memhooks.store.session_journal import append_journal
from memhooks.text.clock import iso
from memhooks.text.redact import redact

if TYPE_CHECKING:
    from typing import Any

SUMMARY_CAP = 8_000
_SUMMARY = re.compile(r"<summary>(.*?)(?:</summary>|$)", re.DOTALL)
_ANALYSIS = re.compile(r"<analysis>.*?(?:</analysis>|$)", re.DOTALL)


def summary_text(raw: str) -> str:
    """The `<summary>` body when there is one (the `<analysis>` part is the model's scratch)."""
    match = _SUMMARY.search(raw)
    text = match.group(1) if match else _ANALYSIS.sub("", raw)
    text = text.strip()
    if len(text) > SUMMARY_CAP:
        text = text[:SUMMARY_CAP].rstrip() + f"\n[… {len(text) - SUMMARY_CAP} more chars cut]"
    return text


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
    return None
