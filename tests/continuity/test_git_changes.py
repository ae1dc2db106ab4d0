"""git's view of what a session changed (issue 23: Bash edits count, a reverted file does not),
and git run in a hostile repository without running anything of the repo's choosing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from memhooks.continuity.git_changes import (
    baseline,
    changes,
    parse_name_status,
    parse_status,
    snapshot,
)
from memhooks.continuity.git_run import Git, filter_drivers, git_program, repo_root
from memhooks.continuity.handover import file_lines
from support import local_of, run_cli, run_hook

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

SESSION_A = "aaaaaaaa-0000-4000-8000-00000000000a"
SESSION_B = "bbbbbbbb-0000-4000-8000-00000000000b"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def make_repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "dev@example.invalid")
    git(root, "config", "user.name", "Dev")
    for name in ("app.py", "util.py", "notes.md", "old.txt"):
        (root / name).write_text(f"{name} v1\n", encoding="utf-8")
    (root / ".gitignore").write_text("build/\n", encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "init")
    return root


def started_repo(root: Path, dirty: str) -> tuple[Path, dict[str, Any]]:
    """A repository with notes.md uncommitted (`dirty`), and its baseline then."""
    repo = make_repo(root)
    (repo / "notes.md").write_text(dirty, encoding="utf-8")
    found = snapshot(str(repo))
    assert found is not None
    return repo, baseline(found[1])


def view(repo: Path, start: dict[str, Any] | None, tool_files: list[str]) -> dict[str, Any]:
    found = snapshot(str(repo))
    assert found is not None
    return changes(*found, start, tool_files, cwd=str(repo))


# ---------------------------------------------------------------- parsing


def test_parse_status_v2() -> None:
    zero = "0" * 40
    out = "\0".join(
        [
            "# branch.oid 1234abcd" + "0" * 32,
            "# branch.head feat/json",
            f"1 .M N... 100644 100644 100644 {zero} {zero} src/a b.py",
            f"1 A. N... 000000 100644 100644 {zero} {zero} new.py",
            f"1 D. N... 100644 000000 000000 {zero} {zero} gone.py",
            f"2 R. N... 100644 100644 100644 {zero} {zero} R100 moved.py",
            "was.py",
            f"u UU N... 100644 100644 100644 100644 {zero} {zero} {zero} both.py",
            "? scratch/",
            "",
        ]
    )
    found = parse_status(out)
    assert found["head"].startswith("1234abcd")
    assert found["branch"] == "feat/json"
    assert found["dirty"] == {
        "src/a b.py": "edited",
        "new.py": "new",
        "gone.py": "deleted",
        "moved.py": "edited",
        "both.py": "conflict",
        "scratch/": "new",
    }
    detached = parse_status("# branch.oid (initial)\0# branch.head (detached)\0")
    assert (detached["head"], detached["branch"]) == ("", "")


def test_parse_name_status_and_filter_drivers() -> None:
    assert parse_name_status("M\0a.py\0A\0b.py\0D\0c.py\0") == {
        "a.py": "edited",
        "b.py": "new",
        "c.py": "deleted",
    }
    listed = "filter.lfs.clean\0filter.lfs.smudge\0filter.a=b.c.process\0"
    assert filter_drivers(listed) == ["lfs", "a=b.c"]


def test_repo_root_walks_up_and_stops(tmp_path: Path) -> None:
    assert repo_root(str(tmp_path)) in ("", str(Path(tmp_path).anchor))  # no repository
    repo = make_repo(tmp_path / "r")
    (repo / "sub" / "deep").mkdir(parents=True)
    assert repo_root(str(repo / "sub" / "deep")) == str(repo)
    assert repo_root("relative/path") == ""


# ---------------------------------------------------------------- what changed


def test_bash_edits_count_and_reverted_files_do_not(tmp_path: Path) -> None:
    """Issue 23: only Claude's Write/Edit calls counted (`sed -i`, `mv`, generators were
    missed) and a file edited then reverted still showed as changed."""
    repo, start = started_repo(tmp_path / "repo", "dirty before the session\n")
    # The session: Edit on app.py, later reverted; `sed -i` on util.py through Bash;
    # `mv` of old.txt; a generated file; a build artefact git ignores; notes.md untouched.
    (repo / "app.py").write_text("app.py v2\n", encoding="utf-8")
    (repo / "app.py").write_text("app.py v1\n", encoding="utf-8")
    subprocess.run(["sed", "-i", "s/v1/v2/", str(repo / "util.py")], check=True)
    (repo / "old.txt").rename(repo / "renamed.txt")
    (repo / "gen.json").write_text("{}\n", encoding="utf-8")
    (repo / "build").mkdir()
    (repo / "build" / "out.bin").write_text("x", encoding="utf-8")
    (repo / "tmp.txt").write_text("x", encoding="utf-8")
    (repo / "tmp.txt").unlink()  # created by a tool, then removed
    now = view(repo, start, ["app.py", "build/out.bin", "tmp.txt", "/elsewhere/x.cfg"])
    assert now["changed"] == {
        "old.txt": "deleted",
        "util.py": "edited",
        "gen.json": "new",
        "renamed.txt": "new",
    }
    assert now["tools_only"] == ["/elsewhere/x.cfg", "build/out.bin"]
    assert "notes.md" in now["uncommitted"]
    state = {
        "files": {
            p: {"how": "edited"} for p in ("app.py", "build/out.bin", "tmp.txt", "/elsewhere/x.cfg")
        },
        "git": {"now": now},
    }
    text = "\n".join(file_lines(state))
    assert "Changed since the session began (git, " in text
    assert "`util.py`" in text
    assert "`app.py`" not in text
    assert "`tmp.txt`" not in text
    assert "not seen by git: `build/out.bin`, `/elsewhere/x.cfg`" in text
    assert "Uncommitted now" in text


def test_commits_of_the_session_and_a_file_touched_again(tmp_path: Path) -> None:
    repo, start = started_repo(tmp_path / "repo", "dirty before\n")
    (repo / "app.py").write_text("app.py v2\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "Retry with backoff")
    (repo / "notes.md").write_text("dirty before, and edited in the session\n", encoding="utf-8")
    now = view(repo, start, [])
    assert now["changed"] == {"app.py": "edited", "notes.md": "edited"}
    assert len(now["commits"]) == 1
    assert now["commits"][0].endswith(" Retry with backoff")
    text = "\n".join(file_lines({"files": {}, "git": {"now": now}}))
    assert "- Committed this session: `" in text
    assert "Uncommitted now (git, " in text  # not the same set as the changed files


def test_no_baseline_keeps_the_tools_record(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    (repo / "app.py").write_text("app.py v2\n", encoding="utf-8")
    now = view(repo, None, ["util.py"])
    assert now["changed"] is None
    text = "\n".join(file_lines({"files": {"util.py": {"how": "edited"}}, "git": {"now": now}}))
    assert "Files changed by Claude's tools this session: `util.py`" in text
    assert "Uncommitted now (git, " in text
    assert "`app.py`" in text


def test_not_a_repository_runs_no_git(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    if repo_root(str(tmp_path / "plain")):
        pytest.skip("the temp folder is inside a repository")
    assert snapshot(str(tmp_path / "plain")) is None


# ---------------------------------------------------------------- hostile repository


def test_a_hostile_repo_config_runs_nothing(tmp_path: Path) -> None:
    """A project's own .git/config can name programs that plain `git status`, `git diff` and
    `git log` run: clean/process filters, an fsmonitor hook, a signature checker."""
    repo = make_repo(tmp_path / "repo")
    marker = tmp_path / "pwned"
    run = f"touch {marker}; cat"
    (repo / ".gitattributes").write_text("*.py filter=evil\n*.md filter=a=b\n", encoding="utf-8")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-q", "-m", "attributes")
    found = snapshot(str(repo))
    assert found is not None
    start = baseline(found[1])
    git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    for key, value in (
        ("filter.evil.clean", run),
        ("filter.evil.process", f"touch {marker}"),
        ("filter.evil.required", "true"),
        ("filter.a=b.clean", run),
        ("core.fsmonitor", f"touch {marker}; echo"),
        ("log.showSignature", "true"),
        ("gpg.program", str(marker)),
        ("diff.external", f"touch {marker}"),
    ):
        git(repo, "config", key, value)
    (repo / "app.py").write_text("app.py v2\n", encoding="utf-8")
    (repo / "notes.md").write_text("notes.md v1\n", encoding="utf-8")  # same content, new stat
    now = view(repo, start, [])
    assert not marker.exists()
    assert now["changed"] == {"app.py": "edited"}
    assert len(now["commits"]) == 1
    assert Git(str(repo)).run("status", "--porcelain") is not None
    assert not marker.exists()


def test_a_git_the_project_ships_is_never_run(tmp_path: Path) -> None:
    """PATH may hold `.` or a project folder (node_modules/.bin): only a git outside runs."""
    repo = make_repo(tmp_path / "repo")
    fake = repo / "bin" / "git"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\ntouch pwned\n", encoding="utf-8")
    fake.chmod(0o755)
    real = str(Path(shutil.which("git") or "git").parent)
    search = os.pathsep.join([".", "bin", str(repo / "bin"), real])
    assert git_program(str(repo), search) == str(Path(real) / "git")
    assert git_program(str(repo), os.pathsep.join([".", str(repo / "bin")])) == ""


# ---------------------------------------------------------------- through the hooks


def _records(repo: Path) -> list[dict[str, Any]]:
    def tool(call: str, name: str, data: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                "type": "assistant",
                "cwd": str(repo),
                "message": {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": call, "name": name, "input": data}],
                },
            },
            {
                "type": "user",
                "cwd": str(repo),
                "message": {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": call, "content": "ok"}],
                },
            },
        ]

    prompt = {
        "type": "user",
        "cwd": str(repo),
        "message": {"role": "user", "content": "bump the version everywhere"},
    }
    return [
        prompt,
        *tool("t1", "Edit", {"file_path": str(repo / "app.py")}),
        *tool("t2", "Bash", {"command": "sed -i s/v1/v2/ util.py"}),
        *tool("t3", "Edit", {"file_path": str(repo / "app.py")}),
    ]


def test_next_session_restore_shows_git_changes(started: Path, tmp_path: Path) -> None:
    """The whole path: SessionStart keeps A's baseline, Stop keeps A's evidence, and B's
    SessionStart shows what git says A changed (the `sed -i` file, not the reverted one)."""
    project = started.parent.parent
    make_repo(project)
    (project / ".gitignore").write_text("build/\n.claude/\n", encoding="utf-8")
    git(project, "commit", "-q", "-am", "ignore the memory")
    assert run_cli("start", cwd=project).returncode == 0  # a git repository now: asked again
    payload = {"session_id": SESSION_A, "cwd": str(project), "source": "startup"}
    assert run_hook("SessionStart", payload, cwd=project).returncode == 0
    kept = json.loads((local_of(started) / "restore" / "start" / f"{SESSION_A}.json").read_text())
    assert kept["head"]
    (project / "app.py").write_text("app.py v2\n", encoding="utf-8")
    subprocess.run(["sed", "-i", "s/v1/v2/", "util.py"], cwd=project, check=True)
    (project / "app.py").write_text("app.py v1\n", encoding="utf-8")  # reverted
    transcript = tmp_path / "a.jsonl"
    transcript.write_text("".join(json.dumps(r) + "\n" for r in _records(project)))
    stop = {"session_id": SESSION_A, "cwd": str(project), "transcript_path": str(transcript)}
    assert run_hook("Stop", stop, cwd=project).returncode == 0
    evidence = json.loads((local_of(started) / "restore" / f"{SESSION_A}.json").read_text())
    assert evidence["git"]["start"] == kept
    for n in range(6):  # sessions that start and end without a turn hide nothing
        idle = {"session_id": f"cccccccc-0000-4000-8000-00000000000{n}", "cwd": str(project)}
        assert run_hook("SessionStart", {**idle, "source": "startup"}, cwd=project).returncode == 0
    payload = {"session_id": SESSION_B, "cwd": str(project), "source": "startup"}
    done = run_hook("SessionStart", payload, cwd=project)
    assert done.returncode == 0, done.stderr
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Changed since the session began (git, " in text
    assert "`util.py`" in text
    assert "`app.py`" not in text
    assert "bump the version everywhere" in text
