# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The items the live-state replay tracks, and the state it hands back. Pure, stdlib only."""

from __future__ import annotations

from memhooks.restore import decision_cues, session_text

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Callable

    Link = Callable[[set[str], set[str]], float]

#: item kinds the replay tracks
BLOCKER, DECISION, FAILURE, CONSTRAINT = "blocker", "decision", "failure", "constraint"
MAX_TRACKED = 200
MAX_DECISIONS = 100  # like the extractor's other lists: the newest are kept


class Item:
    """A blocker or decision as tracked; ``status`` is ``open`` or why it is not."""

    __slots__ = (
        "from_user",
        "kind",
        "provisional",
        "rejected",
        "replaces",
        "replacing",
        "status",
        "text",
        "turn",
        "words",
    )

    def __init__(self, kind: str, text: str, turn: int, *, from_user: bool) -> None:
        self.kind = kind
        self.text = text
        self.turn = turn
        self.from_user = from_user
        self.status = "open"
        # Filled by prepare(), only for the items the replay keeps.
        self.words: set[str] = set()
        self.provisional = False
        self.rejected: set[str] = set()
        #: words of what this decision replaces without naming it (_claude_sentence);
        #: ``replacing`` asks prepare() to add the decision's own words
        self.replaces: set[str] = set()
        self.replacing = False

    def prepare(self) -> None:
        text, kind = self.text, self.kind
        self.words = session_text.words(text)
        self.provisional = (
            kind == DECISION and decision_cues.PROVISIONAL.search(text) is not None
        ) or (kind == CONSTRAINT and decision_cues.TEMPORARY.search(text) is not None)
        alternative = decision_cues.REJECTED_ALTERNATIVE.search(text) if kind == DECISION else None
        self.rejected = session_text.words(alternative.group(1)) if alternative else set()
        if self.replacing:
            self.replaces |= self.words


class LiveState:
    """The tracker's answer, plain data."""

    __slots__ = (
        "blockers",
        "constraints",
        "decisions",
        "fixed_reports",
        "goal",
        "in_progress",
        "lifted_constraints",
        "next_steps",
        "open_notes",
        "plan",
        "proposal",
        "reported_failures",
        "resolved_blockers",
        "superseded_decisions",
        "waiting",
    )

    def __init__(self) -> None:
        self.goal = ""
        self.in_progress: list[str] = []
        self.next_steps: list[str] = []
        self.plan: list[str] = []
        self.proposal = ""
        self.waiting: list[str] = []
        self.open_notes: list[str] = []
        self.blockers: list[str] = []
        self.resolved_blockers: list[str] = []
        self.decisions: list[str] = []
        self.superseded_decisions: list[str] = []
        self.constraints: list[str] = []
        #: constraints that held only until a blocker went away ("don't wire it up yet")
        self.lifted_constraints: list[str] = []
        #: failures the user reported (a CI job, a pasted log), open and fixed since
        self.reported_failures: list[str] = []
        self.fixed_reports: list[str] = []
