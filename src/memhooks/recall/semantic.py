# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Meaning beyond shared words, with the standard library: a static token-vector table.

The table (built once at install time by semantic_build from all-MiniLM-L6-v2) holds one
384-dimension vector per WordPiece token: the model's own sentence vector of that token
alone. A text's vector is the mean of its pieces' vectors (the model2vec idea), so neither
the model nor numpy runs per prompt. Memories are encoded the same way when the index is
written, and each memory also keeps how close the everyday requests of `background` come
to it (mean and spread of their cosines): its own null distribution. A prompt's semantic
evidence for a memory is then a z-score against that memory's null, which carries over
between stores where one absolute cosine threshold did not (see ranking.SEMANTIC_*).

Standard library only: UserPromptSubmit reads the table on every prompt.
"""

from __future__ import annotations

import math
import os
from operator import mul

try:  # the C module alone: `sqlite3` costs the per-prompt hook +1.4 ms (recall.search_read)
    import _sqlite3 as sqlite3
except ImportError:  # pragma: no cover - a build without the private module
    import sqlite3  # type: ignore[no-redef]

from memhooks import TYPE_CHECKING
from memhooks.recall import wordpiece
from memhooks.recall.search_read import TABLE_VERSION, in_list

if TYPE_CHECKING:
    from collections.abc import Callable

TABLE_FILE = f"tokens-minilm-l6-v2-v{TABLE_VERSION}.sqlite3"
DIMS = 384
#: The vocabulary's longest piece has 18 characters; longer candidates are never asked.
MAX_PIECE_CHARS = 20
#: Distinct words of a prompt embedded at most, and candidate pieces looked up at most.
MAX_WORDS = 64
#: ... and of a memory (encoded when the index is written, off the per-prompt path).
MAX_DOC_WORDS = 128
MAX_LOOKUPS = 2_000
#: sqlite's oldest variable limit is 999.
CHUNK = 900
READ_DEADLINE_STEPS = 200_000

Vector = list[float]


#: The plugin's data folder where CLAUDE_PLUGIN_DATA is not set (Claude's own Bash calls of
#: the launcher): the command line fills it in from install.deps (the folder a command file
#: recorded) before it runs a command, so this layer never imports the installer.
DATA_DIR: str | None = None


def table_path() -> str:
    """Where the installer puts the table: the plugin's data folder (else the user cache)."""
    data = os.environ.get("CLAUDE_PLUGIN_DATA") or DATA_DIR
    if not data:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        data = os.path.join(base, "memhooks")
    return os.path.join(data, "semantic", TABLE_FILE)


def open_table(path: str, *, bounded: bool = True) -> sqlite3.Connection | None:
    """The table read-only, or None when it is missing, not a regular file or not a table.

    `bounded`: the per-prompt reader gives up after a fixed amount of sqlite work."""
    if not os.path.isfile(path) or os.path.islink(path):
        return None
    from memhooks.recall.search_index import read_only_uri

    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=0.05)
    except (sqlite3.Error, OSError, ValueError):
        return None
    try:
        if bounded:
            conn.set_progress_handler(_too_long(), 1000)
        # Plain tables only: a view or a trigger can run a query without end, and the
        # writers read the table without a step bound.
        conn.execute("PRAGMA trusted_schema = OFF")
        schema = conn.execute("SELECT type, name FROM sqlite_master").fetchall()
        foreign = [
            name
            for kind, name in schema
            if not (kind == "table" and name in _TABLES)
            and not (kind == "index" and str(name).startswith("sqlite_autoindex_"))
        ]
        row = (
            None
            if foreign
            else conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        )
    except sqlite3.Error:
        row = None
    if row is None or row[0] != TABLE_VERSION:
        conn.close()
        return None
    return conn


_TABLES = ("meta", "pieces")


def _too_long() -> Callable[[], int]:
    steps = [0]

    def check() -> int:
        steps[0] += 1
        return 1 if steps[0] > READ_DEADLINE_STEPS else 0

    return check


def encode(
    conn: sqlite3.Connection,
    text: str,
    max_words: int = MAX_WORDS,
    cache: dict[str, tuple[float, memoryview[int]]] | None = None,
) -> Vector | None:
    """The text's unit vector: the mean of its WordPiece tokens' vectors; None if none known.

    `cache`: rows already read (a writer encoding many memories passes one along)."""
    counts: dict[str, int] = {}
    for word in wordpiece.basic_words(text):
        if word in counts:
            counts[word] += 1
        elif len(counts) < max_words:
            counts[word] = 1
    if not counts:
        return None
    found = cache if cache is not None else {}
    found.update(_lookup(conn, [w for w in counts if w not in found]))
    asked: list[str] = []
    for word in counts:
        if word not in found and len(asked) <= MAX_LOOKUPS:
            asked.extend(wordpiece.candidates(word, MAX_PIECE_CHARS))
    if asked:
        fresh = [p for p in dict.fromkeys(asked) if p not in found]
        found.update(_lookup(conn, fresh[:MAX_LOOKUPS]))
    return _pool(counts, found)


def _pool(counts: dict[str, int], found: dict[str, tuple[float, memoryview[int]]]) -> Vector | None:
    weights: dict[str, float] = {}
    for word, times in counts.items():
        pieces = [word] if word in found else wordpiece.pieces(word, found.__contains__)
        for piece in pieces:
            if piece in found:
                weights[piece] = weights.get(piece, 0.0) + times
    if not weights:
        return None
    factors = [found[piece][0] * times for piece, times in weights.items()]
    rows = [found[piece][1] for piece in weights]
    # One column (a dimension across the pieces) at a time, the products and sums in C:
    # per-piece list arithmetic costs several times more.
    return normalized([sum(map(mul, column, factors)) for column in zip(*rows, strict=True)])


def _lookup(
    conn: sqlite3.Connection, pieces: list[str]
) -> dict[str, tuple[float, memoryview[int]]]:
    out: dict[str, tuple[float, memoryview[int]]] = {}
    for start in range(0, len(pieces), CHUNK):
        chunk = pieces[start : start + CHUNK]
        sql = in_list("SELECT piece, scale, vec FROM pieces WHERE piece", len(chunk))
        for piece, scale, blob in conn.execute(sql, chunk):
            # a crafted table's row (a text scale, a short vector) is no row
            if isinstance(blob, bytes) and len(blob) == DIMS and isinstance(scale, int | float):
                # a memoryview, not an array: no `array` import on the per-prompt path
                out[piece] = (float(scale), memoryview(blob).cast("b"))
    return out


def normalized(vec: list[float]) -> Vector:
    norm = math.sqrt(sum(map(mul, vec, vec)))
    return [x / norm for x in vec] if norm > 0 else vec


def dot(a: Vector | memoryview[float], b: Vector | memoryview[float]) -> float:
    return float(sum(map(mul, a, b)))


def pack(vec: Vector) -> bytes:
    from array import array  # the write side only

    return array("f", vec).tobytes()


def unpack(blob: object) -> memoryview[float] | None:
    if not isinstance(blob, bytes) or len(blob) != 4 * DIMS:
        return None
    return memoryview(blob).cast("f")


def doc_text(title: str, tags: tuple[str, ...], description: str, body: str) -> str:
    """What a memory's vector is made of (the first MAX_WORDS distinct words count)."""
    return f"{title}. {' '.join(tags)}. {description} {body}"


def null_stats(doc: Vector, background: list[Vector]) -> tuple[float, float]:
    """Mean and spread of the everyday requests' cosines to this memory: its own null."""
    if not background:
        return 0.0, 1.0
    sims = [dot(doc, b) for b in background]
    mean = sum(sims) / len(sims)
    spread = math.sqrt(sum((s - mean) ** 2 for s in sims) / len(sims))
    return mean, max(spread, 1e-3)


def background_vectors(conn: sqlite3.Connection) -> list[Vector]:
    from memhooks.recall.background import PROMPTS

    vectors = (encode(conn, prompt) for prompt in PROMPTS)
    return [v for v in vectors if v is not None]


class Encoder:
    """The write side's access to the table: a memory's vector and its null, or None.

    Opened lazily by index writers; the background requests are encoded once per writer.
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        #: The background requests' vectors: index writers load them from the index
        #: (search_write.ensure_background) rather than encode 80 prompts on every write.
        self.background: list[Vector] | None = None
        self._tried = False
        self._rows: dict[str, tuple[float, memoryview[int]]] = {}

    @property
    def ready(self) -> bool:
        return self._connection() is not None

    def _connection(self) -> sqlite3.Connection | None:
        if not self._tried:
            self._tried = True
            self._conn = open_table(self.path, bounded=False) if self.path else None
        return self._conn

    def doc_row(
        self, title: str, tags: tuple[str, ...], description: str, body: str
    ) -> tuple[bytes, float, float] | None:
        conn = self._connection()
        if conn is None:
            return None
        try:
            text = doc_text(title, tags, description, body)
            vec = encode(conn, text, MAX_DOC_WORDS, self._rows)
            if vec is None:
                return None
            if self.background is None:
                self.background = background_vectors(conn)
        except (sqlite3.Error, ValueError, TypeError):  # a crafted table: no vector
            return None
        mean, spread = null_stats(vec, self.background)
        return pack(vec), mean, spread

    def compute_background(self) -> list[Vector]:
        conn = self._connection()
        if conn is None:
            return []
        if self.background is None:
            self.background = background_vectors(conn)
        return self.background

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None
