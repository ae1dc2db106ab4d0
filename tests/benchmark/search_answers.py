"""What the search index answers, dumped, to check that a speed-up changed no answer.

Usage:
    .venv/bin/python tests/benchmark/search_answers.py dump OUT.json [--index DB] [--table T]
    .venv/bin/python tests/benchmark/search_answers.py compare BEFORE.json AFTER.json

`dump` builds an index with this checkout's code for tests/fixtures/recall, recall2 and every
young store of recall2/young (token table on, with --table, and off) and records, for each
of their prompts, the per-prompt hook's answer (limit 5, the gate, journals left out),
`memhooks recall`'s (floor 1.0, no limit), `remember`'s similar check (floor 2.5) and every
document's BM25F score. `--index` adds an index built elsewhere (the benchmark's 10,000
memories: `memhooks rebuild` in its project, once with each version) queried with the
benchmark's prompts and the fixtures'. Run it from each version's checkout, then `compare`:
it lists every answer whose hits or order differ and the largest relative score difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
import recall_eval

from memhooks.recall import search_read
from memhooks.recall.search_index import SearchIndex
from memhooks.recall.tokenize import query_terms

FIXTURES = REPO / "tests" / "fixtures"
EXCLUDE = ("session_summary",)
Answer = dict[str, Any]


def answer(index: SearchIndex, prompt: str) -> Answer:
    out: Answer = {
        "hook": [(h.path, h.score) for h in index.query(prompt, limit=5, exclude=EXCLUDE)],
        "recall": [(h.path, h.score) for h in index.query(prompt, limit=100_000, min_score=1.0)],
        "similar": [(h.path, h.score) for h in index.query(prompt, limit=5, min_score=2.5)],
    }
    conn = index._read_connection()
    if conn is None:
        raise SystemExit(f"the index did not open: {index.last_error}")
    paths = dict(conn.execute("SELECT id, path FROM docs").fetchall())
    terms = query_terms(prompt)[: search_read.MAX_LOOKUP_TERMS]
    scores = search_read.rank(conn, terms, search_read.search_stats(conn)) if terms else {}
    out["rank"] = {paths[doc]: score for doc, score in scores.items()}
    return out


def built(docs: list[recall_eval.SearchDoc], prompts: list[str], table: str | None) -> list:
    with (
        tempfile.TemporaryDirectory() as tmp,
        SearchIndex(Path(tmp) / "s.sqlite3", table=table) as index,
    ):
        index.rebuild(docs)
        return [answer(index, p) for p in prompts]


def fixture_prompts(name: str) -> list[str]:
    data = recall_eval.load(FIXTURES / name)
    return [p for p, _ in data.queries] + list(data.unrelated)


def dump(table: str | None, index: str | None) -> dict[str, list]:
    result: dict[str, list] = {}
    for tag, used in (("semantic", table), ("lexical", None)):
        if tag == "semantic" and used is None:
            continue
        for name in ("recall", "recall2"):
            docs = recall_eval.load(FIXTURES / name).docs
            result[f"{tag}:{name}"] = built(docs, fixture_prompts(name), used)
        young = FIXTURES / "recall2" / "young" / "young_stores.json"
        for store in json.loads(young.read_text(encoding="utf-8")):
            prompts = [q["prompt"] for q in store["queries"]] + list(store["unrelated"])
            docs = recall_eval.young_docs(store)
            result[f"{tag}:young:{store['store']}"] = built(docs, prompts, used)
    if index:
        prompts = generate.load_prompts(FIXTURES)
        prompts += fixture_prompts("recall") + fixture_prompts("recall2")
        with SearchIndex(index, table=table) as opened:
            result["index"] = [answer(opened, p) for p in prompts]
    return result


def compare(before: dict[str, list], after: dict[str, list]) -> int:
    differ = answers = 0
    largest = 0.0
    for key, old_answers in before.items():
        new_answers = after.get(key, [])
        if len(new_answers) != len(old_answers):
            print(f"{key}: {len(old_answers)} answers before, {len(new_answers)} after")
            differ += 1
            continue
        for n, (old, new) in enumerate(zip(old_answers, new_answers, strict=True)):
            for part in ("hook", "recall", "similar"):
                answers += 1
                if [p for p, _ in old[part]] != [p for p, _ in new[part]]:
                    differ += 1
                    print(f"{key} #{n} {part}: {old[part][:5]} -> {new[part][:5]}")
                for (_, a), (_, b) in zip(old[part], new[part], strict=False):
                    largest = max(largest, abs(a - b) / max(abs(a), 1e-300))
            if set(old["rank"]) != set(new["rank"]):
                differ += 1
                print(f"{key} #{n}: other documents scored")
            for path, a in old["rank"].items():
                b = new["rank"].get(path, a)
                largest = max(largest, abs(a - b) / max(abs(a), 1e-300))
    print(
        f"{answers} answers compared: {differ} differ in hits or order;"
        f" largest relative score difference {largest:.3g}"
    )
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    dumping = sub.add_parser("dump", help="write this checkout's answers to OUT")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--table", help="the token table (semantic signals); off without")
    dumping.add_argument("--index", help="an index built elsewhere, queried as it is")
    comparing = sub.add_parser("compare", help="list the answers that differ")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "dump":
        result = dump(args.table, args.index)
        args.out.write_text(json.dumps(result), encoding="utf-8")
        print(f"{sum(len(v) for v in result.values())} prompts answered: {args.out}")
        return 0
    before = json.loads(args.before.read_text(encoding="utf-8"))
    after = json.loads(args.after.read_text(encoding="utf-8"))
    return compare(before, after)


if __name__ == "__main__":
    raise SystemExit(main())
