# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The user's own patterns (``redact.extra_patterns``), bounded: config.json is committed,
so a cloned repository chooses them, and a catastrophic pattern must not hang a hook.

- a pattern is refused when it is longer than ``MAX_PATTERN_CHARS``, does not compile, uses
  a backreference, or repeats without bound something that itself repeats or branches
  (``(a+)+``, ``(a|aa)*``, ``(\\w*\\d)+``: the shapes that backtrack exponentially);
- at most ``MAX_PATTERNS`` are used;
- each runs over one line at a time, a long line in ``MAX_SPAN_CHARS`` pieces;
- all of them together get ``DEADLINE_SECONDS`` per text where a timer can interrupt them
  (POSIX, main thread): past it ``CustomPatternTimeoutError`` is raised, so nothing half
  redacted is written (a hook fails open and logs why), and the pattern is dropped;
- a pattern that passes the shape check can still backtrack polynomially on an ordinary
  line (``[^!]*[^!]*[^!]*!`` takes seconds on 2,000 characters without a ``!``): each is
  timed once on ``PROBE`` (``probe_seconds``; ``store.pattern_verdicts`` keeps the verdict)
  and dropped past ``PROBE_SECONDS``.

A dropped pattern stops redacting: that is said in the log, `status` and `doctor`, for the
user to fix it. Standard library only.
"""

from __future__ import annotations

import functools
import re
import time

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

MAX_PATTERNS = 20
MAX_PATTERN_CHARS = 200
MAX_SPAN_CHARS = 2_000
DEADLINE_SECONDS = 1.0
#: What a pattern may take on PROBE (best of three runs). A linear pattern takes well under a
#: millisecond, `.*secret.*` (quadratic on a long line) about 15 ms, `[^!]*[^!]*!` seconds.
PROBE_SECONDS = 0.05
_SENTENCES = (
    "We decided to keep the tokenizer, and the parser now reads the config once at start. "
    "The flaky test in tests/test_parser.py failed because the cache was shared by workers. "
    "Next I'll check the retry logic of the client (it waits 2s, 4s, then 8s) and rerun CI. "
)
#: Ordinary text of a session: prose, code, a log, JSON, a table, a blob, one long paragraph.
PROBE = "\n".join(
    (
        "Fixed the flaky test in tests/test_parser.py: the tokenizer split on U+2028 too.",
        "def parse(text: str) -> list[Token]:  # returns tokens, raises ParseError on bad input",
        '{"name": "memhooks", "version": "0.4.1", "scripts": {"test": "pytest -q"}}',
        "2026-01-12T10:22:31Z INFO server started on 0.0.0.0:8080 (pid 4121, workers=4)",
        "See https://example.com/docs/setup?lang=en#install and /usr/local/lib/python3/site.py",
        "export PATH=$HOME/.local/bin:$PATH && make -j4 build 2>&1 | tee build.log",
        "    for (let i = 0; i < items.length; i++) { total += items[i].price * items[i].qty; }",
        "E   AssertionError: assert 3 == 4  +  where 3 = len([1, 2, 3])",
        "| name | status | owner |\n|------|--------|-------|\n| auth | done   | ana   |",
        "SGVsbG8gd29ybGQhIFRoaXMgaXMgYSBiYXNlNjQgYmxvYiBvZiBzb21lIGxlbmd0aC4=" * 4,
        _SENTENCES * 7,
        "- [x] write the migration\n- [ ] run it on staging",
    )
)
#: Patterns dropped in this process (slow on the probe, or past the deadline on a text).
_DROPPED: set[str] = set()


class CustomPatternTimeoutError(RuntimeError):
    """A ``redact.extra_patterns`` entry ran past its deadline; ``pattern`` says which."""

    def __init__(self, message: str, pattern: str = "") -> None:
        super().__init__(message)
        self.pattern = pattern


def pattern_problem(pattern: object) -> str | None:
    """Why ``pattern`` is refused, or None when it may run."""
    if not isinstance(pattern, str):
        return "not a string"
    if len(pattern) > MAX_PATTERN_CHARS:
        return f"longer than {MAX_PATTERN_CHARS} characters"
    try:
        parsed = _parse(pattern)
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError, ValueError) as exc:
        return f"does not compile ({exc})"
    return _shape_problem(list(parsed))


def _parse(pattern: str) -> Any:  # noqa: ANN401 - sre's parse tree is untyped
    try:
        from re import _parser as parser  # type: ignore[attr-defined]
    except ImportError:  # Python 3.10
        import sre_parse as parser
    return parser.parse(pattern)


def _constants() -> Any:  # noqa: ANN401 - a module of constants
    try:
        from re import _constants as constants  # type: ignore[attr-defined]
    except ImportError:  # Python 3.10
        import sre_constants as constants
    return constants


def _shape_problem(items: list[tuple[Any, Any]], outer: str = "") -> str | None:
    """``outer``: "" at the top, "bounded" under a repeat like {2,12}, "unbounded" under +/*."""
    for op, argument in items:
        problem, children, nested = _inspect(op, argument, outer)
        if problem:
            return problem
        for child in children:
            inner = _shape_problem(list(child), nested)
            if inner:
                return inner
    return None


def _inspect(  # noqa: PLR0911 - one return per kind of node
    op: object,
    argument: Any,  # noqa: ANN401 - sre's parse tree is untyped
    outer: str,
) -> tuple[str | None, list[Any], str]:
    """(why refused, the sub-patterns to look into, what repeats above them)."""
    c = _constants()
    if op in (c.GROUPREF, c.GROUPREF_EXISTS):
        return "uses a backreference", [], outer
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
        _, high, body = argument
        unbounded = high == c.MAXREPEAT or high > 100  # noqa: PLR2004
        if (outer == "unbounded" and high > 1) or (outer == "bounded" and unbounded):
            return "nests a repeat inside a repeat", [], outer
        if unbounded or outer == "unbounded":
            return None, [body], "unbounded"
        return None, [body], "bounded" if high > 1 else outer
    if op == c.BRANCH:
        if outer == "unbounded":
            return "repeats an alternation without bound", [], outer
        return None, list(argument[1]), outer
    if op == c.SUBPATTERN:
        return None, [argument[-1]], outer
    if op in (c.ASSERT, c.ASSERT_NOT):
        return None, [argument[1]], outer
    if op == getattr(c, "ATOMIC_GROUP", None):
        return None, [argument], outer
    return None, [], outer


@functools.lru_cache(maxsize=16)
def _compile(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    usable = [p for p in patterns[:MAX_PATTERNS] if pattern_problem(p) is None]
    return tuple(re.compile(p) for p in usable)


def compile_patterns(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The usable patterns, compiled once per distinct config; refused and dropped ones are
    left out."""
    return tuple(c for c in _compile(patterns) if c.pattern not in _DROPPED)


def drop(pattern: str) -> None:
    """Leave `pattern` out from now on in this process (the verdict cache keeps it out of
    the next ones)."""
    _DROPPED.add(pattern)


def probe_seconds(pattern: str) -> float | None:
    """The seconds `pattern` takes on PROBE, best of three; None when it ran past twice
    PROBE_SECONDS (interrupted where a timer can interrupt it)."""
    compiled = re.compile(pattern)
    pieces = _pieces(PROBE)
    best: float | None = None
    for _ in range(3):
        start = time.perf_counter()
        try:
            with _Deadline(PROBE_SECONDS * 2):
                for piece in pieces:
                    compiled.sub("", piece)
        except CustomPatternTimeoutError:
            continue
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
        if best <= PROBE_SECONDS:
            break
    return best


def refused(patterns: Sequence[object]) -> list[str]:
    """One line per pattern that will not run, for config problems and `doctor`."""
    lines = [
        f"redact.extra_patterns[{i}]: refused, {problem}"
        for i, pattern in enumerate(patterns[:MAX_PATTERNS])
        if (problem := pattern_problem(pattern)) is not None
    ]
    if len(patterns) > MAX_PATTERNS:
        lines.append(f"redact.extra_patterns: only the first {MAX_PATTERNS} are used")
    return lines


def _pieces(text: str) -> list[str]:
    pieces: list[str] = []
    for line in text.splitlines(keepends=True):
        pieces.extend(line[i : i + MAX_SPAN_CHARS] for i in range(0, len(line), MAX_SPAN_CHARS))
    return pieces


def apply_custom(
    text: str, patterns: Sequence[str], replace: Callable[[re.Match[str]], str]
) -> str:
    compiled = compile_patterns(tuple(p for p in patterns if isinstance(p, str)))
    if not compiled or not text:
        return text
    current = ""
    try:
        with _Deadline(DEADLINE_SECONDS):
            pieces = _pieces(text)
            for pattern in compiled:
                current = pattern.pattern
                pieces = [pattern.sub(replace, piece) for piece in pieces]
    except CustomPatternTimeoutError:
        drop(current)
        message = (
            f"redact.extra_patterns entry {current!r} ran past {DEADLINE_SECONDS:g} s: "
            "nothing was written, and it is dropped"
        )
        raise CustomPatternTimeoutError(message, current) from None
    return "".join(pieces)


class _Deadline:
    """SIGALRM after ``seconds`` on POSIX in the main thread; a no-op elsewhere. Inside an
    outer timer (a hook's own deadline), the sooner of the two fires: the outer one is put
    back, less the time spent, on the way out."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.previous: Any = None
        self.armed = False
        self.outer = 0.0
        self.since = 0.0

    def __enter__(self) -> None:
        import signal
        import threading

        if not hasattr(signal, "setitimer") or threading.current_thread() is not (
            threading.main_thread()
        ):
            return
        self.outer = signal.getitimer(signal.ITIMER_REAL)[0]
        if self.outer and self.outer <= self.seconds:
            return  # the outer timer fires first, with its own handler
        self.since = time.monotonic()
        self.previous = signal.signal(signal.SIGALRM, _expired)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        self.armed = True

    def __exit__(self, *_: object) -> None:
        if self.armed:
            import signal

            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
            if self.outer:  # the outer timer goes on (due now if its time has come)
                left = self.outer - (time.monotonic() - self.since)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))


def _expired(_signum: int, _frame: object) -> None:
    raise CustomPatternTimeoutError("a redact.extra_patterns entry ran past its deadline")
