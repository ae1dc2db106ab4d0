"""Compiled regular expressions kept from one hook process to the next. Standard library only.

Compiling a pattern (parsing it and making the engine's code for it, in Python) costs 0.05-0.9
ms, and a hook process is new every time: a Stop compiles some sixty, ~8 ms of its budget.
The engine's own constructor (`_sre.compile`) takes the pattern and the code the compiler
made: while the cache is on (`start`, in a hook), each compile's arguments to it are noted,
kept (`save`) in a file beside the plugin's bytecode (the same folder, checked the same way:
install/data_folder.py), and a pattern compiled before is built from them directly. The
engine checks the code it is given (invalid code is refused and compiled again here), and the
file is keyed by the interpreter's version and the engine's magic number: a new Python, or a
new engine, starts afresh. What a pattern matches is what `re.compile` would make of it.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import marshal
import os
import re
import sys

from memhooks import TYPE_CHECKING

try:
    from re import _compiler  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_compile as _compiler

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

FILE = "memhooks-regex.marshal"
#: Patterns kept at most (the hooks use some hundreds; a pattern made from data, a config's
#: redaction rule, adds one each): past it, the ones this process used and the newest.
MAX_ENTRIES = 1_000
#: Bytes read at most (a few hundred patterns take ~100 KB).
READ_CAP = 4_000_000
_KEY = (
    f"2:{sys.implementation.cache_tag}:{sys.version}:"
    f"{getattr(_sre, 'MAGIC', 0)}:{getattr(_sre, 'CODESIZE', 0)}"
)
#: The engine's code kept as bytes of C unsigned ints (read back with no import, ~10x faster
#: than a marshalled list) when that is the engine's code unit.
_PACKED = memoryview(b"\0" * 4).cast("I").itemsize == getattr(_sre, "CODESIZE", 0)


class _State:
    """The file, its table (`(pattern, flags): the engine's arguments`), the compiler this
    module stands in for, and whether a pattern was added."""

    def __init__(self) -> None:
        self.path = ""
        #: Each entry: the position of the packed code (-1: none), then the arguments.
        self.table: dict[tuple[object, int], tuple[object, ...]] = {}
        self.used: set[tuple[object, int]] = set()
        self.original: Callable[..., Any] | None = None
        self.added = False


_state = _State()


def start(folder: str) -> None:
    """Compile every pattern of this process through the cache kept in `folder`."""
    if _state.original is not None or not folder:
        return
    _state.path = os.path.join(folder, FILE)
    _state.table = _load(_state.path)
    _state.original = _compiler.compile
    _compiler.compile = _compile


def _compile(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """`re`'s compile step: from the table when it holds the pattern, else the compiler's,
    noted. Whatever goes wrong in the cache falls back to the compiler; only the compiler's
    own errors (a bad pattern) reach the caller, as without the cache."""
    key = (pattern, flags)
    try:
        entry = _state.table.get(key)
        if entry is not None:
            made: re.Pattern[Any] = _sre.compile(*_unpacked(entry))
            _state.used.add(key)
            return made
    except Exception:  # any fault of the table's: compiled again below
        _state.table.pop(key, None)
    noted: list[tuple[object, ...]] = []
    engine = _sre.compile

    def note(*given: object) -> re.Pattern[Any]:
        noted.append(given)
        made: re.Pattern[Any] = engine(*given)
        return made

    original = _state.original or engine
    _sre.compile = note
    try:
        made = original(pattern, flags)
    finally:
        _sre.compile = engine
    # exact types only: marshal refuses a subclass (a RegexFlag), and one such key would
    # make every later save fail
    if (
        len(noted) == 1
        and type(pattern) in (str, bytes)
        and type(flags) is int
        and not flags & re.DEBUG
    ):
        try:
            _state.table[key] = _packed(noted[0])
        except Exception:  # not kept: compiled again next time
            pass
        else:
            _state.used.add(key)
            _state.added = True
    return made


def _packed(given: tuple[object, ...]) -> tuple[object, ...]:
    """The engine's arguments as the table keeps them: the position of the code (a list of
    the compiler's opcodes, named ints) and the arguments, the code as bytes (`_PACKED`)."""
    at = -1
    out: list[object] = []
    for i, arg in enumerate(given):
        if isinstance(arg, list) and at < 0 and _PACKED:
            packed = bytearray(4 * len(arg))
            view = memoryview(packed).cast("I")
            for n, item in enumerate(arg):
                view[n] = int(item)
            at = i
            out.append(bytes(packed))
        elif isinstance(arg, list):
            out.append([int(item) for item in arg])
        elif isinstance(arg, int) and not isinstance(arg, bool):
            out.append(int(arg))
        else:
            out.append(arg)
    return (at, *out)


def _unpacked(entry: tuple[object, ...]) -> list[object]:
    """The engine's arguments from a table entry (TypeError, ValueError or IndexError when
    it is not one)."""
    at = entry[0]
    args = list(entry[1:])
    if not isinstance(at, int):
        raise TypeError("no entry")
    if at >= 0:
        code = args[at]
        if not isinstance(code, bytes):
            raise TypeError("no code")
        args[at] = memoryview(code).cast("I").tolist()
    return args


def _load(path: str) -> dict[tuple[object, int], tuple[object, ...]]:
    """The kept table; empty when missing, unreadable, too big or of another interpreter."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return {}
    try:
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(READ_CAP + 1)
        # the plugin's own folder, trusted as its bytecode is (.pyc files are marshal too)
        doc = marshal.loads(data) if len(data) <= READ_CAP else None  # noqa: S302
    except Exception:  # a damaged file's length can ask for gigabytes: MemoryError
        return {}
    if not (isinstance(doc, tuple) and len(doc) == 2 and doc[0] == _KEY):  # noqa: PLR2004
        return {}
    table = doc[1]
    return table if isinstance(table, dict) else {}


def save() -> None:
    """Keep the table when this process added to it (atomically; a cache: a write that
    fails costs the next process its compiles, nothing else)."""
    if not _state.added or not _state.path:
        return
    _state.added = False
    table = _state.table
    if len(table) > MAX_ENTRIES:  # the ones this process used, then the newest others
        used = [k for k in table if k in _state.used][-MAX_ENTRIES:]
        room = MAX_ENTRIES - len(used)
        rest = [k for k in table if k not in _state.used]
        table = {k: table[k] for k in (rest[len(rest) - room :] if room else []) + used}
    tmp = f"{_state.path}.{os.getpid()}.tmp"
    try:
        data = marshal.dumps((_KEY, table))
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(tmp, flags | getattr(os, "O_BINARY", 0), 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, _state.path)
    except Exception:  # a cache: never the hook's failure (it has answered by now)
        try:
            os.unlink(tmp)
        except OSError:
            pass
