"""`memhooks view`: the data it gathers and the escaping that keeps the tree's text inert."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from memhooks.cli.main import main
from memhooks.hooks.post_compact import render_entry
from memhooks.store import MemoryPaths, append_journal
from memhooks.view.data import gather, read_safe, split_body
from memhooks.view.history import history, parse_log
from memhooks.view.page import embed_json, render
from support import local_of
from view_tree import HOSTILE_TAG, HOSTILE_TITLE, build_store

DATA_BLOCK = re.compile(
    r'<script id="memhooks-data" type="application/json">(.*?)</script>', re.DOTALL
)


@pytest.fixture
def store(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    project = tmp_path / "proj"
    paths = build_store(project)
    return project, gather(paths)


@pytest.mark.parametrize(
    "hostile",
    [
        "</script><script>alert(1)</script>",
        "</SCRIPT >",
        "<!-- <script>",
        "a\u2028b\u2029c",
        "</style><img src=x onerror=alert(1)>",
        "javascript:alert(1)",
        "&lt;script&gt;",
    ],
)
def test_embedded_json_cannot_break_out(hostile: str) -> None:
    text = embed_json({"title": hostile, "tags": [hostile], hostile: hostile})
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in text
    assert json.loads(text) == {"title": hostile, "tags": [hostile], hostile: hostile}


def test_page_holds_hostile_data_only_inside_the_json_block(
    store: tuple[Path, dict[str, object]],
) -> None:
    _project, data = store
    page = render(data)
    blocks = DATA_BLOCK.findall(page)
    assert len(blocks) == 1
    assert json.loads(blocks[0]) == json.loads(json.dumps(data))
    outside = DATA_BLOCK.sub("", page)
    for needle in ("PWNED", "onerror", "javascript:", "pwned-marker", HOSTILE_TAG):
        assert needle not in outside
    for needle in ("<script", "</script", "</style", "<!--", "<img", HOSTILE_TAG):
        assert needle not in blocks[0]  # escaped: only \u003c... forms remain
    assert "\\u003cscript" in blocks[0]
    assert page.count("</script>") == 2  # the data block and the page's own script
    assert "\u2028" not in page
    nonce = re.search(r"'nonce-([^']+)'", page)
    assert nonce
    assert f'<script nonce="{nonce.group(1)}">' in page
    assert "default-src 'none'" in page
    assert "innerHTML" not in page
    assert "eval(" not in page


def test_nonce_differs_per_render(store: tuple[Path, dict[str, object]]) -> None:
    _project, data = store
    one, two = (re.search(r"'nonce-([^']+)'", render(data)) for _ in range(2))
    assert one
    assert two
    assert one.group(1) != two.group(1)


def test_gathers_states_chains_timeline_and_ledger(
    store: tuple[Path, dict[str, object]],
) -> None:
    _project, data = store
    memories = {m["title"]: m for m in data["memories"]}  # type: ignore[attr-defined]
    assert memories["Use SQLite"]["status"] == "retired"
    assert memories["Use SQLite"]["superseded_by"] == memories["Use Postgres"]["path"]
    assert memories["Old rule"]["status"] == "archived"
    assert memories["Old rule"]["reason"] == "no longer applies"
    assert memories[HOSTILE_TITLE]["tags"] == [HOSTILE_TAG]
    assert "javascript:alert(1)" in memories[HOSTILE_TITLE]["body"]
    assert not memories[HOSTILE_TITLE]["body"].startswith("---")
    stale = [m for m in memories.values() if m["stale"]]
    assert [m["stale"] for m in stale] == [["src/pricing.py"]]
    chain = [memories[t]["path"] for t in ("Use SQLite", "Use Postgres", "Use CockroachDB")]
    assert data["chains"] == [chain]
    kinds = {e["kind"]: e for e in data["timeline"]}  # type: ignore[attr-defined]
    assert {"session journal", "session checkpoint", "checkpoint", "sub-agent"} <= set(kinds)
    assert "compacted" in kinds["session journal"]["body"] or any(
        "compacted" in e["body"]
        for e in data["timeline"]  # type: ignore[attr-defined]
    )
    whens = [e["when"] for e in data["timeline"]]  # type: ignore[attr-defined]
    assert whens == sorted(whens, reverse=True)
    injected = data["injected"]
    assert [s["session_id"] for s in injected] == ["s-222", "s-111"]  # type: ignore[index]
    assert injected[0]["hooks"]["UserPromptSubmit"] == {"injections": 2, "chars": 800}  # type: ignore[index]
    assert injected[0]["total_chars"] == 3200  # type: ignore[index]


def test_counts_match_status(
    store: tuple[Path, dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    project, data = store
    capsys.readouterr()
    assert main(["--project", str(project), "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert data["status"]["counts"] == status["counts"]  # type: ignore[index]
    active = [m for m in data["memories"] if m["status"] == "active"]  # type: ignore[attr-defined]
    assert len(active) == status["total"]
    assert data["status"]["stale"] == status["stale"] == 1  # type: ignore[index]


def test_symlinks_are_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("TOP SECRET")
    link = tmp_path / "link.md"
    link.symlink_to(secret)
    assert read_safe(str(link)) is None
    assert read_safe(str(secret)) == "TOP SECRET"
    assert read_safe(str(tmp_path)) is None


def test_a_symlinked_journal_folder_is_skipped(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    paths = build_store(project)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.md").write_text("LEAKED")
    (Path(paths.base) / "checkpoints" / "sessions" / "leak.md").symlink_to(outside / "leak.md")
    data = gather(paths)
    assert "LEAKED" not in json.dumps(data)


def test_split_body_drops_frontmatter_only() -> None:
    assert split_body("---\ntitle: x\n---\n# Body\n---\nmore") == "# Body\n---\nmore"
    assert split_body("no frontmatter") == "no frontmatter"


def test_command_writes_into_the_cache_and_prints_the_path(
    store: tuple[Path, dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    project, _ = store
    capsys.readouterr()
    assert main(["--project", str(project), "view"]) == 0
    out = capsys.readouterr().out.strip()
    target = local_of(project / ".claude" / "memory") / "view.html"
    assert out == str(target)
    assert "memhooks-data" in target.read_text(encoding="utf-8")
    assert (
        main(["--project", str(project), "view", "--json", "--out", str(project / "v.html")]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["path"] == str(project / "v.html")
    assert report["memories"] == 8
    assert report["chains"] == 1
    assert (project / "v.html").stat().st_size == report["bytes"]


def test_command_refuses_a_symlinked_cache(
    store: tuple[Path, dict[str, object]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, _ = store
    cache = project / ".claude" / "memory" / ".cache"  # planted: the tree is refused whole
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    cache.symlink_to(moved)
    assert main(["--project", str(project), "view"]) == 9
    assert not (moved / "view.html").exists()
    assert "symlink" in capsys.readouterr().err


def test_command_needs_a_started_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(tmp_path), "view"]) == 3
    err = capsys.readouterr().err
    assert "no memory here" in err
    assert "start" in err


def _git(project: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=Ada",
            "-c",
            "user.email=ada@example.com",
            "-c",
            "commit.gpgsign=false",
            "-C",
            str(project),
            *args,
        ],
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A project in git with one memory committed twice (the second subject is hostile)."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    project = tmp_path / "proj"
    project.mkdir()
    assert main(["--project", str(project), "start"]) == 0
    save = ["save", "decision", "--title", "Use Postgres", "--body", "## Why\n\nJSONB.\n"]
    assert main(["--project", str(project), *save]) == 0
    memory = next((project / ".claude" / "memory" / "decisions").glob("*.md"))
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "remember postgres")
    memory.write_text(memory.read_text(encoding="utf-8") + "\nAlso: JSON columns.\n")
    _git(project, "commit", "-q", "-am", HOSTILE_SUBJECT)
    assert main(["--project", str(project), "start"]) == 0  # a git repository now: asked again
    return project, f"decisions/{memory.name}"


HOSTILE_SUBJECT = "<script>document.title='PWNED'</script> tweak"


def test_history_in_git_is_gathered_newest_first(repo: tuple[Path, str]) -> None:
    project, path = repo
    data = gather(MemoryPaths.for_project(project))
    memory = next(m for m in data["memories"] if m["path"] == path)  # type: ignore[attr-defined]
    history = memory["history"]
    assert [c["subject"] for c in history] == [HOSTILE_SUBJECT, "remember postgres"]
    assert {c["author"] for c in history} == {"Ada"}
    assert all(len(c["hash"]) == 10 and c["date"][:4].isdigit() for c in history)
    assert history[0]["date"] >= history[1]["date"]


def test_a_hostile_commit_subject_is_embedded_escaped(repo: tuple[Path, str]) -> None:
    project, _ = repo
    page = render(gather(MemoryPaths.for_project(project)))
    blocks = DATA_BLOCK.findall(page)
    assert len(blocks) == 1
    assert "<script>document.title" not in blocks[0]
    assert "\\u003cscript\\u003edocument.title='PWNED'" in blocks[0]
    assert "PWNED" not in DATA_BLOCK.sub("", page)


def test_no_git_history_without_a_repository_or_without_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    project = tmp_path / "proj"
    paths = build_store(project)
    assert history(paths.base) == {}
    assert all(m["history"] == [] for m in gather(paths)["memories"])  # type: ignore[attr-defined]
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    assert history(paths.base) == {}
    assert len(gather(paths)["memories"]) == 8  # type: ignore[arg-type]


def test_parse_log_caps_each_file_and_skips_broken_records() -> None:
    record = "\x1e{h}\x1f2026-01-0{d}T00:00:00+00:00\x1fAda\x1fs{d}\n\ndecisions/a.md\n"
    text = "".join(record.format(h=str(d) * 40, d=d) for d in range(9, 0, -1))
    parsed = parse_log(text + "\x1ebroken\n\ndecisions/a.md\n", per_file=3)
    assert [c["subject"] for c in parsed["decisions/a.md"]] == ["s9", "s8", "s7"]


def test_compaction_summaries_are_their_own_timeline_entries(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    paths = build_store(project)
    entry = render_entry(
        "<analysis>scratch</analysis><summary>We were shipping the view.\n\nNext: tests.</summary>",
        trigger="auto",
        when="2030-01-02T03:04:05Z",
    )
    append_journal(paths, "s-333", entry)
    data = gather(paths)
    found = [e for e in data["timeline"] if e["kind"] == "compaction summary"]  # type: ignore[attr-defined]
    assert len(found) == 1
    assert found[0]["session_id"] == "s-333"
    assert found[0]["when"] == "2030-01-02T03:04:05Z"
    assert found[0]["path"] == "sessions/s-333.md"
    assert found[0]["body"] == "We were shipping the view.\n\nNext: tests."
    assert data["timeline"][0] == found[0]  # the newest event
