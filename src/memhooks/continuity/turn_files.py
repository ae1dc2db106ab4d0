"""What each turn changed: the files its tools wrote, edited or removed. Pure, stdlib only.

A turn of the evidence keeps `changed`, {path: how}, as the tools' results prove it: a Write,
Edit, MultiEdit or NotebookEdit that succeeded (`note`), and a Bash command that succeeded and
plainly wrote a file inside the project (`bash_wrote`, read by `text.shell_writes` as the write
guard reads it: `>`, `tee`, `sed -i`, `cp`, the target of `mv`, ...; not a quoted `'>'` or a
`[[ a > b ]]`, which the guard refuses on its safe side). A file removed later
(`removed`) is no longer an earlier turn's change: one the session made (a scratch script)
leaves every turn, another is shown deleted at the turn that removed it.

The restore shows one line per turn where it shows what ran (`changed_lines`: "[12] files
changed: `a.py`, `b.md` (new)"), so "said it would do X, then edited Y" reads as done. git stays
the authority for what is changed now: SessionStart takes out of those lines the files git's
view shows unchanged since the session began (`without`: reverted, or made and removed).
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.continuity.proofs import code_span
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
