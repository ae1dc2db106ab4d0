from __future__ import annotations

import math

import pytest

from memhooks.recall import ranking


def posting(doc: int, title: int = 0, body: int = 0, length: float = 10.0) -> ranking.Posting:
    return (doc, title, 0, 0, body, length)


def term_score(one: ranking.Posting, term_idf: float, avg_length: float) -> float:
    """One term's BM25F score of one document, through the hot loop itself."""
    scores: dict[int, float] = {}
    ranking.accumulate(scores, [one], 1.0, term_idf, avg_length)
    return scores[one[0]]


def test_idf_is_positive_and_falls_with_df() -> None:
    assert ranking.idf(1, 60) > ranking.idf(10, 60) > ranking.idf(60, 60) > 0
    assert math.isclose(ranking.idf(1, 60), math.log(1 + 59.5 / 1.5))


def test_title_outweighs_body() -> None:
    term_idf = ranking.idf(2, 60)
    in_title = term_score(posting(1, title=1), term_idf, 10.0)
    in_body = term_score(posting(2, body=1), term_idf, 10.0)
    assert in_title > in_body > 0


def test_score_saturates_at_idf() -> None:
    term_idf = ranking.idf(1, 60)
    assert term_score(posting(1, title=50, body=50), term_idf, 10.0) < term_idf


def test_longer_documents_score_lower() -> None:
    short = term_score(posting(1, body=1, length=5.0), 2.0, 10.0)
    long = term_score(posting(1, body=1, length=50.0), 2.0, 10.0)
    assert short > long


def test_common_words_weigh_less() -> None:
    assert ranking.query_weight("redis") == 1.0
    assert ranking.query_weight("number") == ranking.COMMON_WEIGHT < 1.0


def test_plan_drops_unknown_and_ubiquitous_terms_and_keeps_rarest() -> None:
    full, common = ranking.plan_query(["a", "b", "c", "d"], {"a": 1, "b": 40, "c": 5}, 60)
    assert full == ("a", "c")
    assert common == ()


def test_plan_sends_long_postings_to_rescoring() -> None:
    dfs = {"rare": 3, "frequent": ranking.FULL_POSTINGS_CAP + 1}
    full, common = ranking.plan_query(["frequent", "rare"], dfs, 10_000)
    assert full == ("rare",)
    assert common == ("frequent",)


def test_plan_caps_query_terms() -> None:
    terms = [f"t{i}" for i in range(100)]
    full, _ = ranking.plan_query(terms, {t: i + 1 for i, t in enumerate(terms)}, 10_000)
    assert len(full) == ranking.MAX_QUERY_TERMS
    assert full[0] == "t0"


def test_accumulate_adds_per_document() -> None:
    scores: dict[int, float] = {}
    ranking.accumulate(scores, [posting(1, body=1), posting(2, title=1)], 1.0, 2.0, 10.0)
    ranking.accumulate(scores, [posting(1, body=1)], 1.0, 2.0, 10.0)
    assert set(scores) == {1, 2}
    assert scores[1] > term_score(posting(1, body=1), 2.0, 10.0)


def test_select_applies_floor_gap_and_limit() -> None:
    scores = {1: 5.0, 2: 4.0, 3: 2.6, 4: 2.4, 5: 0.0}
    assert ranking.select(scores, limit=5, floor=2.5, gap=0.0) == [(1, 5.0), (2, 4.0), (3, 2.6)]
    assert ranking.select(scores, limit=5, floor=2.5, gap=0.7) == [(1, 5.0), (2, 4.0)]
    assert ranking.select(scores, limit=1, floor=0.0, gap=0.0) == [(1, 5.0)]
    assert ranking.select(scores, limit=5, floor=6.0) == []
    assert ranking.select(scores, limit=0, floor=0.0) == []


def test_select_without_floor_keeps_only_positive_scores() -> None:
    assert ranking.select({1: 0.0, 2: 1.0}, limit=5, floor=0.0, gap=0.0) == [(2, 1.0)]
    assert ranking.select({1: 0.0}, limit=5, floor=0.0, gap=0.0) == []


def test_select_breaks_ties_by_document_id() -> None:
    assert ranking.select({7: 3.0, 2: 3.0}, limit=5, floor=0.0, gap=0.0) == [(2, 3.0), (7, 3.0)]


@pytest.mark.parametrize("count", [0, 1, 3])
def test_top_candidates(count: int) -> None:
    assert ranking.top_candidates({1: 1.0, 2: 3.0, 3: 2.0}, count) == [2, 3, 1][:count]


def test_top_candidates_break_ties_by_document_id_like_select() -> None:
    # Inserted out of id order, with ties at the top, in the middle and at zero.
    scores = {9: 2.0, 4: 5.0, 7: 2.0, 1: 2.0, 8: 5.0, 3: 0.0, 2: 0.0, 6: 4.5}
    expected = [4, 8, 6, 1, 7, 9, 2, 3]
    assert ranking.top_candidates(scores, 100) == expected
    chosen = ranking.select(scores, limit=100, floor=0.0, gap=0.0)
    assert [doc for doc, _ in chosen] == expected[:6]  # select drops the zero scores
    assert ranking.top_candidates(scores, 4) == expected[:4]
