"""What the commands ask of the search index beyond the per-prompt hook: the memories a query
lists (`memhooks recall`, an export's `--query`), and the near-duplicates of a new text in
its category (`memhooks remember` stops on one; an import flags one). The index is imported
only when asked."""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from memhooks.store import MemoryPaths

#: Lower than the per-prompt hook's floor (ranking.DEFAULT_FLOOR): the user asked, so a weak
#: match is worth a line, but a score this low still means no rare word in common.
RECALL_FLOOR = 1.0
#: Same-category hits scoring at least the hook's floor and sharing at least this share of
#: the new text's search terms (in their title and description) count as "already there".
OVERLAP = 0.5


def matching(paths: MemoryPaths, query: str) -> frozenset[str]:
    """The memories `memhooks recall QUERY` would list, without its result limit."""
    from memhooks.recall.search_index import SearchIndex

    if not os.path.exists(paths.search_db):
        return frozenset()
    with SearchIndex(paths.search_db) as index:
        hits = index.query(query, limit=100_000, min_score=RECALL_FLOOR)
    return frozenset(h.path for h in hits)


def similar(paths: MemoryPaths, text: str, category: str) -> list[dict[str, Any]]:
    """Same-category memories close enough to be the same thing, best first."""
    if not os.path.exists(paths.search_db):
        return []
    from memhooks.recall import ranking
    from memhooks.recall.search_index import SearchIndex
    from memhooks.recall.tokenize import query_terms, tokens

    wanted = set(query_terms(text))
    if not wanted:
        return []
    with SearchIndex(paths.search_db) as index:
        hits = index.query(text, limit=5, min_score=ranking.DEFAULT_FLOOR)
    out = []
    for hit in hits:
        shared = len(wanted & set(tokens(f"{hit.title} {hit.description}"))) / len(wanted)
        if hit.category == category and shared >= OVERLAP:
            out.append(
                {
                    "path": hit.path,
                    "title": hit.title,
                    "description": hit.description,
                    "score": round(hit.score, 2),
                    "overlap": round(shared, 2),
                }
            )
    return out
