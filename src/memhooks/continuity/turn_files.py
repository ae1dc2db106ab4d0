"""What each turn changed: the files its tools wrote, edited or removed. Pure, stdlib only.

A turn of the evidence keeps `changed`, {path: how}, as the tools' results prove it: a Write,
Edit, MultiEdit or NotebookEdit that succeeded (`note`), and a Bash command that succeeded and
plainly wrote a file inside the project (`bash_wrote`, read by `text.shell_writes` as the write
guard reads it: `>`, `tee`, `sed -i`, `cp`, the target of `mv`, ...; not a quoted `'>'` or a
`[[ a > b ]]`, which the guard refuses on its safe side). A file removed later
(`removed`) is no longer an earlier turn's change: one the session made (a scratch script)
leaves every turn, another is shown deleted at the turn that removed it.

A Bash call that recorded work in git (a commit, an amend, a push, a merge, a tag, a
stash, a branch made) keeps, beside its command, those git commands verbatim by selection
(`recorded`: `git add`, `cd`, a look at the log left out, a check between them as "…"), and
stays among the turn's runs however many came after it (`kept_runs`): the restore shows it
with its outcome wherever a turn shows more than its prompt and Claude's answer (without
its messages where the turn is shown short), so "amend, or a new commit?" followed by the
amend reads as done.

The restore shows one line per turn where it shows what ran (`changed_lines`: "[12] files
changed: `a.py`, `b.md` (new)"), so "said it would do X, then edited Y" reads as done. git stays
the authority for what is changed now: SessionStart takes out of those lines the files git's
view shows unchanged since the session began (`without`: reverted, or made and removed).
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.continuity.checks import NOT_CHECKS
from memhooks.continuity.proofs import code_span
from memhooks.text import clip
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: Files one turn keeps, and shows (the newest; a count for the rest).
MAX_FILES = 40
FILES_SHOWN = 6
PATH_CAP = 160
LABEL = "files changed"
#: A Bash write is known to have happened, not whether the file was there before.
WROTE = "wrote"
#: The verbs of `shell_writes` that take a file away (`removed` sees to those).
_TAKES_AWAY = frozenset({"rm", "rmdir", "unlink", "shred", "mv"})
#: `git rm` and `git mv` take files away as `rm` and `mv` do (`git rm --cached` keeps it).
_GIT_MOVES = LazyPattern(r"\bgit\s+(?=(?:rm|mv)\b(?![^;&|\n]*--cached))")
#: What the write guard's reader takes for a redirection, on its safe side, that writes no
#: file: a quoted or escaped operator (`grep -c '>' f`), a comparison in `[[ ]]` or `(( ))`.
_NO_REDIRECT = LazyPattern(
    r"""(?<![^\s;&|()])(['"])[<>&|;]+\1(?![^\s;&|()])|\\[<>]|\[\[\s.*?\s\]\]|\(\(.*?\)\)"""
)
#: git's subcommands that record work whatever their options, and those that do with some.
_RECORDS = frozenset("commit push merge rebase cherry-pick revert am pull".split())  # noqa: SIM905
_MAKES_BRANCH = frozenset("-b -B -c -C --create --force-create --orphan".split())  # noqa: SIM905
_BRANCH_CHANGES = frozenset(
    "-d -D -m -M -c -C --delete --move --copy -f --force -u --set-upstream-to".split()  # noqa: SIM905
)
_LISTS = frozenset(
    "-a -r -l -n -v -vv --list --verify --contains --merged --no-merged --points-at".split()  # noqa: SIM905
)
_STASH_CHANGES = frozenset("push save pop apply drop clear branch".split())  # noqa: SIM905
_MOVES_HEAD = frozenset({"--hard", "--soft", "--keep", "--merge"})
#: A command that may hold one of those: read no further otherwise (most are not). Bounded:
#: `.*` after each "git" of a long line made a search quadratic (minutes on 150 KB).
_MAY_RECORD = LazyPattern(
    r"\bgit\b[^\n]{0,200}?\b(?:commit|push|merge|rebase|cherry-pick|revert|am|pull|tag|stash|"
    r"checkout|switch|branch|reset)\b"
)
#: Options that make a git command only show what it would do (`push -n` is push's alone:
#: `commit -n` skips the hooks and commits).
_ONLY_SHOWS = frozenset({"--dry-run", "--help", "-h"})
#: How much of a command is read for git work, and kept of what it recorded.
READ_CAP = 4000
HEREDOC_READ_CAP = 64_000
RECORDED_CAP = 300
#: git's options before its subcommand that take the next word (`git -C dir commit`).
_GIT_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "|&", "(", ")"})
#: Programs that only look or move (`cd`, `| tail`): left out of what a command recorded.
_LOOKS = NOT_CHECKS - {"git"}
#: A commit message written through a heredoc (`-m "$(cat <<'EOF' …)"`): its opening, then
#: its first line (`_heredoc_first_lines`: one pass, no `.*?` to each end).
_MESSAGE_HEREDOC = LazyPattern(r"""\$\(\s*cat\s*<<-?\s*(['"]?)(\w+)\1[^\n]*\n\s*([^\n]*)""")
WORD_CAP = 60
#: A commit's or a stash's message (`-m "…"`, `--message=…`) and `-q`, left out of a turn
#: shown short; `git branch -m old new` (a rename, not quoted) stays.
_MESSAGE = LazyPattern(r"""\s(?:-q|--quiet|(?:-q?m|--message)(?:=|\s)"[^"]*")(?=\s|$)""")
#: A check's word that names a file or folder; a file named in a failure's line.
_FILE = LazyPattern(r"/|::|\.\w{1,5}(?::\d+)?$")
_LINE_NO = LazyPattern(r":\d+$")
#: A check run from another folder (`cd web && …`): its paths are that folder's.
_CD = LazyPattern(r"\s*cd\s+(\S+)\s*&&")
_FILE_IN_ERROR = LazyPattern(r"(?:[\w.-]+/)*[\w-]+\.\w{1,5}\b")
#: A line that names a failed test by its file (pytest's `FAILED a.py::t`, jest's `FAIL x.ts`).
_FAILED_FILE = LazyPattern(
    r"^\s*(?:FAILED|FAIL:?|ERROR)\s+\.?/?((?:[\w.-]+/)*[\w-]+\.\w{1,5})\b", re.MULTILINE
)
FAILED_FILES_CAP = 8
#: git work kept among a turn's runs beyond the newest ones.
RECORDED_KEPT = 4
_LINE = LazyPattern(r"^\[\d+\] " + LABEL + r": ")
_ITEM = LazyPattern(r"`([^`]*)`(?: \((new|deleted)\))?")
_MORE = LazyPattern(r" \(\+(\d+) more\)$")


def _turn(turns: list[dict[str, Any]], n: int) -> dict[str, Any] | None:
    return next((turn for turn in reversed(turns) if turn["n"] == n), None)


def note(turns: list[dict[str, Any]], n: int, path: str, how: str) -> None:
    """Turn `n` changed `path` (`how`: "new", "edited", WROTE or "deleted")."""
    turn = _turn(turns, n)
    if turn is None:
        return
    changed = turn.setdefault("changed", {})
    if changed.get(path) == "new" and how != "deleted":
        how = "new"  # made in this turn, then edited: still new
    changed.pop(path, None)
    changed[path] = how
    while len(changed) > MAX_FILES:
        del changed[next(iter(changed))]


def _no_redirect(found: re.Match[str]) -> str:
    """A quoted or escaped operator as a plain word; a test's `<` and `>` as plain letters."""
    text = found.group(0)
    return "_" if found.group(1) or text.startswith("\\") else re.sub("[<>]", "_", text)


def bash_wrote(turns: list[dict[str, Any]], n: int, command: str, cwd: str) -> list[str]:
    """The files a successful Bash `command` of turn `n` plainly wrote inside `cwd`, and
    those it took away (`rm`, `git rm`, the sources of `mv`), in its order and after its
    `cd`s; returns the paths taken away (relative to `cwd` inside it)."""
    from memhooks.text.shell_writes import may_write, write_targets

    if not cwd or not may_write(command):
        return []
    root = cwd.rstrip("/") + "/"
    gone = []
    plain = _NO_REDIRECT.compiled.sub(_no_redirect, _GIT_MOVES.compiled.sub("", command))
    for verb, path in write_targets(plain, cwd):
        inside = path.startswith(root)
        if verb in _TAKES_AWAY and not any(c in path for c in "*?["):  # a glob names no file
            gone.append(path[len(root) :] if inside else path)
            removed(turns, n, gone[-1])
        elif verb not in _TAKES_AWAY and inside:
            note(turns, n, path[len(root) :], WROTE)
    return gone


def _records(sub: str, args: list[str]) -> bool:
    """Whether `git sub args` changes the repository's history or branches."""
    options = {word for word in args if word.startswith("-")}
    named = [word for word in args if not word.startswith("-")]
    if options & _ONLY_SHOWS or (sub == "push" and "-n" in options):
        return False
    if sub in ("checkout", "switch"):
        return bool(options & _MAKES_BRANCH)
    if sub in ("branch", "tag"):
        return bool(options & _BRANCH_CHANGES) or bool(named and not options & _LISTS)
    if sub == "stash":
        return not named or named[0] in _STASH_CHANGES
    return sub in _RECORDS or (sub == "reset" and bool(options & _MOVES_HEAD))


def _shown(word: str) -> str:
    word = clip(word.strip().split("\n", 1)[0], WORD_CAP)
    return f'"{word}"' if not word or any(c.isspace() or c in "'\"$;&|<>" for c in word) else word


def _git_work(words: list[str]) -> str | None:
    """A segment's git command when it records work ("" for another git command or a
    program that only looks or moves, None for one that does something else)."""
    while words and "=" in words[0] and not words[0].startswith("-"):  # `A=1 git …`
        words = words[1:]
    if not words or words[0] in _LOOKS:
        return ""
    if words[0].rsplit("/", 1)[-1] != "git":
        return None
    at = 1
    while at < len(words) and words[at].startswith("-"):
        at += 2 if words[at] in _GIT_VALUE else 1
    if at >= len(words) or not _records(words[at], words[at + 1 :]):
        return ""
    return "git " + " ".join(map(_shown, words[1:]))


def recorded(command: str) -> str:
    """The git commands of `command` that record work (`_records`), verbatim by selection,
    joined as the command joins them: a commit message by its first line, a segment that
    only looks or moves (`cd`, `git add`, `| tail`) left out, any other as "…"; "" when
    none records work."""
    return recorded_work(command)[0]


def recorded_work(command: str) -> tuple[str, bool]:
    """What `command` recorded in git (`recorded`), and whether its exit status is theirs:
    not when `;`, `||`, `|` or `&` follows the first (`git commit -m x || true` succeeds
    when there was nothing to commit)."""
    command = command[:HEREDOC_READ_CAP]
    if "git" not in command or not _MAY_RECORD.compiled.search(command):
        return "", True
    from memhooks.text.shell_lex import join_continuations, strip_heredocs, words

    first_line = _heredoc_first_lines(command)[:READ_CAP]
    tokens = words(strip_heredocs(join_continuations(first_line)))
    segments: list[tuple[str, list[str]]] = [("", [])]
    target = False
    for at, word in enumerate(tokens):
        redirect = set(word) <= set("<>&") and word not in _SEPARATORS
        if word in _SEPARATORS:
            segments.append((";" if word == "(" else word, []))  # `)` ends a segment alone
        elif not (redirect or target or (word.isdigit() and _redirects(tokens, at + 1))):
            segments[-1][1].append(word)  # a redirection (its fd, operator, file) left out
        target = redirect
    out: list[tuple[str, str]] = []
    proven = True
    for sep, segment in segments:
        proven = proven and (sep in ("&&", ")") or not any(text != "…" for _, text in out))
        found = _git_work(segment)
        if found == "" or (found is None and out[-1:] and out[-1][1] == "…"):
            continue
        out.append((sep, found or "…"))
    if not any(text != "…" for _, text in out):
        return "", True
    joined = out[0][1] + "".join(("; " if sep == ";" else f" {sep} ") + t for sep, t in out[1:])
    return clip(joined, RECORDED_CAP), proven


def _heredoc_first_lines(command: str) -> str:
    """`command` with each message written through a heredoc as its first line, in one pass
    (an opening without its end stops it: the rest is left as it is)."""
    parts, at = [], 0
    while found := _MESSAGE_HEREDOC.compiled.search(command, at):
        end = re.compile(rf"\n\s*{found[2]}\s*\n\s*\)").search(command, found.end())
        if end is None:
            break
        parts += [command[at : found.start()], found[3].replace('"', "'")]
        at = end.end()
    return "".join([*parts, command[at:]])


def run_command(run: dict[str, Any], *, brief: bool = False) -> str:
    """What a run shows of its command: the git work it recorded (`recorded`; `brief`, in a
    turn shown short: without its messages and `-q`), else the command."""
    git = run.get("git")
    if not git:
        return str(run.get("cmd", ""))
    return _MESSAGE.compiled.sub("", git) if brief else str(git)


def kept_runs(ran: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """A turn's newest `count` runs, and before them the git work it recorded (`recorded`,
    the newest RECORDED_KEPT): a commit followed by many looks stays."""
    cut = max(0, len(ran) - count)
    return [run for run in ran[:cut] if run.get("git")][-RECORDED_KEPT:] + ran[cut:]


def _redirects(tokens: list[str], at: int) -> bool:
    return at < len(tokens) and set(tokens[at]) <= set("<>&") and tokens[at] not in _SEPARATORS


def _made(turns: list[dict[str, Any]], path: str) -> bool:
    """Whether the session's first change of `path` made it (a Write whose result says it
    created the file; a Bash write may have changed a file that was there): then its removal
    takes it out of every turn."""
    first = next((turn["changed"][path] for turn in turns if path in turn.get("changed", {})), "")
    return first == "new"


def removed(turns: list[dict[str, Any]], n: int, gone: str) -> None:
    """Turn `n` removed `gone` (a file, or a folder and what is under it)."""
    for path in {p for turn in turns for p in turn.get("changed", {})}:
        if path != gone and not path.startswith(gone + "/"):
            continue
        made = _made(turns, path)
        for turn in turns:
            turn.get("changed", {}).pop(path, None)
        if not made:
            note(turns, n, path, "deleted")


def taken_away(state: dict[str, Any], n: int, gone: list[str], seq: Callable[[], int]) -> None:
    """What the removal of the `gone` paths at turn `n` settles beyond the turns' lines
    (`removed` saw to those): the session's files by the same rule, as turn `n`'s line shows
    them (marked deleted there, deleted here; gone from every turn, a file the session made,
    gone here too); the checks whose target is only removed files, or whose failure named
    one: no current proof nor open failure (the turn that ran them still says so)."""
    if not gone:
        return
    shown = (_turn(state["turns"], n) or {}).get("changed", {})
    files = state["files"]
    for name in [path for path in files if _under(path, gone)]:
        if shown.get(name) == "deleted":
            files[name].update(how="deleted", seq=seq())
        else:
            del files[name]
    checks = state["checks"]
    for key in [k for k, entry in checks.items() if _only_removed(entry, gone, state["cwd"])]:
        del checks[key]


def _under(path: str, gone: list[str], base: str = "", *, exact: bool = False) -> bool:
    """Whether `path` is one of the `gone` paths or under one (`exact`: one of them, a file
    the removal named); as a check names it (`./a.py`, `a.py::test_x`, `a_spec.rb:12`) from
    its `cd`'s folder `base`: a file of the same name elsewhere is another file."""
    path = _named(path, base)
    return bool(path) and any(path == g or (not exact and path.startswith(g + "/")) for g in gone)


def _named(path: str, base: str) -> str:
    path = _LINE_NO.compiled.sub("", path.removeprefix("./").split("::", 1)[0]).rstrip("/")
    return base + path if path and not path.startswith("/") else path


def failed_files(output: str) -> list[str]:
    """The files a failed run's output names failures in, up to one more than the cap (more
    than it: too many to say a removal settled them all)."""
    found = dict.fromkeys(m[1] for m in _FAILED_FILE.compiled.finditer(output[-100_000:]))
    return list(found)[: FAILED_FILES_CAP + 1]


def _only_removed(entry: dict[str, Any], gone: list[str], cwd: str) -> bool:
    """Whether a check's target is only removed files (its inputs that name files), or it
    failed on those only (the files its failures named, else its error line: each a file
    removed itself, not one under a removed folder: `rm -rf node_modules` settles no failure
    a stack frame there named; `pytest tests/` failing in two files stays open when one of
    them is removed)."""
    found = _CD.compiled.match(str(entry.get("cmd", "")))
    base = ""
    if found:  # `cd web && npx jest src/a.test.ts`: the paths are web's
        folder = (found[1].strip("'\"").rstrip("/") + "/").removeprefix(cwd.rstrip("/") + "/")
        base = "" if folder in ("", "./") else folder
    args = entry.get("args") or ()
    paths = [w for w in args if not w.startswith("-") and _FILE.compiled.search(w)]
    if paths and all(_under(path, gone, base) for path in paths):
        return True
    named = [  # a file it ran, not one it read (`python app.py` failing on a data file)
        path
        for path in entry.get("failed_in")
        or _FILE_IN_ERROR.compiled.findall(entry.get("error") or "")
        if not paths or _under(path, [_named(p, base) for p in paths], base)
    ]
    return (
        not entry["ok"]
        and 0 < len(named) <= FAILED_FILES_CAP
        and all(_under(path, gone, base, exact=True) for path in named)
    )


def changed_lines(turn: dict[str, Any]) -> list[str]:
    """The turn's line of files changed (none when it changed none)."""
    items = list((turn.get("changed") or {}).items())
    if not items:
        return []
    shown = ", ".join(
        code_span(path, PATH_CAP) + (f" ({how})" if how in ("new", "deleted") else "")
        for path, how in items[-FILES_SHOWN:]
    )
    more = f" (+{len(items) - FILES_SHOWN} more)" if len(items) > FILES_SHOWN else ""
    return [f"[{turn['n']}] {LABEL}: {shown}{more}"]


def without(text: str, shown: Callable[[str], bool]) -> str:
    """`text` with the files `shown` rejects taken out of its turns' lines of files changed
    (a line left with none shown goes)."""
    out = []
    for line in text.split("\n"):
        head = _LINE.compiled.match(line)
        if head is None:
            out.append(line)
            continue
        more = _MORE.compiled.search(line)
        body = line[head.end() : more.start() if more else len(line)]
        kept = [m.group(0) for m in _ITEM.compiled.finditer(body) if shown(m.group(1))]
        if kept:
            out.append(line[: head.end()] + ", ".join(kept) + (more.group(0) if more else ""))
    return "\n".join(out)
