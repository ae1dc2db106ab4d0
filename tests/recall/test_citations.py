"""Code citations: found in text, hashed at save, judged stale, read safely from the project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.recall import citation_check, citations
from memhooks.store import MemoryPaths
from support import local_of, run_hook, run_main

CODE = "\n".join(f"line {n}" for n in range(1, 101)) + "\n"


def test_citations_found_in_text() -> None:
    text = (
        "See src/app.py:10-14 and `lib/util.ts:7`; not http://host.com:80/x.py:3, "
        "not /etc/passwd:1, not ../up.py:2, not version 1.2:3, README.md:3."
    )
    assert [c.span for c in citations.in_text(text)] == [
        "src/app.py:10-14",
        "lib/util.ts:7",
        "README.md:3",
    ]


@pytest.mark.parametrize(
    "stored", ["src/a.py:3#zz", "/abs.py:1#abcdef", "../a.py:1#abcdef", "a.py:9-2#abcdef"]
)
def test_hostile_or_broken_stored_cites_are_ignored(stored: str) -> None:
    parsed = citations.parse_stored(stored)
    assert parsed is None or not parsed.hash


def _cite(project: Path, span: str) -> citations.Cite:
    done = citations.hashed(str(project), citations.in_text(span)[0])
    assert done is not None
    return done


def test_moved_within_the_window_is_still_there(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CODE)
    cite = _cite(tmp_path, "a.py:40-42")
    (tmp_path / "a.py").write_text("new\n" * 20 + CODE)
    assert citations.stale_files(str(tmp_path), [cite]) == []
    (tmp_path / "a.py").write_text("new\n" * (citations.WINDOW + 5) + CODE)
    assert citations.stale_files(str(tmp_path), [cite]) == ["a.py"]


def test_edited_or_deleted_is_stale(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CODE)
    cite = _cite(tmp_path, "a.py:5")
    (tmp_path / "a.py").write_text(CODE.replace("line 5\n", "line five\n"))
    assert citations.stale_files(str(tmp_path), [cite]) == ["a.py"]
    (tmp_path / "a.py").unlink()
    assert citations.stale_files(str(tmp_path), [cite]) == ["a.py"]


def test_trailing_blanks_do_not_count(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CODE)
    cite = _cite(tmp_path, "a.py:5")
    (tmp_path / "a.py").write_text(CODE.replace("line 5\n", "line 5   \n"))
    assert citations.stale_files(str(tmp_path), [cite]) == []


@pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")
def test_symlinks_and_non_regular_files_are_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(CODE)
    project = tmp_path / "project"
    project.mkdir()
    (project / "link.py").symlink_to(outside / "secret.py")
    (project / "dir").symlink_to(outside)
    (project / "folder.py").mkdir()
    for relative in ("link.py", "dir/secret.py", "folder.py", "../outside/secret.py"):
        assert citations.read_cited(str(project), relative) is None, relative
    meta = citations.with_hashes(str(project), {}, "see link.py:1 and dir/secret.py:2")
    assert "cites" not in meta


def test_reads_are_capped(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("x\n" * citations.CAP)
    lines = citations.read_cited(str(tmp_path), "big.txt")
    assert lines is not None
    assert len(lines) == citations.CAP // 2


def test_resaving_keeps_the_recorded_hash(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CODE)
    first = citations.with_hashes(str(tmp_path), {}, "a.py:3")
    (tmp_path / "a.py").write_text(CODE.replace("line 3\n", "changed\n"))
    again = citations.with_hashes(str(tmp_path), dict(first), "a.py:3 still")
    assert again["cites"] == first["cites"]


def test_frontmatter_cites_without_yaml() -> None:
    flow = '---\ntitle: x\ncites: ["a.py:1-2#abcdef123456", "b.py:3"]\n---\nbody\n'
    block = "---\ntitle: x\ncites:\n  - a.py:1-2#abcdef123456\n  - 'b.py:3'\nother: 1\n---\n"
    assert citation_check.cites_in_frontmatter(flow) == ["a.py:1-2#abcdef123456", "b.py:3"]
    assert citation_check.cites_in_frontmatter(block) == ["a.py:1-2#abcdef123456", "b.py:3"]
    assert citation_check.cites_in_frontmatter("no frontmatter cites: [1]") == []


def _save_citing(capsys: pytest.CaptureFixture[str], project: Path) -> str:
    (project / "src").mkdir()
    (project / "src" / "pricing.py").write_text(CODE)
    code, out, err = run_main(
        capsys,
        "remember",
        "--category",
        "decision",
        "--json",
        "we decided prices are rounded half-even in src/pricing.py:10-12",
    )
    assert code == 0, err
    return str(json.loads(out)["path"]).removeprefix(".claude/memory/")


def _prompt(examples: dict[str, dict[str, object]], project: Path) -> str:
    payload = {
        **examples["UserPromptSubmit"],
        "prompt": "how are prices rounded in pricing?",
        "cwd": str(project),
    }
    done = run_hook("UserPromptSubmit", payload, env={"MEMHOOKS_PROJECT_DIR": str(project)})
    assert done.returncode == 0
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def test_pointer_says_stale_after_the_cited_code_changed(
    started: Path,
    capsys: pytest.CaptureFixture[str],
    examples: dict[str, dict[str, object]],
) -> None:
    project = started.parent.parent
    path = _save_citing(capsys, project)
    # a second memory so that the search has a corpus to rank against
    assert run_main(capsys, "remember", "--new", "we always squash-merge pull requests")[0] == 0
    fresh = _prompt(examples, project)
    assert path in fresh
    assert "STALE" not in fresh
    (project / "src" / "pricing.py").write_text(CODE.replace("line 11\n", "line eleven\n"))
    stale = _prompt(examples, project)
    pointer = next(line for line in stale.splitlines() if path in line)
    assert "STALE" in pointer
    assert "src/pricing.py" in pointer
    _code, out, _ = run_main(capsys, "status", "--json")
    assert json.loads(out)["stale"] == 1
    assert "Stale: 1 memories" in run_main(capsys, "status")[1]


def test_save_takes_cites_from_a_field(
    started: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = started.parent.parent
    (project / "lib").mkdir()
    (project / "lib" / "q.sql").write_text(CODE)
    code, out, err = run_main(
        capsys,
        "save",
        "runbook",
        "--title",
        "Slow report query",
        "--body",
        "Add the index first.",
        "--field",
        "cites=lib/q.sql:4-5, lib/missing.sql:1",
        "--json",
        monkeypatch=monkeypatch,
    )
    assert code == 0, err
    text = (started / json.loads(out)["path"]).read_text()
    assert 'cites: ["lib/q.sql:4-5#' in text
    assert "missing.sql" not in text  # a file that does not exist is not recorded


def test_memories_citing_nothing_leave_the_verdict_cache_alone(tmp_path: Path) -> None:
    """Every prompt pointing at a memory without cites rewrote `.cache/citations.json`."""
    memory = tmp_path / ".claude" / "memory"
    memory.mkdir(parents=True)
    local_of(memory).mkdir(parents=True)
    (memory / "decisions").mkdir()
    plain = memory / "decisions" / "plain.md"
    plain.write_text("---\ntitle: plain\n---\nno code cited here\n")
    verdicts = local_of(memory) / "citations.json"
    assert citation_check.stale_of(MemoryPaths(str(memory)), ["decisions/plain.md"]) == {}
    assert not verdicts.exists()
    # An entry left from when the memory cited code is dropped once, then nothing is written.
    stamp = [plain.stat().st_mtime_ns - 1, plain.stat().st_size]
    old = {"memory": stamp, "cites": ["a.py:1#abcdef123456"], "files": {}, "stale": []}
    verdicts.write_text(json.dumps({"decisions/plain.md": old}))
    assert citation_check.stale_of(MemoryPaths(str(memory)), ["decisions/plain.md"]) == {}
    assert json.loads(verdicts.read_text()) == {}
    verdicts.write_text("{} ")
    assert citation_check.stale_of(MemoryPaths(str(memory)), ["decisions/plain.md"]) == {}
    assert verdicts.read_text() == "{} "
