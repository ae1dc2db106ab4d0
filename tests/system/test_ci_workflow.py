"""One definition of CI: the GitHub workflow runs `.ci/run`, and nothing else of its own.

The workflow once called a function that had moved (`harness.install_claude`) while `.ci/run`
was updated, and its whole matrix stopped running without anyone noticing.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "ci.yml"
CI_RUN = REPO / ".ci" / "run"


def test_every_job_runs_ci_run_and_only_that() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    for name, job in workflow["jobs"].items():
        commands = [str(step["run"]) for step in job["steps"] if "run" in step]
        assert commands, f"job {name} runs nothing"
        assert all(re.search(r"\bbash \.ci/run\b", c) for c in commands), (name, commands)


def test_the_workflow_names_no_python_of_ours() -> None:
    """Anything it would call in the package can move; only `.ci/run` may know the names."""
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "memhooks." not in text
    assert "pytest" not in text


def test_ci_run_knows_the_switches_the_workflow_sets() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    script = CI_RUN.read_text(encoding="utf-8")
    for job in workflow["jobs"].values():
        for variable in job.get("env", {}):
            assert variable == "CI" or variable in script, variable
