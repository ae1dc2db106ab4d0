"""A week of sessions: what a new session is told after three sessions of work (issue 31).

    PYTHONPATH=<checkout>/src .venv/bin/python tests/benchmark/week_eval.py [--json] [--dump DIR]
        [--sessions N] [--variant a|b|both] [--compactions inner|all|none] [--jobs N]
        [FOLDER ...]

Each session folder (default: tests/fixtures/transcripts2/* and transcripts3/*; any folder in
that layout, e.g. tests/fixtures/transcripts_long/*) is cut at prompt boundaries into N
sessions (`--sessions`, default 3), each with its own id and transcript, two days apart
(week_sessions). They are replayed through the real hook processes of the checkout the
`memhooks` package is imported from (or `--tree`), in a project of a HOME of their own where
`memhooks start` turned memory on: per session SessionStart(startup), UserPromptSubmit before
each prompt, Stop after each turn with the transcript as it stood then, PreCompact,
SessionStart(compact) and PostCompact where the original compacted, SessionEnd. Variant b
puts a trivial session ("Good morning" / "ok", one turn, no tools) after the last one. Then
a new session's SessionStart(startup): its additionalContext is exactly what Claude would
receive ("ours").

Scored by the shared scorer (tests/fixtures/transcripts2/score_briefing.py, FORMAT2.md): gated
live fragments found, stale fragments presented as current, and the same-length tail (the
project's conversation, every session of the week, last N characters, N = len(ours)).
`--dump DIR` writes DIR/<scenario>/ours.txt, tail.txt and scenario.json for blind readers
(tests/benchmark/reader_eval.py prompts DIR). Progress goes to stderr.

`--compactions inner` (default) replays the compactions that happened inside the work; the
fixtures' closing /compact (after the last prompt, with a summary of the whole original
session, which the cut last session never saw) is left out. `all` replays it too (with
tests/fixtures/host_summaries/<session>.md, else hooks.jsonl's summary); `none` drops all.
A summary the original wrote mid-session covers the cut sessions before it as well.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime as dt
import json
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from fixture_files import FIXTURES, hook_payloads, load_scorer, scored, write_texts
from hook_process import log
from week_host import World, code_tree
from week_sessions import (
    Rewrite,
    compaction_records,
    cut,
    prompt_text,
    read_records,
    session_steps,
    start_days,
    transcript_of,
    trivial_records,
)
from workspace import setup_plugin_data

SETS = ("transcripts2", "transcripts3")
TRIVIAL = ("Good morning", "ok")
RECORD_KEYS = ("compact_boundary",)


def trailing_compaction(folder: Path, part: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fixture's closing compaction, as the host would write it (none if it has none)."""
    events = hook_payloads(folder)
    pre = [e for e in events if e.get("event") == "PreCompact"]
    if not pre or any(r.get("subtype") == "compact_boundary" for r in part):
        return []
    trigger = str(pre[-1]["stdin"].get("trigger") or "manual")
    own = FIXTURES / "host_summaries" / f"{folder.name}.md"
    post = [e for e in events if e.get("event") == "PostCompact"]
    summary = own.read_text(encoding="utf-8") if own.is_file() else ""
    summary = summary or (str(post[-1]["stdin"].get("compact_summary") or "") if post else "")
    stamped = [r for r in part if r.get("timestamp")]
    return compaction_records(stamped[-1] if stamped else part[-1], summary, trigger)


def without_compactions(part: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        r for r in part if r.get("subtype") != "compact_boundary" and not r.get("isCompactSummary")
    ]


def recorded_summaries(folder: Path, parts: list[list[dict[str, Any]]]) -> list[str]:
    """The `compact_summary` of each PostCompact the recording saw, when they are the
    compactions in these records (else the replay gives the summary record's text)."""
    events = hook_payloads(folder)
    given = [
        str(e["stdin"].get("compact_summary") or "")
        for e in events
        if e.get("event") == "PostCompact"
    ]
    replayed = sum(1 for part in parts for r in part if r.get("subtype") == "compact_boundary")
    return given if given and len(given) == replayed else []


class Scenario:
    """One folder cut into a week, played in one World; what the next session receives."""

    def __init__(self, folder: Path, *, sessions: int, trivial: bool, compactions: str) -> None:
        self.folder = folder
        self.trivial = trivial
        parts = cut(read_records(transcript_of(folder)), sessions)
        # The recording's own compactions (not a closing one made up below).
        self.summaries = recorded_summaries(folder, parts) if compactions != "none" else []
        if compactions == "all":
            parts[-1] = parts[-1] + trailing_compaction(folder, parts[-1])
        elif compactions == "none":
            parts = [without_compactions(p) for p in parts]
        self.parts = parts
        self.name = folder.name + ("+trivial" if trivial else "")
        self.written: list[dict[str, Any]] = []

    def prompts(self) -> list[int]:
        return [sum(1 for r in part if prompt_text(r) is not None) for part in self.parts]

    def play(self, world: World, now: dt.datetime) -> str:
        world.start()
        starts = start_days(len(self.parts), trivial=self.trivial, now=now)
        first: dict[str, Any] = {}
        for number, part in enumerate(self.parts):
            session_id = str(uuid.uuid4())
            records = Rewrite(session_id, world.project, starts[number]).records(part)
            first = first or next((r for r in records if prompt_text(r) is not None), {})
            self.replay(world, session_id, records)
        if self.trivial:
            session_id = str(uuid.uuid4())
            records = trivial_records(first, *TRIVIAL)
            self.replay(
                world, session_id, Rewrite(session_id, world.project, starts[-1]).records(records)
            )
        reply = world.hook("SessionStart", str(uuid.uuid4()), source="startup")
        return world.context(reply)

    def replay(self, world: World, session_id: str, records: list[dict[str, Any]]) -> None:
        world.hook("SessionStart", session_id, source="startup")
        path = world.transcript(session_id)
        for step in session_steps(records):
            with path.open("a", encoding="utf-8") as out:
                out.writelines(
                    json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                    for r in step.lines
                )
            self.written += step.lines
            if step.event == "PostCompact" and self.summaries:
                # What the host gave PostCompact (the summary as the model wrote it).
                step.fields["compact_summary"] = self.summaries.pop(0)
            if step.event:
                world.hook(step.event, session_id, **step.fields)
        world.hook("SessionEnd", session_id, reason="other")


def score(scenario: Scenario, ours: str, scorer: Any, work: Path) -> dict[str, Any]:
    """The shared scorer's figures for ours and for the same-length tail."""
    row: dict[str, Any] = {"chars": len(ours)}
    conversation = work / "conversation.jsonl"
    conversation.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in scenario.written),
        encoding="utf-8",
    )
    tail = scorer.tail_baseline(str(conversation), len(ours))
    row["texts"] = {"ours": ours, "tail": tail}
    facts_path = scenario.folder / "facts2.json"
    if not facts_path.is_file():
        return row
    facts = json.loads(facts_path.read_text(encoding="utf-8"))
    row.update(scored(scorer, facts, ours))
    row["tail_found"] = scorer.live_score(facts, tail)[0]
    row["tail_stale"] = len(scorer.stale_violations(facts, tail))
    return row


def evaluate(
    scenario: Scenario,
    tree: Path,
    data: Path,
    scorer: Any,
    now: dt.datetime,
    *,
    keep: Path | None = None,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="week-", ignore_cleanup_errors=True) as base:
        played = keep / scenario.name if keep else Path(base)
        world = World(played, tree, data, FIXTURES)
        started = time.perf_counter()
        ours = scenario.play(world, now)
        return {
            "scenario": scenario.name,
            "session": scenario.folder.name,
            "trivial": scenario.trivial,
            "prompts": scenario.prompts(),
            **score(scenario, ours, scorer, Path(base)),
            "hook_problems": world.problems,
            "hook_notes": list(world.notes),
            "log": [
                line
                for line in world.log_lines()
                if "error" in line.lower() or "fail" in line.lower()
            ],
            "timing": world.timing(),
            "seconds": round(time.perf_counter() - started, 1),
        }


def folders(given: list[str]) -> list[Path]:
    """The session folders given (what is no session folder, such as a set's README, is passed
    over), else those of SETS."""
    found = [Path(arg) for arg in given] or [
        p for name in SETS for p in sorted((FIXTURES / name).glob("*/"))
    ]
    return [p for p in found if transcript_of(p).is_file()]


def dump(rows: list[dict[str, Any]], where: Path) -> None:
    for row in rows:
        folder = where / row["scenario"]
        write_texts(folder, row["texts"])
        about = {k: row[k] for k in ("scenario", "session", "trivial", "prompts", "chars")}
        (folder / "scenario.json").write_text(json.dumps(about, indent=2) + "\n", encoding="utf-8")


def table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| scenario | prompts per session | chars | live | stale as current | tail live "
        "| tail stale |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        live = f"{r['found']}/{r['total']}" if "total" in r else "n/a"
        stale = len(r["stale"]) if "stale" in r else "n/a"
        prompts = "+".join(map(str, r["prompts"])) + (" +1" if r["trivial"] else "")
        out.append(
            f"| {r['scenario']} | {prompts} | {r['chars']} | {live} | {stale} "
            f"| {r.get('tail_found', 'n/a')} | {r.get('tail_stale', 'n/a')} |"
        )
    scored = [r for r in rows if "total" in r]
    for label, group in (
        ("all", scored),
        ("a", [r for r in scored if not r["trivial"]]),
        ("b", [r for r in scored if r["trivial"]]),
    ):
        if not group:
            continue
        found, total = sum(r["found"] for r in group), sum(r["total"] for r in group)
        out.append(
            f"\n{label}: {found}/{total} live ({100 * found / max(total, 1):.0f}%), stale "
            f"{sum(len(r['stale']) for r in group)}, tail {sum(r['tail_found'] for r in group)}, "
            f"chars {sum(r['chars'] for r in group) // len(group)} on average"
        )
    for r in rows:
        out += [f"{r['scenario']}: missing {item}" for item in r.get("missing", [])]
        out += [f"{r['scenario']}: STALE {item}" for item in r.get("stale", [])]
        out += [f"{r['scenario']}: hook {item}" for item in r["hook_problems"]]
        out += [f"{r['scenario']}: log {line[:200]}" for line in r["log"]]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", help="session folders (default: transcripts2, 3)")
    parser.add_argument("--sessions", type=int, default=3, help="sessions to cut each into")
    parser.add_argument(
        "--variant",
        choices=("a", "b", "both"),
        default="both",
        help="a: N sessions; b: then a trivial one; default both",
    )
    parser.add_argument("--compactions", choices=("inner", "all", "none"), default="inner")
    parser.add_argument(
        "--tree",
        type=Path,
        help="the checkout whose hooks run (default: the one `memhooks` is imported from)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--dump", type=Path, help="write each scenario's texts here")
    parser.add_argument("--jobs", type=int, default=1, help="scenarios played at once")
    parser.add_argument(
        "--keep",
        type=Path,
        help="play each scenario in KEEP/<scenario>/ (home, project) with the plugin data in "
        "KEEP/data, and leave them there: run the CLI in a project afterwards as a user would",
    )
    args = parser.parse_args(argv)
    tree = code_tree(args.tree)
    scorer = load_scorer()
    now = dt.datetime.now(dt.timezone.utc)
    variants = {"a": (False,), "b": (True,), "both": (False, True)}[args.variant]
    with tempfile.TemporaryDirectory(prefix="week-data-", ignore_cleanup_errors=True) as temp:
        data = args.keep / "data" if args.keep else Path(temp)
        data.mkdir(parents=True, exist_ok=True)
        log(f"hooks of {tree}; {setup_plugin_data(Path(data), sys.executable)}")
        # No hook may build the semantic table (a model download) in the background.
        (data / "semantic").mkdir(exist_ok=True)
        (data / "semantic" / "disabled").touch()
        scenarios = [
            Scenario(folder, sessions=args.sessions, trivial=trivial, compactions=args.compactions)
            for folder in folders(args.folders)
            for trivial in variants
        ]

        def run(scenario: Scenario) -> dict[str, Any]:
            row = evaluate(scenario, tree, data, scorer, now, keep=args.keep)
            live = f"{row['found']}/{row['total']}" if "total" in row else "n/a"
            log(
                f"{row['scenario']}: {row['chars']} chars, live {live}, tail "
                f"{row.get('tail_found', 'n/a')} ({row['seconds']} s)"
            )
            return row

        # Each scenario is its own HOME and project: they may run side by side.
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            rows = list(pool.map(run, scenarios))
    if args.dump:
        dump(rows, args.dump)
    if args.json:
        print(
            json.dumps(
                {
                    "tree": str(tree),
                    "sessions": args.sessions,
                    "rows": [{k: v for k, v in r.items() if k != "texts"} for r in rows],
                },
                indent=2,
            )
        )
    else:
        print(f"hooks of {tree}, {args.sessions} sessions\n")
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
