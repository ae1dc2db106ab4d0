"""SessionStart's background healing, in a plugin installed and run as the host does it
(issue 25, item 2): a copy of the tracked files in the plugin cache, the dependencies only in
the plugin's data folder, hooks on `python3 -S` with nothing installed.

On main each of these failed the same way: the rebuild was started from `src/` with no
launcher found and `python3 -I -m memhooks` could not import the package, its stderr went to
/dev/null, and `status` said a rebuild was under way.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from memhooks.recall.search_read import has_vectors
from memhooks.recall.semantic import TABLE_FILE
from plugin_host import TAG, Host
from support import local_of, wait_for

TABLE = Path(__file__).parents[1] / "fixtures" / "semantic" / "tokens-subset.sqlite3"
SAID = "we decided the job queue workers use Postgres 16 with SKIP LOCKED, not Redis"
PROMPT = "which database backs the job queue workers? postgres or redis"
CONFLICTED = (
    "# Memory Index\n<<<<<<< HEAD\n- [Ours](decisions/a.md) — ours\n=======\n"
    "- [Theirs](decisions/b.md) — theirs\n>>>>>>> feature\n"
)


def started(host: Host, *, semantic: bool = False) -> Path:
    """`/memory start` and one `/memory remember`, through the installed plugin. Without
    `semantic`, the data folder never builds the token table (no download in a test)."""
    if not semantic:
        (host.data / "semantic").mkdir(parents=True, exist_ok=True)
        (host.data / "semantic" / "disabled").touch()
    for args in (("start",), ("remember", SAID, "--category", "decision")):
        done = host.command(*args)
        assert done.returncode == 0, done.stderr
        assert "installing" not in done.stderr  # the data folder's dependencies serve
    return next((host.memory / "decisions").glob("*.md"))


def vectors(db: Path) -> bool:
    if not db.exists():
        return False
    conn = sqlite3.connect(db)
    try:
        return has_vectors(conn)
    finally:
        conn.close()


def rebuild_log(host: Host) -> str:
    log = local_of(host.memory) / "rebuild.log"
    return log.read_text(encoding="utf-8") if log.exists() else ""


def test_a_fresh_clone_gets_its_index_from_session_start(host: Host) -> None:
    memory = started(host)
    assert memory.name in host.context("UserPromptSubmit", prompt=PROMPT)
    for derived in ("search.sqlite3", "catalog.json"):  # what a clone of the repository has
        (local_of(host.memory) / derived).unlink()
    assert memory.name not in host.context("UserPromptSubmit", prompt=PROMPT)
    host.context("SessionStart", source="startup")
    assert wait_for(lambda: memory.name in host.context("UserPromptSubmit", prompt=PROMPT)), (
        rebuild_log(host)
    )
    # the job's output is kept, not discarded: the index is usable as soon as it is written,
    # the job's last line follows it (on a loaded machine, after the prompt above saw it)
    assert wait_for(lambda: "Index rebuilt." in rebuild_log(host)), rebuild_log(host)


def test_a_conflicted_index_is_rebuilt(host: Host) -> None:
    memory = started(host)
    (host.memory / "MEMORY.md").write_text(CONFLICTED, encoding="utf-8")
    assert "conflict markers" in host.context("SessionStart", source="startup")
    assert wait_for(lambda: "<<<<<<<" not in (host.memory / "MEMORY.md").read_text("utf-8")), (
        rebuild_log(host)
    )
    briefing = host.context("SessionStart", source="startup")
    assert "conflict markers" not in briefing
    assert memory.name in briefing


def arrive(host: Host) -> Path:
    """The background install finishes the token table (faked with the small fixture)."""
    table = host.data / "semantic" / TABLE_FILE
    table.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(TABLE, table)
    return local_of(host.memory) / "search.sqlite3"


def test_vectors_are_added_after_the_token_table_arrives(host: Host) -> None:
    started(host)
    db = arrive(host)
    assert not vectors(db)
    host.context("SessionStart", source="startup")
    assert wait_for(lambda: vectors(db)), rebuild_log(host)
    status = host.command("status").stdout
    assert "Semantic signals: on" in status
    assert "Background rebuild" not in status  # done: nothing running, nothing failed


def test_a_stale_mark_of_a_dead_rebuild_blocks_nothing(host: Host) -> None:
    """A rebuild that died (or never ran) left its marks: SessionStart starts one anyway,
    and status never says one is running meanwhile."""
    started(host)
    db = arrive(host)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    cache = local_of(host.memory)
    (cache / "rebuild.pid").write_text(f"{dead.pid}\n", encoding="utf-8")
    (cache / "vectors-rebuild").write_text("", encoding="utf-8")  # the old mark, an hour's block
    status = host.command("status").stdout
    assert "being built" not in status
    assert "running" not in status.split("Semantic signals:")[1]
    host.context("SessionStart", source="startup")
    assert wait_for(lambda: vectors(db)), rebuild_log(host)


def test_a_failed_rebuild_is_reported_with_its_reason(host: Host) -> None:
    started(host)
    arrive(host)
    seeded = host.data / "deps" / TAG
    target = seeded.readlink()
    seeded.unlink()  # the job cannot import what it needs, and cannot install it offline
    host.context("SessionStart", source="startup")
    assert wait_for(lambda: "could not install" in rebuild_log(host)), rebuild_log(host)
    shutil.rmtree(host.data / "deps")
    (host.data / "deps").mkdir()
    seeded.symlink_to(target, target_is_directory=True)  # for `status` itself
    status = host.command("status").stdout
    assert "Background rebuild: FAILED: memhooks: could not install" in status, (
        status + rebuild_log(host)
    )
    assert "rebuild.log" in status
    assert "failed: memhooks: could not install" in status.split("Semantic signals:")[1]
    assert host.command("rebuild").returncode == 0  # repaired by hand: no failure reported
    status = host.command("status").stdout
    assert "Background rebuild" not in status
    assert "Semantic signals: on" in status


# ------------------------------------------------------------------ one command name (item 6)


def test_claudes_memhooks_command_uses_the_plugins_data_folder(host: Host) -> None:
    """Issue 25, item 6: `memhooks` was no command a plugin user had, and the launcher run
    from the plugin cache installed the dependencies a second time (into the user cache)
    and said the token table was not installed. Claude Code puts a plugin's bin/ on the
    PATH of Claude's Bash tool (seen in 2.1.332: getEnabledPluginBinPaths) but passes no
    CLAUDE_PLUGIN_DATA there: the command finds the folder the hooks were given."""
    arrive(host)
    host.hook("SessionStart", source="startup")  # memory not started here yet
    on_path = str(host.root / "bin")
    done = host.run("memhooks", "start", path=on_path)
    assert done.returncode == 0, done.stderr
    assert "installing" not in done.stderr
    assert not (host.home / ".cache" / "memhooks" / "deps").exists()  # no second copy
    doctor = host.run("memhooks", "doctor", path=on_path)
    assert "[ok] dependencies" in doctor.stdout, doctor.stdout + doctor.stderr
    semantic = next(line for line in doctor.stdout.splitlines() if "semantic signals" in line)
    assert "the token table is ready" in semantic or "on (" in semantic, doctor.stdout
    assert "not installed" not in doctor.stdout


def test_doctor_link_gives_a_person_the_same_command(host: Host, tmp_path: Path) -> None:
    """`memhooks doctor --link DIR` writes a `memhooks` a person's shell runs: the plugin's
    launcher with its data folder, from wherever the host last installed the plugin."""
    started(host)
    host.hook("SessionStart", source="startup")
    link_dir = tmp_path / "user-bin"
    done = host.run(str(host.root / "bin" / "memhooks"), "doctor", "--link", str(link_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{link_dir}/memhooks" in done.stdout
    assert "not on your PATH" in done.stdout  # and how to put it there
    status = host.run("memhooks", "status", path=str(link_dir))
    assert status.returncode == 0, status.stderr
    assert "Memory: ACTIVE" in status.stdout
    assert "installing" not in status.stderr
    again = host.run(str(link_dir / "memhooks"), "doctor", "--link", str(link_dir))
    assert again.returncode == 0, again.stderr  # its own link is replaced, not refused
    (link_dir / "memhooks").write_text("#!/bin/sh\necho someone else's\n", encoding="utf-8")
    refused = host.run(str(host.root / "bin" / "memhooks"), "doctor", "--link", str(link_dir))
    assert refused.returncode != 0
    assert "someone else's" in (link_dir / "memhooks").read_text(encoding="utf-8")
