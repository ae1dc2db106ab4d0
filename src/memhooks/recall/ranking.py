# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Relevance ranking for per-prompt recall: BM25F plus a calibrated floor and a gap rule.

The per-prompt floor is `gate_floor(calibration)`: the store's own yardstick (what everyday
unrelated requests reach on it, see search_index.calibrate), not a number fitted to one
store. DEFAULT_FLOOR below is the older fixed floor, kept for `memhooks remember`'s
similar-memory check. Pure functions.

Scores are in *idf units*: BM25F divided by (K1 + 1), so one query term matched with a
saturated term frequency contributes its idf, and the floor reads as "how much rare
vocabulary the prompt and the memory share". That keeps the floor independent of K1 and
of the field weights, so retuning either does not silently move it.

How the constants were tuned (tests/benchmark/recall_eval.py reproduces it): on
/work/shared/e2e/recall (60 memories, 30 related prompts, 15 unrelated ones) a grid over
field weights, K1, B, the weight of everyday words, the floor and the gap. Most settings in
the grid landed within one query of each other, so the choice below favours the middle of
a wide plateau over its best corner, and split halves (tune on 15 queries, score on the
other 15) agree with the full set.
"""

from __future__ import annotations

import math

from memhooks.recall.tokenize import COMMON

#: BM25 saturation. 1.2 is the textbook value; 0.9 to 1.6 scored the same on the tuning set.
K1 = 1.2
#: Length normalization. Memories are 80-250 words, so it matters little; textbook value.
B = 0.75
#: Field weights (title, tags, description, body): a title word says what the memory is
#: about, a body word may be an aside. Title 3-5 x body all scored alike; 4 is the middle.
FIELD_WEIGHTS: tuple[float, float, float, float] = (4.0, 2.0, 2.0, 1.0)
#: Query weight of everyday English words (terms.COMMON). 0.2-0.5 all worked; at 1.0 the
#: silence rate on unrelated prompts fell from 1.0 to about 0.9 at the same hit rate.
COMMON_WEIGHT = 0.3
#: The fixed floor `remember` uses to flag similar memories (once the per-prompt floor), in
#: idf units. On the first tuning set unrelated prompts topped out near 1.8 and related
#: prompts' correct hits started near 2.6. 2.5 sits in that gap (silence held at 1.0
#: from 2.25 up, hit rate fell below 0.9 above 3.0). With 60 memories a single rare word
#: has idf 3.7, so one strong shared term is enough, and everyday words never are.
DEFAULT_FLOOR = 2.5
#: The gate's floor is this many times the median best score that everyday unrelated
#: requests (memhooks.recall.background) reach on the same store: a prompt must share clearly more
#: rare vocabulary with a memory than ordinary requests do by chance. Tuned on
#: tests/fixtures/recall and recall2 each and checked on the other (recall_eval.py --cross).
CALIBRATION_RATIO = 2.0
#: ... and never below this, in idf units: in a young store ordinary requests match nothing,
#: so the median is 0 and this alone applies (two rare shared words at MIN_IDF_DOCS idf).
MIN_FLOOR = 4.0
#: Recalibrate after a write once the store has grown or shrunk by this share since the last
#: calibration (always while it is young).
RECALIBRATE_SHARE = 0.1
#: Drop hits scoring below this share of the best one. 0.5 cut mean pointers per related
#: prompt from about 4 to about 3 and cost no hit on the tuning set.
GAP_RATIO = 0.5
#: The idf of a store smaller than this is computed as if it had this many memories.
#: At 20 a new project's two-word title match (idf ~2.6 each, saturated) stayed under the
#: floor, so a store of a handful of memories never pointed at anything; at 40 it clears it,
#: and the 60-memory tuning set is unaffected.
MIN_IDF_DOCS = 40
#: Terms in more than this share of memories are treated as stopwords of this corpus.
MAX_DF_SHARE = 0.5
#: Longer prompts keep only their rarest terms: bounds work on pasted logs or code.
MAX_QUERY_TERMS = 32
#: A term with more postings than this is only scored on documents that rarer terms already
#: found, so no query reads a long posting list (its idf is low by then anyway).
FULL_POSTINGS_CAP = 300
#: How many of the best candidates common terms may still re-rank.
RESCORE_CANDIDATES = 200

# With semantic signals (memhooks.recall.semantic: a static token-vector table and each
# memory's own null distribution), tuned by study/ on tests/fixtures/recall and recall2 and
# cross-validated (tune on one, score on the other; recall_eval.py --cross): the lexical
# gate alone decides whether a prompt gets pointers, at a stricter ratio (fewer unrelated
# prompts speak), and the semantic z-score re-ranks the lexical candidates and adds those
# whose meaning is clearly closer than everyday requests come (more related prompts hit).
#: The calibration ratio when semantic signals serve (2.0 without them).
SEMANTIC_RATIO = 2.2
#: A candidate this many null spreads above its memory's null mean is evidence on its own.
SEMANTIC_MIN_Z = 1.5
#: Weight of z / SEMANTIC_MIN_Z next to lexical score / floor in the ranking key. A negative
#: z counts as 0: a few keywords pool to a vector far from every everyday request (whole
#: sentences), so their z on the very memory they name can be -5, and the key must not hide
#: what the words found (same answers on both tuning sets, keyword prompts answered).
SEMANTIC_WEIGHT = 0.5
#: Lexical candidates the semantic signal may re-rank (any score above zero).
SEMANTIC_CANDIDATES = 30
#: Pointers at most (below retrieval.max_inject): re-ranked by meaning, the answer sits in the
#: first three; 5 instead cost ~1 more pointer per prompt and found no more targets on
#: either corpus (tests/benchmark/study/gap_check.py).
SEMANTIC_MAX_POINTERS = 3


#: One term in one document: (doc id, count in title, tags, description, body, the
#: document's weighted length). A plain tuple, because the hot loop builds thousands of them
#: straight from sqlite rows, and a dataclass would triple the cost of that loop.
Posting = tuple[int, int, int, int, int, float]


#: The query terms to read in full, and those (frequent) only to re-score candidates with.
#: A tuple rather than a dataclass: creating a dataclass class costs a millisecond at import.
QueryPlan = tuple[tuple[str, ...], tuple[str, ...]]


def idf(df: int, n_docs: int) -> float:
    """BM25 idf in the always-positive form (Lucene's), so frequent terms never subtract.

    A young store counts as MIN_IDF_DOCS memories: with three memories every word would be
    "common" and nothing could clear the floor, though a shared rare word is still telling.
    """
    n = max(n_docs, MIN_IDF_DOCS)
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def gate_floor(calibration: float) -> float:
    """The per-prompt floor of a store whose everyday requests reach `calibration` (median)."""
    return max(MIN_FLOOR, CALIBRATION_RATIO * calibration)


def weighted_length(title: int, tags: int, description: int, body: int) -> float:
    wt, wg, wd, wb = FIELD_WEIGHTS
    return wt * title + wg * tags + wd * description + wb * body


def query_weight(term: str) -> float:
    return COMMON_WEIGHT if term in COMMON else 1.0


def plan_query(terms: list[str], dfs: dict[str, int], n_docs: int) -> QueryPlan:
    """Keep the terms the corpus has and that still discriminate, rarest first, capped."""
    # A young store has no corpus statistics worth the name: with a decision and a journal,
    # the decision's own words are "in every document". The share cut starts at MIN_IDF_DOCS.
    cap = MAX_DF_SHARE * n_docs if n_docs >= MIN_IDF_DOCS else n_docs
    known = [t for t in terms if 0 < dfs.get(t, 0) <= max(1.0, cap)]
    known.sort(key=lambda t: dfs[t])
    kept = known[:MAX_QUERY_TERMS]
    full = tuple(t for t in kept if dfs[t] <= FULL_POSTINGS_CAP)
    common = tuple(t for t in kept if dfs[t] > FULL_POSTINGS_CAP)
    return full, common


def accumulate(
    scores: dict[int, float],
    postings: list[Posting],
    weight: float,
    term_idf: float,
    avg_length: float,
) -> None:
    """Add one term's BM25F contribution to every document in its postings, in idf units:
    fields merged by weight before saturation (in place, inline: a call per posting was a
    third of a query's time)."""
    wt, wg, wd, wb = FIELD_WEIGHTS
    for doc, title, tags, description, body, length in postings:
        tf = wt * title + wg * tags + wd * description + wb * body
        if tf <= 0:
            contribution = 0.0
        else:
            norm = 1.0 - B + B * (length / avg_length if avg_length > 0 else 1.0)
            contribution = term_idf * tf / (tf + K1 * norm)
        scores[doc] = scores.get(doc, 0.0) + weight * contribution


def top_candidates(scores: dict[int, float], count: int) -> list[int]:
    # _order's order (best first, ties to the older id) without a Python key function per
    # document, which cost more than the sort itself: ids ascending, then a stable sort by
    # score (a stable sort keeps equal scores in id order, reversed or not).
    docs = sorted(scores)
    docs.sort(key=scores.__getitem__, reverse=True)
    return docs[:count]


def select(
    scores: dict[int, float],
    *,
    limit: int,
    floor: float,
    gap: float = GAP_RATIO,
) -> list[tuple[int, float]]:
    """The hits to inject: best first, at least the floor, and not far below the best."""
    if limit <= 0:
        return []
    ranked = sorted(scores.items(), key=_order)
    if not ranked or ranked[0][1] <= 0 or ranked[0][1] < floor:
        return []
    cut = max(floor, gap * ranked[0][1])
    return [(doc, score) for doc, score in ranked[:limit] if score > 0 and score >= cut]


def semantic_floor(calibration: float) -> float:
    return max(MIN_FLOOR, SEMANTIC_RATIO * calibration)


def select_semantic(
    scores: dict[int, float],
    z: dict[int, float],
    *,
    limit: int,
    floor: float,
    min_z: float = SEMANTIC_MIN_Z,
    weight: float = SEMANTIC_WEIGHT,
) -> list[tuple[int, float]]:
    """Lexical gate, semantic re-rank: [] unless a candidate clears the floor by its words;
    then candidates clearing the floor or `min_z`, by the fused key, within the gap.
    (`min_z` and `weight` are the constants; the tuning scripts pass others.)"""
    if limit <= 0 or not scores or floor <= 0 or max(scores.values()) < floor:
        return []
    keys = {
        doc: score / floor + weight * max(z.get(doc, 0.0), 0.0) / min_z
        for doc, score in scores.items()
        if score >= floor or z.get(doc, -math.inf) >= min_z
    }
    ranked = sorted(keys.items(), key=_order)[: min(limit, SEMANTIC_MAX_POINTERS)]
    top = ranked[0][1]
    return [(doc, scores[doc]) for doc, key in ranked if key >= GAP_RATIO * top]


def _order(item: tuple[int, float]) -> tuple[float, int]:
    # Ties go to the older document id, so results are stable across runs.
    return (-item[1], item[0])
