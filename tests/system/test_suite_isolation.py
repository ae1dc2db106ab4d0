"""The suite's own isolation (tests/conftest.py): a test whose writes escape its HOME fails the
run, instead of leaving a checkout's state in the real `~/.local/state/memhooks/`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support import REPO

ESCAPING_TEST = """
from memhooks.cli.main import main


def test_escapes(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path))
    monkeypatch.undo()  # HOME is the run's again, not the test's own
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path))
    assert main(["start"]) == 0
"""


def test_a_write_outside_the_tests_home_fails_the_run(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(
        (REPO / "tests" / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (suite / "test_escapes.py").write_text(ESCAPING_TEST, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "MEMHOOKS_TESTS_RUN_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(REPO / "tests")])
    argv = [sys.executable, "-m", "pytest", str(suite), "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*argv, "-p", "no:xdist", "--rootdir", str(suite)],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed" in done.stdout  # the test itself passed: the run failed after it
    assert "written outside the tests' own HOME" in done.stdout
    assert "state/memhooks/checkouts/" in done.stdout
    assert not (Path(os.environ["HOME"]) / ".local" / "state").exists()
