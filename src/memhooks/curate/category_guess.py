"""Seed 003's "remember that …": which category a sentence belongs to, and its title. Pure.

The cues are plain words, checked in a fixed order so the result is predictable:

1. runbook     "when/if … fails|errors|breaks", "to fix", "steps", "run … then"
2. tech_debt   "todo", "later", "hack", "workaround", "tech debt", "temporary", "clean up"
3. decision    "decided", "we will/we'll use", "chose", "going with", "switched to", "instead of"
4. constraint  "must", "cannot/can't", "limit", "only works", "not allowed", "requires", "at most"
5. preference  "always", "never", "prefer", "don't like", "convention", "style"

With no cue the sentence is filed as a decision: something the user asks to keep is most
often a point the project has settled, and "what did we decide about X" is what gets asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "runbook",
        re.compile(
            r"\b(?:when|if)\b[^.]*\b(?:fails?|failing|errors?|breaks?|crash(?:es)?|hangs?|"
            r"times? out)\b|\bto fix\b|\bsteps?\b|\brun\b[^.]*\bthen\b|\brecover(?:y)?\b",
        ),
    ),
    (
        "tech_debt",
        re.compile(
            r"\btodo\b|\blater\b|\bhack(?:y|ed)?\b|\bworkaround\b|\btech(?:nical)?[ -]debt\b|"
            r"\bdebt\b|\btemporary\b|\bclean(?:ed)? ?up\b|\bshortcut\b|\bdeferred\b",
        ),
    ),
    (
        "decision",
        re.compile(
            r"\bdecided\b|\bdecision\b|\bwe(?: will|'ll)(?: use| go| switch| adopt| keep)\b|"
            r"\bchose\b|\bchosen\b|\bgoing with\b|\bswitched to\b|\binstead of\b|\bsettled on\b",
        ),
    ),
    (
        "constraint",
        re.compile(
            r"\bmust\b|\bcannot\b|\bcan't\b|\bcan not\b|\blimit(?:s|ed)?\b|\bonly works\b|"
            r"\bnot allowed\b|\brequires?\b|\bat most\b|\bmax(?:imum)?\b|\bnot supported\b",
        ),
    ),
    (
        "preference",
        re.compile(
            r"\balways\b|\bnever\b|\bprefers?\b|\bpreferred\b|\bdon't like\b|\bconvention\b|"
            r"\bstyle\b|\bplease use\b",
        ),
    ),
)

DEFAULT_CATEGORY = "decision"
TITLE_MAX = 80
_LEAD = re.compile(
    r"^\s*(?:please\s+)?(?:remember|note|keep in mind|don't forget)\s*(?:that|:|,)?\s*",
    re.IGNORECASE,
)
_REASON = re.compile(r"\s*(?:,\s*)?\b(?:because|so that)\b\s+", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;:!?\n]|\s[\u2014\u2013-]\s|,\s|\s\(")  # em and en dashes too


@dataclass(frozen=True)
class Guess:
    category: str
    cue: str | None  # the words that decided it, None for the default


def guess_category(text: str) -> Guess:
    lowered = text.lower().replace("\u2019", "'")
    for category, pattern in _CUES:
        match = pattern.search(lowered)
        if match:
            return Guess(category, " ".join(match.group(0).split()))
    return Guess(DEFAULT_CATEGORY, None)


def statement(text: str) -> str:
    """The text without a leading "remember that", on one line."""
    return _LEAD.sub("", " ".join(text.split()), count=1).strip()


def split_reason(text: str) -> tuple[str, str]:
    """("use X", "it is faster") from "use X because it is faster"; reason '' when none."""
    match = _REASON.search(text)
    if not match or match.start() == 0:
        return text.strip(), ""
    return text[: match.start()].strip().rstrip(","), text[match.end() :].strip()


def short_title(text: str, limit: int = TITLE_MAX) -> str:
    """The first clause, capitalised and cut on a word boundary."""
    first = _CLAUSE_END.split(statement(text), maxsplit=1)[0].strip() or statement(text)
    head, _reason = split_reason(first)
    title = head or first
    if len(title) > limit:
        title = title[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return title[:1].upper() + title[1:]


def sections_for(category: str, text: str) -> dict[str, str]:
    """The category's sections (as `memhooks save` names them) filled from one sentence."""
    said = statement(text)
    what, why = split_reason(said)
    if category == "decision":
        return {"Context": why, "Decision": what}
    if category == "preference":
        return {"Preference": what, "Reason": why}
    if category == "constraint":
        return {"Rule": what, "Impact": why}
    if category == "runbook":
        return {"Trigger": short_title(said), "Steps": said}
    if category == "tech_debt":
        return {"Description": what, "Why deferred": why}
    return {"Summary": said}


#: Category fields that say the memory is current, set on creation.
INITIAL_FIELDS: dict[str, dict[str, object]] = {
    "decision": {"status": "accepted"},
    "tech_debt": {"status": "open"},
    "constraint": {"active": True},
}
