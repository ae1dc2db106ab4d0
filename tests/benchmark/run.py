#!/usr/bin/env python3
"""Benchmark: hook latency, scale and context cost, against the interpreter floor.

Runs every hook exactly as Claude Code does (the command from `hooks/hooks.json`, a new
process each time, the JSON payload on stdin) against generated memory trees and
transcripts, interleaved with bare-interpreter floors so that every figure is a ratio
measured under the same noise. Judges the budgets of design.md ("Budgets") and exits 1 when
one is missed (unless --no-fail).

    .venv/bin/python tests/benchmark/run.py            # full: 100/1,000/10,000, 1/10/50 MB
    .venv/bin/python tests/benchmark/run.py --quick    # 100/1,000, 1 MB, few repeats
    .venv/bin/python tests/benchmark/run.py --json     # one JSON document on stdout

Fixtures are cached under `~/.cache/memhooks/bench/fixtures/` (`--bench-dir`), keyed by
size. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from hook_process import REPO, Case, hooks_json_python, log, measure
from latency_cases import floors, transcript_cases, tree_cases
from sessions_case import BEHIND_KEY, EARLIER, KEY, behind_case, sessions_case
from workspace import Workspace, setup_plugin_data, setup_semantic_table
from write_path import write_path

HOT_HOOKS = (
    "SessionStart:startup",
    "SessionStart:compact",
    "UserPromptSubmit",
    "Stop",
    "SessionEnd",
    "PreToolUse:Write",
    "PreToolUse:Bash",
)
SESSION_START_CHARS = 9_000  # design.md defaults: briefing.session_start_chars
PROMPT_CHARS = 1_500  # briefing.prompt_chars


# ---------------------------------------------------------------------------------------------
# Options


def _user_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memhooks"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats")
    parser.add_argument("--no-fail", action="store_true", help="exit 0 even when a budget fails")
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    parser.add_argument(
        "--python",
        help="interpreter that replaces hooks.json's `python3` (default: this interpreter; "
        "a pyenv shim would add ~100 ms to every call)",
    )
    parser.add_argument(
        "--bench-dir",
        type=Path,
        default=_user_cache() / "bench",
        help="fixtures, runs and results (default: the user cache, never the plugin's folder, "
        "which a marketplace install copies whole)",
    )
    parser.add_argument(
        "--fixtures", type=Path, default=REPO / "tests" / "fixtures", help="the test fixtures"
    )
    parser.add_argument("--sizes", help="memory counts, comma-separated")
    parser.add_argument(
        "--transcript-mb", help="transcript sizes in MB (10^6 bytes), comma-separated"
    )
    parser.add_argument("--repeats", type=int, help="timed runs per hot-path case")
    parser.add_argument("--warmup", type=int, help="untimed runs per case first")
    parser.add_argument("--slow-repeats", type=int, help="timed runs of PreCompact and first Stop")
    parser.add_argument("--saves", type=int, help="sequential `memhooks save` calls")
    parser.add_argument("--writers", type=int, default=4, help="concurrent writers")
    parser.add_argument("--out", type=Path, help="where to write the JSON (default: bench dir)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--semantic-table",
        default=str(REPO / "tests" / "fixtures" / "semantic" / "tokens-subset.sqlite3"),
        help="token table put into ${CLAUDE_PLUGIN_DATA}/semantic/ so every hook and rebuild "
        "runs with semantic signals on (default: the committed fixture table; the full one "
        "comes from `python -m memhooks.cli.semantic_build OUT`); 'none' turns them off",
    )
    parser.add_argument("--from-json", type=Path, help="print the table of a saved report and exit")
    args = parser.parse_args(argv)
    quick = args.quick
    args.sizes = _ints(args.sizes) or ([100, 1_000] if quick else [100, 1_000, 10_000])
    args.transcript_mb = _floats(args.transcript_mb) or ([1.0] if quick else [1.0, 10.0, 50.0])
    args.repeats = args.repeats or (5 if quick else 30)
    args.warmup = args.warmup if args.warmup is not None else (1 if quick else 3)
    args.slow_repeats = args.slow_repeats or (2 if quick else 8)
    args.saves = args.saves or (4 if quick else 20)
    args.python = args.python or sys.executable
    args.bench_dir = args.bench_dir.resolve()
    args.out = args.out or args.bench_dir / "results" / ("quick.json" if quick else "latest.json")
    return args


def _ints(text: str | None) -> list[int]:
    return sorted({int(x) for x in text.split(",") if x.strip()}) if text else []


def _floats(text: str | None) -> list[float]:
    return sorted({float(x) for x in text.split(",") if x.strip()}) if text else []


# ---------------------------------------------------------------------------------------------
# The benchmark


class Bench:
    """One run: the cases built in a workspace, measured together, then judged."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.ws = Workspace(args)
        self.cases: list[Case] = []

    def run(self) -> dict[str, Any]:
        ws = self.ws
        shutil.rmtree(ws.run_dir, ignore_errors=True)
        ws.run_dir.mkdir(parents=True)
        started = time.perf_counter()
        data_note = setup_plugin_data(ws.data, ws.python)
        log(f"interpreter {ws.python}; CLAUDE_PLUGIN_DATA {ws.data}; deps {data_note}")
        log(f"semantic signals: {setup_semantic_table(ws.data, self.args.semantic_table)}")
        for mb in self.args.transcript_mb:
            ws.fixtures.transcript(mb)
        self.cases = floors(ws)
        for size in self.args.sizes:
            self.cases += tree_cases(ws, size)
        self.cases += transcript_cases(ws)
        self.cases += [sessions_case(ws), behind_case(ws)]
        log(
            f"fixtures ready in {time.perf_counter() - started:.0f} s; "
            f"measuring {len(self.cases)} cases"
        )
        measure(self.cases, self.args.warmup)
        log("write path")
        write = write_path(ws)
        pycache = ws.data / "pycache"
        cached = sum(1 for _ in pycache.rglob("*.pyc")) if pycache.is_dir() else 0
        report = self.report(write)
        report["environment"].update(
            deps=data_note,
            pycache_files=cached,
            seconds=round(time.perf_counter() - started, 1),
        )
        return report

    def report(self, write: dict[str, Any]) -> dict[str, Any]:
        by_key = {c.key: c for c in self.cases}
        floor = by_key["floor:json"].stats()["median_ms"] or 1.0
        floor_s = by_key["floor:json-S"].stats()["median_ms"] or 1.0
        rows = []
        for case in self.cases:
            stats = case.stats()
            med = stats["median_ms"] or 0.0
            rows.append(
                {
                    "key": case.key,
                    "hook": case.hook,
                    "size": case.size,
                    "group": case.group,
                    **stats,
                    "x_floor": round(med / floor, 2),
                    "x_floor_S": round(med / floor_s, 2),
                    "errors": len(case.errors),
                    "first_error": case.errors[0] if case.errors else "",
                }
            )
        checks = judge(rows, self.args, self.ws.mid, floor)
        context = context_cost(self.cases, self.args.sizes)
        checks += context_checks(context)
        failed = [c["name"] for c in checks if c["passed"] is False]
        return {
            "version": 1,
            "mode": "quick" if self.args.quick else "full",
            "passed": not failed,
            "failures": failed,
            "environment": {
                "python": self.ws.python,
                "python_source": "--python"
                if self.args.python != sys.executable
                else "sys.executable",
                "hooks_json_python": hooks_json_python(),
                "python_version": sys.version.split()[0],
                "plugin_root": str(REPO),
                "plugin_data": str(self.ws.data),
                "hook_env": "env -i PATH HOME PYTHONDONTWRITEBYTECODE=1 "
                "+ CLAUDE_PLUGIN_ROOT/DATA/PROJECT_DIR + XDG_STATE_HOME/XDG_DATA_HOME (the run's)",
                "cpus": os.cpu_count(),
                "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
                "corpus": self.ws.fixtures.corpus.source,
                "transcript_episodes": len(self.ws.fixtures.episodes),
            },
            "sizes": {"memories": self.args.sizes, "transcript_mb": self.args.transcript_mb},
            "repeats": {
                "hot": self.args.repeats,
                "slow": self.args.slow_repeats,
                "warmup": self.args.warmup,
            },
            "floor_ms": {"import_json": floor, "import_json_S": floor_s},
            "latency": rows,
            "checks": checks,
            "context": context,
            "write_path": write,
            "rebuild": self.ws.rebuild,
            "notes": self.ws.notes,
        }


# ---------------------------------------------------------------------------------------------
# Budgets (design.md, "Budgets")


def _check(
    name: str, value: float | None, limit: float, unit: str, detail: str = "", *, row: str = ""
) -> dict[str, Any]:
    """One budget; `row`: the key of the latency row it judges, when it judges one row."""
    return {
        "name": name,
        "value": None if value is None else round(value, 2),
        "limit": limit,
        "unit": unit,
        "passed": None if value is None else value <= limit,
        "detail": detail,
        "row": row,
    }


def judge(
    rows: list[dict[str, Any]], args: argparse.Namespace, mid: int, floor: float
) -> list[dict[str, Any]]:
    by_key = {r["key"]: r for r in rows}
    checks: list[dict[str, Any]] = []

    def med(key: str) -> float | None:
        row = by_key.get(key)
        return row["median_ms"] if row else None

    def ratio(key: str) -> float | None:
        value = med(key)
        return None if value is None else value / floor

    checks.append(
        _check(
            f"UserPromptSubmit @{mid:,}: median vs floor",
            ratio(f"UserPromptSubmit@{mid}"),
            2.0,
            "x floor",
        )
    )
    checks.extend(
        _check(
            f"PreToolUse {tool} @{mid:,}: median vs floor",
            ratio(f"PreToolUse:{tool}@{mid}"),
            2.0,
            "x floor",
            "every Write/Edit/Bash call: the UserPromptSubmit budget",
        )
        for tool in ("Write", "Bash", "deny")
    )
    checks.extend(
        _check(
            f"SessionStart {source} @{mid:,}: median vs floor",
            ratio(f"SessionStart:{source}@{mid}"),
            3.0,
            "x floor",
        )
        for source in ("startup", "compact")
    )
    sessions = KEY.format(size=mid)
    checks.append(
        _check(
            f"SessionStart startup @{mid:,}, {EARLIER} earlier sessions: median vs floor",
            ratio(sessions),
            3.0,
            "x floor",
            "the newest on the largest transcript",
            row=sessions,
        )
    )
    behind = BEHIND_KEY.format(size=mid)
    if behind in by_key:
        checks.append(
            {
                "name": f"SessionStart startup @{mid:,}, thread behind the evidence (crash)",
                "value": ratio(behind),
                "limit": None,
                "unit": "x",
                "passed": None,
                "detail": "reported, no budget: the start renders the thread",
                "row": behind,
            }
        )
    checks.extend(
        _check(f"Stop steady ({row['size']}): median vs floor", ratio(row["key"]), 2.0, "x floor")
        for row in rows
        if row["hook"] == "Stop steady"
    )
    small, large = args.transcript_mb[0], args.transcript_mb[-1]
    if large > small:
        a, b = med(f"Stop@{mid}"), med(f"Stop@{mid}:{large:g}MB")
        checks.append(
            _check(
                f"Stop flat: {large:g} MB vs {small:g} MB",
                None if not (a and b) else b / a,
                1.5,
                "x",
                "steady state, median",
            )
        )
    first = by_key.get(f"Stop:first@{large:g}MB")
    if first:
        checks.append(
            {
                "name": f"Stop first call on an existing {large:g} MB transcript",
                "value": first["median_ms"],
                "limit": None,
                "unit": "ms",
                "passed": None,
                "detail": "reported, no budget",
            }
        )
    ends = [r["max_ms"] for r in rows if r["hook"] == "SessionEnd" and r["max_ms"] is not None]
    checks.append(
        _check(
            "SessionEnd worst case (all sizes)",
            max(ends) if ends else None,
            200.0,
            "ms",
            "max of all runs",
        )
    )
    pre = med(f"PreCompact@{large:g}MB")
    checks.append(
        _check(
            f"PreCompact on {large:g} MB: median",
            pre,
            1000.0,
            "ms",
            "" if large >= 50 else "budget is for 50 MB",
        )
    )
    lo, hi = args.sizes[0], args.sizes[-1]
    if hi > lo:
        for hook in HOT_HOOKS:
            a, b = med(f"{hook}@{lo}"), med(f"{hook}@{hi}")
            checks.append(
                _check(
                    f"{hook} scale: {hi:,} vs {lo:,} memories",
                    None if not (a and b) else b / a,
                    1.5,
                    "x",
                    "median",
                )
            )
    broken = [f"{r['key']}: {r['first_error']}" for r in rows if r["errors"]]
    checks.append(
        {
            "name": "every hook ran clean (exit 0, empty stderr)",
            "value": len(broken),
            "limit": 0,
            "unit": "cases",
            "passed": not broken,
            "detail": "; ".join(broken)[:1000],
        }
    )
    return checks


def _injected(stdout: str) -> str:
    text = stdout.strip()
    if not text:
        return ""
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            return text
        return str((data.get("hookSpecificOutput") or {}).get("additionalContext") or "")
    return text


def context_cost(cases: list[Case], sizes: list[int]) -> list[dict[str, Any]]:
    by_key = {c.key: c for c in cases}
    rows = []
    for size in sizes:
        for hook, key in (
            ("SessionStart startup", f"SessionStart:startup@{size}"),
            (f"SessionStart, {EARLIER} sessions", KEY.format(size=size)),
            ("SessionStart compact", f"SessionStart:compact@{size}"),
            ("UserPromptSubmit", f"UserPromptSubmit@{size}"),
        ):
            case = by_key.get(key)
            if case is None:
                continue
            lengths = [len(_injected(o)) for o in case.outputs] or [0]
            rows.append(
                {
                    "hook": hook,
                    "memories": size,
                    "calls": len(case.outputs),
                    "max_chars": max(lengths),
                    "mean_chars": round(statistics.fmean(lengths)),
                    "max_tokens_est": max(lengths) // 4,
                    "silent_calls": sum(1 for n in lengths if n == 0),
                    "limit_chars": PROMPT_CHARS
                    if hook == "UserPromptSubmit"
                    else SESSION_START_CHARS,
                }
            )
    return rows


def context_checks(context: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        _check(
            f"{r['hook']} context @{r['memories']:,}: max chars",
            r["max_chars"],
            r["limit_chars"],
            "chars",
        )
        for r in context
    ]


# ---------------------------------------------------------------------------------------------
# Output


def _fmt(value: float | None, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def _budget_for(row: dict[str, Any], checks: list[dict[str, Any]]) -> tuple[str, str]:
    for check in checks:
        if check.get("row") == row["key"]:
            if check["limit"] is None:
                return "reported", ""
            return f"<= {check['limit']:g}x", _verdict(check["passed"])
    for check in checks:
        if check.get("row"):
            continue
        name = check["name"]
        if row["group"] != "hook":
            break
        hit = (
            (
                row["hook"] == "Stop steady"
                and name.startswith("Stop steady")
                and row["size"] in name
            )
            or (
                row["key"].startswith("UserPromptSubmit@")
                and ":" not in row["key"]
                and name.startswith("UserPromptSubmit @")
                and row["size"].split()[0] in name
            )
            or (
                row["key"].startswith("PreToolUse:")
                and name.startswith(f"PreToolUse {row['key'].split(':')[1].split('@')[0]} @")
                and row["size"].split()[0] in name
            )
            or (
                row["key"].startswith("SessionStart:")
                and name.startswith(f"SessionStart {row['key'].split(':')[1].split('@')[0]} @")
                and row["size"].split()[0] in name
            )
            or (
                row["hook"] == "PreCompact"
                and name.startswith("PreCompact on")
                and f"{row['size'].split(', ')[-1].split()[0]} MB" in name
            )
        )
        if hit:
            limit = f"<= {check['limit']:g}{'x' if check['unit'] == 'x floor' else ' ms'}"
            return limit, _verdict(check["passed"])
    if row["hook"] == "SessionEnd":
        return "<= 200 ms max", _verdict(row["max_ms"] is not None and row["max_ms"] <= 200)
    return "", ""


def _verdict(passed: bool | None) -> str:
    return "n/a" if passed is None else ("PASS" if passed else "FAIL")


def _check_line(check: dict[str, Any]) -> tuple[str, ...]:
    unit = "ms" if check["unit"] == "ms" else "x"
    limit = "" if check["limit"] is None else f"<= {check['limit']:g}{unit}"
    value = "" if check["value"] is None else f" ({_fmt(check['value'], '.2f')}{unit})"
    return (check["name"], "", "", "", "", "", "", "", limit, _verdict(check["passed"]) + value)


def render_table(report: dict[str, Any]) -> str:
    checks = report["checks"]
    header = ("hook", "size", "n", "median", "p95", "max", "x floor", "x -S", "budget", "result")
    lines: list[tuple[str, ...]] = []
    for row in report["latency"]:
        budget, verdict = _budget_for(row, checks)
        if row["errors"]:
            verdict = (verdict + " ERR").strip()
        lines.append(
            (
                row["hook"],
                row["size"],
                str(row["n"]),
                _fmt(row["median_ms"]),
                _fmt(row["p95_ms"]),
                _fmt(row["max_ms"]),
                _fmt(row["x_floor"], ".2f"),
                _fmt(row["x_floor_S"], ".2f"),
                budget,
                verdict,
            )
        )
    lines.extend(
        _check_line(c)
        for c in checks
        if c["unit"] == "x" or c["name"].startswith(("SessionEnd worst", "Stop first"))
    )
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    out = [
        "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)),
        "  ".join("-" * w for w in widths),
    ]
    out += [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in lines
    ]
    env = report["environment"]
    out.append("")
    out.append(
        f"times in ms; floor = `{Path(env['python']).name} -c 'import json'` = "
        f"{report['floor_ms']['import_json']:.1f} ms "
        f"(with -S: {report['floor_ms']['import_json_S']:.1f} ms), same env as the hooks; "
        f"interpreter {env['python']} ({env['python_source']}; hooks.json says "
        f"`{env['hooks_json_python']}`)"
    )
    out.append("")
    out.append("context injected (chars, ~tokens = chars/4):")
    for row in report["context"]:
        flag = "PASS" if row["max_chars"] <= row["limit_chars"] else "FAIL"
        out.append(
            f"  {row['hook']:<26} {row['memories']:>6,} mem  max {row['max_chars']:>5} "
            f"(~{row['max_tokens_est']} tok)  mean {row['mean_chars']:>5}  "
            f"silent {row['silent_calls']}/{row['calls']}  limit {row['limit_chars']}  {flag}"
        )
    write = report["write_path"]
    out.append("")
    out.append(f"write path (`memhooks save`, new processes, {write['tree']:,}-memory tree):")
    for kind in ("sequential", "concurrent"):
        w = write[kind]
        out.append(
            f"  {kind:<10} {w['writers']} writer(s): {w['ok']}/{w['saves']} ok "
            f"in {w['wall_s']:.2f} s = "
            f"{w['saves_per_s']} saves/s (median {w['median_ms']} ms per save)"
            + ("  " + "; ".join(w["failures"]) if w["failures"] else "")
        )
    out.append(
        "rebuild (`memhooks rebuild`, one run each): "
        + ", ".join(
            f"{r['project']} ({r['memories']:,}) {r['seconds']:.2f} s"
            + ("" if r["exit"] == 0 else f" exit {r['exit']}")
            for r in report["rebuild"]
        )
    )
    clean = next(c for c in report["checks"] if c["name"].startswith("every hook ran clean"))
    out.append(
        f"hooks ran clean (exit 0, empty stderr): {_verdict(clean['passed'])} "
        f"{clean['detail']}".rstrip()
    )
    for note in report["notes"]:
        out.append(f"note: {note}")
    verdict = "all budgets met" if report["passed"] else "FAILED: " + "; ".join(report["failures"])
    out.append(f"\n{verdict}  ({env['seconds']} s, JSON: {report.get('json_path', '')})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.from_json:
        sys.stdout.write(
            render_table(json.loads(args.from_json.read_text(encoding="utf-8"))) + "\n"
        )
        return 0
    report = Bench(args).run()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report["json_path"] = str(args.out)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write(render_table(report) + "\n")
    if report["passed"] or args.no_fail:
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
