"""Whether a sentence to remember is plainly about the person, not the project. Pure.

`remember` files a sentence in the user tier (every project) only on a plain cue, and in
the project otherwise: a project memory in the wrong place is seen by the team and moved
with `promote`; a project rule filed in the user tier would follow the person everywhere.
So the rule is small and conservative:

- a first-person sentence about a liking or a habit: "I prefer …", "I always/never …",
  "I like/love/hate …", "I'd rather …", "I usually …", "I review …", "I want you to …";
- the person's own things: "my preference(s)/style/habits/workflow/editor/shell/name";
- how to address them: "ask/tell/remind/call/address me …", "answer/reply/respond/talk/
  speak/write (to me) in <a language>" ("answer in British English");

and never when the sentence names the project or a team: "we", "our", "us", "this
project/repo/codebase/…", "the team". "Always use bun, not npm" has no cue (it may be a
project's rule): it goes to the project, and `--user` (or `promote`) puts it in the tier.
"""

from __future__ import annotations

import re

_LANGUAGES = (
    "english|french|german|spanish|italian|portuguese|dutch|japanese|chinese|korean|polish|"
    "russian|swedish|danish|norwegian|finnish|greek|turkish|hindi|arabic|hebrew|ukrainian|czech"
)

_PERSONAL: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"^(?:please\s+)?i(?:'d|'m| am| would| do)?\s+(?:(?:really|strongly|generally|also|"
        r"personally|definitely|much|still|just|do|always|usually)\s+){0,2}"
        r"(?:prefer|like|love|hate|dislike|rather|always|never|usually|tend|review|want|"
        r"expect|don't like|do not like)\b",
    ),
    re.compile(r"\bmy (?:own )?(?:preferences?|style|habits?|workflow|editor|shell|name)\b"),
    re.compile(r"\b(?:ask|tell|remind|call|address|show) me\b"),
    re.compile(
        r"\b(?:answer|reply|respond|talk|speak|write)s?(?: to me)?(?: only| always)? in "
        r"(?:(?:british|american|australian|canadian|plain|simple)\s+)?(?:" + _LANGUAGES + r")\b"
    ),
)

_PROJECT = re.compile(
    r"\b(?:we|we're|we've|we'll|we'd|our|ours|us|"
    r"(?:this|the) (?:project|repo|repository|codebase|code base|app|service|module|package|"
    r"team|branch|monorepo))\b"
)


def personal_cue(text: str) -> str:
    """The words that make `text` plainly about the person, or "" (then: the project)."""
    folded = " ".join(text.casefold().replace("\u2019", "'").split())
    if _PROJECT.search(folded):
        return ""
    for pattern in _PERSONAL:
        found = pattern.search(folded)
        if found:
            return found.group(0).strip()
    return ""
