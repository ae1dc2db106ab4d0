"""The evaluation fixtures' files, read without importing memhooks (so that a script can run
another checkout's hooks): the shared scorer and a session folder's recorded hook payloads."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"


def load_scorer() -> ModuleType:
    """tests/fixtures/transcripts2/score_briefing.py (FORMAT2.md's rule)."""
    path = FIXTURES / "transcripts2" / "score_briefing.py"
    spec = importlib.util.spec_from_file_location("score_briefing", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hook_payloads(folder: Path) -> list[dict[str, Any]]:
    """The session's `hooks.jsonl`: each hook run the recording saw, with its stdin."""
    path = folder / "hooks.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
