"""The README's and the docs' commands, paths and sizes, checked against what the code does
and what the checkout holds (issue 33: the docs' numbers and steps match what is printed)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _text(name: str) -> str:
    return " ".join((REPO / name).read_text(encoding="utf-8").split())


def test_the_clean_clone_size_install_md_gives_is_what_git_tracks() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    total = fixtures = 0
    for path in filter(None, listed.split("\0")):
        file = REPO / path
        size = file.stat().st_size if file.is_file() and not file.is_symlink() else 0
        total += size
        fixtures += size if path.startswith("tests/fixtures/") else 0
    said = re.search(
        r"A clean clone copies (\d+) MB \((\d+) MB of it `tests/fixtures/`\)",
        _text("docs/install.md"),
    )
    assert said, "docs/install.md no longer says what a clean clone copies"
    assert abs(int(said.group(1)) - total / 1e6) <= 1, f"a clean clone is {total / 1e6:.1f} MB"
    assert abs(int(said.group(2)) - fixtures / 1e6) <= 1, f"fixtures: {fixtures / 1e6:.1f} MB"


def test_the_readmes_paths_are_the_codes() -> None:
    from memhooks.demo import CLONE
    from memhooks.store import display, user_paths

    readme = _text("README.md")
    clone = str(CLONE)
    assert f"git clone https://github.com/memhooks/memhooks {clone}" in readme
    assert f"claude plugin marketplace add {clone}" in readme
    assert f"your user tier, `{display(user_paths())}`" in readme
    assert not display(user_paths()).startswith(clone + "/"), "the user tier is in the clone"
    assert "python3 hooks/memhooks.py demo --install" in readme
    assert "bash .ci/run" in readme
