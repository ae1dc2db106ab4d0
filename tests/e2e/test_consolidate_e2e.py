# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`/memory consolidate` and stale code citations through the real CLI.

The tree gets a near-duplicate pair, a memory with relative dates and one citing code. The
slash command's dry run must reach the model and change nothing; the user's yes makes the
model run `consolidate --apply`. Then the cited code changes, and the next prompt's pointer
to that memory says it is stale.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
import sandbox_tools

from memhooks.demo import harness, scenario

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import SandboxFactory

REPO_LAUNCHER = "hooks/memhooks.py"
PRICING = "def price(x):\n    return round(x, 2)\n\n\ndef tax(x):\n    return x * 0.2\n"
RUNBOOK = (
    "---\ntitle: {title}\ncategory: runbook\ncreated: {created}\n---\n\n# {title}\n\n"
    "## Trigger\nCache purge fails with 403 from the CDN API.\n\n## Steps\n1. Ask ops for a new "
    "token in the vault.\n2. Update CDN_TOKEN in the deploy secrets.\n3. Re-run the purge job.\n"
)
FREEZE = (
    "---\ntitle: Public API freeze before the partner launch\ncategory: constraint\n"
    "created: 2025-09-17\n---\n\n# Public API freeze before the partner launch\n\n## Rule\n"
    "The public API is frozen until next week; legal agreed yesterday.\n"
)
STALE_PROMPT = "How are prices rounded in the pricing code?"


@dataclass
class Played(sandbox_tools.Played):
    cited: str  # the citation the stale pointer must name


def _cli(box: harness.Sandbox, *args: str) -> str:
    from pathlib import Path

    launcher = Path(__file__).resolve().parents[2] / REPO_LAUNCHER
    done = subprocess.run(
        [sys.executable, str(launcher), *args],
        capture_output=True,
        text=True,
        env={**box.env(), "MEMHOOKS_PROJECT_DIR": str(box.project)},
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def played(
    sandboxes: SandboxFactory, record_times: Callable[[str, harness.Sandbox], None]
) -> Played:
    box = sandboxes("consolidate")
    (box.project / "src").mkdir()
    (box.project / "src" / "pricing.py").write_text(PRICING, encoding="utf-8")
    steps = {"start": box.run("/memory start", name="start")}
    memory = box.project / ".claude" / "memory"
    for name, title, created in (
        ("rotate-cdn-token.md", "Rotate the CDN token", "2025-03-01"),
        ("rotate-the-cdn-token-on-403.md", "Rotate the CDN token on 403", "2025-05-01"),
    ):
        (memory / "runbooks" / name).write_text(
            RUNBOOK.format(title=title, created=created), encoding="utf-8"
        )
    (memory / "constraints" / "public-api-freeze.md").write_text(FREEZE, encoding="utf-8")
    cited = json.loads(
        _cli(
            box,
            "remember",
            "--category",
            "decision",
            "--json",
            "we decided prices are rounded to cents by price() in src/pricing.py:1-2",
        )
    )["path"].removeprefix(".claude/memory/")
    _cli(box, "rebuild")
    apply_call = scenario.Call(
        "Bash",
        {
            "command": f'python3 "{box.root / "plugin-src"}/hooks/memhooks.py" consolidate --apply',
            "description": "Apply the consolidation",
        },
        "toolu_consolidate_01",
    )
    box.mock.add(
        *scenario.Turn(
            "Yes, apply the consolidation.",
            (scenario.Reply(call=apply_call), scenario.Reply(text="Applied.")),
        ).rules()
    )
    steps["consolidate"] = box.run("/memory consolidate", name="consolidate", resume=True)
    steps["apply"] = box.run("Yes, apply the consolidation.", name="apply", resume=True)
    steps["fresh"] = box.run(STALE_PROMPT, name="fresh", resume=True)
    (box.project / "src" / "pricing.py").write_text(
        PRICING.replace("round(x, 2)", "int(x * 100) / 100"), encoding="utf-8"
    )
    steps["stale"] = box.run(STALE_PROMPT, name="stale", resume=True)
    record_times("consolidate", box)
    return Played(box, steps, cited)


def test_every_run_exits_zero(played: Played) -> None:
    for name, step in played.steps.items():
        assert step.rc == 0, (name, step.stderr[-2000:])


def test_dry_run_reaches_the_model(played: Played) -> None:
    text = played.steps["consolidate"].request_text()
    assert "memory:consolidate" in text
    assert "duplicate of runbooks/rotate-the-cdn-token-on-403.md" in text
    assert "the week of 2025-09-22" in text  # the relative-date diff
    assert "ask the user whether to apply" in text


def test_apply_ran_after_the_yes(played: Played) -> None:
    retired = (played.memory / "runbooks" / "rotate-cdn-token.md").read_text(encoding="utf-8")
    assert "record_status: retired" in retired
    assert "duplicate of runbooks/rotate-the-cdn-token-on-403.md" in retired
    freeze = (played.memory / "constraints" / "public-api-freeze.md").read_text(encoding="utf-8")
    assert "next week" not in freeze
    log = (played.memory / "consolidation.log.md").read_text(encoding="utf-8")
    assert "memhooks restore runbooks/rotate-cdn-token.md" in log
    # the tool result (the CLI's report) came back to the model
    assert "Logged in .claude/memory/consolidation.log.md" in played.steps["apply"].request_text()


def test_pointer_is_marked_stale_after_the_cited_code_changed(played: Played) -> None:
    fresh = "\n".join(played.steps["fresh"].contexts("UserPromptSubmit"))
    assert played.cited in fresh
    assert "STALE" not in fresh
    # a resumed conversation carries the earlier contexts too: the newest comes last
    stale = "\n".join(played.steps["stale"].contexts("UserPromptSubmit"))
    line = [x for x in stale.splitlines() if played.cited in x][-1]
    assert "STALE" in line
    assert "src/pricing.py" in line
