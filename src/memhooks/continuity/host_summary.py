"""The host's own summary of a compaction, as a restore may show it. Pure, stdlib only.

Its `<summary>` body (never the `<analysis>` scratch), without the host's wrapper: the opening
lines up to "Summary:" and the closing orders to the model, which must never reach another
session.
"""

from __future__ import annotations

import re

from memhooks.text.lazy_re import LazyPattern

# Compiled on first use: only a session that compacted has a summary (~0.3 ms of every Stop).
_SUMMARY = LazyPattern(r"<summary>(.*?)(?:</summary>|$)", re.DOTALL)
_ANALYSIS = LazyPattern(r"<analysis>.*?(?:</analysis>|$)", re.DOTALL)
#: The host's wrapper around a summary as the transcript keeps it: its opening lines up to
#: "Summary:", and its closing orders to the model ("Continue the conversation … without
#: asking the user any further questions"), which must never reach another session.
_WRAPPER_HEAD = LazyPattern(
    r"\A\s*This session is being continued from a previous conversation.*?^Summary:[ \t]*\n",
    re.DOTALL | re.MULTILINE,
)
_WRAPPER_TAIL = LazyPattern(
    r"\n\s*(?:If you need specific details from before compaction|Continue the conversation "
    r"from where it left off|The messages after this summary are)"
)
HOST_SUMMARY_CAP = 8_000


def summary_text(raw: str) -> str:
    """The host's summary without its `<analysis>` scratch (the `<summary>` body when there is
    one) and without the host's wrapper, cut to HOST_SUMMARY_CAP with a note."""
    match = _SUMMARY.search(raw)
    if match:
        text = match.group(1)
    else:
        text = _ANALYSIS.sub("", _WRAPPER_HEAD.compiled.sub("", raw, count=1))
    tail = _WRAPPER_TAIL.search(text)
    text = (text[: tail.start()] if tail else text).strip()
    if len(text) > HOST_SUMMARY_CAP:
        cut = len(text) - HOST_SUMMARY_CAP
        text = text[:HOST_SUMMARY_CAP].rstrip() + f"\n[… {cut} more chars cut]"
    return text


#: A top-level section's heading of a summary ("2. Key Technical Concepts:", "## Next").
SECTION = LazyPattern(r"^(?:\d+\.|#+)\s+\S.*$", re.MULTILINE)
#: A heading of the user's part (their requests, intent, messages), read first; one of what
#: stood then (pending tasks, current work, the next step), which later turns supersede;
#: and one of the files and code, read last (the record's proofs show files and checks).
_USERS = LazyPattern(r"\b(?:user|request|intent)", re.IGNORECASE)
_THEN = LazyPattern(r"\b(?:pending|current|next)\b", re.IGNORECASE)
_CODE = LazyPattern(r"\b(?:files?|code)\b", re.IGNORECASE)


def by_sections(text: str, limit: int, *, later: bool = False) -> str:
    """The whole top-level sections of a summary that fit `limit`, in their order, each run
    of them left out marked "…": the user's part first (its requests and intent, the user's
    messages: the user's own words, which a long session's record leaves out for its older
    turns), then the others in their order, those about files and code last; when `later`
    turns followed the summary, none of what stood then (its pending tasks, current work
    and next step: those turns did them or changed them, and the record shows them). ''
    when `text` has fewer than two sections or its first one does not fit."""
    starts = _tops(text)
    if len(starts) < 2 or text[: starts[0]].strip():  # noqa: PLR2004
        return ""
    parts = [text[a:b].strip() for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    weights = [_weight(part.split("\n", 1)[0], later=later) for part in parts]
    chosen: set[int] = set()
    used = 0
    for _, i in sorted((w, i) for i, w in enumerate(weights) if w is not None):
        if used + len(parts[i]) + 1 <= limit:
            chosen.add(i)
            used += len(parts[i]) + 1
    if 0 not in chosen:
        return ""
    out: list[str] = []
    for i, part in enumerate(parts):
        if i in chosen:
            out.append(part)
        elif out[-1] != "…":
            out.append("…")
    return "\n".join(out)


def _tops(text: str) -> list[int]:
    """Where each top-level section starts: headings of the first one's kind, "#" ones of its
    level or above, numbered ones each the next number ("1. Add X" in a list under
    "## Pending" or "4. Pending Tasks:" is an item of that section, not one of its own)."""
    starts: list[int] = []
    first = ""
    for match in SECTION.compiled.finditer(text):
        mark = match.group(0).split(None, 1)[0]
        first = first or mark
        if first.startswith("#"):
            top = mark.startswith("#") and len(mark) <= len(first)
        else:
            top = mark == f"{int(first[:-1]) + len(starts)}."
        if top:
            starts.append(match.start())
    return starts


def _weight(heading: str, *, later: bool) -> int | None:
    """How soon a summary's section is shown (lowest first; None: never)."""
    if _USERS.compiled.search(heading):
        return 0
    if later and _THEN.compiled.search(heading):
        return None
    return 2 if _CODE.compiled.search(heading) else 1
