"""Consolidation proposals that keep the memory true, found by plain, explainable rules.

Within one category, two live memories are on the *same subject* when their titles share at
least SUBJECT_MIN terms and SUBJECT_SHARE of their title terms (stemmed, stopwords out), or
when the newer one names the older (its path, file stem or `supersedes:`). Then:

- *duplicate*: same subject and bodies sharing DUPLICATE_SHARE of their terms → keep the newer,
  retire the older (`duplicate of <path>`);
- *superseded*: the newer names the older, or is on the same subject and says it reverses
  something ("instead of", "no longer", "replaces", ...) → retire the older
  (`superseded by <path>`);
- *contradiction*: same subject, one says no where the other says yes (a negation in one
  title/description and not the other) → flagged, never resolved;
- *relative_date*: "yesterday", "next week", ... → rewritten from `created` (see
  `relative_dates`);
- *stale_citation*: a cited span's text is gone (see `citations`) → flagged for review.

Finding only: `consolidate` applies what is applicable and keeps the summary SessionStart reads.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memhooks.curate import relative_dates
from memhooks.recall import citations
from memhooks.recall.tokenize import tokens
from memhooks.store import BY_NAME, TREE_PREFIX, MemoryPaths, project_of
from memhooks.text.clock import iso, parse_iso

#: The categories that hold durable knowledge; session logs and sub-agent reports are records.
CATEGORIES = ("decision", "constraint", "runbook", "preference", "tech_debt", "analysis")
KINDS = ("duplicate", "superseded", "contradiction", "relative_date", "stale_citation")
SUBJECT_MIN = 2
SUBJECT_SHARE = 0.5
DUPLICATE_SHARE = 0.6
READ_CAP = 512_000
REVERSAL = re.compile(
    r"\b(instead of|no longer|replaces?|replaced|reverses?|reversed|reverts?|reverted|"
    r"supersedes?|superseded|switch(?:es|ed)? (?:back )?(?:from|to)|moved? away from|"
    r"rather than|not anymore|stop(?:ped)? using|drop(?:ped)?)\b",
    re.IGNORECASE,
)
NEGATION = re.compile(
    r"\b(never|not|no|don't|do not|doesn't|does not|avoid|cannot|can't|must not|"
    r"shouldn't|should not|disallow(?:ed)?|forbid(?:den)?|without|won't|isn't|aren't)\b",
    re.IGNORECASE,
)


@dataclass
class Memory:
    path: str
    category: str
    title: str
    description: str
    body: str
    meta: dict[str, Any]
    digest: str
    created: dt.datetime | None
    subject: frozenset[str] = field(default_factory=frozenset)
    content: frozenset[str] = field(default_factory=frozenset)

    @property
    def sort_key(self) -> tuple[str, str, str]:
        return (
            iso(self.created) if self.created else "",
            str(self.meta.get("updated") or ""),
            self.path,
        )


@dataclass
class Action:
    kind: str
    paths: list[str]
    proposal: str
    reason: str
    diff: str = ""
    new_body: str | None = None
    digest: str = ""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "paths": self.paths,
            "proposal": self.proposal,
            "reason": self.reason,
        }
        if self.diff:
            out["diff"] = self.diff
        return out

    @property
    def applicable(self) -> bool:
        return self.kind in ("duplicate", "superseded", "relative_date")


def load_live(paths: MemoryPaths) -> list[Memory]:
    """Every active memory of the durable categories; unreadable files are skipped."""
    from memhooks.store import (
        UnparsableMemoryError,
        content_hash,
        first_heading,
        parse_bytes,
        read_bytes,
    )

    out: list[Memory] = []
    for name in CATEGORIES:
        folder = Path(paths.base) / BY_NAME[name].folder
        if not folder.is_dir() or folder.is_symlink():
            continue
        for file in sorted(folder.glob("*.md")):
            try:
                data = read_bytes(file, READ_CAP)  # no symlink, no FIFO, capped
                raw = parse_bytes(data)
            except (OSError, UnparsableMemoryError):
                continue
            if str(raw.meta.get("record_status") or "active") != "active":
                continue
            title = str(raw.meta.get("title") or first_heading(raw.body) or file.stem)
            description = str(raw.meta.get("description") or "")
            created = parse_iso(str(raw.meta.get("created") or ""))
            out.append(
                Memory(
                    path=paths.relative(file),
                    category=name,
                    title=title,
                    description=description,
                    body=raw.body,
                    meta=raw.meta,
                    digest=content_hash(data),
                    created=created,
                    subject=frozenset(tokens(title)),
                    content=frozenset(tokens(_without_title(raw.body, title))),
                )
            )
    return out


def _without_title(body: str, title: str) -> str:
    lines = body.splitlines()
    if lines and lines[0].lstrip("# ").strip() == title.strip():
        lines = lines[1:]
    return "\n".join(lines)


def _share(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def same_subject(a: Memory, b: Memory) -> bool:
    shared = a.subject & b.subject
    return len(shared) >= SUBJECT_MIN and _share(a.subject, b.subject) >= SUBJECT_SHARE


def names(newer: Memory, older: Memory) -> bool:
    """The newer memory points at the older one: `supersedes:`, its path or its file stem."""
    stem = Path(older.path).stem
    supersedes = str(newer.meta.get("supersedes") or "")
    if supersedes and supersedes.removeprefix(TREE_PREFIX) in (older.path, stem):
        return True
    return older.path in newer.body or (len(stem) > 12 and stem in newer.body)  # noqa: PLR2004


def _statement(m: Memory) -> str:
    return f"{m.title}. {m.description}"


def analyse(paths: MemoryPaths, memories: list[Memory] | None = None) -> list[Action]:
    live = load_live(paths) if memories is None else memories
    actions: list[Action] = []
    retired: set[str] = set()
    by_category: dict[str, list[Memory]] = {}
    for m in live:
        by_category.setdefault(m.category, []).append(m)
    for group in by_category.values():
        actions.extend(_pairs(group, retired))
    project = project_of(paths)
    for m in live:
        if m.path not in retired:
            actions.extend(_dates(m))
            actions.extend(_stale(project, m))
    order = {k: n for n, k in enumerate(KINDS)}
    actions.sort(key=lambda a: (order[a.kind], a.paths))
    return actions


def _pairs(group: list[Memory], retired: set[str]) -> list[Action]:
    """Pair proposals in one category, newest first; a memory is retired at most once."""
    out: list[Action] = []
    group.sort(key=lambda m: m.sort_key, reverse=True)
    for i, newer in enumerate(group):
        if newer.path in retired:
            continue
        for older in group[i + 1 :]:
            action = None if older.path in retired else _pair(newer, older)
            if action is None:
                continue
            out.append(action)
            if action.kind != "contradiction":
                retired.add(older.path)
    return out


def _stale(project: str, m: Memory) -> list[Action]:
    stale = citations.stale_files(project, citations.from_meta(m.meta))
    if not stale:
        return []
    return [
        Action(
            "stale_citation",
            [m.path],
            f"review {m.path}: re-read the cited code, then update the memory "
            "(save --update) or retire it",
            f"the cited text is gone from {', '.join(stale)} (edited, moved or deleted)",
        )
    ]


def _pair(newer: Memory, older: Memory) -> Action | None:
    named = names(newer, older)
    if not named and not same_subject(newer, older):
        return None
    overlap = _share(newer.content, older.content)
    if not named and overlap >= DUPLICATE_SHARE:
        return Action(
            "duplicate",
            [older.path, newer.path],
            f"retire {older.path} (duplicate of {newer.path}, which is newer and kept)",
            f"same subject ({', '.join(sorted(newer.subject & older.subject))}) and "
            f"{overlap:.0%} of their terms shared",
        )
    cue = REVERSAL.search(newer.body)
    if named or cue:
        why = (
            f"{newer.path} names {older.path}"
            if named
            else f"same subject, and the newer one says {cue.group()!r}"  # type: ignore[union-attr]
        )
        return Action(
            "superseded",
            [older.path, newer.path],
            f"retire {older.path} (superseded by {newer.path})",
            why,
        )
    neg_new = bool(NEGATION.search(_statement(newer)))
    neg_old = bool(NEGATION.search(_statement(older)))
    if neg_new != neg_old:
        return Action(
            "contradiction",
            [older.path, newer.path],
            "decide which is true, then retire the other (or edit both); "
            "consolidate never picks one",
            f"same subject ({', '.join(sorted(newer.subject & older.subject))}) and only "
            f"{'the newer' if neg_new else 'the older'} one says no",
        )
    return None


def _dates(m: Memory) -> list[Action]:
    if m.created is None:
        return []
    new_body, changes = relative_dates.rewrite(m.body, m.created.date())
    if not changes:
        return []
    diff = "".join(
        difflib.unified_diff(
            (m.body.rstrip("\n") + "\n").splitlines(keepends=True),
            (new_body.rstrip("\n") + "\n").splitlines(keepends=True),
            f"a/{m.path}",
            f"b/{m.path}",
            n=0,
        )
    )
    listed = "; ".join(f"{old!r} -> {new!r}" for old, new in changes)
    return [
        Action(
            "relative_date",
            [m.path],
            f"rewrite {len(changes)} relative date(s) in {m.path}: {listed}",
            f"relative to created {m.created.date().isoformat()}"
            + (
                f" (a sprint taken as {relative_dates.SPRINT_DAYS} days)"
                if any("sprint" in old.lower() for old, _ in changes)
                else ""
            ),
            diff=diff,
            new_body=new_body,
            digest=m.digest,
        )
    ]
