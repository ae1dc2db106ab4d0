"""How well the SessionStart(compact) briefing restores a session, scored by FORMAT2.md's rule.

Usage: .venv/bin/python tests/benchmark/restore_eval.py [--json] [DIR ...]

For each session folder (default: tests/fixtures/transcripts2/*, transcripts3/* and
transcripts/*) it plays what the hooks do: PreCompact extracts the checkpoint from
`transcript_at_precompact.jsonl` (with the prompts UserPromptSubmit cached, from
`hooks.jsonl`, and the payload's `custom_instructions`), then SessionStart(compact) renders
the briefing with no status set by hand and an empty index. It then reports:

- gated live recall (goal, now, next, waiting_on_user, open_blockers, live_decisions,
  user_constraints, open_failures) and the stale fragments presented as current, with
  `score_briefing.py`'s own functions, for sessions that have a `facts2.json`;
- whether every fact of the older `facts.json` (task, todos, files, failed commands, decisions,
  blockers) is in the checkpoint file, and which are in the briefing;
- the briefing's length against its budget, and any placeholder line.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))

from memhooks.restore import briefing
from memhooks.restore.checkpoint import render_checkpoint, without_host_kept
from memhooks.restore.extract import extract_facts
from memhooks.restore.transcript import iter_records
from memhooks.store.context_files import Status

FIXTURES = REPO / "tests" / "fixtures"
SETS = ("transcripts2", "transcripts3", "transcripts")
BUDGET = 9_000
PROMPTS_KEPT = 5
PLACEHOLDER = re.compile(r"\(not set\)|\(none yet\)|No memories yet|\(none\)", re.IGNORECASE)


def load_scorer() -> ModuleType:
    path = FIXTURES / "transcripts2" / "score_briefing.py"
    spec = importlib.util.spec_from_file_location("score_briefing", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hook_payloads(folder: Path) -> list[dict[str, object]]:
    path = folder / "hooks.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def precompact_inputs(folder: Path) -> tuple[list[str], str, str]:
    """The prompts UserPromptSubmit had cached, custom_instructions, session id at PreCompact."""
    prompts: list[str] = []
    for entry in hook_payloads(folder):
        stdin = entry.get("stdin")
        if not isinstance(stdin, dict):
            continue
        if entry.get("event") == "UserPromptSubmit" and isinstance(stdin.get("prompt"), str):
            prompts = [*prompts, stdin["prompt"]][-PROMPTS_KEPT:]
        if entry.get("event") == "PreCompact":
            return prompts, str(stdin.get("custom_instructions") or ""), str(stdin["session_id"])
    return prompts, "", "session"


def checkpoint_for(folder: Path) -> str:
    prompts, instructions, session_id = precompact_inputs(folder)
    facts = extract_facts(
        iter_records(folder / "transcript_at_precompact.jsonl"),
        extra_prompts=prompts,
        custom_instructions=instructions or None,
        track_live=True,
    )
    return render_checkpoint(
        facts,
        current_task_md="",
        blockers_md="",
        session_id=session_id,
        trigger="manual",
        created="2026-11-26T00:00:00Z",
    )


def briefing_for(folder: Path, checkpoint: str | None = None) -> str:
    checkpoint = checkpoint_for(folder) if checkpoint is None else checkpoint
    _, _, session_id = precompact_inputs(folder)
    return briefing.session_start(
        session_id=session_id,
        source="compact",
        status=Status(),
        checkpoint=without_host_kept(checkpoint),
        index="",
        budget=BUDGET,
        cli="python3 hooks/memhooks.py",
    )


def old_facts_missing(folder: Path, text: str) -> list[str]:
    """Facts of facts.json not in ``text`` (the last assistant message is not checked here)."""
    facts = json.loads((folder / "facts.json").read_text(encoding="utf-8"))
    wanted = [facts["task"], *(todo["content"] for todo in facts["todos"])]
    wanted += [f"`{item}`" for key in ("files_written", "files_edited") for item in facts[key]]
    wanted += [f"`{item}`" for item in facts["failed_commands"]]
    wanted += [*facts["decisions"], *facts["blockers"]]
    return [item for item in wanted if item not in text]


def evaluate(folder: Path, scorer: ModuleType) -> dict[str, object]:
    checkpoint = checkpoint_for(folder)
    text = briefing_for(folder, checkpoint)
    row: dict[str, object] = {
        "session": folder.name,
        "chars": len(text),
        "within_budget": len(text) <= BUDGET,
        "placeholders": PLACEHOLDER.findall(text),
        "old_facts_missing_in_checkpoint": old_facts_missing(folder, checkpoint),
        "old_facts_missing_in_briefing": old_facts_missing(folder, text),
    }
    facts2 = folder / "facts2.json"
    if facts2.is_file():
        facts = json.loads(facts2.read_text(encoding="utf-8"))
        gated = scorer.recall(facts, text, scorer.GATED)
        row["found"] = sum(len(found) for found, _ in gated.values())
        row["total"] = sum(len(every) for _, every in gated.values())
        row["missing"] = [
            f"[{key}] {fragment}"
            for key, (found, every) in gated.items()
            for fragment in every
            if fragment not in found
        ]
        reported = scorer.recall(facts, text, scorer.REPORTED)
        row["reported"] = {key: f"{len(f)}/{len(a)}" for key, (f, a) in reported.items()}
        row["stale"] = [f"[{k}] {frag}" for k, frag, _ in scorer.stale_violations(facts, text)]
    return row


def session_folders(args: list[str]) -> list[Path]:
    if args:
        return [Path(arg) for arg in args]
    return [p for name in SETS for p in sorted((FIXTURES / name).glob("*/")) if p.is_dir()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", help="session folders (default: both fixture sets)")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    args = parser.parse_args()
    scorer = load_scorer()
    rows = [evaluate(folder, scorer) for folder in session_folders(args.folders)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| session | gated live | stale as current | chars | old facts (checkpoint/briefing) |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        live = f"{row['found']}/{row['total']}" if "total" in row else "n/a"
        stale = len(row["stale"]) if "stale" in row else "n/a"  # type: ignore[arg-type]
        missing_cp = len(row["old_facts_missing_in_checkpoint"])  # type: ignore[arg-type]
        missing_br = len(row["old_facts_missing_in_briefing"])  # type: ignore[arg-type]
        old = f"{'all' if not missing_cp else f'-{missing_cp}'}/"
        old += "all" if not missing_br else f"-{missing_br}"
        print(f"| {row['session']} | {live} | {stale} | {row['chars']} | {old} |")
    for row in rows:
        for key in ("missing", "stale", "placeholders", "old_facts_missing_in_briefing"):
            for item in row.get(key) or []:  # type: ignore[attr-defined]
                print(f"{row['session']}: {key}: {str(item)[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
