# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`memhooks recall --explain`: why each memory was or was not pointed at for a prompt.

The same ranking and gate as the per-prompt hook (search_read.rank, ranking.gate_floor,
ranking.select), with the working shown: the prompt's terms and their weights, the store's
calibration and floor, and per candidate its score, the terms it matched and in which fields,
and the gate's decision. Command path only.
"""

from __future__ import annotations

from typing import Any

from memhooks.recall import ranking
from memhooks.recall.search_index import MAX_QUERY_CHARS, SearchIndex
from memhooks.recall.search_read import (
    MAX_LOOKUP_TERMS,
    has_vectors,
    in_list,
    rank,
    search_stats,
    semantic_z,
)
from memhooks.recall.tokenize import COMMON, query_terms

FIELDS = ("title", "tags", "description", "body")
SHOWN = 8
_POSTING_FIELDS = "SELECT term, doc, title, tags, description, body FROM postings WHERE term"


def explain(
    index: SearchIndex,
    text: str,
    *,
    exclude: tuple[str, ...] = (),
    limit: int = 5,
    min_score: float | None = None,
) -> dict[str, Any]:
    """The hook's decision for `text`, with every number it rests on. `limit` and
    `min_score` are the project's retrieval.max_inject and retrieval.min_score, and `index`
    is opened as the hook opens it (no table when retrieval.semantic is off)."""
    terms = query_terms(text[:MAX_QUERY_CHARS])[:MAX_LOOKUP_TERMS]
    conn = index._read_connection()  # noqa: SLF001 - same module family, read-only
    if conn is None:
        return {"error": index.last_error or "no search index: run `memhooks rebuild`"}
    stats = search_stats(conn)
    n_docs = stats[0]
    if min_score is None:
        semantic, vector = _semantic(index, conn, text)
        floor = (
            ranking.semantic_floor(stats[2]) if vector is not None else ranking.gate_floor(stats[2])
        )
    else:  # a fixed floor (retrieval.min_score): the hook's lexical gate, no calibration
        semantic, vector = "off: retrieval.min_score sets a fixed floor", None
        floor = max(min_score, 0.0)
    dfs = dict(conn.execute(in_list("SELECT term, df FROM terms WHERE term", len(terms)), terms))
    full, common = ranking.plan_query(terms, dfs, n_docs) if terms else ((), ())
    used = set(full) | set(common)
    scores = rank(conn, terms, stats) if terms else {}
    dropped = excluded(conn, scores, exclude)
    gated = {doc: score for doc, score in scores.items() if doc not in dropped}
    z: dict[int, float] = {}
    if vector is not None:
        pool = ranking.top_candidates(gated, ranking.SEMANTIC_CANDIDATES)
        z = semantic_z(conn, vector, pool)
        kept = {doc: gated[doc] for doc in pool}
        chosen = dict(ranking.select_semantic(kept, z, limit=limit, floor=floor))
        shown = ranking.top_candidates(scores, SHOWN)
        ranked = [*chosen, *(d for d in shown if d not in chosen)][:SHOWN]
    else:
        ranked = ranking.top_candidates(scores, SHOWN)
        gap = ranking.GAP_RATIO if floor > 0 else 0.0
        chosen = dict(ranking.select(gated, limit=limit, floor=floor, gap=gap))
    rows = conn.execute(
        in_list("SELECT id, path, title, category FROM docs WHERE id", len(ranked)), ranked
    ).fetchall()
    docs = {row[0]: row[1:] for row in rows}
    matched = _matched(conn, used, ranked)
    best = max(gated.values(), default=0.0)
    candidates = []
    for doc in ranked:
        path, title, category = docs.get(doc, ("?", "?", "?"))
        if category in exclude:
            decision = f"not pointed at: {category} (searchable with /memory recall)"
        elif doc in chosen:
            decision = "pointed at"
        else:
            decision = _why_not(scores[doc], z.get(doc), best, floor, semantic=vector is not None)
        candidates.append(
            {
                "path": path,
                "title": title,
                "category": category,
                "score": round(scores[doc], 2),
                "semantic_z": round(z[doc], 2) if doc in z else None,
                "matched": matched.get(doc, {}),
                "decision": decision,
            }
        )
    ratio = ranking.SEMANTIC_RATIO if vector is not None else ranking.CALIBRATION_RATIO
    rule = f"max({ranking.MIN_FLOOR:g}, {ratio:g} x the median best score of everyday requests"
    rule += " on this store)"
    if min_score is not None:
        rule = "retrieval.min_score in config.json"
    return {
        "query": text,
        "memories": n_docs,
        "calibration": round(stats[2], 2),
        "floor": round(floor, 2),
        "floor_rule": rule,
        "max_pointers": limit,
        "semantic": semantic,
        "terms": _term_rows(terms, dfs, used, n_docs),
        "candidates": candidates,
        "speaks": any(c["decision"] == "pointed at" for c in candidates),
    }


def _semantic(index: SearchIndex, conn: Any, text: str) -> tuple[str, list[float] | None]:  # noqa: ANN401
    """Whether semantic signals serve this store, and the prompt's vector when they do."""
    if not has_vectors(conn):
        return "off: the index holds no memory vectors (`memhooks rebuild` once installed)", None
    if index.table_file is None:
        return "off: retrieval.semantic is off", None
    make = index._prompt_vector(text[:MAX_QUERY_CHARS])  # noqa: SLF001 - same module family
    vector = make() if make is not None else None
    if vector is None:
        return "off: the token table is not installed (`memhooks doctor --install`)", None
    return "on", vector


def _why_not(score: float, z: float | None, best: float, floor: float, *, semantic: bool) -> str:
    if best < floor:
        return f"no memory reaches the floor {floor:.2f} by its words: silent"
    if semantic:
        if score < floor and (z is None or z < ranking.SEMANTIC_MIN_Z):
            return f"below the floor {floor:.2f} and meaning z < {ranking.SEMANTIC_MIN_Z:g}"
        return f"below {ranking.GAP_RATIO:g} x the best fused score, or past the pointer limit"
    if score < floor:
        return f"below the floor {floor:.2f}"
    if score < ranking.GAP_RATIO * best:
        return f"below {ranking.GAP_RATIO:g} x the best score"
    return "past the pointer limit"


def _term_rows(
    terms: list[str], dfs: dict[str, int], used: set[str], n_docs: int
) -> list[dict[str, Any]]:
    rows = []
    for term in terms:
        df = dfs.get(term, 0)
        reason = "used" if term in used else ("in no memory" if not df else "in most memories")
        rows.append(
            {
                "term": term,
                "df": df,
                "idf": round(ranking.idf(df, n_docs), 2) if df else 0.0,
                "weight": ranking.query_weight(term),
                "everyday_word": term in COMMON,
                "status": reason,
            }
        )
    return rows


def _matched(conn: Any, used: set[str], ranked: list[int]) -> dict[int, dict[str, dict[str, int]]]:  # noqa: ANN401
    matched: dict[int, dict[str, dict[str, int]]] = {doc: {} for doc in ranked}
    if ranked and used:
        by_term = in_list(_POSTING_FIELDS, len(used))
        sql = in_list(by_term + " AND doc", len(ranked))
        for term, doc, *counts in conn.execute(sql, [*used, *ranked]):
            matched[doc][term] = {f: c for f, c in zip(FIELDS, counts, strict=True) if c}
    return matched


def excluded(conn: Any, scores: dict[int, float], exclude: tuple[str, ...]) -> set[int]:  # noqa: ANN401
    """Candidates of an excluded category (the hook never points at them)."""
    if not exclude or not scores:
        return set()
    docs = list(scores)
    by_category = in_list("SELECT id FROM docs WHERE category", len(exclude))
    sql = in_list(by_category + " AND id", len(docs))
    return {doc for (doc,) in conn.execute(sql, [*exclude, *docs])}


def render(data: dict[str, Any]) -> str:
    if "error" in data:
        return str(data["error"])
    lines = [
        f"Why the per-prompt hook would{'' if data['speaks'] else ' NOT'} point at memories for "
        f'"{data["query"]}"',
        f"Store: {data['memories']} memories; everyday requests reach {data['calibration']} "
        f"here (median), so the floor is {data['floor']} = {data['floor_rule']}.",
        f"Semantic signals: {data['semantic']}"
        + (
            f" (a candidate's meaning counts when its z, cosine in spreads above what everyday"
            f" requests reach on that memory, is >= {ranking.SEMANTIC_MIN_Z:g})"
            if data["semantic"] == "on"
            else ""
        ),
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
        z = "" if c["semantic_z"] is None else f", meaning z {c['semantic_z']:.2f}"
        lines.append(
            f"- {c['score']:.2f}{z} {c['path']} — {c['title']}\n    {c['decision']}; "
            f"matched: {fields or 'nothing'}"
        )
    return "\n".join(lines)
