"""The benchmark script runs end to end on tiny sizes and reports in the documented shape.

No timing is asserted here, ever: the budgets are judged by the full benchmark run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).parents[1] / "benchmark" / "run.py"


@pytest.mark.slow
def test_quick_run_reports_every_section(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(RUN),
            "--quick",
            "--no-fail",
            "--json",
            "--bench-dir",
            str(tmp_path / "bench"),
            "--sizes",
            "12,30",
            "--transcript-mb",
            "0.05,0.1",
            "--repeats",
            "2",
            "--warmup",
            "0",
            "--saves",
            "2",
            "--writers",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)

    assert report["mode"] == "quick"
    assert isinstance(report["passed"], bool)
    assert report["sizes"] == {"memories": [12, 30], "transcript_mb": [0.05, 0.1]}
    assert report["environment"]["python"] == sys.executable
    assert Path(report["json_path"]).is_file()
    assert report["floor_ms"]["import_json"] > 0

    keys = {row["key"] for row in report["latency"]}
    for size in (12, 30):
        for hook in ("SessionStart:startup", "SessionStart:compact", "UserPromptSubmit"):
            assert f"{hook}@{size}" in keys
        assert f"SessionEnd@{size}" in keys
        assert f"Stop@{size}" in keys
    assert {"floor:pass", "floor:json", "floor:json-S", "floor:json:bytecode"} <= keys
    assert {"PreCompact@0.05MB", "PreCompact@0.1MB", "Stop@30:0.1MB", "Stop:first@0.1MB"} <= keys
    assert "SessionStart:startup@30:sessions" in keys  # after 20 sessions, one on 0.1 MB
    for row in report["latency"]:
        assert row["n"] >= 2
        assert {"median_ms", "p95_ms", "max_ms", "x_floor", "errors"} <= set(row)

    names = [check["name"] for check in report["checks"]]
    assert any(name.startswith("UserPromptSubmit @30") for name in names)
    assert any(name.startswith("Stop flat") for name in names)
    assert "SessionStart startup @30, 20 earlier sessions: median vs floor" in names
    assert any("scale: 30 vs 12" in name for name in names)
    for check in report["checks"]:
        assert check["passed"] in (True, False, None)
    clean = next(c for c in report["checks"] if c["name"].startswith("every hook ran clean"))
    assert clean["passed"], clean["detail"]

    hooks = {(row["hook"], row["memories"]) for row in report["context"]}
    assert ("SessionStart compact", 30) in hooks
    assert ("UserPromptSubmit", 12) in hooks
    assert ("SessionStart, 20 sessions", 30) in hooks
    assert all(row["max_chars"] > 0 for row in report["context"])

    write = report["write_path"]
    assert write["sequential"]["saves"] == 2
    assert write["concurrent"]["writers"] == 2
    assert write["sequential"]["ok"] == 2
    assert [r["memories"] for r in report["rebuild"]][:2] == [12, 30]
    assert all(r["exit"] == 0 for r in report["rebuild"])
