"""Worktrees (issue 27): memory follows the branch, consent covers the repository's worktrees,
session state stays per checkout, and memories not on the main branch are said.

Real repositories and real `git worktree add`; the hooks and the CLI run as the host runs
them (a new process, JSON on stdin, the checkout as the working directory).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from support import FIXTURES, context_of, git, hook_reply, local_of, run_cli, run_hook

SESSION = "0a1b2c3d-worktree"
MESSY = FIXTURES / "transcripts2" / "c1-rust-json-output"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = run_cli(*args, cwd=cwd, env={"MEMHOOKS_PROJECT_DIR": str(cwd)})
    assert done.returncode == 0, done.stderr
    return done


def hook(project: Path, event: str, **fields: object) -> dict[str, object]:
    return hook_reply(project, event, SESSION, **fields)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository on `main` whose memory the user started and committed (one decision)."""
    monkeypatch.delenv("MEMHOOKS_PROJECT_DIR", raising=False)
    main = tmp_path / "main"
    main.mkdir()
    git("init", "-q", "-b", "main", cwd=main)
    cli("start", cwd=main)
    cli("remember", "we decided to deploy the database first, then the workers", cwd=main)
    git("add", "-A", cwd=main)
    git("commit", "-q", "-m", "memory", cwd=main)
    return main


@pytest.fixture
def worktree(repo: Path) -> Path:
    target = repo.parent / "feature tree"
    git("worktree", "add", "-q", "-b", "feature", str(target), cwd=repo)
    return target


def decisions(project: Path) -> list[str]:
    folder = project / ".claude" / "memory" / "decisions"
    return sorted(p.name for p in folder.glob("*.md")) if folder.is_dir() else []


def test_consent_in_the_main_checkout_covers_a_new_worktree(worktree: Path) -> None:
    memory = worktree / ".claude" / "memory"
    assert not (local_of(memory) / "session.json").exists()  # never committed: machine state
    out = hook(worktree, "SessionStart", source="startup")
    assert "deploy the database" in context_of(out)
    assert "systemMessage" not in out
    state = json.loads((local_of(memory) / "session.json").read_text("utf-8"))
    assert state["active"] is True
    assert state["branch"] == "feature"
    status = json.loads(cli("status", "--json", cwd=worktree).stdout)
    assert status["active"] is True
    assert "another checkout of this repository" in status["why"]


def test_stop_in_one_checkout_turns_the_repository_off_for_the_others(
    repo: Path, worktree: Path
) -> None:
    cli("stop", cwd=repo)
    assert hook(worktree, "SessionStart", source="startup") == {}
    assert not (local_of(worktree / ".claude" / "memory") / "session.json").exists()


def test_a_worktree_saves_in_its_own_tree_until_the_branch_merges(
    repo: Path, worktree: Path
) -> None:
    hook(worktree, "SessionStart", source="startup")
    before = decisions(repo)
    cli("remember", "we decided to use postgres for the job queue", cwd=worktree)
    new = sorted(set(decisions(worktree)) - set(before))
    assert len(new) == 1
    assert decisions(repo) == before  # the main checkout does not see it yet
    status = json.loads(cli("status", "--json", cwd=worktree).stdout)
    assert status["unmerged"] == {"branch": "main", "paths": [f"decisions/{new[0]}"]}
    assert "not on main yet" in cli("status", cwd=worktree).stdout
    end = hook(worktree, "SessionEnd", reason="prompt_input_exit")
    line = str(end["systemMessage"])
    assert f"decisions/{new[0]}" in line
    assert "not on main" in line
    assert "\n" not in line
    # Merged: the main checkout has it, and nothing more is said.
    git("add", "-A", cwd=worktree)
    git("commit", "-q", "-m", "queue decision", cwd=worktree)
    git("merge", "-q", "feature", cwd=repo)
    assert new[0] in decisions(repo)
    assert "postgres" in context_of(hook(repo, "SessionStart", source="startup"))
    assert hook(worktree, "SessionEnd", reason="other") == {}
    status = json.loads(cli("status", "--json", cwd=worktree).stdout)
    assert status["unmerged"]["paths"] == []


def test_the_main_checkout_says_nothing_about_merging(repo: Path) -> None:
    status = json.loads(cli("status", "--json", cwd=repo).stdout)
    assert status["unmerged"] is None
    assert "Worktree" not in cli("status", cwd=repo).stdout
    assert hook(repo, "SessionEnd", reason="other") == {}


def test_no_main_branch_no_notice(repo: Path, worktree: Path) -> None:
    git("branch", "-q", "-m", "main", "trunk", cwd=repo)
    hook(worktree, "SessionStart", source="startup")
    cli("remember", "we decided to keep the trunk branch name", cwd=worktree)
    assert json.loads(cli("status", "--json", cwd=worktree).stdout)["unmerged"] is None
    assert hook(worktree, "SessionEnd", reason="other") == {}


def test_journals_and_checkpoints_stay_in_each_checkout(
    repo: Path, worktree: Path, tmp_path: Path
) -> None:
    hook(worktree, "SessionStart", source="startup")
    transcript = tmp_path / "t.jsonl"
    shutil.copy(MESSY / "transcript_at_precompact.jsonl", transcript)
    payload = {"session_id": SESSION, "cwd": str(worktree), "transcript_path": str(transcript)}
    done = run_hook("PreCompact", {**payload, "trigger": "manual"}, cwd=worktree)
    assert done.returncode == 0, done.stderr
    done = run_hook("Stop", {**payload, "stop_hook_active": False}, cwd=worktree)
    assert done.returncode == 0, done.stderr
    here = worktree / ".claude" / "memory"
    there = repo / ".claude" / "memory"
    assert (here / "checkpoints" / "sessions" / f"{SESSION}.md").is_file()
    assert (here / "sessions" / f"{SESSION}.md").is_file()
    assert not (there / "checkpoints" / "sessions" / f"{SESSION}.md").exists()
    assert not (there / "sessions" / f"{SESSION}.md").exists()
    sessions = json.loads((local_of(there) / "session.json").read_text("utf-8")).get("sessions", [])
    assert SESSION not in [s["id"] for s in sessions]
    sessions = json.loads((local_of(here) / "session.json").read_text("utf-8"))["sessions"]
    assert SESSION in [s["id"] for s in sessions]


def test_a_fresh_clone_at_the_same_path_is_asked_again(repo: Path, tmp_path: Path) -> None:
    upstream = tmp_path / "upstream"
    git("clone", "-q", str(repo), str(upstream), cwd=tmp_path)
    # Cloned before the old folder goes, then put at its path: a folder made after the rmtree
    # could get the freed inode number back, and consent is keyed by (device, inode).
    fresh_clone = tmp_path / "fresh clone"
    git("clone", "-q", str(upstream), str(fresh_clone), cwd=tmp_path)
    shutil.rmtree(repo)
    fresh_clone.rename(repo)
    out = hook(repo, "SessionStart", source="startup")
    assert "systemMessage" in out
    assert not context_of(out)
    fresh = tmp_path / "fresh worktree"
    git("worktree", "add", "-q", "-b", "again", str(fresh), cwd=repo)
    assert not context_of(hook(fresh, "SessionStart", source="startup"))
    assert not (local_of(fresh / ".claude" / "memory") / "session.json").exists()


def test_a_git_file_pointing_at_a_trusted_repository_is_not_its_worktree(
    repo: Path, worktree: Path, tmp_path: Path
) -> None:
    """An unpacked archive shipping `.git` as a file that names the trusted repository's
    worktree folder: the repository does not list this folder, so no consent carries over."""
    gitdir = (repo / ".git" / "worktrees").iterdir().__next__()
    fake = tmp_path / "archive"
    shutil.copytree(worktree / ".claude", fake / ".claude")
    (fake / ".git").write_text(f"gitdir: {gitdir}\n", encoding="utf-8")
    out = hook(fake, "SessionStart", source="startup")
    assert "systemMessage" in out
    assert not context_of(out)
    assert not (local_of(fake / ".claude" / "memory") / "session.json").exists()


def test_the_main_branch_is_origin_head_else_main_or_master(repo: Path, tmp_path: Path) -> None:
    from memhooks.continuity.unmerged import main_branch

    assert main_branch(str(repo / ".git")) == "refs/heads/main"
    git("pack-refs", "--all", cwd=repo)  # no loose ref file left: packed-refs is read
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert main_branch(str(repo / ".git")) == "refs/heads/main"
    clone = tmp_path / "clone"
    git("clone", "-q", str(repo), str(clone), cwd=tmp_path)
    assert main_branch(str(clone / ".git")) == "refs/remotes/origin/main"
    git("branch", "-q", "-m", "main", "trunk", cwd=repo)
    assert main_branch(str(repo / ".git")) is None


def test_a_checkouts_own_decision_wins_over_its_repositorys(repo: Path, worktree: Path) -> None:
    from memhooks.store import (
        CONSENT_OFF,
        CONSENT_ON,
        consent_decision,
        join_worktree,
        record_consent,
    )

    here = str(worktree / ".claude" / "memory")
    shared = consent_decision(here)
    assert shared is not None
    assert shared["state"] == CONSENT_ON
    assert shared["repository"] is True
    record_consent(here, CONSENT_OFF)  # `stop` in the worktree: its own, and the repository's
    own = consent_decision(here)
    assert own is not None
    assert own["state"] == CONSENT_OFF
    assert "repository" not in own
    record_consent(str(repo / ".claude" / "memory"), CONSENT_ON)  # main turns it on again
    assert consent_decision(here)["state"] == CONSENT_OFF  # type: ignore[index]
    # A main checkout never gets a `_session.json` written for it by SessionStart.
    assert not join_worktree(str(repo / ".claude" / "memory"), "2026-01-01T00:00:00Z")
