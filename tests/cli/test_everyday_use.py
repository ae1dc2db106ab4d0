"""What a new user does with the CLI, as the plugin's commands run it (a process of its own,
in the project's folder, with a HOME of its own), and what they are told: issue 33."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memhooks.errors import Exit
from support import run_cli


@pytest.fixture
def home() -> Path:
    return Path(os.environ["HOME"])


@pytest.fixture
def plugin_data(tmp_path: Path) -> Path:
    data = tmp_path / "plugin-data"
    data.mkdir()
    return data


def user(cwd: Path, data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`/memory <args>` as its command file runs it: from the project, with the data folder
    (no MEMHOOKS_PROJECT_DIR here: the project is found from the folder, as it is for users)."""
    return run_cli(*args, "--plugin-data", str(data), cwd=cwd)


def shell(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command the user types next (tar, git), in `cwd`."""
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)


def test_start_in_the_home_folder_is_refused(home: Path, plugin_data: Path) -> None:
    done = user(home, plugin_data, "start")
    assert done.returncode == Exit.REFUSED, done.stdout + done.stderr
    assert "is your home folder, not a project" in done.stderr
    assert "Claude Code's own ~/.claude folder" in done.stderr
    assert not (home / ".claude" / "memory").exists()


@pytest.fixture
def project(home: Path, plugin_data: Path) -> Path:
    """A user's project, started as `/memory start` starts it."""
    root = home / "code" / "textstats"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    done = user(root, plugin_data, "start")
    assert done.returncode == 0, done.stderr
    return root


def test_a_corrupt_state_file_is_named_with_its_repair(project: Path, plugin_data: Path) -> None:
    from memhooks.store import MemoryPaths

    state = Path(MemoryPaths.for_project(str(project)).session)
    state.write_text('{"active": true, "started": ', encoding="utf-8")  # cut short
    done = user(project, plugin_data, "status")
    assert done.returncode == Exit.REFUSED
    assert "not set up" not in done.stdout + done.stderr
    assert "state file cannot be read" in done.stderr
    assert "doctor` says what is wrong and how to repair it" in done.stderr
    doctor = user(project, plugin_data, "doctor")
    assert "move it away and run" in doctor.stdout


@pytest.mark.parametrize("command", [("status",), ("recall",), ("recall", "parser"), ("view",)])
def test_a_bad_config_is_reported_by_every_command_that_reads_it(
    project: Path, plugin_data: Path, command: tuple[str, ...]
) -> None:
    from memhooks.store import MemoryPaths

    config = Path(MemoryPaths.for_project(str(project)).config)
    config.write_text('{"briefing":{"session_start_chars":"lots"},"bogus":1}', encoding="utf-8")
    done = user(project, plugin_data, *command)
    assert done.returncode == Exit.OK, done.stderr  # it carries on
    said = [line for line in done.stderr.splitlines() if "config.json" in line]
    assert len(said) == 1, done.stderr
    assert "briefing.session_start_chars" in said[0]
    assert "bogus" in said[0]
    assert "the defaults apply instead" in said[0]


def test_export_by_default_writes_a_bundle_tar_reads_outside_the_repository(
    project: Path, plugin_data: Path
) -> None:
    remembered = user(project, plugin_data, "remember", "we decided to count words with split()")
    assert remembered.returncode == 0, remembered.stderr
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    done = user(project, plugin_data, "export")
    assert done.returncode == 0, done.stderr
    bundles = list(project.parent.glob("memhooks-textstats-*.tar.gz"))
    assert len(bundles) == 1, done.stdout
    assert ":" not in bundles[0].name
    assert str(bundles[0]) in done.stdout
    listed = shell(["tar", "tzf", bundles[0].name], bundles[0].parent)
    assert listed.returncode == 0, listed.stderr
    assert "manifest.json" in listed.stdout
    changed = shell(["git", "status", "--porcelain", "--ignored"], project)
    assert "tar.gz" not in changed.stdout


def test_the_user_tier_is_not_in_the_readmes_clone_and_an_old_one_moves_out(
    home: Path, project: Path, plugin_data: Path
) -> None:
    """The README clones the plugin into ~/.local/share/memhooks; the user tier lived in its
    `user/` (a `git clean` there took the user's memories). It moves out, once, whole."""
    clone = home / ".local" / "share" / "memhooks"
    clone.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    old = clone / "user" / "preferences"
    old.mkdir(parents=True)
    mine = old / "british-english.md"
    mine.write_text("---\ntitle: Answer in British English\n---\n\nbody\n", encoding="utf-8")
    done = user(project, plugin_data, "remember", "--user", "I prefer tabs over spaces")
    assert done.returncode == 0, done.stderr
    assert "moved your user tier from" in done.stderr
    tier = home / ".local" / "share" / "memhooks-user"
    assert (tier / "preferences" / "british-english.md").read_bytes() == (
        b"---\ntitle: Answer in British English\n---\n\nbody\n"
    )
    assert len(list((tier / "preferences").glob("*.md"))) == 2
    assert "~/.local/share/memhooks-user/" in done.stdout
    assert not (clone / "user").exists()
    assert shell(["git", "status", "--porcelain"], clone).stdout == ""
    again = user(project, plugin_data, "status")
    assert "moved" not in again.stderr  # once


def test_an_old_user_tier_in_use_is_left_until_its_lock_is_free(
    home: Path, project: Path, plugin_data: Path
) -> None:
    from memhooks.store import MemoryPaths, quick_lock

    old = home / ".local" / "share" / "memhooks" / "user"
    (old / "preferences").mkdir(parents=True)
    (old / ".cache").mkdir()
    with quick_lock(MemoryPaths(str(old)).lock, 0):  # a writer of the old tier at work
        done = user(project, plugin_data, "status")
    assert "the user tier is still at" in done.stderr
    assert (old / "preferences").is_dir()
    done = user(project, plugin_data, "status")
    assert "moved your user tier" in done.stderr
    assert (home / ".local" / "share" / "memhooks-user" / "preferences").is_dir()


def test_small_things_a_user_reads(project: Path, plugin_data: Path) -> None:
    """Issue 33, item 11: `recall` shows MEMORY.md without an escaped `&lt;!--`; a second
    `stop` does not say both "not active" and "stopped"; no message cites the seeds."""
    assert user(project, plugin_data, "remember", "we decided to count words with split()")
    shown = user(project, plugin_data, "recall")
    assert shown.returncode == 0, shown.stderr
    assert "&lt;!--" not in shown.stdout
    assert "Derived by memhooks" not in shown.stdout
    assert "count words with split()" in shown.stdout.lower() or "split" in shown.stdout
    first = user(project, plugin_data, "stop")
    assert first.stdout.strip() == "Memory mode stopped. Files preserved in .claude/memory/"
    second = user(project, plugin_data, "stop")
    assert (
        second.stdout.strip() == "Memory mode was already off. Files preserved in .claude/memory/"
    )
    saved = run_cli(
        "summarize", "--save", "--session", "s-1", stdin="no title, no sections\n", cwd=project
    )
    assert saved.returncode == Exit.INVALID_INPUT, saved.stderr
    assert "required structure" in saved.stderr
    assert "seed" not in saved.stderr


def test_names_of_code_and_pasted_spaces_are_kept_verbatim(
    project: Path, plugin_data: Path
) -> None:
    """Issue 33, item 9: what a user said about `word_count` in `__init__.py`, with the
    double space that is the bug itself, is filed as said: no capital on the identifier,
    no space dropped."""
    said = "word_count uses str.split() so textstats/__init__.py counts 'hello  world' as 2"
    done = user(project, plugin_data, "remember", said + "; line_count is fine")
    assert done.returncode == 0, done.stderr
    assert f"— {said}" in done.stdout  # the title, as said
    (filed,) = (project / ".claude" / "memory" / "decisions").glob("*.md")
    text = filed.read_text(encoding="utf-8")
    assert f"title: {said}" in text or f'title: "{said}"' in text
    assert "'hello  world'" in text
    assert "line_count is fine" in text
    assert "Word_count" not in text
