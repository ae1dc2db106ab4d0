"""Seed 002's two prose documents, the session summary and master.md: templates and checks.

Pure functions of text. Claude writes the prose; these say what it must contain before the
CLI saves it, and normalise what can be fixed without asking (master.md's footer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memhooks.store import (
    JOURNAL_HEADING,  # Stop-hook material, never saved back
    first_heading,
)
from memhooks.text import clip

SUMMARY_TEMPLATE = """\
# [Short descriptive title]

## Context
[1-2 sentences: what was this conversation about?]

## Tracking Points
- Decision: [what was decided, and why]
- Discovery: [what was learned]
- Status: [where the work stands]
- [other clear labels as needed: Blocker:, Next:, Learning:, Question: ...]

## Related Files/Artifacts
[optional: files created, modified or particularly relevant]
"""

MASTER_SECTIONS = (
    "Current Status",
    "Key Decisions",
    "Learnings & Discoveries",
    "Evolution & Changes",
    "Active Questions",
)

MASTER_TEMPLATE = """\
# Project Memory

## Current Status
[Where is the project NOW? Current phase, recent work]

## Key Decisions
[What was decided and why, organised by theme, not by date]

## Learnings & Discoveries
[Patterns, insights, what worked and what did not]

## Evolution & Changes
[How things changed over time: "tried A, then B, settled on C"]

## Active Questions
[Open items, blockers, unresolved issues]

---
*Last synthesized: [added by the CLI]*
*Source: [N] conversations, [N] docs*
"""


_H2 = re.compile(r"^##[ \t]+(\S.*?)[ \t#]*$", re.MULTILINE)
#: A tracking point: a bullet that starts with a short label and a colon, bold or not.
_LABELLED = re.compile(r"^\s*[-*+]\s+(?:\*\*)?([A-Z][\w /&-]{0,30}?)(?:\*\*)?\s*:(?:\*\*)?\s*\S")
_LAST = re.compile(r"^\*Last synthesized:\s*(.*?)\*\s*$", re.MULTILINE)
_SOURCE = re.compile(r"^\*Source:\s*(.*?)\*\s*$", re.MULTILINE)


def _norm(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", heading.lower().replace("&", " and ")).strip()


def sections(text: str) -> dict[str, str]:
    """`## Heading` -> its text (up to the next `## `), keyed by the heading as written."""
    found = list(_H2.finditer(text))
    out: dict[str, str] = {}
    for i, match in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        out[match.group(1).strip()] = text[match.end() : end].strip("\n")
    return out


def _section(text: str, heading: str) -> str | None:
    wanted = _norm(heading)
    for name, content in sections(text).items():
        if _norm(name) == wanted:
            return content
    return None


def without_journal(text: str) -> str:
    """Drop a copied `## Automatic journal` section: the store keeps the real one."""
    at = text.find(JOURNAL_HEADING)
    return text[:at].rstrip() + "\n" if at >= 0 else text


def summary_problems(text: str) -> list[str]:
    """What keeps a session summary from matching seed 002's structure; [] when it does."""
    problems: list[str] = []
    if not first_heading(text):
        problems.append("no '# Title' line")
    context = _section(text, "Context")
    if context is None or not context.strip():
        problems.append("no '## Context' section with text")
    points = _section(text, "Tracking Points")
    if points is None:
        problems.append("no '## Tracking Points' section")
    elif not any(_LABELLED.match(line) for line in points.splitlines()):
        problems.append(
            "'## Tracking Points' has no labelled point such as '- Decision: …' or '- Status: …'"
        )
    return problems


def tracking_labels(text: str) -> list[str]:
    points = _section(text, "Tracking Points") or ""
    return [m.group(1) for line in points.splitlines() if (m := _LABELLED.match(line))]


def first_line_of(section_text: str, limit: int = 200) -> str:
    for line in section_text.splitlines():
        stripped = line.strip().lstrip("-*+ ").strip()
        if stripped:
            return clip(stripped, limit)
    return ""


def summary_description(text: str) -> str:
    return first_line_of(_section(text, "Context") or "")


def master_problems(text: str) -> list[str]:
    """Seed 002's master.md sections that are missing or empty; [] when all are there."""
    problems = []
    for heading in MASTER_SECTIONS:
        content = _section(text, heading)
        if content is None:
            problems.append(f"no '## {heading}' section")
        elif not content.strip().strip("-").strip():
            problems.append(f"'## {heading}' is empty")
    return problems


@dataclass(frozen=True)
class Footer:
    synthesized: str
    source: str


def last_synthesized(text: str) -> str | None:
    """The `*Last synthesized: …*` value as written, or None."""
    match = _LAST.search(text)
    return match.group(1).strip() if match else None


def with_footer(text: str, footer: Footer) -> str:
    """Set the footer: the real save time always, the source line only if Claude left none.

    The date is what the next `synthesize --material` reads to find what is new, so it is the
    CLI's clock, never a date the model guessed.
    """
    body = _LAST.sub("", text)
    source = _SOURCE.search(body)
    source_line = f"*Source: {source.group(1).strip()}*" if source else f"*Source: {footer.source}*"
    body = _SOURCE.sub("", body).rstrip()
    if body.endswith("\n---") or body == "---":
        body = body[:-3].rstrip()
    if not first_heading(body):
        body = "# Project Memory\n\n" + body.lstrip()
    return f"{body}\n\n---\n*Last synthesized: {footer.synthesized}*\n{source_line}\n"
