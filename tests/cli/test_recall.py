"""`memhooks recall`: master.md and the index without a query, ranked pointers with one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import run_main


@pytest.fixture
def project(memory: Path) -> Path:
    return memory.parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_main(capsys, *argv)


def seed(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    memories = {
        "cookies": ("decision", "Auth tokens live in httpOnly cookies", "never in localStorage"),
        "sqlite": ("decision", "Use SQLite for the search cache", "one file, no server"),
        "ruff": ("preference", "Format with ruff before every commit", "CI rejects diffs"),
        "retry": ("runbook", "When the payment webhook times out", "replay it from the queue"),
    }
    paths = {}
    for key, (category, title, description) in memories.items():
        code, out, err = run(
            capsys, "save", category, "--title", title, "--description", description, "--json"
        )
        assert code == 0, err
        paths[key] = json.loads(out)["path"]
    return paths


def test_without_a_query_says_there_is_no_master_and_prints_the_index(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(capsys)
    code, out, _ = run(capsys, "recall")
    assert code == 0
    assert "No .claude/memory/master.md yet" in out
    assert "/memory synthesize" in out
    assert "=== .claude/memory/MEMORY.md" in out
    assert "[Auth tokens live in httpOnly cookies](decisions/" in out


def test_without_a_query_prints_master_first(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    master = project / ".claude/memory/master.md"
    master.write_text("# Project Memory\n\n## Current Status\nShipping v2.\n", encoding="utf-8")
    code, out, _ = run(capsys, "recall")
    assert code == 0
    assert out.index("Shipping v2.") < out.index("MEMORY.md (index")
    code, out, _ = run(capsys, "recall", "--json")
    data = json.loads(out)
    assert "Shipping v2." in data["master"]
    assert data["index"].startswith("# Memory Index")


def test_a_query_lists_ranked_pointers_with_scores(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = seed(capsys)
    code, out, _ = run(capsys, "recall", "auth", "tokens", "cookies")
    assert code == 0
    assert out.splitlines()[1] == '<memhooks-data source=".claude/memory/ (search index)">'
    assert out.rstrip().endswith("</memhooks-data>")
    first = out.splitlines()[2]
    assert first.startswith(f"- .claude/memory/{paths['cookies']} — Auth tokens live in")
    assert ": never in localStorage" in first
    assert "score " in first
    code, out, _ = run(capsys, "recall", "payment webhook", "--json")
    results = json.loads(out)["results"]
    assert results[0]["path"] == f".claude/memory/{paths['retry']}"
    assert results[0]["category"] == "runbook"
    assert results[0]["score"] > 0


def test_limit_and_floor(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(capsys)
    code, out, _ = run(capsys, "recall", "sqlite cookies ruff webhook", "--limit", "1", "--json")
    assert code == 0
    assert len(json.loads(out)["results"]) == 1
    code, out, _ = run(capsys, "recall", "cookies", "--min-score", "1000", "--json")
    assert json.loads(out)["results"] == []


def test_no_match_is_not_an_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(capsys)
    code, out, _ = run(capsys, "recall", "zebra", "quasar")
    assert code == 0  # a slash command's `!` injection aborts on a non-zero exit
    assert 'No memory in .claude/memory/ matches "zebra quasar"' in out


def test_retired_memories_are_not_recalled(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = seed(capsys)
    assert run(capsys, "retire", paths["cookies"], "--reason", "moved to tokens")[0] == 0
    _, out, _ = run(capsys, "recall", "auth tokens cookies", "--json")
    assert paths["cookies"] not in out


def test_not_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path))
    code, _, err = run(capsys, "recall", "anything")
    assert code == 3
    assert "/memory start" in err
    assert 'memhooks.py" start' in err
