from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memhooks.recall import tokenize as terms


def test_identifiers_split_into_parts() -> None:
    assert terms.tokens("TabsPanelState") == ["tab", "panel", "stat"]
    assert terms.tokens("scan_interval_minutes") == ["scan", "interval", "minut"]
    assert terms.tokens("packages/fxa-auth-client/lib") == [
        "packag",
        "fxa",
        "auth",
        "client",
        "lib",
    ]
    assert terms.tokens("HTTPServer") == ["http", "server"]


def test_stopwords_and_prompt_filler_are_dropped() -> None:
    assert terms.tokens("why does the error happen and how do I fix it") == ["happen"]


def test_inflections_meet() -> None:
    for group in (
        ("cache", "caching", "cached", "caches"),
        ("configure", "configured", "configuration", "configurations"),
        ("integration", "integrations", "integrate"),
        ("deprecated", "deprecation"),
        ("running", "run"),
    ):
        assert len({terms.stem(word) for word in group}) == 1, group


def test_short_words_and_numbers_survive_stemming() -> None:
    assert terms.stem("ios") == "ios"
    assert terms.stem("2025") == "2025"
    assert terms.tokens("E501 at 86 chars") == ["501", "char"]


def test_query_terms_are_distinct_in_order() -> None:
    assert terms.query_terms("redis Redis REDIS cache") == ["redis", "cach"]


def test_common_words_are_stemmed_like_text() -> None:
    assert terms.tokens("numbers")[0] in terms.COMMON
    assert "redis" not in terms.COMMON


def test_overlong_tokens_are_noise() -> None:
    assert terms.tokens("a" * 41 + " redis") == ["redis"]


@given(st.text(max_size=300))
def test_tokens_never_fail_and_are_clean(text: str) -> None:
    for term in terms.tokens(text):
        assert term
        assert term == term.lower()
        assert term not in terms.STOPWORDS


@given(st.text(alphabet=st.characters(categories=["Ll"]), min_size=1, max_size=20))
def test_stem_is_idempotent_on_its_output_length(word: str) -> None:
    stemmed = terms.stem(word)
    assert len(stemmed) <= len(word) + 1
