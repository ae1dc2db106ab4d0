"""The tokenizer's word lists: stopwords out, everyday English down-weighted by its stems."""

from __future__ import annotations

from memhooks.recall.tokenize import COMMON, STOPWORDS, query_terms, stem, tokens

#: Everyday English from general frequency lists of English (not from any tuning set).
#: `tokenize.COMMON` holds their stems, precomputed so that no prompt pays for stemming them.
EVERYDAY = """
time times year years people day days man men woman women life child children world school
family group country part place case cases week weeks company number numbers night point home
water room mother area money story fact month months lot study book eye job word words side
kind head house friend father power hour hours game end member law car city community name
names president team minute minutes idea kid body back parent face level office door health
person art war party result results morning reason research girl guy moment air teacher force
education hand hands boy age ages policy music food letter picture plan center couple type
types form table list lists car cars second seconds left say said go went come came find found
give gave call called ask asked feel felt become leave left mean meant keep kept begin began
seem help talk turn turned start started hear heard play run ran move moved live believe hold
bring happen provide sit stand lose lost pay meet include continue set learn lead understand
watch follow stop create speak read allow spend grow open walk win offer remember love
consider appear buy wait serve die send expect build stay fall cut reach kill remain suggest
raise pass sell require report decide pull check checks other great big small large young
different black long little important real social public low early able human local late hard
major strong possible free full special easy clear recent certain personal red difficult
available likely short single current past common poor natural significant similar hot dead
central happy serious ready simple general final main green nice huge popular whole average
worst first last next three two four five six ten hundred thousand million once twice order
ordering close closing match matches matching word
"""


def test_common_is_exactly_the_stems_of_the_everyday_words() -> None:
    expected = frozenset(stem(w) for w in EVERYDAY.split() if w not in STOPWORDS)
    assert sorted(COMMON - expected) == []
    assert sorted(expected - COMMON) == []


def test_stopwords_drop_and_identifiers_split() -> None:
    assert tokens("Why does the TabsPanelState fix fail?") == ["tab", "panel", "stat", "fail"]
    assert query_terms("cache caching cached") == ["cach"]
