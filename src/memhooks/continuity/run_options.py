"""What a check's options say about what it ran (`checks.covers`): an option that picks
tests narrows it and joins its value in its target (`-run X` as `-run=X`), one that only
changes how it reports is left out (`-v`, `-count=1`), one that makes it stricter stays
(`-race`: a pass without it proves nothing of a run with it). Pure, stdlib only."""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Options that pick which tests run, with their value when it is the next word: pytest
#: `-k`/`-m`/`--deselect`, go `-run`/`-skip`, jest and vitest `-t`/`--testNamePattern`,
#: mocha and playwright `--grep`/`-g`, rspec `-e`/`--tag`, phpunit, dotnet and pnpm
#: `--filter`, gradle `--tests`, mix `--only`, cargo `-p`/`--test`/`--bin`, npm `-w` (and
#: `--maxfail N`, kept as one word).
_SELECTS = frozenset(
    """-k -m --deselect --ignore -run -skip -t --testNamePattern --testPathPattern -g --grep
    --fgrep -e --example --tag --filter --group --tests --only --exclude -p --package --test
    --bin -w --workspace --project --maxfail""".split()  # noqa: SIM905
)
#: Options that change how a run builds or reports, never which tests it runs: out of its
#: target (`go test -count=1 ./pkg/` and `go test ./pkg/` are one). With a value of this shape
#: as the next word (pytest's `-p no:cacheprovider` loads a plugin, cargo's `-p x` selects).
_QUIET_VALUE = dict.fromkeys(("-count", "-parallel", "-j", "--jobs", "--durations"), r"\d+") | {
    "-timeout": r"\d+\w*", "-p": r"\d+|no:\S+", "-n": r"\d+|auto|logical",
    "--tb": r"auto|long|short|line|native|no", "--color": r"yes|no|auto|always|never",
    "--cov-report": r"\S+",
}  # fmt: skip
_QUIET = LazyPattern(
    r"^(?:-json|-cover|-cover(?:mode|profile|pkg)=\S*|-count=\d+|"
    r"-timeout=\S+|-parallel=\d+|-p=\d+|--colou?rs?(?:=\w+)?|--no-colou?r|"
    r"--tb=\w+|-r[fEsxXpPaAN]+|--durations=\d+|--no-header|--showlocals|--ci|--runInBand|"
    r"--cov-report=\S+|--no-fail-fast|-n=?\d+|-j\d+|--nocapture|--show-output|"
    r"--test-threads=\d+|--reporter=\S+|--junit-?xml=\S+)$"
)
#: Options that make a run stricter, never narrower (a race detector, a shuffled order, a
#: coverage floor): kept in its target; a pass with them covers a run without, not back.
_STRICTER = LazyPattern(r"^(?:-race|-msan|-asan|-shuffle(?:=\S+)?|--coverage|--cov(?:=\S+)?)$")
#: Options that narrow a run without a value of their own (a selector's is joined to it).
_NARROWS = _SELECTS | {"--", "--lf", "--last-failed", "--sw", "--stepwise", "-Dtest"}
#: A run that stops at its first failure: the failures it names are not all there are.
STOPS_EARLY = frozenset({"-x", "--exitfirst", "--failfast", "-failfast", "--bail", "--fail-fast"})


def scope(rest: Sequence[str]) -> list[str]:
    """A run's words as they bear on what it checks: an option that picks tests joined with
    its value (`-run X` as `-run=X`), one that only changes how it builds or reports left
    out (`-v`, `-count 1`), the words after `--` (the program's own) as they are but those."""
    out: list[str] = []
    at = 0
    while at < len(rest):
        word, value = rest[at], rest[at + 1] if at + 1 < len(rest) else "-"
        if word == "--":  # the program's own words: only those that just report left out
            return out + [w for w in rest[at:] if not _QUIET.compiled.match(w)]
        shape = _QUIET_VALUE.get(word)
        if shape is not None and re.fullmatch(shape, value):
            at += 1
        elif word in _SELECTS and not value.startswith("-"):
            out.append(f"{word}={value}")
            at += 1
        elif not _QUIET.compiled.match(word):
            out.append(word)
        at += 1
    return out


def stops_early(word: str) -> bool:
    return word in STOPS_EARLY or word.startswith("--maxfail")


def narrows(word: str) -> bool:
    """Whether an option narrows the run that has it (`-k=merge`, `-x`, `--lf`): one it does
    not know (`-tags=integration`, `--runslow`, `-race`) may widen it or make it stricter."""
    return stops_early(word) or word.split("=", 1)[0] in _NARROWS


def covers_more(word: str) -> bool:
    """Whether a passing run's option leaves it covering the run without it: it would have
    stopped at a failure (`-x`), or made the run stricter (`-race`)."""
    return stops_early(word) or _STRICTER.compiled.match(word) is not None
