"""The pieces below the commands that `save`, `remember`, `recall`, `import` and `status` share:
a draft's validation, the index lookups, the tree's status."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.errors import Exit, UserError
from memhooks.recall.lookup import matching, similar
from memhooks.store import Draft, MemoryPaths, validate_draft
from memhooks.view.tree_status import collect
from support import run_cli


def test_a_draft_is_validated_as_its_category_model_accepts_it() -> None:
    meta = validate_draft(Draft("decision", {"title": "Use SQLite", "tags": ["db"]}))
    assert meta["title"] == "Use SQLite"
    assert "category" not in meta
    assert validate_draft(Draft("decision", {"tags": ["x"]}), partial=True) == {"tags": ["x"]}
    with pytest.raises(UserError) as caught:
        validate_draft(Draft("decision", {"title": "two\nlines"}))
    assert caught.value.code == Exit.INVALID_INPUT
    assert "title" in str(caught.value)


def test_lookups_find_what_recall_lists_and_same_category_near_duplicates(started: Path) -> None:
    paths = MemoryPaths(started)
    assert matching(paths, "sqlite") == frozenset()  # no index yet: nothing, no error
    for category, title in (
        ("decision", "Use SQLite for the search cache"),
        ("preference", "Format with ruff before every commit"),
    ):
        assert run_cli("save", category, "--title", title).returncode == 0
    found = matching(paths, "sqlite search cache")
    assert len(found) == 1
    assert next(iter(found)).startswith("decisions/")
    near = similar(paths, "use SQLite for the search cache", "decision")
    assert [n["title"] for n in near] == ["Use SQLite for the search cache"]
    assert similar(paths, "use SQLite for the search cache", "preference") == []


def test_the_status_counts_what_the_tree_holds(started: Path) -> None:
    assert run_cli("save", "decision", "--title", "Use SQLite for the cache").returncode == 0
    status = collect(MemoryPaths(started))
    assert status["active"] is True
    assert status["counts"]["decision"] == 1
    assert status["total"] == 1
    assert status["index"]["exists"] is True
    assert status["index"]["entries"] == 1
