"""Path rules of the store: what a host session id may be as a file name, and the tree's
well-known paths (one table, one API: `str` attributes)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from memhooks.store import (
    LAYOUT,
    LOCAL,
    MemoryPaths,
    UnsafePathError,
    command_project_root,
    discover_project,
    session_file_stem,
)
from support import local_of


@pytest.mark.parametrize("good", ["abc", "7f3e-11aa_b", "A" * 128])
def test_a_host_session_id_is_a_file_stem(good: str) -> None:
    assert session_file_stem(good) == good


@pytest.mark.parametrize(
    "bad", ["", "-abc", "_abc", "a/b", "../x", "a" * 129, "abc\n", "caf\u00e9", "a b", "a.b"]
)
def test_anything_else_is_refused(bad: str) -> None:
    with pytest.raises(UnsafePathError):
        session_file_stem(bad)


def test_every_entry_is_a_string_of_the_tree(tmp_path: Path) -> None:
    """One API: each well-known path is a `str` (the hooks never import pathlib); the tree's
    in the checkout, the machine-local ones in the local folder, outside it."""
    paths = MemoryPaths.for_project(tmp_path)
    assert paths.base == str(tmp_path / ".claude" / "memory")
    assert len(LAYOUT) == 15  # the tree: what a repository may share
    # machine-local: the session record, caches, evidence, the next session's restore, log
    assert len(LOCAL) == 28
    for name, relative in LAYOUT.items():
        value = getattr(paths, name)
        assert isinstance(value, str)
        assert Path(value) == Path(paths.base) / relative
    for name, relative in LOCAL.items():
        value = getattr(paths, name)
        assert isinstance(value, str)
        assert Path(value) == Path(paths.cache) / relative
        assert not Path(value).is_relative_to(tmp_path)
    assert paths.relative(paths.current_task) == "context/current-task.md"
    assert not hasattr(paths, "file")


def test_the_paths_cannot_be_reassigned(tmp_path: Path) -> None:
    paths = MemoryPaths(tmp_path)
    with pytest.raises(AttributeError):
        paths.index = str(tmp_path)  # type: ignore[misc]


# ------------------------------------------------------------------ the commands' project


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git checkout with a `src/pkg/` folder; no override, as a person's shell has."""
    monkeypatch.delenv("MEMHOOKS_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "pkg").mkdir(parents=True)
    return root


def test_a_command_run_from_a_subfolder_uses_the_repository_root(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25, item 5: `start` from src/ made src/.claude/memory/, and after a start at
    the root, `recall` from src/ said "no memory here" (exit 3)."""
    from memhooks.cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.chdir(checkout / "src")
    assert main(["start"]) == 0
    assert (local_of(checkout / ".claude" / "memory") / "session.json").is_file()
    assert not (checkout / "src" / ".claude").exists()
    monkeypatch.chdir(checkout / "src" / "pkg")
    assert main(["remember", "the queue runs on Postgres"]) == 0
    capsys.readouterr()
    assert main(["recall", "queue Postgres"]) == 0
    assert "Postgres" in capsys.readouterr().out


def test_the_nearest_memory_wins_and_the_override_wins_over_all(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    inner = checkout / "src"
    (inner / ".claude" / "memory").mkdir(parents=True)
    assert discover_project(str(inner / "pkg")) == str(inner)
    assert discover_project(str(checkout)) == str(checkout)
    monkeypatch.chdir(inner / "pkg")
    assert command_project_root() == str(inner)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    assert command_project_root() == str(tmp_path)
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(checkout))
    assert command_project_root() == str(checkout)


def test_a_worktree_or_submodule_root_is_a_git_file(checkout: Path) -> None:
    sub = checkout / "vendor" / "lib"
    (sub / "code").mkdir(parents=True)
    (sub / ".git").write_text("gitdir: ../../.git/modules/lib\n", encoding="utf-8")
    assert discover_project(str(sub / "code")) == str(sub)


def test_outside_a_repository_the_walk_stops_below_home(tmp_path: Path) -> None:
    """~/.claude is Claude Code's own folder and a home under git is no project: a folder
    under the home with neither finds nothing above it, and stays where it is."""
    home = Path.home()
    (home / ".claude" / "memory").mkdir(parents=True)
    (home / ".git").mkdir()
    loose = home / "notes" / "day"
    loose.mkdir(parents=True)
    assert discover_project(str(loose)) == str(loose)
    elsewhere = tmp_path / "plain" / "folder"
    elsewhere.mkdir(parents=True)
    assert discover_project(str(elsewhere)) == str(elsewhere)
