# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The demo's fallback (no claude CLI) plays the session through the hook entry points."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.demo import run_demo, scenario


def test_no_claude_demo_prints_the_restored_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo(["--no-claude"]) == 0
    out = capsys.readouterr().out
    assert ".claude/memory/" in out
    # After compaction the briefing brings back what the host's summary may not keep: the
    # record's proofs and the user's own words (Claude's decision is the summary's to keep).
    after = out.split("Compact the conversation", 1)[1]
    for fact in ("format_price", scenario.TODOS[2], "money.py", "report.py", "EUR price feed"):
        assert fact in after, fact


def test_no_claude_demo_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo(["--no-claude", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mode"] == "direct"
    labels = [h["hook"] for step in report["steps"] for h in step["hooks"]]
    assert "SessionStart:compact" in labels
    assert "PreCompact:manual" in labels
    compact = next(
        h for s in report["steps"] for h in s["hooks"] if h["hook"] == "SessionStart:compact"
    )
    assert "format_price" in compact["context"]
    assert any(name.endswith("checkpoints/latest.md") for name in report["memory_files"])


def test_demo_keeps_its_project_only_when_asked(tmp_path: Path) -> None:
    code = "import sys; from memhooks.demo import run_demo; sys.exit(run_demo(sys.argv[1:]))"
    argv = [sys.executable, "-c", code, "--no-claude", "--keep"]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    kept = Path(proc.stdout.rsplit("kept: ", 1)[1].strip())
    try:
        assert (kept / "project" / "money.py").is_file()
        assert not list(tmp_path.iterdir()), "the demo must not write into the cwd"
    finally:
        shutil.rmtree(kept)


def test_the_demo_prints_each_step_as_it_goes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person sees step 1 while step 2 runs, not the whole transcript at the end."""
    from memhooks.demo import session

    seen_at_start: dict[int, str] = {}
    play = session.play_direct

    def spying(
        plugin_root: Path | None,
        workdir: Path,
        *,
        watch: session.Watch | None = None,
        why: str = "",
    ):
        assert watch is not None, "the demo must pass a watch in text mode"

        def spy(report: session.DemoReport, upcoming: int, title: str = "") -> None:
            watch(report, upcoming, title)
            seen_at_start[upcoming] = capsys.readouterr().out

        return play(plugin_root, workdir, watch=spy, why=why)

    monkeypatch.setattr(session, "play_direct", spying)
    assert run_demo(["--no-claude"]) == 0
    assert "── 1. Turn memory on" in seen_at_start[2]
    assert "── 2. Work" in seen_at_start[3]
    assert "memory tree written by the plugin" not in "".join(seen_at_start.values())


def test_demo_install_does_what_the_readme_says_and_says_where_claude_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`demo --install` (README step 1) installs from a clean clone in the README's folder,
    not the working checkout, and says where the claude CLI it used is and how to put it on
    PATH (the README's next command is `claude …`)."""
    cli_dir = tmp_path / "cli"
    cli_dir.mkdir()
    calls = tmp_path / "calls.txt"
    claude = cli_dir / "claude"
    claude.write_text(f'#!/bin/sh\necho "$@" >> "{calls}"\n', encoding="utf-8")
    claude.chmod(0o755)
    monkeypatch.setenv("CLAUDE_BIN", str(claude))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no `claude` on it, as after the demo
    assert run_demo(["--no-claude", "--install"]) == 0
    out = capsys.readouterr().out
    assert "the hook entry points run directly (--no-claude)" in out
    clone = Path.home() / ".local" / "share" / "memhooks"
    assert (clone / ".claude-plugin" / "plugin.json").is_file()
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True, check=True
    )
    assert status.stdout == ""  # a clean clone: nothing of the working checkout's own
    assert calls.read_text(encoding="utf-8").splitlines() == [
        f"plugin marketplace add {clone}",
        "plugin install memory@memhooks",
    ]
    assert f"claude CLI: {claude.resolve()}" in out
    assert f'export PATH="{claude.resolve().parent}:$PATH"' in out


def test_the_development_guide_lists_the_steps_the_demo_prints() -> None:
    """docs/development.md's steps are the demo's titles, and what it says step 4 brings
    back is what the restored-state test above finds after compaction."""
    from memhooks.demo.scenario import PLAN

    guide = (Path(__file__).parents[2] / "docs" / "development.md").read_text(encoding="utf-8")
    demo = guide.split("## The demo", 1)[1].split("\n## ", 1)[0]
    steps = [line for line in demo.splitlines() if line[:1].isdigit() and line[1:3] == ". "]
    assert [line[3:] for line in steps] == [title for title, _, _ in PLAN]
    for fact in ("`format_price`", "`money.py`", "`report.py`", "EUR price feed"):
        assert fact in " ".join(demo.split()), fact
