# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`memhooks recall QUERY` over the turns of the sessions this machine kept evidence of.

A long session's restore shows some of its turns ("[… 48 more turns not shown]"): the user's
rulings in the others are still in the evidence the restore was rendered from (each session's
`restore/<id>.json`, machine-local, redacted before it was kept). The turns holding at least
half the query's terms (as for checkpoints) are listed with the user's
words and Claude's answer cut around the match. Every read is capped: the newest MAX_FILES
files, none over READ_BYTES, READ_TOTAL bytes in all, TURN_CHARS of each side of a turn (only
the turns listed are cut); a symlink (the folder or a file) is never followed. Words match
without their accents. Command path only.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from bisect import bisect_left
from pathlib import Path
from typing import Any

from memhooks.cli.checkpoint_search import enough
from memhooks.continuity.evidence import usable
from memhooks.continuity.handover import said_text
from memhooks.recall.tokenize import tokens
from memhooks.store import (
    EVIDENCE_DISK_CAP,
    EVIDENCE_MAX_KEPT,
    EVIDENCE_READ_CAP,
    MemoryPaths,
    evidence_listing,
    read_text,
    resolves_inside,
)

#: Evidence files read at most (the newest first), bytes of one (a larger one is passed
#: over) and bytes of all of them: what the hooks keep on disk at most.
MAX_FILES = EVIDENCE_MAX_KEPT
READ_BYTES = EVIDENCE_READ_CAP
READ_TOTAL = EVIDENCE_DISK_CAP
#: Characters shown of the user's words and of Claude's answer, around the match.
WORDS_SHOWN = 360
#: Characters of a turn's words (the user's, Claude's) searched: the evidence keeps fewer.
TURN_CHARS = 24_000
#: A turn's number shown at most (the evidence keeps far fewer turns): any other is 0.
MAX_TURN = 1_000_000

_WORD = re.compile(r"[^\W_]+")
_accent = unicodedata.combining
_NUMBER = re.compile(r"\d+")


def search(paths: MemoryPaths, query: str, limit: int) -> list[dict[str, Any]]:
    """The turns listed for `query` (`counted`)."""
    return counted(paths, query, limit)[0]


def counted(paths: MemoryPaths, query: str, limit: int) -> tuple[list[dict[str, Any]], int]:
    """The turns whose words hold enough of the query's terms (`enough`), at most `limit`:
    those whose terms weigh most (a term weighs less the more of the turns searched hold it:
    "de", "la" or "the" decide nothing, in any language), then those holding most in the
    user's words (a ruling is the user's), then the newest; listed newest session first, each
    session's turns newest first. Each: {session, date, turn, user, claude, matched}. Then how
    many turns matched in all."""
    terms = _terms(query)
    if not terms:
        return [], 0
    held = dict.fromkeys(terms, 0)  # turns holding each term
    searched = 0
    found: list[tuple[tuple[int, int, int], dict[str, Any]]] = []
    for order, (session, state) in enumerate(_states(paths)):
        for turn in state["turns"]:
            row = _match(turn, terms)
            if row is None:
                continue
            searched += 1
            for term in row["matched"]:
                held[term] += 1
            if enough(terms, set(row["matched"])):
                said = row.pop("said")
                row = {"session": session, "date": _date(turn, state), **row}
                found.append(((-said, order, -row["turn"]), row))
    weight = {term: math.log(searched / count) for term, count in held.items() if count}

    def rank(item: tuple[tuple[int, int, int], dict[str, Any]]) -> tuple[float, int, int, int]:
        return (-sum(weight[term] for term in item[1]["matched"]), *item[0])

    best = sorted(found, key=rank)[:limit]
    rows = [row for _, row in sorted(best, key=lambda f: f[0][1:])]
    for row in rows:  # only the turns listed are cut around their match
        for key in ("user", "claude"):
            row[key] = around(row[key], set(row["matched"]), WORDS_SHOWN)
    return rows, len(found)


def _terms(text: str) -> list[str]:
    """The index's terms of `text` without its accents and its numbers as written (the index
    drops a short one as noise; in a turn's words "24 hours" or "8pm" is what was decided).
    A query finds "género" written "genero" and the other way round: people type both."""
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not _accent(c))
    return list(dict.fromkeys([*tokens(text), *_NUMBER.findall(text)]))


def _states(paths: MemoryPaths) -> list[tuple[str, dict[str, Any]]]:
    """(session id, evidence) of the newest kept files that can be read, newest first."""
    folder = Path(paths.restore)
    if folder.is_symlink() or not folder.is_dir():
        return []
    if not resolves_inside(paths.cache, folder):
        return []
    out = []
    total = 0
    for _, name, size in evidence_listing(str(folder))[:MAX_FILES]:
        if size > READ_BYTES or total + size > READ_TOTAL:
            continue
        total += size
        try:
            state = json.loads(read_text(folder / name, READ_BYTES) or "null")
        except (ValueError, RecursionError):
            continue
        if usable(state):
            out.append((name[: -len(".json")], state))
    return out


def _match(turn: object, terms: list[str]) -> dict[str, Any] | None:
    """The turn's number, its words and the query's terms they hold (maybe none), or None for a
    turn of another shape."""
    if not isinstance(turn, dict):
        return None
    told = turn.get("told")
    user = "\n".join(
        str(part)
        for part in [turn.get("prompt"), *(told if isinstance(told, list) else ())]
        if isinstance(part, str) and part
    )
    try:
        claude = said_text(turn)
    except (TypeError, AttributeError):  # a turn of another shape
        return None
    user, claude = user[:TURN_CHARS], claude[:TURN_CHARS]
    said = set(terms) & set(_terms(user))
    matched = said | (set(terms) & set(_terms(claude)))
    n = turn.get("n")
    return {
        "turn": n if type(n) is int and 0 < n <= MAX_TURN else 0,  # not a bool, not a 90-digit one
        "user": user,
        "claude": claude,
        "matched": [t for t in terms if t in matched],
        "said": len(said),
    }


def around(text: str, matched: set[str], limit: int) -> str:
    """`text` as it is when it fits `limit`, else the `limit` characters (cut at words) that
    hold the most of the `matched` terms, "…" marking what was cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    spots: dict[str, list[int]] = {}  # each matched term: where it is, in order
    for m in _WORD.finditer(text):
        for term in set(_terms(m.group())) & matched:
            spots.setdefault(term, []).append(m.start())

    def window(at: int) -> int:  # where the cut around a hit at `at` begins
        return max(0, at - limit // 4)

    def covered(at: int) -> int:  # the terms in the cut around `at`
        begin = window(at)
        end = begin + limit - 40
        return sum(bisect_left(where, begin) < bisect_left(where, end) for where in spots.values())

    hits = sorted({at for where in spots.values() for at in where})
    start = window(max(hits, key=covered)) if hits else 0
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 40 else start
    end = min(len(text), start + limit - 2)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start + limit // 2 else end
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def _date(turn: dict[str, Any], state: dict[str, Any]) -> str:
    """The day of the turn (YYYY-MM-DD) as the evidence stamped it, "" when it did not."""
    for stamp in (turn.get("at"), state.get("updated")):
        if isinstance(stamp, str) and re.match(r"\d{4}-\d\d-\d\d", stamp):
            return stamp[:10]
    return ""
