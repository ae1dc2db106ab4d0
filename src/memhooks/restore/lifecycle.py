# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""What is still live in a session: blockers, decisions, constraints, the plan. Pure, stdlib only.

``LiveTracker`` is fed the genuine prompts and Claude's text in order, and at the end
replays what it saw:

- a blocker is *resolved* by a later sentence that says so ("approved", "sorted", "no longer
  blocked") and shares a rare word with it (an id, a name: "OPS-2291", "Sentry");
- a decision is *superseded* when a later one turns its alternative down ("X over Y"), when
  the user's next prompt rejects it ("no, not like that", "switch to …"), when Claude takes
  it back ("I'm reversing that choice"), or, made "for now" while blocked, when the blocker
  resolves;
- an assistant sentence that restates a user's blocker is not a second blocker;
- the goal is the first request, whole; "next" is Claude's latest "next I'll …" of the last
  two turns; a question in Claude's final reply that no prompt answered is waiting on the user.

Rare = weighted by how few of the session's prompts and candidate sentences hold the word,
so "pnpm" in a pnpm session links nothing while "corepack" does.
"""

from __future__ import annotations

import math

from memhooks.restore import cues, decision_cues, session_text
from memhooks.restore.live_items import (
    BLOCKER,
    CONSTRAINT,
    DECISION,
    FAILURE,
    MAX_DECISIONS,
    MAX_TRACKED,
    Item,
    LiveState,
)
from memhooks.restore.live_rules import (
    RARE_LINK,
    REJECT_LINK,
    SHORT_BLOCKER,
    add_decision,
    goal_without,
    is_decision,
    passes,
    plan_items,
    proposal,
    questions,
    reports_failure,
    settles,
    unlabelled,
)
from memhooks.text import one_line

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Callable

    Link = Callable[[set[str], set[str]], float]

FULL_TURNS = 60  # Claude's text of this many last turns is read with every cue
MAX_DOCUMENTS = 4000  # prompts and items kept for rarity: a bound for very long sessions
#: Rarity is measured as if a session had at least this many prompts and items: in a short
#: one every word is "common", yet "OPS-2291" in two sentences still ties them.
MIN_DOCUMENTS = 20
_NEXT_TURNS = 2  # a "next I'll …" older than this many prompts is likely done
_PLAN_TURNS = 3


class _Event:
    __slots__ = ("item", "kind", "text", "turn")

    def __init__(self, kind: str, turn: int, text: str = "", item: Item | None = None) -> None:
        self.kind = kind  # "item", "resolve", "reject", "self_reversal"
        self.turn = turn
        self.text = text
        self.item = item


class LiveTracker:
    def __init__(self) -> None:
        self.turn = 0  # prompts seen so far; Claude's text belongs to the latest one
        self.goal = ""
        self.latest_prompt = ""
        self.events: list[_Event] = []
        self.next_seen: list[tuple[int, str]] = []
        self.doing_seen: list[tuple[int, str]] = []
        self.plan: tuple[int, list[str]] = (0, [])
        self.steps_done: set[int] = set()
        self.replies: dict[int, list[str]] = {}  # the last few turns' text
        self.documents: list[set[str]] = []  # for rarity
        self.last_reply = ""
        self.answered = True  # a prompt came after Claude's last text
        self.rejected_turn = 0  # the turn whose prompt turned Claude's proposal down
        self.fed: list[tuple[bool, str]] = []  # (from the user, text), in order
        self.prompts_fed = 0
        self.full_from = 0  # turns after this one are read with every cue

    # -- feeding -----------------------------------------------------------------------
    # What is fed is kept and read at finish(), when the number of turns is known: Claude's
    # text of the last FULL_TURNS turns gets every cue, older text only the explicit forms
    # ("Decision: …", "blocked"), which keeps PreCompact flat on a 50 MB session.

    def prompt(self, text: str) -> None:
        self.fed.append((True, text))
        self.prompts_fed += 1

    def reply(self, text: str) -> None:
        if self.prompts_fed:
            self.fed.append((False, text))

    def _read_fed(self) -> None:
        full_from = self.full_from = self.prompts_fed - FULL_TURNS
        for from_user, text in self.fed:
            if from_user:
                self._prompt(text)
            elif self.turn > full_from:
                self._reply(text)
            else:
                self._reply_explicit(text)
        self.fed = []

    def _prompt(self, text: str) -> None:
        self.turn += 1
        if not self.goal:
            self.goal = text
        self.latest_prompt = text
        self.answered = True
        recent = self.turn > self.full_from
        if recent:  # rarity is measured over the recent turns and the items
            self.documents = [*self.documents[-MAX_DOCUMENTS:], session_text.words(text)]
        self.replies = {t: r for t, r in self.replies.items() if t >= self.turn - _PLAN_TURNS}
        self.rejected_turn = self.turn if recent and decision_cues.USER_REJECTS.search(text) else 0
        if self.rejected_turn:
            self.events.append(_Event("reject", self.turn, text))
        parts = session_text.sentences(text, from_user=True)
        taken = -1  # a sentence already joined to the one before it
        for index, sentence in enumerate(parts):
            if index == taken:
                continue
            # "I'm blocked on X though." says little alone: the next sentence says why.
            short = len(sentence) < SHORT_BLOCKER and index + 1 < len(parts)
            joined = f"{sentence} {parts[index + 1]}" if short else sentence
            if self._user_sentence(sentence, joined) and short:
                taken = index + 1

    def _user_sentence(self, sentence: str, joined: str) -> bool:
        """File one sentence of a prompt; True when ``joined`` (it and the next) was used."""
        used = False
        toks = session_text.tokens(sentence)
        if settles(sentence, toks):
            self.events.append(_Event("resolve", self.turn, sentence))
        elif cues.BLOCKED.search(sentence, toks) or cues.USER_BLOCKED.search(sentence, toks):
            self._item(BLOCKER, joined, from_user=True)
            used = True
        elif cues.CONSTRAINT.search(sentence, toks):
            self._item(CONSTRAINT, sentence, from_user=True)
        elif self.turn > 1 and self.turn > self.full_from and reports_failure(sentence, toks):
            # (the first prompt states the goal; failures reported long ago are history)
            self._item(FAILURE, joined, from_user=True)
            used = True
        if self.turn > self.full_from and passes(sentence, toks):
            self.events.append(_Event("passes", self.turn, sentence))
        if decision_cues.USER_SWITCH.search(sentence, toks):
            self._item(DECISION, sentence, from_user=True).replacing = True
        elif decision_cues.DECISION_STRONG.search(sentence, toks):
            self._item(DECISION, sentence, from_user=True)
        return used

    def _reply_explicit(self, text: str) -> None:
        """An old turn's text: only "Decision: …" lines and sentences saying "blocked"."""
        self.last_reply = text
        self.answered = False
        lowered = text.lower()
        if "decision" not in lowered and "block" not in lowered:
            return
        for line in text.splitlines():
            if decision_cues.DECISION_MARKER.search(line):
                self._item(DECISION, line, from_user=False)
            elif "block" in line.lower():
                for sentence in session_text.sentences(line, from_user=False):
                    if settles(sentence, session_text.tokens(sentence)):
                        self.events.append(_Event("resolve", self.turn, sentence))
                    elif cues.BLOCKED.search(sentence):
                        self._item(BLOCKER, sentence, from_user=False)

    def _reply(self, text: str) -> None:
        self.replies.setdefault(self.turn, []).append(text)
        self.last_reply = text
        self.answered = False
        self._plan(text)
        for sentence in session_text.sentences(text, from_user=False):
            self._claude_sentence(sentence)

    def _claude_sentence(self, sentence: str) -> None:
        toks = session_text.tokens(sentence)
        is_next = cues.NEXT.search(sentence, toks) is not None
        if is_next:
            self.next_seen = [*self.next_seen[-9:], (self.turn, sentence)]
        if cues.DOING.search(sentence, toks):
            self.doing_seen = [*self.doing_seen[-4:], (self.turn, sentence)]
        reversal = decision_cues.SELF_REVERSAL.search(sentence, toks) is not None
        if reversal:
            self.events.append(_Event("self_reversal", self.turn, sentence))
        if settles(sentence, toks):
            self.events.append(_Event("resolve", self.turn, sentence))
        elif cues.BLOCKED.search(sentence, toks):
            self._item(BLOCKER, sentence, from_user=False)
        elif not is_next and (
            is_decision(sentence, toks) or (reversal and decision_cues.INTENT.search(sentence))
        ):
            item = self._item(DECISION, sentence, from_user=False)
            # "Let's use B instead" replaces what it is closest to; after "no, not like
            # that" the user's words say what that was.
            if not reversal and decision_cues.INSTEAD.search(sentence):
                item.replacing = True
                if self.rejected_turn == self.turn:
                    item.replaces = session_text.words(self.latest_prompt)

    def _item(self, kind: str, text: str, *, from_user: bool) -> Item:
        text = one_line(text)
        item = Item(kind, text, self.turn, from_user=from_user)
        self.events.append(_Event("item", self.turn, text, item))
        if len(self.events) > MAX_TRACKED * 4:
            del self.events[: len(self.events) - MAX_TRACKED * 4]
        return item

    def _plan(self, text: str) -> None:
        lowered = text.lower()
        if "step" in lowered:
            for match in decision_cues.STEP_DONE.compiled.finditer(text):
                self.steps_done.add(int(match.group(1)))
        if "plan" not in lowered:
            return
        lines = text.splitlines()
        for index, line in enumerate(lines):
            if cues.PLAN_HEAD.match(line):
                items = plan_items(lines[index + 1 :])
                if items:
                    self.plan = (self.turn, items[:8])
                    self.steps_done = set()

    # -- replay --------------------------------------------------------------------------

    def _keep_newest_decisions(self) -> None:
        """A session of hundreds of "Decision:" lines keeps its newest MAX_DECISIONS."""
        decisions = [e for e in self.events if e.item is not None and e.item.kind == DECISION]
        if len(decisions) > MAX_DECISIONS:
            dropped = {id(e) for e in decisions[:-MAX_DECISIONS]}
            self.events = [e for e in self.events if id(e) not in dropped]

    def _rarity(self) -> dict[str, float]:
        counts: dict[str, int] = {}
        for document in self.documents:
            for word in document:
                counts[word] = counts.get(word, 0) + 1
        total = max(len(self.documents), MIN_DOCUMENTS)
        return {word: math.log((total + 1) / count) for word, count in counts.items()}

    def finish(self) -> LiveState:
        self._read_fed()
        self._keep_newest_decisions()
        for event in self.events:
            if event.item is not None:
                event.item.prepare()
                self.documents.append(event.item.words)
        rarity = self._rarity()

        def link(a: set[str], b: set[str]) -> float:
            return sum(rarity.get(word, 0.0) for word in a & b)

        items: list[Item] = []
        for event in self.events:
            self._replay(event, items, link)
        state = LiveState()
        state.goal = goal_without(
            self.goal, [i.text for i in items if i.turn == 1 and i.status != "open"]
        )
        for item in items:
            target = {
                (BLOCKER, "open"): state.blockers,
                (BLOCKER, "resolved"): state.resolved_blockers,
                (DECISION, "open"): state.decisions,
                (DECISION, "superseded"): state.superseded_decisions,
                (CONSTRAINT, "open"): state.constraints,
                (CONSTRAINT, "superseded"): state.lifted_constraints,
                (FAILURE, "open"): state.reported_failures,
                (FAILURE, "fixed"): state.fixed_reports,
            }.get((item.kind, item.status))
            if target is not None and item.text not in target:
                target.append(item.text)
        self._now_and_next(state, self.last_reply, answered=self.answered)
        return state

    def _replay(self, event: _Event, items: list[Item], link: Link) -> None:
        if event.kind == "item" and event.item is not None:
            self._add(event.item, items, link)
        elif event.kind == "resolve":
            self._resolve(event, items, link)
        elif event.kind == "passes":
            said = session_text.words(event.text)
            for failure in items:
                if (
                    failure.kind == FAILURE
                    and failure.status == "open"
                    and failure.turn < event.turn
                    and link(said, failure.words) >= RARE_LINK
                ):
                    failure.status = "fixed"
        elif event.kind == "reject":
            self._reject(event, items, link)
        elif event.kind == "self_reversal":
            earlier = [i for i in items if i.kind == DECISION and i.status == "open"]
            earlier = [i for i in earlier if i.text != event.text]
            if earlier:
                earlier[-1].status = "superseded"

    def _add(self, item: Item, items: list[Item], link: Link) -> None:
        if item.kind == BLOCKER and not item.from_user:
            # Claude restating a blocker ("still blocked on product") is not a new one.
            for other in items:
                if other.kind == BLOCKER and link(item.words, other.words) >= RARE_LINK:
                    return
        if item.kind == DECISION:
            add_decision(item, items, link)
        items.append(item)

    def _resolve(self, event: _Event, items: list[Item], link: Link) -> None:
        said = session_text.words(event.text)
        for blocker in items:
            if blocker.kind != BLOCKER or blocker.status != "open" or blocker.turn > event.turn:
                continue
            if link(said, blocker.words) >= RARE_LINK:
                blocker.status = "resolved"
                # What was decided "for now", or held "until" then, because of it goes with it.
                for decision in items:
                    if (
                        decision.kind in (DECISION, CONSTRAINT)
                        and decision.provisional
                        and decision.status == "open"
                        and decision.turn == blocker.turn
                    ):
                        decision.status = "superseded"

    def _reject(self, event: _Event, items: list[Item], link: Link) -> None:
        said = session_text.words(event.text)
        for decision in items:
            if decision.kind != DECISION or decision.status != "open" or decision.from_user:
                continue
            # The user answers the reply just before: only its decisions are turned down.
            if decision.turn == event.turn - 1 and (link(said, decision.words) >= REJECT_LINK):
                decision.status = "superseded"

    def _now_and_next(self, state: LiveState, final_reply: str, *, answered: bool) -> None:
        recent = [(t, s) for t, s in self.next_seen if t > self.turn - _NEXT_TURNS]
        newest = max((t for t, _ in recent), default=0)
        state.next_steps = [s for t, s in recent if t == newest][-2:]
        state.in_progress = [s for t, s in self.doing_seen if t > self.turn - _NEXT_TURNS][-1:]
        if self.plan[1] and self.plan[0] > self.turn - _PLAN_TURNS:
            state.plan = [
                f"{step} (done)" if n in self.steps_done else step
                for n, step in enumerate(self.plan[1], 1)
            ]
        for line in final_reply.splitlines():
            label = cues.STATUS_LABEL.match(line)
            if label is None:
                continue
            kind, text = label.group(1).lower(), one_line(label.group(2))
            if kind.startswith("next") or kind in ("remaining", "left", "to do", "todo"):
                state.next_steps.append(text)
            elif kind in ("open", "still open", "still failing", "failing"):
                state.open_notes.append(text)
            elif kind in ("waiting on you", "waiting on", "question"):
                state.waiting.append(text)
            else:
                state.in_progress.append(text)
        state.next_steps = list(dict.fromkeys(unlabelled(step) for step in state.next_steps))
        if not answered and final_reply:
            state.waiting += questions(final_reply)
        elif answered and cues.APPROVAL.search(self.latest_prompt):
            state.proposal = proposal(self.replies.get(self.turn - 1, []))
