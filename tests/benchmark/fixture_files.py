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


def scored(scorer: ModuleType, facts: dict[str, Any], text: str) -> dict[str, Any]:
    """The scorer's verdict on one text: gated live fragments found of all, the missing ones,
    the stale ones presented as current."""
    gated = scorer.recall(facts, text, scorer.GATED)
    return {
        "found": sum(len(found) for found, _ in gated.values()),
        "total": sum(len(every) for _, every in gated.values()),
        "missing": [
            f"[{key}] {fragment}"
            for key, (found, every) in gated.items()
            for fragment in every
            if fragment not in found
        ],
        "stale": [f"[{k}] {frag}" for k, frag, _ in scorer.stale_violations(facts, text)],
    }


def write_texts(folder: Path, texts: dict[str, str]) -> None:
    """A dump for blind readers: each text as `<name>.txt` in `folder` (reader_eval prompts)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
