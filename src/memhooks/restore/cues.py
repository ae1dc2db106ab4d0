# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Cue phrases of real sessions: blockers, decisions and reversals, constraints, plans,
failures. Pure, stdlib only; the sentences they are tested on come from `session_text`.

The lists hold how people and Claude actually say things ("I'll go with X rather than Y
because", "don't touch deploy/", "Sentry access is sorted", "This one is expected to fail"),
not the wording of any one fixture. Each pattern is compiled on first use: PreCompact is the
only hook that needs them.
"""

from __future__ import annotations

import re

from memhooks.restore.session_text import Cue
from memhooks.text.lazy_re import LazyPattern

# The words each pattern below needs, lower case: a sentence without them cannot match.
NEXT_KEYS = ("next", "remaining", "left", "after")
DOING_KEYS = ("working", "middle", "currently", "right")
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
