"""How well a restore lets a reader continue, scored by FORMAT2.md's rule (score_briefing.py).

Usage: .venv/bin/python tests/benchmark/handover_eval.py [--json] [--cv] [--dump DIR] [DIR ...]

For each session folder (default: tests/fixtures/transcripts2/*, transcripts3/*,
transcripts_own/* and transcripts/*) it plays what the hooks do, through their own functions:

- **next session**: Stop gathers the evidence turn by turn (the state goes through JSON
  between turns, as it does through `.cache/restore/`), PreCompact adds the prompts
  UserPromptSubmit kept, then a new session's SessionStart(startup) renders the briefing
  (no status set by hand, no index). Reported: its characters, gated live fragments found,
  stale fragments presented as current, and the same-length raw tail's live count
  (score_briefing.tail_baseline); for the tidy sessions (facts.json only), the old facts it
  misses.
- **after a compaction**: SessionStart(compact) given the host's summary
  (tests/fixtures/host_summaries/<session>.md when there is one, else the `compact_summary` of
  the session's hooks.jsonl): its characters and stale fragments presented as current.

`--index MEMORY.md` gives the new session's briefing that index as well (the restore and the
index share the 9,000 characters; tests/fixtures/restore_index/ has a 3 K and a 14 K one).
`--cv` fits the record's levels of detail on one set and scores them on the other.
`--dump DIR` writes, per session, the exact text Claude would receive: `next_session.txt`,
`post_compact.txt` (our injection alone) and `tail.txt` (the conversation's last N
characters, N = len(next_session.txt)), for blind readers.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(1, str(Path(__file__).parent))  # fixture_files, also when a test loads this

from fixture_files import FIXTURES, hook_payloads, load_scorer, scored, write_texts

from memhooks.continuity import briefing, compacted, handover
from memhooks.continuity.evidence import Evidence, extra_prompts, new_state
from memhooks.continuity.transcript import iter_records
from memhooks.continuity.transcript_records import Record
from memhooks.store import Status

SETS = ("transcripts2", "transcripts3", "transcripts_own", "transcripts")
BUDGET = 9_000
PROMPTS_KEPT = 5
SESSION_ID = "0f6c2a4e-5b7d-4c1e-9a3f-2d8b6e4c1a70"
PLACEHOLDER = re.compile(r"\(not set\)|\(none yet\)|No memories yet|\(none\)", re.IGNORECASE)
#: score_briefing: the restore of a new session as a whole
TITLE = "Where the last session on this project stood (session 0f6c2a4e, last written 12 h ago; "
TITLE += "it ended cleanly at 2026-11-26T18:00:00Z):"
SOURCE = ".claude/memory/.cache/restore/0f6c2a4e-5b7d-4c1e-9a3f-2d8b6e4c1a70.json"


def cached_prompts(folder: Path) -> list[str]:
    """The prompts UserPromptSubmit had kept when PreCompact ran; when the transcript read is
    the whole session (a long session whose compactions are inside it), those it kept at its
    end (at a mid-session PreCompact they were that moment's newest, not the session's)."""
    whole = (folder / "transcript_at_precompact.jsonl").resolve() == (
        folder / "transcript.jsonl"
    ).resolve()
    prompts: list[str] = []
    for entry in hook_payloads(folder):
        stdin = entry.get("stdin")
        if not isinstance(stdin, dict):
            continue
        if entry.get("event") == "UserPromptSubmit" and isinstance(stdin.get("prompt"), str):
            prompts = [*prompts, stdin["prompt"]][-PROMPTS_KEPT:]
        if entry.get("event") == "PreCompact" and not whole:
            break
    return prompts


def host_summary(folder: Path) -> str:
    own = FIXTURES / "host_summaries" / f"{folder.name}.md"
    if own.is_file():
        return own.read_text(encoding="utf-8")
    summaries = [
        str(entry["stdin"].get("compact_summary") or "")
        for entry in hook_payloads(folder)
        if entry.get("event") == "PostCompact"
    ]
    return summaries[-1] if summaries else ""  # the newest: a long session compacts again


def turn_chunks(records: list[Record]) -> list[list[Record]]:
    """The records as Stop reads them: one chunk per turn (a prompt starts one)."""
    chunks: list[list[Record]] = [[]]
    for record in records:
        if record.type == "user" and record.text is not None and not record.is_meta:
            chunks.append([])
        chunks[-1].append(record)
    return [chunk for chunk in chunks if chunk]


def evidence_for(folder: Path) -> dict[str, Any]:
    """The state Stop would have kept, turn by turn, through JSON, then PreCompact's prompts."""
    state = new_state(SESSION_ID)
    for chunk in turn_chunks(list(iter_records(folder / "transcript_at_precompact.jsonl"))):
        state = json.loads(json.dumps(Evidence(state).add_all(chunk).state))
    evidence = Evidence(state)
    extra_prompts(evidence, cached_prompts(folder))
    return evidence.state


def next_session_text(state: dict[str, Any], index: str = "") -> str:
    return briefing.session_start(
        session_id="a3c1e2f4-0b9d-4e8a-8c7f-1d2e3f4a5b6c",
        status=Status(),
        index=index,
        budget=BUDGET,
        handover=lambda room: handover.next_session(state, budget=room),
        handover_title=TITLE,
        handover_source=SOURCE,
        cli="python3 hooks/memhooks.py",
    )


def post_compact_text(state: dict[str, Any], summary: str) -> str:
    """Our injection alone (the restore's frame and title, no briefing header)."""
    body = compacted.after_compaction(state, summary=summary, budget=BUDGET)
    return briefing.quote(SOURCE, body) if body else ""


def old_facts_missing(folder: Path, text: str) -> list[str]:
    """Facts of facts.json not in ``text``."""
    facts = json.loads((folder / "facts.json").read_text(encoding="utf-8"))
    wanted = [facts["task"], *(todo["content"] for todo in facts["todos"])]
    wanted += [item for key in ("files_written", "files_edited") for item in facts[key]]
    wanted += [*facts["failed_commands"], *facts["decisions"], *facts["blockers"]]
    flat = " ".join(text.split())
    return [item for item in wanted if " ".join(item.split()) not in flat]


def evaluate(
    folder: Path, scorer: ModuleType, state: dict[str, Any] | None = None, index: str = ""
) -> dict[str, Any]:
    state = evidence_for(folder) if state is None else state
    text = next_session_text(state, index)
    summary = host_summary(folder)
    after = post_compact_text(state, summary) if summary else ""
    row: dict[str, Any] = {
        "session": folder.name,
        "chars": len(text),
        "post_compact_chars": len(after),
        "placeholders": PLACEHOLDER.findall(text),
        "texts": {"next_session": text, "post_compact": after},
    }
    if (folder / "facts.json").is_file():
        row["old_facts_missing"] = old_facts_missing(folder, text)
    facts2 = folder / "facts2.json"
    if facts2.is_file():
        facts = json.loads(facts2.read_text(encoding="utf-8"))
        row.update(scored(scorer, facts, text))
        tail = scorer.tail_baseline(folder / "transcript_at_precompact.jsonl", len(text))
        row["tail_found"] = scorer.live_score(facts, tail)[0]
        row["texts"]["tail"] = tail
        row["post_compact_stale"] = [
            f"[{k}] {frag}" for k, frag, _ in scorer.stale_violations(facts, after)
        ]
    return row


def session_folders(args: list[str]) -> list[Path]:
    if args:
        return [Path(arg) for arg in args]
    return [p for name in SETS for p in sorted((FIXTURES / name).glob("*/")) if p.is_dir()]


# ---------------------------------------------------------------- cross-validation

GRID = {
    "level2": ((420, 160, 0, 200, False), (600, 260, 0, 200, False), (600, 0, 0, 420, False)),
    "level3": ((600, 400, 0, 500, True), (600, 400, 0, 900, True), (900, 400, 0, 900, True)),
    "old_max": (1, 2),
    "goal_level": (2, 3),
}


def _set_params(point: dict[str, Any]) -> None:
    levels = list(handover.LEVELS)
    levels[2], levels[3] = point["level2"], point["level3"]
    handover.LEVELS = tuple(levels)
    handover.OLD_MAX_LEVEL = point["old_max"]
    handover.GOAL_LEVEL = point["goal_level"]


def cross_validate(scorer: ModuleType) -> list[str]:
    sets = {
        name: session_folders([str(p) for p in sorted((FIXTURES / name).glob("*/"))])
        for name in ("transcripts2", "transcripts3", "transcripts_own")
    }
    states = {folder: evidence_for(folder) for folders in sets.values() for folder in folders}
    shipped = {
        "level2": handover.LEVELS[2],
        "level3": handover.LEVELS[3],
        "old_max": handover.OLD_MAX_LEVEL,
        "goal_level": handover.GOAL_LEVEL,
    }

    def score(name: str) -> tuple[int, int, int]:
        rows = [evaluate(folder, scorer, states[folder]) for folder in sets[name]]
        return (
            sum(r["found"] for r in rows),
            sum(r["total"] for r in rows),
            sum(len(r["stale"]) for r in rows),
        )

    points = [dict(zip(GRID, values, strict=True)) for values in itertools.product(*GRID.values())]
    table: list[tuple[dict[str, Any], dict[str, tuple[int, int, int]]]] = []
    for point in points:
        _set_params(point)
        table.append((point, {name: score(name) for name in sets}))
    _set_params(shipped)
    out = [
        "| fit on | best there | scored on | live found (worst, mean over ties) |",
        "| --- | --- | --- | --- |",
    ]
    for fit, other in itertools.permutations(sets, 2):

        def key(
            row: tuple[dict[str, Any], dict[str, tuple[int, int, int]]], name: str = fit
        ) -> int:
            found, _, stale = row[1][name]
            return found - 5 * stale

        best = max(key(row) for row in table)
        ties = [row for row in table if key(row) == best]
        scores = [row[1][other][0] - 5 * row[1][other][2] for row in ties]
        total = table[0][1][other][1]
        out.append(
            f"| {fit} | {table[0][1][fit][1] and ties[0][1][fit][0]}/{table[0][1][fit][1]} "
            f"({len(ties)} ties) | {other} | {min(scores)}/{total}, "
            f"{sum(scores) / len(scores):.1f}/{total} |"
        )
    return out


# ---------------------------------------------------------------- main


def dump(rows: list[dict[str, Any]], folder: Path) -> None:
    for row in rows:
        write_texts(folder / row["session"], row["texts"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", help="session folders (default: the fixture sets)")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.add_argument("--cv", action="store_true", help="cross-validate the levels of detail")
    parser.add_argument("--dump", type=Path, help="write each session's texts into this folder")
    parser.add_argument(
        "--index",
        type=Path,
        help="a MEMORY.md the new session's briefing carries too (e.g. "
        "tests/fixtures/restore_index/MEMORY-3k.md); default: none",
    )
    args = parser.parse_args()
    scorer = load_scorer()
    index = args.index.read_text(encoding="utf-8") if args.index else ""
    rows = [evaluate(folder, scorer, index=index) for folder in session_folders(args.folders)]
    if args.dump:
        dump(rows, args.dump)
    if args.json:
        print(json.dumps([{k: v for k, v in r.items() if k != "texts"} for r in rows], indent=2))
        return 0
    print(
        "| session | next session: live | stale as current | chars | tail live "
        "| after compaction: chars | stale as current |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        live = f"{row['found']}/{row['total']}" if "total" in row else "n/a"
        old = row.get("old_facts_missing")
        if "total" not in row and old is not None:
            live = "old facts: all" if not old else f"old facts: -{len(old)}"
        stale = len(row["stale"]) if "stale" in row else "n/a"
        tail = row.get("tail_found", "n/a")
        after_stale = len(row["post_compact_stale"]) if "post_compact_stale" in row else "n/a"
        print(
            f"| {row['session']} | {live} | {stale} | {row['chars']} | {tail} "
            f"| {row['post_compact_chars']} | {after_stale} |"
        )
    scored = [row for row in rows if "total" in row]
    found, total = sum(r["found"] for r in scored), sum(r["total"] for r in scored)
    print(
        f"\nall scored: {found}/{total} live ({100 * found / max(total, 1):.0f}%), stale "
        f"{sum(len(r['stale']) for r in scored)}, tail {sum(r['tail_found'] for r in scored)}"
    )
    for row in rows:
        for key in ("missing", "stale", "post_compact_stale", "placeholders", "old_facts_missing"):
            for item in row.get(key) or []:
                print(f"{row['session']}: {key}: {str(item)[:160]}")
    if args.cv:
        print("\n" + "\n".join(cross_validate(scorer)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
