# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Cue phrases of real sessions, and the small text helpers that apply them. Pure, stdlib only.

The lists hold how people and Claude actually say things ("I'll go with X rather than Y
because", "don't touch deploy/", "Sentry access is sorted", "This one is expected to fail"),
not the wording of any one fixture. Each pattern is compiled on first use: PreCompact is the
only hook that needs them.
"""

from __future__ import annotations

import re

from memhooks.text.lazy_re import LazyPattern

# -- sentences and words ------------------------------------------------------------------

#: People type "fine. btw we're in a freeze": a user's sentence may start in lower case.
_USER_SPLIT = LazyPattern(r"(?<=[.!?])\s+(?=\S)|\n+")
_CLAUDE_SPLIT = LazyPattern(r"(?<=[.!?])\s+(?=[A-Z\"'(\[`*])|\n+")
_WORD = LazyPattern(r"[a-z0-9_]+")
_CAMEL = LazyPattern(r"([a-z0-9])([A-Z])")
_SHORTEST_PLURAL = 3  # "bus" stays, "cursors" becomes "cursor"
_LIST_MARK = LazyPattern(r"^\s*(?:[-*+]|\d+[.)]|\([a-z0-9]\))\s+")

STOPWORDS = frozenset(
    """a an the and or but if then than so to of in on at by for from with without into onto
    is are was were be been being am do does did done have has had it its this that these those
    i we you he she they me us him her them my our your their mine ours not no yes ok okay
    will would can could should shall may might must just also still only very too more most
    all any some each every one two there here what which who whom when where why how as up
    out over under again once about after before because since while until yet now new get
    got let lets ll d s t re ve m""".split()  # noqa: SIM905 - a word list reads best as text
)


def sentences(text: str, *, from_user: bool) -> list[str]:
    """``text`` cut into sentences (and lines); list marks and emphasis stripped."""
    splitter = _USER_SPLIT if from_user else _CLAUDE_SPLIT
    pieces = (
        _LIST_MARK.sub("", piece).strip().strip("*_").strip()
        for piece in splitter.compiled.split(text)
    )
    return [piece for piece in pieces if piece]


def paragraphs(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"\n\s*\n", text) if part.strip()]


def words(text: str) -> set[str]:
    """Content words, lower case, camelCase split, a plural ``s`` dropped."""
    raw = set(_WORD.compiled.findall(_CAMEL.sub(r"\1 \2", text).lower()))
    found = {
        word[:-1] if len(word) > _SHORTEST_PLURAL and word[-1] == "s" and word[-2] != "s" else word
        for word in raw
    }
    return {word for word in found if len(word) > 1} - STOPWORDS


class Cue(LazyPattern):
    """A pattern with the words it cannot match without, tested first as a set: PreCompact
    reads thousands of sentences of a long session, most hold none of a pattern's words, and
    the regular expressions are what would make a 50 MB session slow."""

    __slots__ = ("need",)

    def __init__(self, source: str, flags: int, keys: tuple[str, ...]) -> None:
        super().__init__(source, flags)
        self.need = frozenset(keys)

    def search(self, text: str, toks: frozenset[str] | None = None) -> re.Match[str] | None:
        """``toks``: ``tokens(text)`` when the caller already has them."""
        if self.need.isdisjoint(tokens(text) if toks is None else toks):
            return None
        return super().search(text)


_TOKEN = LazyPattern(r"[a-z0-9']+")


def tokens(text: str) -> frozenset[str]:
    """The lower-case words of ``text`` (hyphens split), for ``Cue.search``."""
    return frozenset(_TOKEN.compiled.findall(text.lower()))


# The words each pattern below needs, lower case: a sentence without them cannot match.
NEXT_KEYS = ("next", "remaining", "left", "after")
DOING_KEYS = ("working", "middle", "currently", "right")
REVERSAL_KEYS = (
    "reverse", "reversing", "scratch", "second", "reflection", "change", "wrong", "taking",
    "undo", "undoing",
)  # fmt: skip
RESOLVED_KEYS = (
    "sorted", "approved", "approval", "unblocked", "longer", "resolved", "signed", "sign",
    "confirmed", "gave", "got", "good", "green", "came", "granted", "done", "merged", "fixed",
    "live", "back", "cleared", "rotated", "through", "landed", "shipped", "works", "working",
    "clear", "ahead", "in",
)  # fmt: skip


# -- blockers and their resolution --------------------------------------------------------

BLOCKED = Cue(
    r"\b(?:blocked (?:on|by)|(?:I'm|I am|we're|we are|still|currently) blocked)\b"
    r"|^\W*(?:blocker|blocked)\W*:",
    re.IGNORECASE,
    keys=("blocked", "blocker"),
)
#: How people say they are stuck without the word "blocked" (said by the user).
USER_BLOCKED = Cue(
    r"\b(?:waiting (?:on|for) (?!you\b|the (?:tests?|build|run|CI)\b)[\w@.-]+(?: \w+){0,3} to"
    r"|stuck (?:on|until)|on hold (?:until|for)|held up (?:by|on)"
    r"|can't \w+(?: [\w.-]+){0,4} until)\b",
    re.IGNORECASE,
    keys=("waiting", "stuck", "hold", "held", "until"),
)
#: "approved", "sorted", "works now": said after a blocker, they settle it.
RESOLVED = Cue(
    r"\b(?:sorted|approved|unblocked|no longer blocked|not blocked any ?more|resolved"
    r"|signed off|sign-off came|confirmed|gave (?:us|me) (?:access|the go-ahead)"
    r"|got back to (?:us|me)|we're good|we are good|green-lit"
    r"|came through|got (?:access|approval|the go-ahead|merged|rotated|granted)|granted"
    r"|is (?:done|in|merged|fixed|live|back|cleared|rotated|through)|are (?:done|in|merged|back)"
    r"|has (?:landed|shipped|been (?:approved|merged|fixed|rotated|granted|done|sorted))"
    r"|works now|working now|all clear|good to go|green light|go-ahead)\b",
    re.IGNORECASE,
    keys=RESOLVED_KEYS,
)
#: "can't tag until X is done" states a condition, not a resolution.
CONDITIONAL = LazyPattern(r"\b(?:until|once|unless|if|when|whether|as soon as)\b", re.IGNORECASE)

# -- decisions and reversals --------------------------------------------------------------

#: "Decision: …" as a line of its own (what old turns are read for).
DECISION_MARKER = LazyPattern(
    r"^\W*(?:decision|decided)\W*:|(?<![A-Za-z])(?-i:Decision)\W*:", re.IGNORECASE
)
#: Always a decision: "I chose … over …", "we'll go with …", "Decision: …".
DECISION_STRONG = Cue(
    r"^\W*(?:decision|decided)\W*:|(?<![A-Za-z])(?-i:Decision)\W*:"
    r"|\b(?:I|we) (?:chose|picked|went with|opted for|settled on)\b"
    r"|\b(?:I|we)(?:'ve| have)? (?:chosen|decided)\b"
    r"|\b(?:I'm|I am|we're|we are) going with\b"
    r"|\b(?:let's|let us|I'll|I will|we'll|we will|I'd|I would|we'd) "
    r"(?:go with|stick with|stay with|keep|use|switch to|settle on|opt for)\b",
    re.IGNORECASE,
    keys=(
        "decision",
        "decided",
        "chose",
        "chosen",
        "picked",
        "went",
        "opted",
        "settled",
        "settle",
        "going",
        "go",
        "stick",
        "stay",
        "keep",
        "use",
        "switch",
        "opt",
    ),
)
#: Someone saying what they will do: with a reversal cue, what replaces the old choice.
INTENT = LazyPattern(r"\b(?:let's|let us|I'll|I will|we'll|we will|I'm going to)\b", re.IGNORECASE)
#: A decision when the sentence also gives a choice or a reason (CHOICE).
DECISION_WEAK = Cue(
    r"\b(?:let's|let us|I'll|I will|we'll|we will|I'd|I would|I'm going to|we're going to)"
    r"(?:\s+(?:just|also|now|then|instead|simply))?\s+[a-z][\w-]+\b"
    r"|\b(?:I|we) (?:now )?(?:build|use|keep|make|store|pass|put|key|emit|write)\b",
    re.IGNORECASE,
    keys=(
        "let's",
        "let",
        "i'll",
        "will",
        "we'll",
        "i'd",
        "would",
        "we'd",
        "going",
        "build",
        "use",
        "keep",
        "make",
        "store",
        "pass",
        "put",
        "key",
        "emit",
        "write",
    ),
)
CHOICE = Cue(
    r"\b(?:rather than|instead|over(?! to\b)|because|since|for now|in the meantime|meanwhile"
    r"|so (?:that|they|it|we)|which means)\b|^(?:OK|Okay|Right|Good|Fine|Then|So)?,? ?then,? I'll",
    re.IGNORECASE,
    keys=(
        "rather",
        "instead",
        "over",
        "because",
        "since",
        "now",
        "meantime",
        "meanwhile",
        "so",
        "which",
        "then",
    ),
)
#: "X over Y since …", "rather than Y, …", "instead of Y": Y is the alternative turned down.
REJECTED_ALTERNATIVE = Cue(
    r"\b(?:over(?! to\b)|rather than|instead of)\s+(.{3,120}?)"
    r"(?=\s*(?:,|;|:|\.|\bsince\b|\bbecause\b|\bso\b|\bas\b|\bwhich\b|\bfor\b|$))",
    re.IGNORECASE,
    keys=("over", "rather", "instead"),
)
#: "I'll start with the tests", "let me check": steps of work, not choices.
STEP_TALK = Cue(
    r"\b(?:I'll|I will|let's|let me|we'll) (?:start|begin|first|look|check|read|run|try|see)\b",
    re.IGNORECASE,
    keys=("start", "begin", "first", "look", "check", "read", "run", "try", "see"),
)
SUBORDINATE = LazyPattern(r"\W*(?:before|if|when|once|after|until|unless|whether)\b", re.IGNORECASE)
#: "Step 2 is done": a plan step that is finished.
STEP_DONE = LazyPattern(
    r"\bstep (\d+) (?:is|was|'s) (?:now )?(?:done|finished|complete|in)\b", re.IGNORECASE
)
#: A constraint that holds only for a while ("so don't wire it up yet").
TEMPORARY = Cue(
    r"\b(?:yet|for now|until|meanwhile|in the meantime)\b",
    re.IGNORECASE,
    keys=("yet", "now", "until", "meanwhile", "meantime"),
)
#: A decision kept only until something else happens.
PROVISIONAL = Cue(
    r"\b(?:for now|in the meantime|meanwhile|until then|as a stopgap|temporarily"
    r"|as a workaround|for the time being)\b",
    re.IGNORECASE,
    keys=("now", "meantime", "meanwhile", "then", "stopgap", "temporarily", "workaround", "being"),
)
#: Claude taking back its own last choice.
SELF_REVERSAL = Cue(
    r"\b(?:revers(?:e|ing) (?:that|my|the) (?:choice|decision)|scratch that|on second thought"
    r"|on reflection|change of plan|I was wrong about|taking that back"
    r"|undo(?:ing)? that (?:choice|decision))\b",
    re.IGNORECASE,
    keys=REVERSAL_KEYS,
)
#: A user's answer that turns down what Claude just proposed.
USER_REJECTS = Cue(
    r"^\W*(?:no\b|nope\b|nah\b|hm+,? no\b|wait,? no\b|actually,? no\b|not like that\b"
    r"|let's not\b|please don't\b|don't do that\b|scratch that\b|instead\b)"
    r"|\b(?:won't work|wouldn't work|doesn't work for|not like that|let's not|rather not)\b",
    re.IGNORECASE,
    keys=(
        "no",
        "nope",
        "nah",
        "hm",
        "hmm",
        "hmmm",
        "wait",
        "actually",
        "not",
        "let's",
        "please",
        "don't",
        "scratch",
        "instead",
        "won't",
        "wouldn't",
        "doesn't",
        "rather",
    ),
)
#: A user's own new choice that replaces an earlier one ("actually, switch to B").
USER_SWITCH = Cue(
    r"^\W*(?:actually,?\s+|ok,?\s+|okay,?\s+|hmm,?\s+)?(?:let's |please )?(?:switch|change|move"
    r"|go) (?:it |this |that |them |everything )?(?:to|with|over to)\b|\b(?:use|do|try|go with)"
    r" [^.]{1,60}? instead\b|\blet's not\b|\bactually,? (?:let's|use|we'll|we should)\b",
    re.IGNORECASE,
    keys=("switch", "change", "move", "go", "instead", "let's", "actually"),
)
#: What a user reports as broken ("e2e failed though: ERR_…").
USER_FAILURE = Cue(
    r"\b(?:failed|fails|failing|is red|went red|broke|is broken|crash(?:es|ed)|errored"
    r"|errors out)\b",
    re.IGNORECASE,
    keys=(
        "failed",
        "fails",
        "failing",
        "red",
        "broke",
        "broken",
        "crashes",
        "crashed",
        "errored",
        "errors",
    ),
)
#: ... and as working again.
PASSES = Cue(
    r"\b(?:passes|passed|passing|green|fixed|works now|working now|succeeded|is clean"
    r"|went through)\b",
    re.IGNORECASE,
    keys=(
        "passes",
        "passed",
        "passing",
        "green",
        "fixed",
        "works",
        "working",
        "succeeded",
        "clean",
        "went",
    ),
)
#: A decision that replaces something, without naming it ("Let's use NDJSON instead").
INSTEAD = LazyPattern(r"\binstead\b(?! of)", re.IGNORECASE)
_NEGATION = frozenset({"not", "never", "no", "yet"})


def says_resolved(sentence: str, toks: frozenset[str] | None = None) -> bool:
    """A sentence that settles something: a cue not negated ("isn't approved yet") and not a
    condition ("can't tag until X is done")."""
    match = RESOLVED.search(sentence, toks)
    if match is None or CONDITIONAL.search(sentence):
        return False
    before = sentence[: match.start()].lower().split()[-2:]
    return not any(word in _NEGATION or word.endswith("n't") for word in before)


# -- the user's constraints ---------------------------------------------------------------

CONSTRAINT = Cue(
    r"\b(?:don't|do not|never|please don't|must not|mustn't|shouldn't|can't) "
    r"(?:touch|change|modify|edit|rename|delete|remove|add|use|introduce|commit|push|deploy"
    r"|break|bump|upgrade|reformat)\b"
    r"|\b(?:leave|keep)\b[^.]{0,60}\b(?:alone|untouched|as (?:it is|they are|is)|exactly as"
    r"|unchanged|intact|stable|the same|backwards?[- ]compatible)\b"
    r"|\b(?:must|has to|have to|needs to|need to|should) (?:stay|remain|be kept|keep)\b"
    r"|\bstay out of\b|\bhands off\b"
    r"|\b(?:only|just) (?:use )?(?:the )?(?:stdlib|standard library)\b"
    r"|\b(?:stdlib|standard[- ]library)[- ]only\b"
    r"|\bno (?:third-party|external|extra) (?:deps|dependencies|packages|libraries)\b"
    r"|\bno (?:new )?(?:dependencies|deps|migrations?|migration files|new files)\b"
    r"|\b(?:code|migration|release|deploy(?:ment)?|merge) freeze\b"
    r"|\bwithout (?:adding|changing|touching|breaking)\b|\bpublic API\b",
    re.IGNORECASE,
    keys=(
        "don't",
        "do",
        "never",
        "please",
        "must",
        "mustn't",
        "shouldn't",
        "can't",
        "leave",
        "keep",
        "has",
        "have",
        "needs",
        "need",
        "should",
        "stay",
        "hands",
        "only",
        "just",
        "stdlib",
        "standard",
        "no",
        "freeze",
        "without",
        "public",
    ),
)

# -- plans, next steps, questions ---------------------------------------------------------

NEXT = Cue(
    r"\bnext,? (?:I'll|I will|we'll|we will|I'm going to|up)\b|\bI'll\b[^.?!]{3,120}\bnext\W*$"
    r"|\bthe next step (?:is|will be)\b|\bnext step\W*:|^\W*next\W*:|\bnext,? I'd\b"
    r"|\bafter that,? (?:I'll|we'll)\b|\b(?:the )?remaining steps? (?:is|are)\b"
    r"|\bwhat's left (?:is|:)|\bleft to do\b",
    re.IGNORECASE,
    keys=NEXT_KEYS,
)
PLAN_HEAD = LazyPattern(
    r"^\W*(?:the )?plan\W*:?\W*$|^\W*(?:here's|here is) (?:the|my) plan\b", re.IGNORECASE
)
PLAN_ITEM = LazyPattern(r"^\s*(?:\d+[.)]|[-*])\s+(.+)$")
#: Status lines Claude writes at the end of a turn ("- In progress: …", "- Open: …").
STATUS_LABEL = LazyPattern(
    r"^\W*(in progress|now|working on|currently|next|next step|next steps|remaining|left"
    r"|to do|todo|open|still open|still failing|failing|waiting on you|waiting on|question)"
    r"\s*\**:\**\s*(.+)$",
    re.IGNORECASE,
)
#: Claude saying what it is in the middle of.
DOING = Cue(
    r"\b(?:I'm (?:now |currently |still )?(?:working on|in the middle of)|currently working on"
    r"|right now I'm)\b",
    re.IGNORECASE,
    keys=DOING_KEYS,
)
WAITING = LazyPattern(
    r"\buntil you (?:answer|confirm|decide|reply|say|tell|choose|pick|let me know|get back)"
    r"|\b(?:your|you and \w+'s|your and \w+'s) call\b|\blet me know (?:which|whether|if)\b"
    r"|\bwaiting (?:on|for) (?:you|your)\b",
    re.IGNORECASE,
)
OPTION = LazyPattern(r"^\s*(?:\([a-z0-9]\)|[a-z0-9]\)|option [a-z0-9]\W)\s*\S", re.IGNORECASE)
APPROVAL = LazyPattern(
    r"^\W*(?:yes|yep|yeah|yup|ok|okay|sure|go ahead|do it|sounds good|lgtm|fine|please do"
    r"|agreed|makes sense|ship it|go for it|perfect|great)\b",
    re.IGNORECASE,
)

# -- failures -------------------------------------------------------------------------------

INTENDED_FAILURE = Cue(
    r"\b(?:expected to fail|expect(?:ing)? (?:it|this|them|the \w+) to fail|should fail"
    r"|is supposed to fail|meant to fail|fails? on purpose|deliberately fail\w*"
    r"|(?:should|must|will) (?:exit|return) (?:with )?(?:non-?zero|[1-9]\d*)"
    r"|as (?:expected|intended)|reproduced|(?:the )?(?:behaviou?r|result) we want(?:ed)?"
    r"|(?:that's|which is) what we want(?:ed)?|as it should)\b",
    re.IGNORECASE,
    keys=(
        "fail",
        "fails",
        "expected",
        "expect",
        "expecting",
        "should",
        "supposed",
        "meant",
        "deliberately",
        "exit",
        "return",
        "intended",
        "reproduced",
        "want",
        "wanted",
    ),
)
FAILURE_WORDS = LazyPattern(
    r"\b(?:fail\w*|error\w*|still|broken|red|lint\w*|warning\w*|panic\w*)\b", re.IGNORECASE
)
