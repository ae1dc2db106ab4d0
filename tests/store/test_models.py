"""Every category's frontmatter round-trips through the file format unchanged."""

from __future__ import annotations

from typing import Any

import frontmatter
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.store import META_MODELS, meta_to_dict, parse_meta, parse_text, render_document

SAMPLES: dict[str, dict[str, Any]] = {
    "decision": {"status": "accepted", "kind": "architecture", "supersedes": "x.md"},
    "analysis": {"path": "src/app.py", "kind": "module"},
    "runbook": {"environment": "staging"},
    "constraint": {"kind": "policy", "severity": "high", "active": True, "expires": "none"},
    "tech_debt": {"status": "open", "priority": "high"},
    "preference": {"topic": "style", "strength": "strong"},
    "session_summary": {
        "session_id": "abc-123",
        "outcome": "partial",
        "started": "2026-01-01T10:00:00Z",
    },
    "subagent": {"agent": "Explore", "agent_id": "a1", "task": "scan: the auth module"},
    "checkpoint": {"session_id": "abc", "trigger": "auto"},
}


@pytest.mark.parametrize("category", sorted(META_MODELS))
def test_every_category_round_trips(category: str) -> None:
    meta = {
        "title": f"A {category}: with # odd - chars",
        "category": category,
        "description": "yes",
        "created": "2026-01-19T22:30:00Z",
        "updated": "2026-01-19",
        "tags": ["one", "two words", "3"],
        "confidence": 0.8,
        **SAMPLES[category],
    }
    model = parse_meta(meta)
    written = render_document(meta_to_dict(model), "# Title\n\n---\n\nbody with a rule above")
    raw = parse_text(written)
    assert raw.meta == meta_to_dict(model)
    assert parse_meta(raw.meta) == model
    assert raw.body == "# Title\n\n---\n\nbody with a rule above"
    assert render_document(raw.meta, raw.body) == written


def test_unknown_keys_survive_a_rewrite() -> None:
    model = parse_meta({"title": "x", "category": "decision", "owner": "team-a"})
    assert meta_to_dict(model)["owner"] == "team-a"


def test_yaml_dates_stay_strings() -> None:
    raw = parse_text("---\ntitle: x\ncategory: decision\ncreated: 2025-09-17\n---\nbody\n")
    assert parse_meta(raw.meta).created == "2025-09-17"


def test_yaml_tags_and_bombs_are_refused() -> None:
    from memhooks.store import UnparsableMemoryError

    with pytest.raises(UnparsableMemoryError):
        parse_text("---\ntitle: !!python/object/apply:os.system ['echo pwned']\n---\n")
    small = "---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n---\n"
    assert len(parse_text(small).meta["b"]) == 9  # a few aliases are ordinary YAML
    levels = ["a0: &a0 [x,x,x,x,x,x,x,x,x,x]"]
    levels += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 5)]
    bomb = "---\n" + "\n".join(levels) + "\n---\n"  # 10**5 values from five lines
    with pytest.raises(UnparsableMemoryError, match="alias bomb"):
        parse_text(bomb)


safe_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(
    title=safe_text.filter(lambda s: s.strip() and "\n" not in s and "\r" not in s),
    tags=st.lists(safe_text, max_size=4),
    description=safe_text,
)
def test_emitter_round_trips_any_text(title: str, tags: list[str], description: str) -> None:
    meta = {"title": title, "tags": tags, "description": description}
    post = frontmatter.loads(render_document(meta, "body"))
    assert post.metadata == meta
