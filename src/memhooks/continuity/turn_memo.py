"""Each turn's lines as a render made them, kept from one hook to the next. Standard library only.

A build of the thread (hooks/thread_build.py: SessionEnd, or SessionStart when the thread is
behind the evidence) renders again the part of each session that moved on since the last
build; all but its newest turns are as they were, and rendering a turn (selecting its
sentences) is most of a build's work. The functions that
render one turn from the turn alone and a few numbers (`handover.turn_lines`,
`thread_parts._variant`, and `record_fit.stated` and `thread_parts._worth`, which weigh one
prompt or turn) are wrapped with `kept`:
while `keeping` is on, a call whose turn (by its content) and arguments were rendered before
returns those lines, and the others are rendered and kept. Off (every other caller), they
just render.

The memo is a cache: an entry lives while a build used it within the last `KEEP_BUILDS`
builds, and the whole memo is dropped when the rendering code changed (`code_stamp`), so what
it returns is what the render would return.
"""

from __future__ import annotations

import functools
import os
import zlib

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Concatenate, ParamSpec, TypeAlias, TypeGuard, TypeVar

    from typing_extensions import Self

    A = TypeVar("A")
    P = ParamSpec("P")
    R = TypeVar("R")
    Render: TypeAlias = Callable[Concatenate[A, P], R]

VERSION = 1
#: Builds an entry outlives its last use: a session's part is rendered in another role
#: (last, earlier) as other sessions stop in between.
KEEP_BUILDS = 8
#: The packages whose code renders a turn: a change to any of their files drops the memo.
_CODE_DIRS = ("continuity", "text")
#: An entry: [the build that last used it, what the render made].
_ENTRY = 2


class _Memo:
    """The entries of one build (`key: [build, lines]`), the build's number, and each
    turn's digest by object (the turn kept alive with it, so that its id is not reused)."""

    def __init__(self) -> None:
        self.entries: dict[str, Any] | None = None
        self.build = 0
        self.digests: dict[int, tuple[object, str]] = {}
        self.inside = False


_memo = _Memo()


def kept(render: Render[A, P, R]) -> Render[A, P, R]:
    """`render` (a pure function of a turn, or of one text, and a few numbers, giving lines
    or a number) answered from the memo while `keeping` is on; a call made inside another
    kept call is computed (its caller is kept)."""
    name = render.__name__

    @functools.wraps(render)
    def wrapper(first: A, /, *args: P.args, **kwargs: P.kwargs) -> R:
        memo = _memo
        entries = memo.entries
        if entries is None or memo.inside:
            return render(first, *args, **kwargs)
        key = f"{name}{args}{kwargs}{_digest(first)}"
        found = entries.get(key)
        if _valid(found):
            found[0] = memo.build
            again: R = found[1]  # what this render made before (`_valid`: of its kind)
            return _copy(again)
        memo.inside = True
        try:
            made = render(first, *args, **kwargs)
        finally:
            memo.inside = False
        entries[key] = [memo.build, made]
        return _copy(made)

    return wrapper


def _copy(made: R) -> R:
    """Lines as a new list (a caller may extend it), a number as it is."""
    if isinstance(made, list):
        return made[:]  # type: ignore[return-value]
    return made


def _valid(entry: object) -> TypeGuard[list[Any]]:
    """An entry as `kept` writes them: [the build that last used it, lines or a number]."""
    if not (isinstance(entry, list) and len(entry) == _ENTRY and isinstance(entry[0], int)):
        return False
    made = entry[1]
    if isinstance(made, list):
        return all(isinstance(line, str) for line in made)
    return isinstance(made, int) and not isinstance(made, bool)


def _used_since(entry: object, oldest: int) -> bool:
    """An entry a build after `oldest` used (what it holds is checked when it is used)."""
    return (
        isinstance(entry, list)
        and len(entry) == _ENTRY
        and type(entry[0]) is int
        and entry[0] > oldest
    )


def _digest(first: object) -> str:
    """A turn's (or a text's) content as a key: its length and two checksums of its repr (a
    dict loaded from the same JSON has its keys in the same order)."""
    at = id(first)
    known = _memo.digests.get(at)
    if known is not None and known[0] is first:
        return known[1]
    data = repr(first).encode("utf-8", "surrogatepass")
    digest = f":{len(data)}:{zlib.crc32(data):08x}{zlib.adler32(data):08x}"
    _memo.digests[at] = (first, digest)
    return digest


class keeping:  # noqa: N801 - a context manager used like a function
    """The memo on for one build, from `kept_doc` (a memo file's content, or None); on
    leaving, `doc()` is what to keep for the next build."""

    def __init__(self, kept_doc: object) -> None:
        doc = kept_doc if isinstance(kept_doc, dict) else {}
        self.code = code_stamp()
        valid = doc.get("version") == VERSION and doc.get("code") == self.code
        build = doc.get("build") if valid else 0
        self.build = (build if isinstance(build, int) else 0) + 1
        entries = doc.get("entries") if valid else None
        #: Each entry is checked when it is used (`_valid`): most are.
        self.entries: dict[str, Any] = entries if isinstance(entries, dict) else {}

    def __enter__(self) -> Self:
        _memo.entries, _memo.build, _memo.digests = self.entries, self.build, {}
        return self

    def __exit__(self, *exc_info: object) -> None:
        _memo.entries, _memo.digests, _memo.inside = None, {}, False

    def doc(self) -> dict[str, Any]:
        """The memo to keep: the entries used within the last KEEP_BUILDS builds."""
        oldest = self.build - KEEP_BUILDS
        return {
            "version": VERSION,
            "code": self.code,
            "build": self.build,
            "entries": {k: v for k, v in self.entries.items() if _used_since(v, oldest)},
        }


def code_stamp() -> str:
    """The rendering code's files as they stand (name, size, mtime of each): a new version
    or an edit makes another stamp, and the memo is dropped."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [stamp for folder in _CODE_DIRS for stamp in _stamps(os.path.join(package, folder))]
    data = "\n".join(sorted(parts)).encode("utf-8", "surrogatepass")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def _stamps(folder: str) -> list[str]:
    """Each source file's name, size and mtime in `folder` (one unreadable mark if none)."""
    try:
        with os.scandir(folder) as entries:
            return [
                f"{entry.name}:{info.st_size}:{info.st_mtime_ns}"
                for entry in entries
                if entry.name.endswith(".py")
                for info in (entry.stat(follow_symlinks=False),)
            ]
    except OSError:
        return [f"{folder}:?"]
