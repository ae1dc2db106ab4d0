"""Seed 003's "remember that …": which category a sentence belongs to, and its title. Pure.

The cues are plain words. The cue that comes first in the statement (before any "because")
wins, so "Always use pytest fixtures instead of setUp" is a preference, not a decision; two
cues at the same place are ranked in this order:

1. runbook     "when/if … fails|errors|breaks", "to fix", "steps", "run … then"
2. tech_debt   "todo", "later", "hack", "workaround", "tech debt", "temporary", "clean up"
3. preference  "always", "never", "prefer", "don't like", "convention", "style"
4. decision    "decided", "we will/we'll use", "chose", "going with", "switched to", "instead of"
5. constraint  "must", "cannot/can't", "limit", "only works", "not allowed", "requires", "at most"

With no cue the sentence is filed as a decision: something the user asks to keep is most
often a point the project has settled, and "what did we decide about X" is what gets asked.

The title names the thing ("Postgres 16 for the job queue", not "We decided to use …"), the
reason goes whole into its own section ("Because of SKIP LOCKED."), and the description is
the reason when there is one, so the index line adds to the title instead of repeating it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memhooks.text import clip_at_word, one_line

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
        "preference",
        re.compile(
            r"\balways\b|\bnever\b|\bprefers?\b|\bpreferred\b|\bdon't like\b|\bconvention\b|"
            r"\bstyle\b|\bplease use\b",
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
)

DEFAULT_CATEGORY = "decision"
TITLE_MAX = 80
#: A remainder shorter than this many words is no description ("for now").
DESCRIPTION_MIN_WORDS = 2
_LEAD = re.compile(
    r"^\s*(?:please\s+)?(?:remember|note|keep in mind|don't forget)\s*(?:that|:|,)?\s*",
    re.IGNORECASE,
)
#: What a person leaves out of a title: "we decided to use", "we'll go with", "always use".
_PREAMBLE = re.compile(
    r"^(?:(?:we|i|the team)\s+(?:have\s+|had\s+)?(?:decided|agreed|chose|settled)"
    r"(?:\s+(?:to\s+(?:use|go with|adopt|keep|switch to|move to)|on|for|that)\b)?"
    r"|(?:we|i)(?:\s+will|'ll|\s+are going to|\s+now)\s+(?:use|go with|adopt|switch to|keep)"
    r"|(?:we\s+are\s+|we're\s+)?going with|let's use"
    r"|(?:always\s+)?(?:use|prefer))\s+",
    re.IGNORECASE,
)
_LABEL = re.compile(
    r"^(?:please\s+|(?:todo|fixme|note|tech debt)(?:\s+later)?\s*[:\-]\s*)", re.IGNORECASE
)
_REASON = re.compile(r"\s*(?:,\s*)?\b(?:because|so that)\b\s+", re.IGNORECASE)
#: Where the first clause ends. A dot or colon ends one only before a space or the end, so
#: `requests.get`, `pyproject.toml`, `22.x` and `http://` stay whole; "e.g." and "vs." do not
#: end one either. Em and en dashes too.
_CLAUSE_END = re.compile(
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)\.(?=\s|$)|:(?=\s|$)|[;!?\n]|\s[\u2014\u2013-]\s|,\s|\s\("
)


@dataclass(frozen=True)
class Guess:
    category: str
    cue: str | None  # the words that decided it, None for the default


def guess_category(text: str) -> Guess:
    lowered = text.lower().replace("\u2019", "'")
    main, _reason = split_reason(lowered)
    found = [
        (match.start(), rank, category, match.group(0))
        for rank, (category, pattern) in enumerate(_CUES)
        if (match := pattern.search(main))
    ]
    if not found:
        return Guess(DEFAULT_CATEGORY, None)
    _start, _rank, category, cue = min(found)
    return Guess(category, one_line(cue))


def statement(text: str) -> str:
    """The text without a leading "remember that", on one line."""
    return _LEAD.sub("", one_line(text), count=1).strip()


def split_reason(text: str) -> tuple[str, str]:
    """("use X", "because it is faster") from "use X because it is faster": the reason is
    kept whole, its "because" included; '' when there is none."""
    match = _REASON.search(text)
    if not match or match.start() == 0:
        return text.strip(), ""
    reason = text[match.start() :].strip().lstrip(",").strip()
    return text[: match.start()].strip().rstrip(","), reason


#: A word that names code: an underscore, a dot, brackets, a backtick, or a lower-case letter
#: followed by a capital (camelCase).
_CODE_NAME = re.compile(r"[_.()`\[\]/]|[a-z][A-Z]")


def short_title(text: str, limit: int = TITLE_MAX) -> str:
    """What the memory is about: the first clause, without "we decided to use" and the
    like, capitalised and cut on a word boundary."""
    said = _LABEL.sub("", statement(text), count=1)
    first = _CLAUSE_END.split(said, maxsplit=1)[0].strip() or said
    head, _reason = split_reason(first)
    title = _PREAMBLE.sub("", head or first, count=1).strip() or head or first
    return _capital(clip_at_word(title, limit))


def _capital(text: str) -> str:
    """The first letter made a capital, unless the first word is a name of code
    (`word_count`, `__init__.py`, `getUser`, `str.split()`, a code span): kept verbatim."""
    first = text.split(" ", 1)[0]
    if not first[:1].isalpha() or _CODE_NAME.search(first):
        return text
    return text[:1].upper() + text[1:]


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    return _capital(text) + ("" if text[-1] in ".!?…" else ".")


def description_for(text: str, title: str) -> str:
    """The reason when there is one; else what the statement says after its first clause
    (a runbook's steps); else nothing: the index line never repeats the title."""
    what, why = split_reason(statement(text))
    if why:
        return _sentence(why)
    parts = _CLAUSE_END.split(_LABEL.sub("", what, count=1), maxsplit=1)
    rest = parts[1].strip(" ,;:-") if len(parts) > 1 else ""
    if len(rest.split()) < DESCRIPTION_MIN_WORDS or rest.lower() in title.lower():
        return ""
    return _sentence(rest)


def sections_for(category: str, text: str) -> dict[str, str]:
    """The category's sections (as `memhooks save` names them) filled from one sentence."""
    said = statement(text)
    what, why = split_reason(said)
    what, why = _sentence(what), _sentence(why)
    if category == "decision":
        return {"Context": why, "Decision": what}
    if category == "preference":
        return {"Preference": what, "Reason": why}
    if category == "constraint":
        return {"Rule": what, "Impact": why}
    if category == "runbook":
        return {"Trigger": short_title(said), "Steps": _sentence(said)}
    if category == "tech_debt":
        return {"Description": what, "Why deferred": why}
    return {"Summary": _sentence(said)}


#: Category fields that say the memory is current, set on creation.
INITIAL_FIELDS: dict[str, dict[str, object]] = {
    "decision": {"status": "accepted"},
    "tech_debt": {"status": "open"},
    "constraint": {"active": True},
}
