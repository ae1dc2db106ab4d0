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
