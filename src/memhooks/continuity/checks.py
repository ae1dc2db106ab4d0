"""Which check a shell command runs, and whether one run covers another. Pure, stdlib only.

A check is a command that tests, builds, lints or runs a script: not a program that only
looks at or moves files (`ls`, `cat`, `git`, `sed`, ...). Its outcome is kept whatever it
runs, but a pass proves something only when the command's words say it tests
(`proves_a_pass`): not when it makes files (`rails generate`, `dotnet new`), installs or
fetches (`npm install`, `uv add`, `go mod tidy`), lists or prints (`bin/rails routes`,
`cargo tree`, `--version`), serves (`npm run dev`, `docker compose up`) or changes data
(`rake db:migrate`, `mix ecto.migrate`), nor when it runs a one-off script written into it.
Its target is the program and its first word that is not an option (`cargo test`,
`make fuzz-regress`, `python pytest`), plus the rest of its words: an option that picks
tests with its value (`-run=TestX`), none that only changes how it reports (`-v`,
`-count=1`); a run covers another of the same target when it has no option the other has
not (but one that makes it stricter: `-race`, `-x`), the other none more that does not
narrow it (`-k`, `-run`: not `-race`, `-tags=slow`), and the same inputs or none (`mvn test`
covers `mvn -q test -Dtest=RetryPolicyTest`, `pytest` covers `pytest -k merge`,
`go test -race ./pkg/` covers `go test -run TestX ./pkg/`, `go test ./pkg/` does not cover
`go test -race ./pkg/`), so a later passing run closes the earlier failure whatever the
string.
"""

from __future__ import annotations

import functools
import re

from memhooks import TYPE_CHECKING
from memhooks.continuity import run_options
from memhooks.continuity.excerpt import MESSAGE, error_lines, next_line
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Programs whose failure says nothing about the code: they look at, fetch or move files,
#: or talk to the code's host (`gh pr comment`, as `git push`).
NOT_CHECKS = frozenset(
    """ls cat head tail less more grep egrep rg ag find fd echo printf sed awk cut tr sort
    uniq wc diff cmp git gh glab cp mv rm ln mkdir rmdir touch chmod chown cd pwd which type file
    stat du df tree env export set unset true false sleep date whoami id ps kill curl wget
    open xdg-open tee xargs basename dirname realpath readlink jq yq patch tar zip unzip
    gzip gunzip sha256sum md5sum psql sqlite3 mysql redis-cli mongosh
    for while until if then else fi do done case esac { }""".split()  # noqa: SIM905
)
#: What a command does when it neither tests nor builds, in the words the common tools give
#: their subcommands and tasks (npm, yarn, pnpm, pip, uv, poetry, cargo, go, mvn, gradle,
#: rails, rake, bundle, dotnet, mix, docker): it makes files, installs or fetches, lists or
#: prints, serves or starts, changes data or publishes.
NOT_CHECK_VERBS = frozenset(
    """generate gen g new init scaffold create destroy
    install add remove uninstall update upgrade get fetch restore sync lock tidy vendor
    download deps dependencies bootstrap setup prepare venv
    list ls routes show info tree outdated freeze version help env config doctor why search
    describe inspect contents
    server serve s dev start stop up down restart console shell watch logs preview
    runserver migrate migration migrations makemigrations seed rollback reset drop
    publish deploy push release login logout format fmt clean""".split()  # noqa: SIM905
)
#: Words that say a command tests, builds or lints, whatever other words it has.
CHECK_VERBS = frozenset(
    "test tests spec specs check lint build compile verify vet typecheck e2e".split()  # noqa: SIM905
)
#: Maven's phases run the tests before them: `mvn clean install` tests the code.
_LIFECYCLE = {"mvn": frozenset({"package", "install", "deploy"})}
_LIFECYCLE["mvnw"] = _LIFECYCLE["mvn"]
#: Words passed over on the way to the one that says what runs (`npm run build`, `python -m`).
_HOPS = frozenset({"run", "exec", "x", "dlx", "-m"})
_PRINTS = frozenset({"--help", "-h", "--version"})
#: A one-off script written into the command itself: `python3 -c`, `node -e`, a heredoc.
_INLINE = LazyPattern(r"\s-[ce]\s+['\"]|\brunner\s+['\"]|(?<!<)<<(?!<)-?\s*['\"]?[A-Za-z_]")
#: A program's name: a word, a path (`./gradlew`, `bin/rails`); not an option or shell syntax.
_PROGRAM = LazyPattern(r"^[\w.~/][\w.+/-]*$")
#: A script the command runs (`manage.py`, `tests/x.py`): passed over, never read as a verb.
_SCRIPT = LazyPattern(r"/|\.(?:py|rb|js|mjs|cjs|ts|sh|go|pl|php|exs|java|kt)$")
#: Words that change how much a run prints, never what it checks.
_NOISE = frozenset({"-q", "--quiet", "-v", "-vv", "-vvv", "--verbose", "-s", "--silent"})
#: A command's pieces: quoted strings whole, separators, and the text between them.
_PIECES = LazyPattern(r"""'[^']*'?|"(?:\\.|[^"\\])*"?|&&|\|\||;|[^'"&|;]+|.""")
_OUTPUT_PIPE = LazyPattern(r"\s*\|\s*(?:tail|head|tee|grep|less|cat)\b.*$")
_REDIRECT = LazyPattern(r"\s*(?:\d?>>?|&>)\s*(?:&\d|[^\s;&|]+)")
_ENV = LazyPattern(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+")
#: The shell's words that open what follows (`then pytest`, `do make`): passed over, while a
#: closing one alone (`fi`, `done`) stays a part that checks nothing.
_OPENERS = frozenset({"then", "do", "else", "elif", "if", "while", "until", "!", "{"})
_WRAPPERS = frozenset({"timeout", "time", "nice", "sudo", "npx", "uv", "poetry", "pipenv"})
_EXIT = LazyPattern(r"^\s*(?:Exit code|exit code|exit status)\s*:?\s*(\d+)\s*$", re.MULTILINE)

_PATH_LIKE = LazyPattern(r"/|::|\.\w{1,5}$")
_STRONG_ERROR = LazyPattern(r"\b(?:error|ERROR|FAIL\w*|Error|panicked)\b")
#: pytest's short summary: the test and its message on one line.
_SUMMARY = LazyPattern(r"^(?:FAILED|ERROR)\s+\S+\s+-\s+\S")
#: A compiler or tool invocation echoed into the output, not its verdict.
_ECHO = LazyPattern(r"^\s*(?:\$ |\+ |cc |gcc |clang |g\+\+ |javac |make\[)")

ERROR_LIMIT = 240
#: The most a failed chain keeps of its parts' words (the evidence is written on every Stop).
PARTS_KEPT = 400


def _segment_words(segment: str) -> list[str]:
    segment = _ENV.sub("", segment.strip())
    words = [w.strip("'\"") for w in segment.split()]
    while words and (
        words[0] in _WRAPPERS or words[0].isdigit() or (words[0] in _OPENERS and len(words) > 1)
    ):
        words = words[1:]
    if words and words[0] in {"run", "exec"} and len(words) > 1:  # `uv run`, `poetry run`
        words = words[1:]
    return [w for w in words if w and w not in _NOISE]


@functools.lru_cache(maxsize=64)
def _check_segments(command: str) -> tuple[tuple[tuple[str, ...], ...], bool]:
    """The words of each segment of `command` that may run a check, and whether they are
    joined by `&&` only (then the command passing proves each of them passed). Cached: a
    command's run asks for its target, what it proves and what it settles."""
    lines = _without_heredocs(command.strip().replace("\\\n", " ").splitlines())  # `\` joins
    text = _OUTPUT_PIPE.sub("", _REDIRECT.sub("", "; ".join(lines)))
    parts = [""]
    separators = []
    for piece in _PIECES.compiled.findall(text):  # a separator inside quotes separates nothing
        if piece in ("&&", "||", ";"):
            separators.append(piece)
            parts.append("")
        else:
            parts[-1] += piece
    segments = tuple(
        tuple(words)
        for words in (_segment_words(s) for s in parts)
        if words and words[0] not in ("cd", "export", "set", "source", ".")
    )
    return segments, all(sep == "&&" for sep in separators)


#: A heredoc's opening (`<<'EOF'`, `<<-END`): the lines up to its word alone are its text.
#: Not a here-string (`<<< word`, one line's text) nor a shift (`$((1 << 3))`).
_HEREDOC = LazyPattern(r"(?<!<)<<(?!<)-?\s*(['\"]?)([A-Za-z_]\w*)\1")


def _without_heredocs(lines: Sequence[str]) -> list[str]:
    """`lines` without the text of each heredoc in them (a file written, never commands):
    a line that opens several has their texts one after the other, as the shell reads them."""
    out: list[str] = []
    ends: list[str] = []
    for line in lines:
        if ends:
            if line.strip() == ends[0]:
                ends.pop(0)
            continue
        ends = [opened[1] for opened in _HEREDOC.compiled.findall(line)]
        out.append(line)
    return out


def verbs(program: str, rest: Sequence[str]) -> list[str]:
    """The words that say what a command does: its program's name and the words right after
    it up to its first option (`run`, `exec`, `-m` and script paths passed over), each cut at
    `:` and `.` (`db:migrate`, `deps.get`, `phx.gen.html`)."""
    found = [program.rsplit("/", 1)[-1]]
    for word in rest:
        if word in _HOPS or _SCRIPT.compiled.search(word) or "=" in word:
            continue
        if word.startswith("-"):
            break
        found += re.split(r"[:.]", word.lower())
    return found


def checks_anything(program: str, rest: Sequence[str]) -> bool:
    """Whether a command tests, builds, lints or runs a script (see the module's doc): a word
    of `CHECK_VERBS` (or a formatter's `--check`) says so whatever else it says; a word of
    `NOT_CHECK_VERBS` or a program of `NOT_CHECKS` (`docker compose exec db psql`), or `--help`
    / `--version`, says it does something else."""
    said = set(verbs(program, rest))
    checking = CHECK_VERBS | _LIFECYCLE.get(program.rsplit("/", 1)[-1], frozenset())
    if said & checking or any(word.startswith("--check") for word in rest):
        return True
    return not (said & (NOT_CHECK_VERBS | NOT_CHECKS) or _PRINTS.intersection(rest))


def proves_a_pass(command: str) -> bool:
    """Whether `command` passing is a proof worth a line among the checks: its last command
    tests, builds, lints or runs a kept script (`checks_anything`), or any of its commands
    when `&&` alone joins them (`make test && make install` passing proves `make test`
    passed), and it is no one-off script written into the command (`python3 -c '…'`,
    `rails runner '…'`, a heredoc). Its failure is worth one either way (`npm install`
    failing is an open failure)."""
    segments, all_and = _check_segments(command)
    if not segments or _INLINE.compiled.search(command):
        return False
    parts = segments if all_and else segments[-1:]
    return any(checks_anything(words[0], words[1:]) for words in parts)


def _own_target(words: Sequence[str]) -> tuple[str, frozenset[str]] | None:
    program = words[0].rsplit("/", 1)[-1] if "/" not in words[0][:2] else words[0]
    if program in NOT_CHECKS or not _PROGRAM.compiled.match(program):
        return None
    rest = list(words[1:2]) if words[1:2] and words[1] in _HOPS else []  # `python -m`
    rest += run_options.scope(words[1 + len(rest) :])
    first = next((i for i, w in enumerate(rest) if not w.startswith("-")), None)
    if first is not None and _PATH_LIKE.compiled.search(rest[first]):
        first = None  # `pytest tests/x.py`, `python3 a.py`: what it runs, not a subcommand
    runner = program if first is None else f"{program} {rest[first]}"
    return runner, frozenset(w for i, w in enumerate(rest) if i != first)


def unproven_pass(command: str, output: str) -> bool:
    """Whether a success of `command` proves nothing: its output went through a filter
    (`| tail -30`) without `pipefail`, so the exit status is the filter's, and what the filter
    let through shows no count of tests run without failures."""
    if _OUTPUT_PIPE.compiled.search(command) is None or "pipefail" in command:
        return False
    return (
        TESTS_RAN.compiled.search(output) is None or _FAILURES.compiled.search(output) is not None
    )


def target(command: str) -> tuple[str, frozenset[str]] | None:
    """(runner, other words) of the check `command` runs, or None when it runs no check. In
    a chain joined by `&&` alone, what follows its last check and checks nothing (`&& echo
    OK`, `&& rm -f /tmp/x`) is housekeeping: the chain's outcome is that check's."""
    segments, all_and = _check_segments(command)
    while all_and and len(segments) > 1 and _own_target(segments[-1]) is None:
        segments = segments[:-1]
    found = _own_target(segments[-1]) if segments else None
    if found is None:
        return None
    before = " && ".join(" ".join(s) for s in segments[:-1])
    return (f"{before} && {found[0]}" if before else found[0]), found[1]


def proven_by_passing(command: str) -> list[tuple[str, frozenset[str]]]:
    """The targets a passing `command` proves pass: its own, and in a `&&` chain each
    check's (`python3 a.py && python3 b.py` passing proves `python3 a.py` passes)."""
    whole = target(command)
    segments, all_and = _check_segments(command)
    parts = [_own_target(words) for words in segments] if all_and else []
    return [t for t in (whole, *parts) if t is not None]


#: A count of the tests a run ran (pytest, unittest, JUnit, cargo, TAP, rspec, go).
TESTS_RAN = LazyPattern(
    r"\b\d+ (?:passed|failed)\b|Tests run: \d+|test result:|^Ran \d+ tests?|# (?:pass|fail) \d+|"
    r"\d+ examples?, \d+ failures?|^(?:ok|FAIL)\s+\S+\s+[\d.]+s",
    re.MULTILINE,
)
#: A count of failures that is not zero, or a verdict of failure.
_FAILURES = LazyPattern(
    r"\b[1-9]\d* (?:failed|failures?|errors?)\b|(?:Failures|Errors): [1-9]|BUILD FAILURE|"
    r"^(?:FAIL|FAILED)\b",
    re.MULTILINE,
)


def covers(run: tuple[str, frozenset[str]], other: tuple[str, frozenset[str]]) -> bool:
    """A passing `run` proves `other` passes too: same runner, no option `other` has not
    (an option that picks tests narrows the run: `pytest -k merge` does not cover `pytest`;
    one that stops at the first failure ran them all when it passed, one that makes it
    stricter checked more: `go test -race ./pkg/` covers `go test -run TestX ./pkg/`),
    `other` none more that does not narrow it (`go test ./pkg/` covers neither
    `go test -race ./pkg/` nor `go test -tags=slow ./pkg/`), and the same inputs or none
    (`cargo run -- x.log` checks that input, not all of them)."""
    if run[0] != other[0]:
        return False
    mine = {w for w in run[1] if not run_options.covers_more(w)}
    inputs = {w for w in mine if not w.startswith("-")}
    wider = [w for w in other[1] - run[1] if w.startswith("-")]  # what `other` has more
    return (
        mine <= other[1]
        and all(run_options.narrows(w) for w in wider)
        and (not inputs or inputs == {w for w in other[1] if not w.startswith("-")})
    )


def open_parts(command: str, *, ok: bool) -> dict[str, list[str]]:
    """What a failing `&&` chain keeps to be settled part by part: the words of each of its
    commands that runs a check (`{"open": ["go build ./...", "go test ./pkg/"]}`), as any of
    them may be the one that failed; nothing for a pass, a lone command, or a chain joined
    by `;` or `||` (its exit status is its last command's, or says nothing of each), nor
    for one too long to keep its parts (`PARTS_KEPT`): it is settled as a whole only."""
    segments, all_and = _check_segments(command)
    if ok or not all_and or not segments[1:]:
        return {}
    parts = [" ".join(words) for words in segments if _own_target(words) is not None]
    return {"open": parts} if parts and sum(map(len, parts)) <= PARTS_KEPT else {}


def _clipped(line: str) -> str:
    line = line.strip()
    return line if len(line) <= ERROR_LIMIT else line[:ERROR_LIMIT] + "…"


#: The result of a call that never ran: the user rejected it, or the host cancelled it.
_NOT_RUN = LazyPattern(
    r"^\s*(?:The user doesn't want to proceed with this tool use|"
    r"(?:<tool_use_error>)?Cancelled: parallel tool call)"
)


def never_ran(output: str) -> bool:
    """Whether a failed call's result says the command never ran: no outcome of any check."""
    return _NOT_RUN.compiled.match(output) is not None


def error_line(output: str) -> str:
    """The line of a failed run's output that says what went wrong ('' when none does): the
    first with an error's message (pytest's `FAILED test - message`, `ValueError: …`), else
    the first that says "error" (or fail, assert…), never a stack frame, a traceback's header
    or a command echo; else the last line. A line that ends in ":" brings the next one (a
    panic's message). A call that never ran says so (`never_ran`)."""
    if never_ran(output):
        return "not run: " + ("cancelled" if "Cancelled" in output[:60] else "the user said no")
    lines = [
        line for line in output.splitlines() if line.strip() and not _EXIT.compiled.match(line)
    ]
    if not lines:
        return ""
    found = [i for i in error_lines(lines) if not _ECHO.compiled.match(lines[i])]
    summary = [i for i in found if _SUMMARY.compiled.match(lines[i])]
    strong = [i for i in found if _STRONG_ERROR.compiled.search(lines[i])]
    messages = [i for i in found if MESSAGE.compiled.search(lines[i])]
    at = next(iter(summary or messages or strong or found), len(lines) - 1)
    line = lines[at].strip()
    after = next_line(lines, at)
    if after != at and not any(c.isalnum() for c in line.rsplit(":", 1)[-1]):
        line += " " + lines[after].strip()  # its message follows: a panic's, YAML's `|-`
    return _clipped(line)
