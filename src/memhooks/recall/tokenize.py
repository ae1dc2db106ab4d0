# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Text to search terms: the one tokenizer both the index and the query use. Standard library only.

A term is a lowercase, lightly stemmed word. Identifiers are split into their parts
(``TabsPanelState`` -> tabs, panel, state; ``fxa-auth-client/lib`` -> fxa, auth, client, lib)
because prompts paste code while memories describe it in prose. Stopwords cover English
function words and the filler of coding prompts ("fix", "error", "why"), which would
otherwise match every memory a little and keep unrelated prompts from being silent.
"""

from __future__ import annotations

import re

# A word is a run of letters and digits; punctuation, underscores and slashes separate parts.
_WORD = re.compile(r"[^\W_]+")
# Boundaries inside an identifier: fooBar, HTTPServer, utf8Decode.
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

#: Terms shorter than this carry no signal (single letters, "id" aside, which is kept below).
MIN_LENGTH = 2
#: Longer tokens are hashes, base64 or minified code: noise that bloats the index.
MAX_LENGTH = 40

_ENGLISH = """
a about above after again against all almost also although always am among an and another any
anybody anyone anything anyway anywhere are around as at away back be became because become been
before being below beside besides between both but by came can cannot could did do does doing done
down during each either else enough etc even ever every everyone everything exactly few for from
further get gets getting go goes going gone got gotten had has have having he her here hers herself
him himself his how however i if in instead into is it its itself just least less let lets like
made make makes many may me might mine more most much must my myself neither never no nobody none
nor not nothing now of off often on once one only onto or other others otherwise our ours
ourselves out over own per perhaps please put quite rather really same say says see seem seems
shall she should since so some somebody someone something sometimes somewhere still such take
than that the their theirs them themselves then there these they thing things this those though
through thus to together too toward towards under until up upon us use used uses using very via
was way we well were what whatever when whenever where whereas wherever whether which while who
whoever whole whom whose why will with within without would yet you your yours yourself yourselves
ll ve re don doesn didn isn aren wasn weren won wouldn shouldn couldn can't cant dont im ive
yes ok okay hey hi hello thanks thank
"""

# Words every coding prompt uses and no memory is about. Kept apart from English so the
# reasoning stays visible: each one was seen matching unrelated prompts to random memories.
_PROMPT_FILLER = """
fix fixed fixing error errors issue issues problem problems bug bugs help want wanted need needs
needed try tried trying work works working worked know think thought look looking show shows
showing tell explain write wrote written change changed changes changing add added adding
question answer answers good bad better best new old right wrong now today yesterday tomorrow
code file files line lines function functions method methods class value values return returns
thing stuff something anything everything way ways doesnt isnt wont cant whats hows thats theres
here there example e.g i.e eg ie via vs etc just also still already again actually basically
maybe probably sure true false none null self def var let const int str string
"""

STOPWORDS: frozenset[str] = frozenset((_ENGLISH + _PROMPT_FILLER).split())

# Everyday English: the words an unrelated prompt shares with a memory by accident ("case",
# "number", "people", "order"). They stay searchable, but a query gives them a small weight, so
# a match on them alone cannot lift a memory over the floor. Drawn from general frequency
# lists of English, not from the tuning set; technical senses ("cache", "token") are absent.
# Kept here as their stems (stemming ~330 words cost every prompt 0.5 ms): the words
# themselves are in tests/recall/test_tokenize.py, which checks that these are exactly their stems.
COMMON: frozenset[str] = frozenset(
    """
able age air allow appear area art ask availabl averag began begin believ big black body book
boy bring build buy call car case center central certain check child children city clear clos
come common commun company consider continu country coupl cre current cut day dead decid die
different difficult door ear easy educ end expect eye face fact fall fami father feel felt
final find first five follow food forc form found four fre friend full game gave general girl
give gre green group grow guy hand happen happy hard head health hear heard hold home hot hour
hous huge human hundr idea important includ job keep kept kid kill kind larg last late law
lead learn leav left letter level life like list littl live local long lose lost lot love low
main major man match mean meant meet member men million minut moment money month morn mother
mov move music name natural next nice night number offer offic open order parent part party
pas past pay peopl person personal pictur plac plan play point policy poor popular possibl
power president provid public pull rais ran reach read ready real reason recent red remain
remember report requir research result room run said school second sell send serious serv set
short side significant similar simpl singl sit six small social speak special spend stand
start stay stop story strong study suggest tabl talk teacher team ten thousand thre time turn
twic two type understand wait walk war watch water week went win woman women word world worst
year young
""".split()  # noqa: SIM905 - a word list reads better as text
)


def split_identifier(token: str) -> list[str]:
    """The parts of one alphanumeric run: camelCase and letter/digit boundaries."""
    parts = _CAMEL.findall(token)
    return parts or [token]


def stem(word: str) -> str:
    """A light suffix stripper: inflection first, then a few derivational endings.

    Not Porter: it only has to send the forms people actually type ("caching", "cached",
    "cache"; "configured", "configuration") to one term. Index and query share it, so an
    odd-looking stem costs nothing as long as it is consistent.
    """
    if len(word) <= _MIN_STEM or not word.isalpha():
        return word
    word = _strip(word, _INFLECTIONS)
    word = _tidy(word)
    return _strip(word, _DERIVATIONS)


_MIN_STEM = 3
# Longest first within each table: the first matching suffix wins.
_INFLECTIONS: tuple[tuple[str, str], ...] = (
    ("ingly", ""),
    ("edly", ""),
    ("ings", ""),
    ("ing", ""),
    ("ied", "y"),
    ("ies", "y"),
    ("sses", "ss"),
    ("ers", "er"),
    ("ed", ""),
    ("ly", ""),
    ("es", "e"),
    ("ss", "ss"),
    ("us", "us"),
    ("is", "is"),
    ("as", "as"),
    ("s", ""),
)
_DERIVATIONS: tuple[tuple[str, str], ...] = (
    ("ization", ""),
    ("isation", ""),
    ("ation", ""),
    ("ment", ""),
    ("ness", ""),
    ("ity", ""),
    ("iz", ""),
    ("is", "is"),
    ("at", ""),
)


def _strip(word: str, table: tuple[tuple[str, str], ...]) -> str:
    for suffix, replacement in table:
        if word.endswith(suffix):
            base = word[: len(word) - len(suffix)]
            if len(base) >= _MIN_STEM:
                return base + replacement
    return word


def _tidy(word: str) -> str:
    """Make "caching", "cache" and "cached" meet: drop a final e and undouble the end."""
    if word.endswith("e") and len(word) > _MIN_STEM + 1:
        word = word[:-1]
    if len(word) > _MIN_STEM and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Every term of a text, in order, stopwords and noise removed."""
    out: list[str] = []
    cache = _CACHE
    for raw in _WORD.findall(text):
        terms = cache.get(raw)
        if terms is None:
            if len(cache) >= _CACHE_SIZE:
                cache.clear()
            terms = cache[raw] = _analyze(raw)
        out.extend(terms)
    return out


# Words repeat heavily, and splitting plus stemming is most of the cost of indexing: a
# rebuild of 10,000 memories would spend seconds redoing the same few thousand words.
_CACHE: dict[str, tuple[str, ...]] = {}
_CACHE_SIZE = 200_000


def _analyze(raw: str) -> tuple[str, ...]:
    if len(raw) > MAX_LENGTH:
        return ()
    return tuple(term for term in map(_normalize, split_identifier(raw)) if term)


def _normalize(part: str) -> str:
    word = part.lower()
    if len(word) < MIN_LENGTH or word in STOPWORDS:
        return ""
    if word.isdigit() and len(word) < MIN_LENGTH + 1:
        return ""
    return stem(word)


def query_terms(text: str) -> list[str]:
    """The distinct terms of a prompt, in first-seen order (a term counts once per prompt)."""
    return list(dict.fromkeys(tokens(text)))
