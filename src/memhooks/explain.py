# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`memhooks recall --explain`: why each memory was or was not pointed at for a prompt.

The same ranking and gate as the per-prompt hook (search_index._rank, ranking.gate_floor,
ranking.select), with the working shown: the prompt's terms and their weights, the store's
calibration and floor, and per candidate its score, the terms it matched and in which fields,
and the gate's decision. Command path only.
"""

from __future__ import annotations

from typing import Any

from memhooks import ranking
from memhooks.search_index import (
    MAX_LOOKUP_TERMS,
    MAX_QUERY_CHARS,
    SearchIndex,
    _in_list,
    _rank,
    _stats,
)
from memhooks.terms import COMMON, query_terms

FIELDS = ("title", "tags", "description", "body")
SHOWN = 8
_POSTING_FIELDS = "SELECT term, doc, title, tags, description, body FROM postings WHERE term"


def explain(index: SearchIndex, text: str, *, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
    """The hook's decision for `text`, with every number it rests on."""
    terms = query_terms(text[:MAX_QUERY_CHARS])[:MAX_LOOKUP_TERMS]
    conn = index._read_connection()  # noqa: SLF001 - same module family, read-only
    if conn is None:
        return {"error": index.last_error or "no search index: run `memhooks rebuild`"}
    stats = _stats(conn)
    n_docs = stats[0]
    floor = ranking.gate_floor(stats[2])
    dfs = dict(conn.execute(_in_list("SELECT term, df FROM terms WHERE term", len(terms)), terms))
    full, common = ranking.plan_query(terms, dfs, n_docs) if terms else ((), ())
    used = set(full) | set(common)
    term_rows = []
    for term in terms:
        df = dfs.get(term, 0)
        reason = "used" if term in used else ("in no memory" if not df else "in most memories")
        term_rows.append(
            {
                "term": term,
                "df": df,
                "idf": round(ranking.idf(df, n_docs), 2) if df else 0.0,
                "weight": ranking.query_weight(term),
                "everyday_word": term in COMMON,
                "status": reason,
            }
        )
    scores = _rank(conn, terms, stats) if terms else {}
    ranked = ranking.top_candidates(scores, SHOWN)
    chosen = dict(ranking.select(scores, limit=5, floor=floor))
    rows = conn.execute(
        _in_list("SELECT id, path, title, category FROM docs WHERE id", len(ranked)), ranked
    ).fetchall()
    docs = {row[0]: row[1:] for row in rows}
    matched: dict[int, dict[str, dict[str, int]]] = {doc: {} for doc in ranked}
    if ranked and used:
        by_term = _in_list(_POSTING_FIELDS, len(used))
        sql = _in_list(by_term + " AND doc", len(ranked))
        for term, doc, *counts in conn.execute(sql, [*used, *ranked]):
            matched[doc][term] = {f: c for f, c in zip(FIELDS, counts, strict=True) if c}
    best = scores[ranked[0]] if ranked else 0.0
    candidates = []
    for doc in ranked:
        path, title, category = docs.get(doc, ("?", "?", "?"))
        score = scores[doc]
        if category in exclude:
            decision = f"not pointed at: {category} (searchable with /memory recall)"
        elif doc in chosen:
            decision = "pointed at"
        elif score < floor:
            decision = f"below the floor {floor:.2f}"
        elif score < ranking.GAP_RATIO * best:
            decision = f"below {ranking.GAP_RATIO:g} x the best score"
        else:
            decision = "past the pointer limit"
        candidates.append(
            {
                "path": path,
                "title": title,
                "category": category,
                "score": round(score, 2),
                "matched": matched.get(doc, {}),
                "decision": decision,
            }
        )
    return {
        "query": text,
        "memories": n_docs,
        "calibration": round(stats[2], 2),
        "floor": round(floor, 2),
        "floor_rule": f"max({ranking.MIN_FLOOR:g}, {ranking.CALIBRATION_RATIO:g} x the median "
        "best score of everyday requests on this store)",
        "terms": term_rows,
        "candidates": candidates,
        "speaks": any(c["decision"] == "pointed at" for c in candidates),
    }


def render(data: dict[str, Any]) -> str:
    if "error" in data:
        return str(data["error"])
    lines = [
        f"Why the per-prompt hook would{'' if data['speaks'] else ' NOT'} point at memories for "
        f'"{data["query"]}"',
        f"Store: {data['memories']} memories; everyday requests reach {data['calibration']} "
        f"here (median), so the floor is {data['floor']} = {data['floor_rule']}.",
        "Terms (idf x weight; everyday words weigh less, words in most memories are dropped):",
    ]
    for t in data["terms"]:
        note = "" if t["status"] == "used" else f" [{t['status']}]"
        lines.append(f"  {t['term']}: df {t['df']}, idf {t['idf']}, weight {t['weight']:g}{note}")
    if not data["candidates"]:
        lines.append("No memory shares a used term with this prompt.")
    for c in data["candidates"]:
        fields = "; ".join(
            f"{term} in {', '.join(f'{f} x{n}' for f, n in where.items())}"
            for term, where in c["matched"].items()
        )
        lines.append(
            f"- {c['score']:.2f} {c['path']} — {c['title']}\n    {c['decision']}; "
            f"matched: {fields or 'nothing'}"
        )
    return "\n".join(lines)
