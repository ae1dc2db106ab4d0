# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Cue phrases of decisions and their reversals: a choice made, the alternative turned down,
a choice taken back by Claude or turned down by the user. Pure, stdlib only; compiled on
first use (PreCompact and Stop need them).
"""

from __future__ import annotations

import re

from memhooks.restore.session_text import Cue
from memhooks.text.lazy_re import LazyPattern

REVERSAL_KEYS = (
    "reverse", "reversing", "scratch", "second", "reflection", "change", "wrong", "taking",
    "undo", "undoing",
)  # fmt: skip

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
#: A decision that replaces something, without naming it ("Let's use NDJSON instead").
INSTEAD = LazyPattern(r"\binstead\b(?! of)", re.IGNORECASE)
