"""`memhooks remember` and `memhooks forget`: seed 003's natural requests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.curate.category_guess import (
    description_for,
    guess_category,
    sections_for,
    short_title,
)
from support import run_main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    return run_main(capsys, *argv)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("we always squash-merge pull requests", "preference"),
        ("never push to main directly", "preference"),
        ("I prefer tabs in the Makefile", "preference"),
        ("the API must answer within 200 ms", "constraint"),
        ("we cannot use GPL libraries", "constraint"),
        ("the free tier has a limit of 100 requests", "constraint"),
        ("we decided to use Postgres", "decision"),
        ("we will use httpx instead of requests", "decision"),
        ("chose pydantic for the models", "decision"),
        ("when the deploy fails, clear the build cache and retry", "runbook"),
        ("steps to rotate the signing key: revoke, issue, publish", "runbook"),
        ("TODO later: the retry loop is a hack", "tech_debt"),
        ("the date parsing is a workaround for the old API", "tech_debt"),
        ("the staging database is called orders_stg", "decision"),  # no cue: the default
    ],
)
def test_category_cues(text: str, category: str) -> None:
    assert guess_category(text).category == category


def test_titles_and_sections() -> None:
    assert short_title("remember that we use uv, not pip, for installs") == "We use uv"
    assert short_title("Auth uses cookies because tokens leak from localStorage") == (
        "Auth uses cookies"
    )
    long = "x " * 100
    assert len(short_title(long)) <= 81
    assert sections_for("decision", "use uv because it is fast") == {
        "Context": "Because it is fast.",
        "Decision": "Use uv.",
    }
    assert sections_for("preference", "always rebase")["Preference"] == "Always rebase."


#: (what the user said, category, title, description): a title names the thing, the reason
#: stays whole ("because" kept), the description adds to the title instead of repeating it.
WRITTEN_AS_A_PERSON_WOULD = [
    (
        "we decided to use Postgres 16 for the job queue because of SKIP LOCKED",
        "decision",
        "Postgres 16 for the job queue",
        "Because of SKIP LOCKED.",
    ),
    (
        "Always use pytest fixtures instead of setUp methods because they compose",
        "preference",
        "Pytest fixtures instead of setUp methods",
        "Because they compose.",
    ),
    (
        "we'll go with httpx instead of requests because it supports HTTP/2",
        "decision",
        "Httpx instead of requests",
        "Because it supports HTTP/2.",
    ),
    (
        "We chose Redis for the session cache so that logins survive a deploy",
        "decision",
        "Redis for the session cache",
        "So that logins survive a deploy.",
    ),
    (
        "Use Postgres for the queue because MySQL cannot do SKIP LOCKED",
        "decision",  # the cue in the reason ("cannot") does not decide
        "Postgres for the queue",
        "Because MySQL cannot do SKIP LOCKED.",
    ),
    (
        "the API must answer within 200 ms because the mobile app times out",
        "constraint",
        "The API must answer within 200 ms",
        "Because the mobile app times out.",
    ),
    ("never push to main directly", "preference", "Never push to main directly", ""),
    (
        "Please always write commit messages in the imperative",
        "preference",
        "Always write commit messages in the imperative",
        "",
    ),
    (
        "when the deploy fails, clear the build cache and retry",
        "runbook",
        "When the deploy fails",
        "Clear the build cache and retry.",
    ),
    ("TODO later: the retry loop is a hack", "tech_debt", "The retry loop is a hack", ""),
    (
        "We decided that all timestamps are stored in UTC",
        "decision",
        "All timestamps are stored in UTC",
        "",
    ),
    (
        "Going with SQLite for tests, because it needs no server",
        "decision",
        "SQLite for tests",
        "Because it needs no server.",
    ),
    # A dot inside a name, a version or a file is no clause end (issue 25, item 1).
    (
        "never call requests.get without a timeout in worker.py",
        "preference",
        "Never call requests.get without a timeout in worker.py",
        "",
    ),
    (
        "we chose Node 22.x over 20.x since the CLI needs it",
        "decision",
        "Node 22.x over 20.x since the CLI needs it",
        "",
    ),
    ("pin the version in pyproject.toml", "decision", "Pin the version in pyproject.toml", ""),
    (
        "the docs live at https://example.com/docs; keep links relative",
        "decision",
        "The docs live at https://example.com/docs",
        "Keep links relative.",
    ),
    (
        "always pin tools e.g. ruff and mypy in CI. Unpinned ones break builds",
        "preference",
        "Always pin tools e.g. ruff and mypy in CI",
        "Unpinned ones break builds.",
    ),
]


@pytest.mark.parametrize(("said", "category", "title", "description"), WRITTEN_AS_A_PERSON_WOULD)
def test_remember_writes_what_a_person_would(
    said: str, category: str, title: str, description: str
) -> None:
    assert guess_category(said).category == category
    assert short_title(said) == title
    assert description_for(said, title) == description
    sections = sections_for(category, said)
    if " because " in said or " so that " in said:
        reason = [text for text in sections.values() if text.startswith(("Because", "So that"))]
        assert reason == [description], sections  # the reason whole, in its own section


def test_remember_the_issue_example(memory: Path, capsys) -> None:
    said = "we decided to use Postgres 16 for the job queue because of SKIP LOCKED"
    code, _, err = run(capsys, "remember", said)
    assert code == 0, err
    (path,) = (memory / "decisions").glob("*.md")
    text = path.read_text()
    assert "title: Postgres 16 for the job queue\n" in text
    assert "description: Because of SKIP LOCKED.\n" in text
    assert "## Context\nBecause of SKIP LOCKED." in text
    assert text.count("job queue") == 3  # title, heading, the decision itself: nothing more


def test_remember_files_a_typed_memory(memory: Path, capsys) -> None:
    code, out, err = run(
        capsys,
        "remember",
        "remember that",
        "we always squash-merge PRs because history stays linear",
    )
    assert code == 0, err
    assert "Remembered as a preference (cue 'always')" in out
    files = list((memory / "preferences").glob("*.md"))
    assert len(files) == 1
    text = files[0].read_text()
    assert "title: We always squash-merge PRs" in text
    assert "## Preference\nWe always squash-merge PRs." in text
    assert "## Reason\nBecause history stays linear." in text
    assert "remember that" not in text
    assert "We always squash-merge PRs" in (memory / "MEMORY.md").read_text()


def test_explicit_category_and_title(memory: Path, capsys) -> None:
    code, out, _ = run(
        capsys,
        "remember",
        "the staging db is orders_stg",
        "--category",
        "constraints",
        "--title",
        "Staging DB name",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["category"] == "constraint"
    assert data["title"] == "Staging DB name"
    assert data["path"].startswith(".claude/memory/constraints/")
    code, _, err = run(capsys, "remember", "x y z", "--category", "analysis")
    assert code == 5
    assert "unknown category" in err


def test_a_similar_memory_blocks_a_duplicate_until_update_or_new(memory: Path, capsys) -> None:
    code, out, _ = run(
        capsys, "remember", "we decided auth tokens live in httpOnly cookies", "--json"
    )
    assert code == 0
    first = json.loads(out)["path"].removeprefix(".claude/memory/")
    code, out, err = run(capsys, "remember", "we decided that auth tokens live in httpOnly cookies")
    assert code == 6
    assert first in out
    assert f"--update {first}" in err
    assert "--new" in err
    assert len(list((memory / "decisions").glob("*.md"))) == 1
    # Another category is not a duplicate, nor is an unrelated decision.
    assert run(capsys, "remember", "we decided to deploy on Fridays")[0] == 0
    # --update adds to the existing memory; --new files a second one.
    code, out, _ = run(capsys, "remember", "refresh tokens too", "--update", first)
    assert code == 0
    assert out.startswith(f"Updated decision: .claude/memory/{first}")
    body = (memory / first).read_text()
    assert "## Update " in body
    assert "refresh tokens too" in body
    assert "auth tokens live in httpOnly cookies" in body
    code, _, _ = run(capsys, "remember", "we decided auth tokens live in httpOnly cookies", "--new")
    assert code == 0
    assert len(list((memory / "decisions").glob("*.md"))) == 3


def test_remember_redacts_secrets(memory: Path, capsys) -> None:
    code, out, _ = run(
        capsys, "remember", "the CI token is ghp_abcdefghijklmnopqrstuvwxyz0123456789", "--json"
    )
    assert code == 0
    text = (memory / json.loads(out)["path"].removeprefix(".claude/memory/")).read_text()
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in text


def test_forget_shows_first_and_retires_only_with_yes(memory: Path, capsys) -> None:
    code, out, _ = run(capsys, "remember", "we always squash-merge pull requests", "--json")
    path = json.loads(out)["path"].removeprefix(".claude/memory/")
    run(capsys, "remember", "the API must answer within 200 ms")
    code, out, _ = run(capsys, "forget", "squash", "merge")
    assert code == 0
    assert out.startswith(f"Would retire: .claude/memory/{path} — We always squash-merge")
    assert f'hooks/memhooks.py" forget {path} --yes' in out  # runnable as printed
    assert "record_status: active" in (memory / path).read_text()
    code, out, _ = run(
        capsys, "forget", path, "--yes", "--reason", "we merge commits now", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["retired"] is True
    assert data["record_status"] == "retired"
    text = (memory / path).read_text()  # retired, never deleted
    assert "record_status: retired" in text
    assert "retired_reason: we merge commits now" in text
    assert "squash" not in (memory / "MEMORY.md").read_text()
    code, out, _ = run(capsys, "recall", "squash merge", "--json")
    assert json.loads(out)["results"] == []
    code, out, _ = run(capsys, "forget", f".claude/memory/{path}", "--yes")
    assert code == 0
    assert out.startswith("Already retired")


def test_forget_errors(memory: Path, capsys) -> None:
    run(capsys, "remember", "we always squash-merge pull requests")
    code, _, err = run(capsys, "forget", "zebra quasar")
    assert code == 7
    assert "no active memory" in err
    code, _, err = run(capsys, "forget", "../../etc/passwd.md", "--yes")
    assert code == 9
    code, _, err = run(capsys, "forget", "decisions/nope.md")
    assert code == 7


def test_forget_user_finds_and_retires_in_the_user_tier_only(memory: Path, capsys) -> None:
    from memhooks.store import user_dir

    run(capsys, "remember", "--tier", "project", "I prefer bun for this repo's scripts")
    code, out, err = run(capsys, "remember", "--user", "I prefer bun over npm", "--json")
    assert code == 0, err
    shown = json.loads(out)["path"]
    assert shown.startswith("~/.local/share/memhooks-user/preferences/")
    relative = shown.removeprefix("~/.local/share/memhooks-user/")
    user = Path(user_dir())
    code, out, _ = run(capsys, "forget", "--user", "bun", "npm")
    assert code == 0
    assert out.startswith(f"Would retire: {shown} — ")
    assert f"forget --user {relative} --yes" in out  # runnable as printed
    code, out, _ = run(capsys, "forget", "--user", shown, "--yes", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["path"], data["retired"], data["record_status"]) == (shown, True, "retired")
    assert "record_status: retired" in (user / relative).read_text()
    project_memories = [p.read_text() for p in memory.glob("preferences/*.md")]
    assert len(project_memories) == 1
    assert "record_status: active" in project_memories[0]  # the project's own is untouched
    code, _, err = run(capsys, "forget", "--user", "zebra quasar")
    assert code == 7
    assert "no active memory in ~/.local/share/memhooks-user/" in err
