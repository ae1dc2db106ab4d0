"""The write path: `memhooks save` calls one after another, then from several writers at once
(the store's lock serialises them), and a rebuild after them all."""

from __future__ import annotations

import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from workspace import Workspace


def write_path(ws: Workspace) -> dict[str, Any]:
    project = ws.prepare_project("saves", ws.mid)
    corpus, rng = ws.fixtures.corpus, random.Random(5)  # noqa: S311 - fixtures, not secrets
    counter = iter(range(1_000_000))

    def save() -> tuple[float, int, str]:
        number = next(counter)
        category = ("decision", "runbook", "constraint", "tech_debt", "preference")[number % 5]
        elapsed, code, _, err = ws.cli(
            project,
            "save",
            category,
            "--title",
            f"{corpus.title(rng)} {number}",
            "--description",
            corpus.paragraph(rng, 1, 1)[:180],
            "--tags",
            ",".join(rng.sample(corpus.tags, k=min(3, len(corpus.tags)))),
            "--body",
            corpus.paragraph(rng, 3, 6),
        )
        return elapsed, code, err.strip()[:200]

    result: dict[str, Any] = {"tree": ws.mid}
    started = time.perf_counter()
    sequential = [save() for _ in range(ws.args.saves)]
    wall = time.perf_counter() - started
    result["sequential"] = _throughput(sequential, wall, 1)
    writers = ws.args.writers
    per_writer = max(1, ws.args.saves // writers)
    started = time.perf_counter()
    with ThreadPoolExecutor(writers) as pool:
        futures = [pool.submit(lambda: [save() for _ in range(per_writer)]) for _ in range(writers)]
        concurrent = [item for f in futures for item in f.result()]
    wall = time.perf_counter() - started
    result["concurrent"] = _throughput(concurrent, wall, writers)
    _, code, out, err = ws.cli(project, "rebuild")
    result["rebuild_after_saves_exit"] = code
    if code != 0:
        ws.notes.append(f"rebuild after saves: exit {code}: {(err or out).strip()[:200]}")
    return result


def _throughput(results: list[tuple[float, int, str]], wall: float, writers: int) -> dict[str, Any]:
    ok = [r for r in results if r[1] == 0]
    times = sorted(r[0] for r in results)
    return {
        "writers": writers,
        "saves": len(results),
        "ok": len(ok),
        "wall_s": round(wall, 3),
        "saves_per_s": round(len(ok) / wall, 2) if wall else None,
        "median_ms": round(statistics.median(times), 1) if times else None,
        "failures": sorted({f"exit {r[1]}: {r[2]}" for r in results if r[1] != 0})[:5],
    }
