"""Issue 27: the user tier, memories about the person kept outside every repository and
injected at SessionStart in every project where memory is on."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.curate.tier_cue import personal_cue
from memhooks.errors import Exit
from memhooks.hooks.user_memory import USER_TIER_CHARS, share, user_block
from memhooks.store import MemoryPaths, parse_text, user_dir, user_paths
from support import hook_in, open_store, run_main

WORDS = "British English"


def user_root() -> Path:
    return Path(user_dir())


def project_files(project: Path) -> dict[str, bytes]:
    return {
        p.relative_to(project).as_posix(): p.read_bytes()
        for p in sorted(project.rglob("*"))
        if p.is_file()
    }


def briefing_of(project: Path, session: str = "s-user-1") -> str:
    done = hook_in(project, "SessionStart", session, source="startup")
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def file_user_memories(titles: list[str]) -> None:
    from memhooks.store import NewMemory

    root = user_root()
    root.mkdir(parents=True, exist_ok=True)
    store = open_store(root)
    store.create_many(
        [NewMemory("preference", {"title": t}, f"# {t}\n\n## Preference\n{t}.") for t in titles]
    )


# ------------------------------------------------------------------------- the cue


@pytest.mark.parametrize(
    "text",
    [
        "I prefer tabs over spaces",
        "I always review diffs before commits",
        "answer in British English",
        "Reply to me in French",
        "I really like short commit messages",
        "my preference is short answers",
        "ask me before pushing anything",
        "I'd rather you use pnpm",
        "I never want force pushes",
        "Please answer in plain English",
    ],
)
def test_a_sentence_plainly_about_the_person_has_the_cue(text: str) -> None:
    assert personal_cue(text)


@pytest.mark.parametrize(
    "text",
    [
        "we always squash-merge pull requests",
        "Always use pytest fixtures instead of setUp",
        "always use bun, not npm",  # may be this project's rule: the project, unless --user
        "I decided to use Postgres 16 for the job queue",
        "I prefer we keep the API stable in this repo",
        "In this project I prefer tabs",
        "Our team prefers tabs",
        "the build fails when I run it twice",
        "I think users prefer dark mode",
        "respond in JSON from the API",
        "I fixed the login bug with a retry",
    ],
)
def test_a_project_sentence_or_a_doubtful_one_has_no_cue(text: str) -> None:
    assert personal_cue(text) == ""


# ------------------------------------------------------------ remember and save


def test_remember_files_a_personal_sentence_in_the_user_tier_and_nothing_in_the_project(
    started: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = started.parent.parent
    before = project_files(project)
    code, out, err = run_main(capsys, "remember", f"Answer in {WORDS} please")
    assert code == 0, err
    assert "in the user tier (" in out
    assert "~/.local/share/memhooks-user/preferences/" in out
    assert project_files(project) == before, "the user tier wrote under the project"
    (saved,) = (user_root() / "preferences").glob("*.md")
    assert WORDS in saved.read_text(encoding="utf-8")
    assert WORDS in (user_root() / "MEMORY.md").read_text(encoding="utf-8")


def test_remember_without_a_cue_stays_in_the_project_and_says_so(
    started: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(capsys, "remember", "always use bun, not npm")
    assert code == 0
    assert "in this project: .claude/memory/preferences/" in out
    assert "promote" in out, "a preference in the project says how to make it the user's"
    assert not user_root().exists()


def test_the_flags_choose_the_tier(
    started: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_main(capsys, "remember", "--user", "use bun, not npm")
    assert code == 0
    assert "the user tier (~/.local/share/memhooks-user/, every project; --user)" in out
    assert list((user_root() / "preferences").glob("*.md")), "--user with no cue: a preference"
    code, out, _ = run_main(capsys, "remember", "--tier", "project", "I prefer tabs")
    assert code == 0
    assert "in this project (--tier project)" in out
    code, out, _ = run_main(
        capsys,
        "save",
        "constraint",
        "--user",
        "--title",
        "No meetings before ten",
        "--json",
        monkeypatch=monkeypatch,
    )
    assert code == 0
    found = json.loads(out)
    assert found["tier"] == "user"
    assert (user_root() / found["path"]).is_file()
    assert not (started / found["path"]).exists()


def test_what_goes_to_the_user_tier_is_redacted(
    started: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    code, _, err = run_main(capsys, "remember", "--user", f"I prefer the token {token} for CI")
    assert code == 0, err
    (saved,) = (user_root() / "preferences").glob("*.md")
    assert token not in saved.read_text(encoding="utf-8")


def test_a_user_tier_inside_the_project_is_refused(
    started: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = started.parent.parent
    monkeypatch.setenv("XDG_DATA_HOME", str(project / "data"))
    before = project_files(project)
    code, _, err = run_main(capsys, "remember", "--user", "I prefer tabs")
    assert code == Exit.REFUSED
    assert "inside the project" in err
    assert project_files(project) == before
    assert user_block(MemoryPaths(str(started)), 1_000) == ""


# ------------------------------------------------------------- promote / demote


def test_promote_then_demote_moves_the_memory_both_ways_with_its_provenance(
    started: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(capsys, "remember", "--json", "Always use bun, not npm")
    assert code == 0
    relative = json.loads(out)["path"].removeprefix(".claude/memory/")
    original = parse_text((started / relative).read_text(encoding="utf-8")).meta

    code, out, err = run_main(capsys, "promote", relative)
    assert code == 0, err
    assert "Promoted to the user tier" in out
    assert "Undo:" in out
    assert "demote " + relative in out
    assert not (started / relative).exists()
    moved = parse_text((user_root() / relative).read_text(encoding="utf-8")).meta
    assert moved["created"] == original["created"]
    assert moved["moved_from"] == f"project {started.parent.parent.name}: {relative}"
    assert moved["moves"] == [
        f"{moved['moved_at'][:10]} project {started.parent.parent.name} -> user tier"
    ]
    assert "bun" not in (started / "MEMORY.md").read_text(encoding="utf-8")
    assert "bun" in (user_root() / "MEMORY.md").read_text(encoding="utf-8")

    code, out, err = run_main(capsys, "demote", relative)
    assert code == 0, err
    assert "Demoted to this project" in out
    assert not (user_root() / relative).exists()
    back = parse_text((started / relative).read_text(encoding="utf-8")).meta
    assert back["created"] == original["created"]
    assert back["moved_from"] == f"user tier: {relative}"
    assert len(back["moves"]) == 2
    assert "bun" in (started / "MEMORY.md").read_text(encoding="utf-8")
    assert "bun" not in (user_root() / "MEMORY.md").read_text(encoding="utf-8")
    # Both trees' search indexes followed: recall finds it in the project again.
    code, out, _ = run_main(capsys, "recall", "bun npm")
    assert relative in out


def test_a_duplicate_is_refused_both_ways_and_nothing_moves(
    started: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(capsys, "remember", "--json", "--user", "Always use bun, not npm")
    assert code == 0
    in_user = json.loads(out)["path"].rsplit("/memhooks-user/", 1)[1]
    code, out, _ = run_main(capsys, "remember", "--json", "--new", "Always use bun, not npm")
    assert code == 0
    in_project = json.loads(out)["path"].removeprefix(".claude/memory/")
    before = (project_files(started), project_files(user_root()))

    code, _, err = run_main(capsys, "promote", in_project)
    assert code == Exit.CONFLICT
    assert "already holds" in err
    code, _, err = run_main(capsys, "demote", in_user)
    assert code == Exit.CONFLICT
    assert (project_files(started), project_files(user_root())) == before


def test_only_stated_memories_move(started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = started / "sessions" / "s-1.md"
    session.write_text(
        "---\ntitle: A session\ncategory: session_summary\n---\n# A session\n", encoding="utf-8"
    )
    code, _, err = run_main(capsys, "promote", "sessions/s-1.md")
    assert code == Exit.REFUSED
    assert "session_summary" in err
    assert session.exists()


# ------------------------------------------------------------------- SessionStart

DOZEN = [
    "Answer in British English",
    "I prefer tabs over spaces in every language",
    "I always review diffs before commits",
    "Use bun, not npm",
    "Keep commit messages under 72 characters",
    "Ask me before pushing to a remote",
    "I like small pull requests",
    "Explain a regex before using it",
    "I prefer pytest over unittest",
    "No emojis in code comments",
    "Prefer early returns to nested ifs",
    "Call me Sam",
]


def test_a_dozen_preferences_fit_the_user_tiers_share_whole(started: Path) -> None:
    file_user_memories(DOZEN)
    block = user_block(MemoryPaths(str(started)), share(9_000))
    assert share(9_000) == USER_TIER_CHARS
    for title in DOZEN:
        assert f"- {title}\n" in block
    assert "more about the user" not in block
    assert len(block) <= USER_TIER_CHARS
    assert "](preferences/" not in block, "one line per memory, without its file path"


def test_session_start_injects_the_user_tier_after_the_project_memory(started: Path) -> None:
    project = started.parent.parent
    file_user_memories(DOZEN)
    text = briefing_of(project)
    assert text.index("[memhooks] Project memory") < text.index("About the user")
    assert '<memhooks-data source="~/.local/share/memhooks-user/MEMORY.md">' in text
    assert "- Call me Sam" in text


def test_a_large_user_tier_is_cut_to_its_share_and_the_project_keeps_its_own(
    started: Path,
) -> None:
    from memhooks.store import NewMemory

    project = started.parent.parent
    store = open_store(started)
    store.create_many(
        [
            NewMemory(
                "decision",
                {"title": f"Project decision {n}", "description": "why it was decided " * 4},
                f"# Project decision {n}\n",
            )
            for n in range(120)
        ]
    )
    file_user_memories([f"Personal preference number {n} about the way I work" for n in range(80)])
    text = briefing_of(project)
    assert len(text) <= 9_000
    project_part, user_part = text.split("\n\nAbout the user", 1)
    assert len(user_part) + len("\n\nAbout the user") <= USER_TIER_CHARS + 2
    assert "more about the user: ~/.local/share/memhooks-user/MEMORY.md lists all." in user_part
    assert user_part.rstrip().endswith("</memhooks-data>")
    assert len(project_part) >= 9_000 - USER_TIER_CHARS - 200, "the project keeps its share"
    assert "Project decision 119" in project_part


def test_nothing_of_the_user_tier_is_injected_where_memory_is_off(
    tmp_path: Path,
    started: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    file_user_memories(DOZEN)
    project = started.parent.parent
    elsewhere = tmp_path / "never started"
    (elsewhere / ".git").mkdir(parents=True)
    monkeypatch.delenv("MEMHOOKS_PROJECT_DIR")
    assert "Call me Sam" not in briefing_of(elsewhere)
    assert not (elsewhere / ".claude").exists()
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(project))
    assert "Call me Sam" in briefing_of(project)
    code, _, _ = run_main(capsys, "stop")
    assert code == 0
    assert "Call me Sam" not in briefing_of(project, "s-user-2")


def test_the_user_tier_is_the_users_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    home = Path(os.environ["HOME"])
    assert user_paths().base == str(home / ".local" / "share" / "memhooks-user")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert user_dir() == str(home / "data" / "memhooks-user")
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")  # the spec: an absolute path only
    assert user_dir() == str(home / ".local" / "share" / "memhooks-user")


# ------------------------------------------------- recall, status, view and export


def test_recall_status_view_and_export_see_both_tiers_and_say_which(
    started: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_main(capsys, "remember", "--user", "Answer in British English")[0] == 0
    assert run_main(capsys, "remember", "we chose British English for the docs")[0] == 0

    code, out, _ = run_main(capsys, "recall", "British English")
    assert code == 0
    assert "Memories in .claude/memory/ (this project)" in out
    assert "Memories in the user tier (~/.local/share/memhooks-user/, every project)" in out
    assert out.index(".claude/memory/decisions/") < out.index("user tier]")
    code, out, _ = run_main(capsys, "recall")
    assert "(the user tier: about you, every project) ===" in out

    code, out, _ = run_main(capsys, "status")
    assert "User tier (about you, every project; not in this repository): 1 memories" in out

    code, out, _ = run_main(capsys, "view", "--json")
    assert code == 0
    page = Path(json.loads(out)["path"]).read_text(encoding="utf-8")
    assert "user tier: preference" in page

    bundle = tmp_path / "mine.tar.gz"
    code, out, err = run_main(capsys, "export", "--user", "--out", str(bundle), "--json")
    assert code == 0, err
    found = json.loads(out)
    assert found["tier"] == "user"
    assert found["count"] == 1
    assert found["source_project"] == "user tier"


def test_the_user_tier_has_the_same_lifecycle(
    started: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(capsys, "remember", "--user", "--json", "I prefer tabs")
    assert code == 0
    relative = json.loads(out)["path"].rsplit("/memhooks-user/", 1)[1]
    code, out, _ = run_main(capsys, "retire", "--user", relative, "--reason", "not any more")
    assert code == 0
    assert "Retired: ~/.local/share/memhooks-user/" in out
    meta = parse_text((user_root() / relative).read_text(encoding="utf-8")).meta
    assert meta["record_status"] == "retired"
    assert "tabs" not in user_block(MemoryPaths(str(started)), 1_000)
    assert run_main(capsys, "restore", "--user", relative)[0] == 0
    assert "I prefer tabs" in user_block(MemoryPaths(str(started)), 1_000)
