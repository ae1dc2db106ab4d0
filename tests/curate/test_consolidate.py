"""`memhooks consolidate` on a store built for it, and on real-looking control trees.

The planted store holds a near-duplicate pair, a reversed decision, a contradiction, a body
with relative dates and a memory citing code that then changes, mixed with 50 distinct
memories from the recall fixtures: the proposals must be exactly the planted ones.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memhooks.curate import proposals
from memhooks.store import LOG_HEADER, MemoryPaths, append_log
from support import FIXTURES, run_main

CONTROL_TREES = ("recall", "recall2")


def doc(title: str, created: str, body: str, category: str, **extra: str) -> str:
    lines = [f"title: {json.dumps(title)}", f"category: {category}", f"created: {created}"]
    lines += [f"{k}: {json.dumps(v)}" for k, v in extra.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\n# " + title + "\n\n" + body.strip() + "\n"


PLANTED = {
    "runbooks/rotate-cdn-token.md": doc(
        "Rotate the CDN token",
        "2025-03-01",
        "## Trigger\nCache purge fails with 403 from the CDN API.\n\n## Steps\n1. Ask ops for a "
        "new token in the vault.\n2. Update CDN_TOKEN in the deploy secrets.\n3. Re-run the "
        "purge job.",
        "runbook",
    ),
    "runbooks/rotate-the-cdn-token-on-403.md": doc(
        "Rotate the CDN token on 403",
        "2025-05-01",
        "## Trigger\nCache purge fails with 403 from the CDN API.\n\n## Steps\n1. Ask ops for a "
        "new token in the vault.\n2. Update CDN_TOKEN in the deploy secrets.\n3. Re-run the "
        "purge job and check the purge log.",
        "runbook",
    ),
    "decisions/2025-01-10_001_store-sessions-in-postgres.md": doc(
        "Store web sessions in Postgres",
        "2025-01-10",
        "## Decision\nWeb sessions live in the main Postgres database, table `sessions`, so "
        "that no new service is needed.",
        "decision",
    ),
    "decisions/2025-06-02_001_store-sessions-in-redis.md": doc(
        "Store web sessions in Redis",
        "2025-06-02",
        "## Decision\nWe no longer keep sessions in the relational database: login traffic "
        "moved them to a Redis cluster with a 14-day expiry.",
        "decision",
    ),
    "preferences/always-squash-merge-pull-requests.md": doc(
        "Always squash-merge pull requests",
        "2025-02-01",
        "## Preference\nOne commit per pull request on main keeps the history readable.",
        "preference",
    ),
    "preferences/never-squash-merge-pull-requests.md": doc(
        "Never squash-merge pull requests",
        "2025-04-01",
        "## Preference\nKeep every commit of a branch with a merge commit, for bisecting.",
        "preference",
    ),
    "constraints/public-api-freeze.md": doc(
        "Public API freeze before the partner launch",
        "2025-09-17",
        "## Rule\nThe public API is frozen until next week; legal agreed yesterday. Revisit "
        "the freeze in two sprints.",
        "constraint",
    ),
}
EXPECTED = {
    ("duplicate", "runbooks/rotate-cdn-token.md", "runbooks/rotate-the-cdn-token-on-403.md"),
    (
        "superseded",
        "decisions/2025-01-10_001_store-sessions-in-postgres.md",
        "decisions/2025-06-02_001_store-sessions-in-redis.md",
    ),
    (
        "contradiction",
        "preferences/always-squash-merge-pull-requests.md",
        "preferences/never-squash-merge-pull-requests.md",
    ),
    ("relative_date", "constraints/public-api-freeze.md"),
    ("stale_citation", "CITED"),
}
BILLING = (
    "def total(items):\n    return sum(i.price for i in items)\n\n\ndef tax(x):\n    return x\n"
)


def control_files(count: int = 50) -> dict[str, str]:
    """`count` distinct memories from the first recall tree, spread over its categories."""
    root = FIXTURES / "recall" / "tree" / ".claude" / "memory"
    files = sorted(root.glob("*/*.md"))
    by_folder: dict[str, list[Path]] = {}
    for f in files:
        by_folder.setdefault(f.parent.name, []).append(f)
    picked: list[Path] = []
    while len(picked) < count:
        for group in by_folder.values():
            if group and len(picked) < count:
                picked.append(group.pop(0))
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in picked}


def kinds(actions: list[dict[str, object]], cited: str) -> set[tuple[str, ...]]:
    out = set()
    for a in actions:
        paths = [str(p) for p in a["paths"]]  # type: ignore[attr-defined]
        out.add((str(a["kind"]), *["CITED" if p == cited else p for p in paths]))
    return out


@pytest.fixture
def planted(started: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    project = started.parent.parent
    (project / "src").mkdir()
    (project / "src" / "billing.py").write_text(BILLING, encoding="utf-8")
    for relative, text in {**control_files(), **PLANTED}.items():
        target = started / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    code, out, _ = run_main(
        capsys,
        "save",
        "decision",
        "--title",
        "Invoice totals are summed in one place",
        "--body",
        "## Decision\nTotals come from `total()` at src/billing.py:1-2; never sum prices in "
        "templates.",
        "--json",
    )
    assert code == 0
    cited = json.loads(out)["path"]
    assert main_ok(capsys, "rebuild")
    return started, cited


def main_ok(capsys: pytest.CaptureFixture[str], *argv: str) -> bool:
    return run_main(capsys, *argv)[0] == 0


def test_the_save_records_the_cited_span_hash(planted: tuple[Path, str]) -> None:
    root, cited = planted
    text = (root / cited).read_text(encoding="utf-8")
    assert 'cites: ["src/billing.py:1-2#' in text


def test_proposes_exactly_the_planted_actions(
    planted: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, cited = planted
    code, out, _ = run_main(capsys, "consolidate", "--json")
    assert code == 0
    # before the code changes: everything but the stale citation
    assert kinds(json.loads(out)["actions"], cited) == EXPECTED - {("stale_citation", "CITED")}
    (root.parent.parent / "src" / "billing.py").write_text(
        BILLING.replace("i.price", "i.net_price"), encoding="utf-8"
    )
    code, out, _ = run_main(capsys, "consolidate", "--json")
    actions = json.loads(out)["actions"]
    assert kinds(actions, cited) == EXPECTED
    for action in actions:
        assert set(action) >= {"kind", "paths", "proposal", "reason"}
        assert action["reason"]
    dates = next(a for a in actions if a["kind"] == "relative_date")
    assert (
        "+The public API is frozen until the week of 2025-09-22; legal agreed 2025-09-16."
        in (dates["diff"])
    )
    assert "by 2025-10-15" in dates["diff"]
    stale = next(a for a in actions if a["kind"] == "stale_citation")
    assert "src/billing.py" in stale["reason"]


def test_apply_then_restore_and_undo_take_each_back(
    planted: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _cited = planted
    before = (root / "constraints/public-api-freeze.md").read_text(encoding="utf-8")
    code, out, _ = run_main(capsys, "consolidate", "--apply", "--json")
    assert code == 0
    done = json.loads(out)["done"]
    assert {a["kind"] for a in done} == {"duplicate", "superseded", "relative_date"}
    reasons = {
        "runbooks/rotate-cdn-token.md": "duplicate of runbooks/rotate-the-cdn-token-on-403.md",
        "decisions/2025-01-10_001_store-sessions-in-postgres.md": (
            "superseded by decisions/2025-06-02_001_store-sessions-in-redis.md"
        ),
    }
    for path, reason in reasons.items():
        text = (root / path).read_text(encoding="utf-8")
        assert "record_status: retired" in text
        assert reason in text
    after = (root / "constraints/public-api-freeze.md").read_text(encoding="utf-8")
    assert "next week" in before
    assert "next week" not in after
    assert "the week of 2025-09-22" in after
    # the contradiction was not touched
    for path in (
        "preferences/always-squash-merge-pull-requests.md",
        "preferences/never-squash-merge-pull-requests.md",
    ):
        assert "retired" not in (root / path).read_text(encoding="utf-8")
    log = (root / "consolidation.log.md").read_text(encoding="utf-8")
    for path, reason in reasons.items():
        assert reason in log
        assert f"memhooks restore {path}" in log
    assert "```diff" in log
    assert "-The public API is frozen until next week" in log
    # nothing left to do but the flags
    code, out, _ = run_main(capsys, "consolidate", "--json")
    assert {a["kind"] for a in json.loads(out)["actions"]} == {"contradiction"}
    for path in reasons:
        assert main_ok(capsys, "restore", path)
        assert "record_status: active" in (root / path).read_text(encoding="utf-8")
    freeze = "constraints/public-api-freeze.md"
    assert f"memhooks restore {freeze}" in log
    assert main_ok(capsys, "restore", freeze)  # an active memory: its rewrite is taken back
    undone = (root / freeze).read_text(encoding="utf-8")
    assert undone.split("\n---\n", 1)[1] == before.split("\n---\n", 1)[1]
    code, out, _ = run_main(capsys, "consolidate", "--json")
    assert {a["kind"] for a in json.loads(out)["actions"]} == {
        "duplicate",
        "superseded",
        "contradiction",
        "relative_date",
    }


def test_dry_run_changes_nothing(
    planted: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from support import memory_snapshot

    root, _ = planted
    before = {k: v for k, v in memory_snapshot(root).items() if ".cache" not in k}
    code, out, _ = run_main(capsys, "consolidate")
    assert code == 0
    assert "Dry run: nothing changed" in out
    after = {k: v for k, v in memory_snapshot(root).items() if ".cache" not in k}
    assert before == after


@pytest.mark.parametrize("tree", CONTROL_TREES)
def test_no_false_proposals_on_the_control_trees(tree: str, tmp_path: Path) -> None:
    source = FIXTURES / tree / "tree" / ".claude" / "memory"
    copy = tmp_path / ".claude" / "memory"
    shutil.copytree(source, copy)
    paths = MemoryPaths(copy)
    live = proposals.load_live(paths)
    assert len(live) >= 50
    actions = proposals.analyse(paths, live)
    assert [a.as_json() for a in actions] == []


def test_no_false_proposals_on_50_distinct_memories(tmp_path: Path) -> None:
    copy = tmp_path / ".claude" / "memory"
    for relative, text in control_files(50).items():
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        (copy / relative).write_text(text, encoding="utf-8")
    live = proposals.load_live(MemoryPaths(copy))
    assert len(live) == 50
    assert proposals.analyse(MemoryPaths(copy), live) == []


def test_session_start_mentions_pending_once_a_day(
    planted: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.continuity import pending_note as consolidation_note

    root, _ = planted
    assert main_ok(capsys, "consolidate")
    first = consolidation_note.line(MemoryPaths(root), today="2030-01-01")
    assert first.startswith("Consolidation: 4 proposal(s)")
    assert "/memory consolidate" in first
    assert consolidation_note.line(MemoryPaths(root), today="2030-01-01") == ""
    assert consolidation_note.line(MemoryPaths(root), today="2030-01-02")


def test_session_start_is_silent_without_a_summary(started: Path) -> None:
    from memhooks.continuity import pending_note as consolidation_note

    assert consolidation_note.line(MemoryPaths(started), today="2030-01-01") == ""


def test_session_start_hook_shows_the_line_once(
    planted: tuple[Path, str],
    capsys: pytest.CaptureFixture[str],
    examples: dict[str, dict[str, object]],
) -> None:
    from support import run_hook

    root, _ = planted
    assert main_ok(capsys, "consolidate")
    project = root.parent.parent
    payload = {**examples["SessionStart"], "source": "startup", "cwd": str(project)}
    contexts = []
    for _ in range(2):
        done = run_hook("SessionStart", payload, env={"MEMHOOKS_PROJECT_DIR": str(project)})
        assert done.returncode == 0
        contexts.append(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])
    assert "Consolidation: 4 proposal(s)" in contexts[0]
    assert len(contexts[0]) <= 10_000
    assert "Consolidation:" not in contexts[1]


def test_undo_refuses_when_the_rewritten_line_changed(
    planted: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = planted
    freeze = root / "constraints/public-api-freeze.md"
    assert main_ok(capsys, "consolidate", "--apply")
    freeze.write_text(freeze.read_text().replace("legal agreed", "counsel agreed"))
    code, _, err = run_main(capsys, "consolidate", "--undo", "constraints/public-api-freeze.md")
    assert code != 0
    assert "changed since consolidation rewrote it" in err
    code, _, err = run_main(capsys, "consolidate", "--undo", "runbooks/rotate-cdn-token.md")
    assert code != 0
    assert "no rewrite" in err


def test_a_save_refreshes_an_old_summary(
    planted: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = planted
    summary = Path(MemoryPaths(root).consolidation)
    summary.unlink(missing_ok=True)
    assert main_ok(capsys, "remember", "--new", "we always run the linters before pushing")
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert data["pending"] == 4
    assert data["kinds"]["contradiction"] == 1


def test_the_log_is_appended_to_whole_never_cut_to_the_read_cap(tmp_path: Path) -> None:
    from memhooks.store import READ_CAP_BYTES

    log = tmp_path / "consolidation.log.md"
    old = LOG_HEADER + "\n" + ("- an applied change\n" * 300_000)
    assert len(old.encode()) > READ_CAP_BYTES
    log.write_text(old, encoding="utf-8")
    append_log(log, "## the newest entry\n")
    text = log.read_text(encoding="utf-8")
    assert text.startswith(old.rstrip("\n"))
    assert text.endswith("## the newest entry\n")


def test_a_log_that_does_not_decode_is_not_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "consolidation.log.md"
    log.write_bytes(b"# Consolidation log\n\n\xff\xfe not utf-8\n")
    with pytest.raises(ValueError):
        append_log(log, "## the newest entry\n")
    assert log.read_bytes() == b"# Consolidation log\n\n\xff\xfe not utf-8\n"
