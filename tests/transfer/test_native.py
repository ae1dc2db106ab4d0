"""Claude Code's own auto memory (issue 27): `import --native` files its topic files once,
with provenance and redaction; `recall` lists the ones not imported; SessionStart leaves out
of its index what the host already injects; the native folder is never written."""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from memhooks.cli.main import main
from memhooks.store import parse_bytes
from support import hook_in

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
TOPICS = {
    "user_role.md": "---\nname: user-role\ndescription: The user is a data engineer who "
    "reviews every diff\ntype: user\n---\n\nThe user reviews diffs before each commit.\n",
    "feedback_bun.md": "---\nname: Use bun not npm\ndescription: Install packages with bun, "
    "never npm\ntype: feedback\n---\n\nAlways use bun. **Why:** the lockfile is bun's.\n",
    "project_freeze.md": "---\nname: merge-freeze\ndescription: Merge freeze from the "
    "release branch cut\nmetadata:\n  type: project\n---\n\nNo merges to main while the "
    f"mobile release is cut. Deploy token: {TOKEN}\n",
    "reference_dashboards.md": "---\nname: grafana-latency\ndescription: Where the latency "
    "dashboards live\ntype: reference\n---\n\nOncall latency is on grafana.internal/d/api.\n",
    "loose_note.md": "Just a note without frontmatter.\n",
}
INDEX = "- [Use bun not npm](feedback_bun.md) — bun only\n"


@pytest.fixture(autouse=True)
def _no_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def sanitized(path: Path) -> str:
    return re.sub(r"[^a-zA-Z0-9]", "-", str(path))


def native_folder(project: Path) -> Path:
    return Path.home() / ".claude" / "projects" / sanitized(project) / "memory"


@pytest.fixture
def native(started: Path) -> Path:
    """The project's native auto memory folder, where the host keeps it, with topic files."""
    folder = native_folder(started.parent.parent)
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    for name, text in TOPICS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    assert main([*args, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def imported_files(memory: Path) -> dict[str, dict[str, object]]:
    found = {}
    for path in sorted(memory.glob("*/*.md")):
        meta = parse_bytes(path.read_bytes()).meta
        if meta.get("native_path"):
            found[str(meta["native_path"])] = {**meta, "_path": path}
    return found


def test_import_native_files_each_topic_once(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(native)
    report = run_json(capsys, "import", "--native")
    assert report["native_folder"] == str(native)
    counts = report["counts"]
    assert isinstance(counts, dict)
    assert counts["imported"] == 4
    assert counts["skipped"] == 1  # the file with no type
    files = imported_files(started)
    assert {name: str(meta["category"]) for name, meta in files.items()} == {
        "user_role.md": "preference",
        "feedback_bun.md": "preference",
        "project_freeze.md": "decision",
        "reference_dashboards.md": "runbook",
    }
    assert files["feedback_bun.md"]["title"] == "Use bun not npm"
    assert files["user_role.md"]["title"] == "user role"
    # The second run writes nothing and says so.
    tree = {p: p.read_bytes() for p in sorted(started.rglob("*")) if p.is_file()}
    capsys.readouterr()
    assert main(["import", "--native"]) == 0
    out = capsys.readouterr().out
    assert "Nothing to do." in out
    assert "0 imported, 4 already imported" in out
    after = {p: p.read_bytes() for p in sorted(started.rglob("*")) if p.is_file()}
    assert {p for p in after if p.name != "memhooks.log"} == {
        p for p in tree if p.name != "memhooks.log"
    }
    assert all(after[p] == tree[p] for p in tree if p.name != "memhooks.log")
    assert snapshot(native) == before  # never written


def test_provenance_and_redaction(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = run_json(capsys, "import", "--native")
    assert report["redacted"] == {"project_freeze.md": 1}
    files = imported_files(started)
    freeze = files["project_freeze.md"]
    data = (native / "project_freeze.md").read_bytes()
    assert freeze["native_hash"] == "sha256:" + hashlib.sha256(data).hexdigest()
    assert freeze["imported_from"] == "claude-code-auto-memory"
    assert "auto-memory" in freeze["tags"]  # type: ignore[operator]
    text = Path(str(freeze["_path"])).read_text("utf-8")
    assert TOKEN not in text
    assert "[REDACTED" in text
    assert str(Path.home()) not in text  # no home path committed with the memory


def test_dry_run_writes_nothing(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p: p.read_bytes() for p in started.rglob("*") if p.is_file()}
    report = run_json(capsys, "import", "--native", "--dry-run")
    assert report["dry_run"] is True
    assert report["counts"]["imported"] == 4  # type: ignore[index]
    after = {p: p.read_bytes() for p in started.rglob("*") if p.is_file()}
    assert {k: v for k, v in after.items() if k.name != "memhooks.log"} == {
        k: v for k, v in before.items() if k.name != "memhooks.log"
    }


def test_a_changed_native_file_is_said_not_duplicated(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_json(capsys, "import", "--native")
    (native / "feedback_bun.md").write_text(TOPICS["feedback_bun.md"] + "Also pnpm never.\n")
    report = run_json(capsys, "import", "--native")
    items = {i["native_path"]: i for i in report["items"]}  # type: ignore[union-attr]
    assert items["feedback_bun.md"]["action"] == "changed"
    assert report["counts"]["imported"] == 0  # type: ignore[index]
    assert len(imported_files(started)) == 4


def test_usage_errors(started: Path, tmp_path: Path) -> None:
    del started
    assert main(["import"]) != 0
    assert main(["import", "--native", str(tmp_path / "b.tar.gz")]) != 0
    assert main(["import", "--native", "--native-dir", str(tmp_path / "none")]) != 0


def test_recall_lists_native_files_until_imported(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = run_json(capsys, "recall", "grafana", "latency", "dashboards")
    listed = report["native"]
    assert isinstance(listed, list)
    assert [n["name"] for n in listed] == ["reference_dashboards.md"]
    capsys.readouterr()
    assert main(["recall", "grafana", "latency"]) == 0
    out = capsys.readouterr().out
    assert "native reference, not imported" in out
    assert str(native / "reference_dashboards.md") in out
    overview = run_json(capsys, "recall")
    assert len(overview["native"]) == 4  # type: ignore[arg-type]
    run_json(capsys, "import", "--native")
    assert run_json(capsys, "recall")["native"] == []
    report = run_json(capsys, "recall", "grafana", "latency", "dashboards")
    assert report["native"] == []
    results = report["results"]
    assert isinstance(results, list)
    assert any("runbooks/" in str(r["path"]) for r in results)


def test_session_start_leaves_out_what_the_host_injects(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = started.parent.parent
    assert main(["remember", "we decided to ship the API behind a feature flag"]) == 0
    run_json(capsys, "import", "--native")
    index = (started / "MEMORY.md").read_text("utf-8")
    assert "Use bun not npm" in index  # the index itself keeps every memory

    def briefing() -> str:
        out = hook_in(project, "SessionStart", "0a1b2c3d-native", source="startup").stdout
        return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])

    text = briefing()
    assert "feature flag" in text
    assert "Use bun not npm" not in text
    assert "grafana" not in text
    (native / "feedback_bun.md").unlink()  # gone from the host: the store's line comes back
    text = briefing()
    assert "Use bun not npm" in text
    assert "grafana" not in text


def test_the_native_folder_is_the_main_checkouts_for_every_worktree(tmp_path: Path) -> None:
    from memhooks.transfer.native import native_folder as found

    main_checkout = tmp_path / "repo"
    main_checkout.mkdir()

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@x.invalid", *args],
            cwd=main_checkout,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("commit", "-q", "--allow-empty", "-m", "root")
    other = tmp_path / "wt"
    git("worktree", "add", "-q", "-b", "side", str(other))
    assert found(main_checkout) == native_folder(main_checkout)
    assert found(other) == native_folder(main_checkout)
    assert found(main_checkout / "sub") == native_folder(main_checkout)


def test_one_invalid_file_is_said_and_the_others_are_filed(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (native / "feedback_bell.md").write_text(
        '---\nname: "ring \\u0007 the bell"\ntype: feedback\n---\n\nBeep.\n', encoding="utf-8"
    )
    report = run_json(capsys, "import", "--native")
    items = {i["native_path"]: i for i in report["items"]}  # type: ignore[union-attr]
    assert items["feedback_bell.md"]["action"] == "skipped"
    assert "invalid preference" in items["feedback_bell.md"]["detail"]
    assert report["counts"]["imported"] == 4  # type: ignore[index]
    del started


def test_the_view_lists_native_files_read_only_until_imported(
    started: Path, native: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(native)
    report = run_json(capsys, "view")
    assert report["native"] == 4  # the four typed topic files; the loose note is skipped
    page = Path(str(report["path"])).read_text(encoding="utf-8")
    assert "native, not imported (read only)" in page
    assert json.dumps(str(native / "reference_dashboards.md"))[1:-1] in page
    assert "Where the latency dashboards live" in page
    assert snapshot(native) == before  # listed, never written
    run_json(capsys, "import", "--native")
    report = run_json(capsys, "view")
    assert report["native"] == 0
    page = Path(str(report["path"])).read_text(encoding="utf-8")
    assert "native, not imported" not in page
