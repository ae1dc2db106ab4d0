# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The search index's read side: hits for query terms, ranked by BM25F with the gate.

Standard library only: UserPromptSubmit runs this on every prompt.
"""

from __future__ import annotations

try:
    # The C module alone: `sqlite3` adds the dbapi2 layer and `datetime` for date adapters
    # this index never uses (+1.4 ms per prompt, measured). Same API for what we call.
    import _sqlite3 as sqlite3
except ImportError:  # pragma: no cover - a build without the private module
    import sqlite3  # type: ignore[no-redef]

from memhooks import TYPE_CHECKING
from memhooks.recall import ranking

if TYPE_CHECKING:
    from collections.abc import Callable

#: Bump when the schema, the tokenizer or the stored lengths change: an index with another
#: version answers no queries (instead of answering wrongly) until the next write or
#: `rebuild` makes it again. 2: docs' (category, id) index, so that leaving journals out
#: reads no document rows.
SCHEMA_VERSION = 2
#: The token table's version (semantic.py reads and builds it; here so that checking an
#: index's vectors costs the per-prompt path no import). Bump with any change to how the
#: table is made: an index whose vectors came from another version ignores them (lexical
#: alone) until `memhooks rebuild`.
TABLE_VERSION = 1
#: Distinct prompt terms looked up at all; keeps the IN list under sqlite's variable limit.
MAX_LOOKUP_TERMS = 256
#: drop_categories checks this many candidates more than it still needs at a time.
DROP_MARGIN = 10

SELECT_POSTINGS = "SELECT doc, title, tags, description, body, length FROM postings"


class Hit:
    __slots__ = ("category", "description", "path", "score", "title")

    def __init__(
        self, *, path: str, title: str, description: str, category: str, score: float
    ) -> None:
        self.path = path
        self.title = title
        self.description = description
        self.category = category
        self.score = score

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hit) and (self.path, self.score) == (other.path, other.score)

    def __hash__(self) -> int:
        return hash((self.path, self.score))

    def __repr__(self) -> str:
        return f"Hit({self.path!r}, {self.score:.3f})"


#: A document as the index stores it: per-term counts in (title, tags, description, body),
#: and its weighted length.


def search(
    conn: sqlite3.Connection,
    terms: list[str],
    limit: int,
    min_score: float | None,
    exclude: tuple[str, ...] = (),
    *,
    prompt_vector: Callable[[], list[float] | None] | None = None,
) -> list[Hit]:
    """The gated hits. `prompt_vector` (the gate only, min_score None): the prompt's vector
    from the static table, asked for only when the index holds memory vectors of the same
    table version and some candidate clears the semantic floor."""
    stats = search_stats(conn)
    scores = rank(conn, terms, stats)
    if exclude and scores:
        # Either path below reads only its best SEMANTIC_CANDIDATES (or `limit`) documents.
        drop_categories(conn, scores, exclude, keep=max(limit, ranking.SEMANTIC_CANDIDATES))
    if min_score is None and prompt_vector is not None and scores and has_vectors(conn):
        floor = ranking.semantic_floor(stats[2])
        if max(scores.values()) < floor:
            return []
        vector = prompt_vector()
        if vector is not None:
            best = ranking.top_candidates(scores, ranking.SEMANTIC_CANDIDATES)
            kept = {doc: scores[doc] for doc in best}
            z = semantic_z(conn, vector, best)
            return hits(conn, ranking.select_semantic(kept, z, limit=limit, floor=floor))
    floor = ranking.gate_floor(stats[2]) if min_score is None else min_score
    gap = ranking.GAP_RATIO if floor > 0 else 0.0
    chosen = ranking.select(scores, limit=limit, floor=floor, gap=gap)
    return hits(conn, chosen)


def drop_categories(
    conn: sqlite3.Connection,
    scores: dict[int, float],
    exclude: tuple[str, ...],
    keep: int = ranking.RESCORE_CANDIDATES,
) -> None:
    """Keep at least the best `keep` candidates outside the excluded categories (the others
    can never be chosen): the best checked first, a few more than are still missing at a
    time, so that a prompt asks about ~40 documents rather than 200."""
    best = ranking.top_candidates(scores, ranking.RESCORE_CANDIDATES)
    by_category = in_list("SELECT id FROM docs WHERE category", len(exclude))
    kept: dict[int, float] = {}
    start = 0
    while start < len(best) and len(kept) < keep:
        chunk = best[start : start + keep - len(kept) + DROP_MARGIN]
        start += len(chunk)
        sql = in_list(by_category + " AND id", len(chunk))
        dropped = {doc for (doc,) in conn.execute(sql, [*exclude, *chunk]).fetchall()}
        kept.update((doc, scores[doc]) for doc in chunk if doc not in dropped)
    scores.clear()
    scores.update(kept)


def rank(
    conn: sqlite3.Connection, terms: list[str], stats: tuple[int, float, float]
) -> dict[int, float]:
    """Every matching document's BM25F score (idf units), before any floor."""
    n_docs, total_length, _ = stats
    if n_docs <= 0:
        return {}
    avg_length = total_length / n_docs
    sql = in_list("SELECT term, df FROM terms WHERE term", len(terms))
    dfs = dict(conn.execute(sql, terms).fetchall())
    full, common = ranking.plan_query(terms, dfs, n_docs)
    scores: dict[int, float] = {}
    grouped = fetch_postings(conn, full)
    for term in full:
        postings = grouped.get(term, [])
        score_term(scores, postings, term, df=dfs[term], n_docs=n_docs, avg_length=avg_length)
    candidates = ranking.top_candidates(scores, ranking.RESCORE_CANDIDATES)
    for term in common if candidates else ():
        sql = in_list(SELECT_POSTINGS + " WHERE term = ? AND doc", len(candidates))
        rows = conn.execute(sql, [term, *candidates]).fetchall()
        score_term(scores, rows, term, df=dfs[term], n_docs=n_docs, avg_length=avg_length)
    return scores


def score_term(
    scores: dict[int, float],
    postings: list[ranking.Posting],
    term: str,
    *,
    df: int,
    n_docs: int,
    avg_length: float,
) -> None:
    ranking.accumulate(
        scores, postings, ranking.query_weight(term), ranking.idf(df, n_docs), avg_length
    )


def fetch_postings(
    conn: sqlite3.Connection, terms: tuple[str, ...]
) -> dict[str, list[ranking.Posting]]:
    # One statement a term: sqlite hands back each row as the tuple scoring reads, where one
    # `term IN (...)` statement made Python regroup and re-tuple every row (~1/3 of a query).
    grouped: dict[str, list[ranking.Posting]] = {}
    for term in terms:
        rows = conn.execute(SELECT_POSTINGS + " WHERE term = ?", (term,)).fetchall()
        if rows:
            grouped[term] = rows
    return grouped


def hits(conn: sqlite3.Connection, chosen: list[tuple[int, float]]) -> list[Hit]:
    if not chosen:
        return []
    ids = [doc for doc, _ in chosen]
    sql = in_list("SELECT id, path, title, description, category FROM docs WHERE id", len(ids))
    rows = conn.execute(sql, ids).fetchall()
    by_id = {row[0]: row[1:] for row in rows}
    return [
        Hit(path=path, title=title, description=description, category=category, score=score)
        for doc, score in chosen
        if doc in by_id
        for path, title, description, category in (by_id[doc],)
    ]


def search_stats(conn: sqlite3.Connection) -> tuple[int, float, float]:
    """(documents, total weighted length, calibration: see `calibrate`)."""
    values = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    return (
        int(values.get("n_docs", 0)),
        float(values.get("total_length", 0.0)),
        float(values.get("calibration", 0.0)),
    )


def has_vectors(conn: sqlite3.Connection) -> bool:
    """The index holds memory vectors made with the table version this code reads."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'semantic'").fetchone()
    return row is not None and int(row[0]) == TABLE_VERSION


def semantic_z(conn: sqlite3.Connection, vector: list[float], docs: list[int]) -> dict[int, float]:
    """Each candidate's cosine to the prompt, in spreads above its own null mean."""
    from memhooks.recall.semantic import dot, unpack

    if not docs:
        return {}
    sql = in_list("SELECT doc, vec, mean, spread FROM vectors WHERE doc", len(docs))
    out: dict[int, float] = {}
    for doc, blob, mean, spread in conn.execute(sql, docs).fetchall():
        vec = unpack(blob)
        if vec is not None and spread > 0:
            out[doc] = (dot(vector, vec) - mean) / spread
    return out


def in_list(sql: str, count: int) -> str:
    """`sql IN (?, ...)`: placeholders are the only text ever spliced into a statement."""
    return sql + " IN (" + ",".join("?" * count) + ")"
