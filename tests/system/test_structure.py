"""Plain checks on the shape of the code: module size, who may write to the memory tree, the
layers, and which folders a hook process may load (the hot-path rule, by folder)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from memhooks import store as store_face
from support import hot_path_banned

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "memhooks"
MAX_LINES = 400

#: Modules still over the limit, with the size they may not grow past. Split by idea and
#: remove from here; the test fails when one of them is back under the limit but still listed.
OVERSIZE = {}


def _modules() -> dict[str, Path]:
    return {p.relative_to(PACKAGE).as_posix(): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_over_the_line_limit() -> None:
    sizes = {
        name: len(p.read_text(encoding="utf-8").splitlines()) for name, p in _modules().items()
    }
    over = {name: n for name, n in sizes.items() if n > MAX_LINES and name not in OVERSIZE}
    assert not over, f"split these by idea: {over}"
    grown = {name: sizes.get(name) for name, cap in OVERSIZE.items() if sizes.get(name, 0) > cap}
    assert not grown, f"listed as oversize, and grew: {grown}"
    fixed = [name for name in OVERSIZE if sizes.get(name, 0) <= MAX_LINES]
    assert not fixed, f"under the limit now: remove from OVERSIZE: {fixed}"


# ------------------------------------------------------------------ writes

#: Calls that write, create, move or delete a file.
_WRITE_NAMES = {"write_atomic", "write_state", "create_exclusive", "rmtree", "copyfile", "move"}
_OS_WRITES = {"replace", "rename", "unlink", "remove", "makedirs", "mkdir", "rmdir", "link"}
_PATH_WRITES = {"write_text", "write_bytes", "unlink", "mkdir", "rename", "rmdir", "chmod"}

#: Outside `store/`, only these modules write, and none of them into a memory tree: `demo/`
#: a sandbox project, `install/` the plugin's data folder, the export an outside bundle.
#: Everything written into `.claude/memory/` goes through the store package.
WRITERS_OUTSIDE_STORE = {
    "demo/__init__.py": "a throw-away sandbox project",
    "demo/harness.py": "a throw-away sandbox project",
    "demo/hook_python.py": "the demo's dependency cache, outside any memory tree",
    "demo/pinned_cli.py": "the pinned CLI's cache, outside any memory tree",
    "demo/session.py": "a throw-away sandbox project",
    "demo/mock_api.py": "the mock API's request log",
    "install/deps.py": "the plugin's data folder, not a memory tree",
    "install/semantic_assets.py": "the plugin's data folder, not a memory tree",
    "install/link.py": "the user's `memhooks` script, and the plugin's root in its data folder",
    "cli/semantic_build.py": "the token table, in the plugin's data folder",
    "text/regex_cache.py": "the hooks' compiled patterns, beside their bytecode in the data folder",
    "transfer/bundle.py": "the export bundle, outside the tree",
    "cli/commands/export.py": "the export bundle, outside the tree",
}


def _writes(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in _WRITE_NAMES:
            found.append((node.lineno, func.id))
        elif isinstance(func, ast.Name) and func.id == "open" and _opens_for_writing(node):
            found.append((node.lineno, "open"))
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else ""
            if owner in ("os", "shutil") and (func.attr in _OS_WRITES | _WRITE_NAMES):
                found.append((node.lineno, f"{owner}.{func.attr}"))
            elif owner == "os" and func.attr == "open" and not _os_opens_read_only(node):
                found.append((node.lineno, "os.open"))
            elif func.attr in _WRITE_NAMES or func.attr in _PATH_WRITES:
                found.append((node.lineno, f".{func.attr}"))
            elif func.attr == "replace" and len(node.args) == 1:  # Path.replace, not str's
                found.append((node.lineno, ".replace"))
            elif func.attr == "open" and _opens_for_writing(node):
                found.append((node.lineno, ".open"))
    return found


_OS_WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}


def _os_opens_read_only(call: ast.Call) -> bool:
    """`os.open(path, os.O_RDONLY | ...)` with no flag that writes; flags held in a name
    (`os.open(p, flags)`) count as a write, since the audit cannot see them."""
    if len(call.args) < 2:
        return False
    named = {n.attr for n in ast.walk(call.args[1]) if isinstance(n, ast.Attribute)}
    named |= {n.value for n in ast.walk(call.args[1]) if isinstance(n, ast.Constant)}
    return "O_RDONLY" in named and not named & _OS_WRITE_FLAGS


def _opens_for_writing(call: ast.Call) -> bool:
    modes = [a.value for a in call.args if isinstance(a, ast.Constant)]
    modes += [
        k.value.value
        for k in call.keywords
        if k.arg == "mode" and isinstance(k.value, ast.Constant)
    ]
    return any(isinstance(m, str) and set(m) & set("wax+") for m in modes)


def test_only_the_store_package_writes() -> None:
    writers = {}
    for name, path in _modules().items():
        if name.startswith("store/"):
            continue
        found = _writes(ast.parse(path.read_text(encoding="utf-8")))
        if found:
            writers[name] = found
    unexpected = {n: w for n, w in writers.items() if n not in WRITERS_OUTSIDE_STORE}
    assert not unexpected, f"write through the store package instead: {unexpected}"
    stale = sorted(set(WRITERS_OUTSIDE_STORE) - set(writers))
    assert not stale, f"no longer writes: remove from WRITERS_OUTSIDE_STORE: {stale}"


def test_the_audit_sees_each_kind_of_write() -> None:
    source = (
        "write_atomic(p, t)\nopen(p, 'w')\nopen(p, mode='ab')\nos.replace(a, b)\n"
        "path.write_text(t)\npath.replace(other)\nshutil.rmtree(d)\nos.open(p, flags)\n"
        "text.replace('a', 'b')\nopen(p)\nopen(p, 'rb')\n"
        "os.open(p, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0))\n"
        "os.open(p, os.O_RDONLY | os.O_CREAT)\n"
    )
    assert [line for line, _ in _writes(ast.parse(source))] == [1, 2, 3, 4, 5, 6, 7, 8, 13]


# ------------------------------------------------------------------ SQL writes

#: Modules that write a sqlite database, and why. The search index (`.cache/search.sqlite3`) is
#: written only by these two, and they are reached only through `store/derived.py` under the
#: store lock (checked below): the memory tree's one writer stays the store.
SQL_WRITERS = {
    "recall/search_write.py": "the search index's schema, postings and stats, in a transaction "
    "`search_index.SearchIndex` opens (imported only by it)",
    "recall/search_index.py": "opens `.cache/search.sqlite3` read-write for the write methods "
    "(`store/derived.py` alone calls them) and once to roll back a killed writer's journal",
    "cli/semantic_build.py": "the token table, in the plugin's data folder (no memory tree)",
}
#: The search index's write methods, as `store.derived.SearchIndexWrites` names them.
SEARCH_WRITES = {"upsert", "upsert_many", "remove", "rebuild"}
#: The one module that calls them (on the `search` factory's index, under the store lock).
SEARCH_WRITE_ENTRY = {"store/derived.py"}

_SQL_EXECUTE = {"execute", "executemany", "executescript"}
_SQL_WRITE = re.compile(
    r"\b(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|VACUUM|ATTACH|REINDEX)\b"
    r"|\bPRAGMA\s+(?!(?:trusted_schema|synchronous|cache_size|busy_timeout|temp_store|"
    r"mmap_size|query_only|foreign_keys)\b)\w+\s*=",
    re.IGNORECASE,
)


def _assigned(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """Every value assigned to a name anywhere in the module (constants and locals alike)."""
    values: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, []).append(node.value)
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and isinstance(node.target, ast.Name)
        ):
            values.setdefault(node.target.id, []).append(node.value)
    return values


def _strings(expr: ast.expr, names: dict[str, list[ast.expr]], seen: frozenset[str]) -> list[str]:
    """The string literals an expression is made of, following the names it uses to what
    the module assigns them (an upper-case attribute too: `module.SCHEMA`)."""
    found: list[str] = []
    for node in ast.walk(expr):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append(node.value)
        name = node.id if isinstance(node, ast.Name) else ""
        name = node.attr if isinstance(node, ast.Attribute) and node.attr.isupper() else name
        if name and name not in seen and name in names:
            for value in names[name]:
                found += _strings(value, names, seen | {name})
    return found


def _sql_writes(tree: ast.AST) -> list[tuple[int, str]]:
    """Calls that write a sqlite database: `execute`/`executemany`/`executescript` of SQL that
    writes (or whose text the module does not show), and `connect` not opened read-only."""
    names = _assigned(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        attr = func.attr if isinstance(func, ast.Attribute) else ""
        owner = (
            func.value.id
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            else ""
        )
        if attr in _SQL_EXECUTE and node.args:
            sql = _strings(node.args[0], names, frozenset())
            if not sql or _SQL_WRITE.search(" ".join(sql)):
                found.append((node.lineno, attr))
        elif _connects(func, attr, owner) and not _opens_read_only(node, names):
            found.append((node.lineno, "connect"))
    return found


def _connects(func: ast.expr, attr: str, owner: str) -> bool:
    return (attr == "connect" and owner in ("sqlite3", "_sqlite3")) or (
        isinstance(func, ast.Name) and func.id == "connect"
    )


def _opens_read_only(call: ast.Call, names: dict[str, list[ast.expr]]) -> bool:
    """`connect(read_only_uri(p), uri=True)` or a `file:…?mode=ro` URI."""
    uri = any(
        k.arg == "uri" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )
    if not uri or not call.args:
        return False
    target = call.args[0]
    values = names.get(target.id, []) if isinstance(target, ast.Name) else [target]
    return bool(values) and all(
        (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "read_only_uri")
        or any("mode=ro" in s for s in _strings(v, names, frozenset()))
        for v in values
    )


def _search_index_writes(tree: ast.AST) -> list[tuple[int, str]]:
    """Write-method calls on a search index the module opened: `with SearchIndex(…) as x`,
    `x = SearchIndex(…)`, or the same through a `search` factory (`self.search(…)`)."""

    def opens(expr: ast.expr) -> bool:
        func = expr.func if isinstance(expr, ast.Call) else None
        return (isinstance(func, ast.Name) and func.id == "SearchIndex") or (
            isinstance(func, ast.Attribute) and func.attr in ("SearchIndex", "search")
        )

    opened: set[str] = set()
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.withitem) and opens(node.context_expr):
            if isinstance(node.optional_vars, ast.Name):
                opened.add(node.optional_vars.id)
        elif isinstance(node, ast.Assign) and opens(node.value):
            opened |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        func = node.func
        if func.attr in SEARCH_WRITES and (
            (isinstance(func.value, ast.Name) and func.value.id in opened) or opens(func.value)
        ):
            found.append((node.lineno, func.attr))
    return found


def _imports_of(tree: ast.AST, module: str) -> bool:
    return any(
        (isinstance(node, ast.ImportFrom) and node.module == module)
        or (isinstance(node, ast.Import) and any(a.name == module for a in node.names))
        for node in ast.walk(tree)
    )


def _sql_audit(sources: dict[str, str]) -> list[str]:
    """What is wrong with the SQL writers of these modules (name: source), [] when nothing."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    problems: list[str] = []
    writers = {name: w for name, tree in trees.items() if (w := _sql_writes(tree))}
    unexpected = {n: w for n, w in writers.items() if n not in SQL_WRITERS}
    if unexpected:
        problems.append(f"writes sqlite outside SQL_WRITERS: {unexpected}")
    stale = sorted(set(SQL_WRITERS) - set(writers))
    if stale:
        problems.append(f"no longer writes sqlite: remove from SQL_WRITERS: {stale}")
    callers = {n: w for n, tree in trees.items() if (w := _search_index_writes(tree))}
    if set(callers) != SEARCH_WRITE_ENTRY:
        problems.append(f"search index written by {callers}, not only {SEARCH_WRITE_ENTRY}")
    for writer, only in (
        ("search_write", {"recall/search_index.py"}),
        ("semantic_build", set()),
    ):
        users = {n for n, tree in trees.items() if _imports_of(tree, f"memhooks.recall.{writer}")}
        if users != only:
            problems.append(f"memhooks.recall.{writer} imported by {sorted(users)}, not {only}")
    return problems


def _sources() -> dict[str, str]:
    return {name: path.read_text(encoding="utf-8") for name, path in _modules().items()}


def test_only_the_listed_modules_write_sqlite_and_the_store_alone_reaches_them() -> None:
    problems = _sql_audit(_sources())
    assert not problems, "\n".join(problems)


def test_the_audit_sees_each_kind_of_sql_write() -> None:
    source = (
        "SCHEMA = 'CREATE TABLE t (x)'\n"
        "conn.execute('INSERT INTO t VALUES (1)')\n"
        "conn.executemany('update t set x = ?', rows)\n"
        "conn.executescript(SCHEMA)\n"
        "conn.execute(f'PRAGMA user_version = {v}')\n"
        "conn.execute('VACUUM')\n"
        "conn.execute(text)\n"
        "sqlite3.connect(path)\n"
        "_sqlite3.connect(path, timeout=1)\n"
        "sql = in_list('DELETE FROM t WHERE x', 3)\n"
        "conn.execute(sql, xs)\n"
        "conn.execute('SELECT x FROM t')\n"
        "conn.execute('PRAGMA trusted_schema = OFF')\n"
        "conn.execute('PRAGMA user_version').fetchone()\n"
        "sqlite3.connect(read_only_uri(path), uri=True)\n"
        "sqlite3.connect(f'file:{p}?mode=ro', uri=True)\n"
        "sqlite3.connect(read_only_uri(path))\n"
    )
    lines = [line for line, _ in _sql_writes(ast.parse(source))]
    assert lines == [2, 3, 4, 5, 6, 7, 8, 9, 11, 17]


def test_the_sql_audit_fails_on_a_planted_writer() -> None:
    real = _sources()
    assert _sql_audit(real) == []
    plants = {
        "view/planted.py": "def f(conn):\n    conn.execute('DELETE FROM docs')\n",
        "hooks/planted.py": "import sqlite3\n\ndef f(p):\n    return sqlite3.connect(p)\n",
        "cli/commands/planted.py": (
            "from memhooks.recall.search_index import SearchIndex\n\n"
            "def f(p, docs):\n    with SearchIndex(p) as index:\n        index.upsert_many(docs)\n"
        ),
        "guard/planted.py": "from memhooks.recall.search_write import delete\n",
    }
    for name, source in plants.items():
        problems = _sql_audit({**real, name: source})
        assert problems, name
        assert name in " ".join(problems), (name, problems)


# ------------------------------------------------------------------ arrows

#: The folders, bottom up: a module imports only from its own folder or a lower one.
LAYERS = {
    "errors": 0,
    "text": 1,
    "store": 2,
    "recall": 3,
    "continuity": 4,
    "curate": 5,
    "transfer": 5,
    "install": 5,
    "guard": 5,
    "hooks": 6,
    "demo": 6,
    "view": 6,
    "cli": 7,
}
#: Arrows that still point up or sideways, named so that no new one slips in.
KNOWN_UPWARD = {}


def test_imports_point_down_the_layers() -> None:
    found: dict[tuple[str, str], set[str]] = {}
    for name, path in _modules().items():
        folder = name.split("/")[0] if "/" in name else name.removesuffix(".py")
        if folder not in LAYERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.module):
                continue
            parts = node.module.split(".")
            if parts[0] != "memhooks" or len(parts) < 2 or parts[1] not in LAYERS:
                continue
            other = parts[1]
            if other != folder and LAYERS[other] >= LAYERS[folder]:
                found.setdefault((folder, other), set()).add(name)
    unexpected = {k: sorted(v) for k, v in found.items() if k not in KNOWN_UPWARD}
    assert not unexpected, f"imports that point up: {unexpected}"
    gone = sorted(set(KNOWN_UPWARD) - set(found))
    assert not gone, f"no longer imported: remove from KNOWN_UPWARD: {gone}"


def test_every_folder_has_a_layer() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(LAYERS), sorted(folders - set(LAYERS))


def test_the_type_checking_flag_is_defined_once() -> None:
    """`if TYPE_CHECKING:` reads the package's flag (typing costs the hooks milliseconds)."""
    defining = [
        name
        for name, path in _modules().items()
        if any(
            line.startswith("TYPE_CHECKING =")
            for line in path.read_text(encoding="utf-8").splitlines()
        )
    ]
    assert defining == ["__init__.py"], defining


# ------------------------------------------------------------------ the hot path

#: Where a hook process (`python3 -S hooks/memhooks.py hook <Event>`) loads modules from, and
#: where only commands do. The rule, by folder: no module in a hot folder imports one of
#: pyproject's `banned-module-level-imports` at module level (inside a function or an
#: `if TYPE_CHECKING:` block is fine), and no hot module imports a cold folder at all. A new
#: file in a hot folder is covered as it lands; a new folder must be named here.
HOT = {"__init__", "errors", "text", "store", "recall", "continuity", "guard", "install", "hooks"}
COLD = {"__main__", "cli", "curate", "demo", "transfer", "view"}
#: The store's command half, the one exception inside a hot folder: the modules of the face's
#: store half (`memhooks.store.STORE`: the validated model, the full writer, upkeep, setup).
#: pyproject's matching TID253 line names the same modules; this test keeps the two equal.
STORE_COMMAND_HALF = {f"store/{m}.py" for m in store_face.STORE if m not in store_face.TREE}


def _folder(name: str) -> str:
    return name.split("/", maxsplit=1)[0] if "/" in name else name.removesuffix(".py")


def _module_level_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """The modules imported when the module itself is: top-level statements, and those under
    a top-level `if`, `try`, `with` or class body, except an `if TYPE_CHECKING:` body (read by
    the type checker only)."""
    found: list[tuple[int, str]] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.If):
            checking = isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            pending += ([] if checking else node.body) + node.orelse
        elif isinstance(node, (ast.ClassDef, ast.With)):  # a class body runs on import
            pending += node.body
        elif isinstance(node, ast.Try):
            pending += node.body + node.orelse + node.finalbody
            pending += [stmt for handler in node.handlers for stmt in handler.body]
    return found


def test_every_folder_is_hot_or_cold() -> None:
    assert not HOT & COLD
    places = {_folder(name) for name in _modules()}
    assert places == HOT | COLD, {"unnamed": places - HOT - COLD, "gone": HOT | COLD - places}


def test_pyproject_states_the_same_rule() -> None:
    """ruff's per-folder settings name the same folders as HOT and COLD (one rule, two checks:
    ruff as the code is written, this test as it is run)."""
    text = (PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    globs = dict(
        re.findall(r'^"src/memhooks/\{([\w,]+)\}/\*\*" = \[([^\]]*)\]', text, re.MULTILINE)
    )
    by_rules = {rules: set(folders.split(",")) for folders, rules in globs.items()}
    assert by_rules.get('"TID253"') == {f for f in COLD if not f.startswith("__")}
    assert by_rules.get('"PTH", "SIM105", "S110"') == HOT - {"__init__", "errors"}
    store = re.search(r'^"src/memhooks/store/\{([\w,]+)\}\.py" = \["TID253"\]', text, re.MULTILINE)
    assert store, "pyproject: the store's command half lost its TID253 line"
    assert {f"store/{m}.py" for m in store.group(1).split(",")} == STORE_COMMAND_HALF
    assert {"pydantic", "yaml", "filelock", "frontmatter", "typing"} <= hot_path_banned()


def test_hot_folders_import_nothing_heavy_at_module_level() -> None:
    banned = hot_path_banned()
    heavy: dict[str, list[str]] = {}
    for name, path in _modules().items():
        if _folder(name) not in HOT:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [
            f"{line}: {m}" for line, m in _module_level_imports(tree) if m.split(".")[0] in banned
        ]
        if found:
            heavy[name] = found
    unexpected = {n: found for n, found in heavy.items() if n not in STORE_COMMAND_HALF}
    assert not unexpected, f"import these inside the functions that need them: {unexpected}"
    light = sorted(STORE_COMMAND_HALF - set(heavy))
    assert not light, f"hot-path clean now: remove from STORE_COMMAND_HALF: {light}"


def test_hot_folders_never_import_a_cold_one() -> None:
    """Not even inside a function: a cold folder is commands only, whatever it imports."""
    cold = {f"memhooks.{f}" for f in COLD}
    found: dict[str, list[str]] = {}
    for name, path in _modules().items():
        if _folder(name) not in HOT:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            hits = [m for m in modules if any(m == c or m.startswith(c + ".") for c in cold)]
            if hits:
                found.setdefault(name, []).append(f"{node.lineno}: {hits[0]}")
    assert not found, f"move the module to a hot folder, or the caller to a cold one: {found}"


def test_the_hot_path_audit_sees_each_kind_of_import() -> None:
    source = (
        "from __future__ import annotations\nimport os, typing\nfrom pathlib import Path\n"
        "from memhooks import TYPE_CHECKING\nif TYPE_CHECKING:\n    import dataclasses\n"
        "else:\n    import shutil\ntry:\n    import _sqlite3\nexcept ImportError:\n"
        "    import sqlite3\ndef f():\n    import yaml\nclass C:\n    import inspect\n"
    )
    found = _module_level_imports(ast.parse(source))
    assert sorted(found) == [
        (1, "__future__"),
        (2, "os"),
        (2, "typing"),
        (3, "pathlib"),
        (4, "memhooks"),
        (8, "shutil"),
        (10, "_sqlite3"),
        (12, "sqlite3"),
        (16, "inspect"),
    ]


# ------------------------------------------------------------------ the store's face

#: Folders of the command path: their modules may import the store half at module level.
#: Everywhere else (the hooks and what they call) the store half is imported, if at all,
#: inside the function that needs it, and `hooks/` never imports it.
COMMAND_PATH = {"cli", "transfer", "demo"}
#: Tests that reach a private helper of a store module through its submodule (keep it rare).
TESTS_REACHING_IN = {
    "tests/store/test_files_atomic.py",  # the temp-name helper: temp names are unique, never fixed
    "tests/store/test_store_limits.py",  # the caps themselves: what each list keeps at most
}


def _face() -> tuple[dict[str, str], dict[str, str]]:
    """The face's two halves, name -> the module that defines it."""
    from memhooks import store

    def names(table: dict[str, str]) -> dict[str, str]:
        return {name: module for module, names in table.items() for name in names.split()}

    return names(store.TREE), names(store.STORE)


def _store_imports(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, bool, str]]:
    """Imports of `memhooks.store...`, each with whether it runs when the module is imported
    (module level, not under `if TYPE_CHECKING:`) and the function it is in ("" if none)."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool, str]] = []

    def visit(node: ast.AST, eager: bool, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, False, function or child.name)
            elif isinstance(child, ast.If) and getattr(child.test, "id", "") == "TYPE_CHECKING":
                visit(child, False, function)
            elif _names_the_store(child):
                assert isinstance(child, (ast.Import, ast.ImportFrom))
                found.append((child, eager, function))
            else:
                visit(child, eager, function)

    visit(tree, True, "")
    return found


def _names_the_store(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").startswith("memhooks.store")
    return isinstance(node, ast.Import) and any(
        a.name.startswith("memhooks.store") for a in node.names
    )


def _outside_the_store() -> dict[str, Path]:
    root = PACKAGE.parents[1]
    found = {f"src/memhooks/{n}": p for n, p in _modules().items() if not n.startswith("store/")}
    found |= {p.relative_to(root).as_posix(): p for p in sorted((root / "tests").rglob("*.py"))}
    found["hooks/memhooks.py"] = root / "hooks" / "memhooks.py"
    return {n: p for n, p in found.items() if "/fixtures/" not in n}


def test_nothing_outside_the_store_imports_its_modules() -> None:
    """`from memhooks.store import X` is the one way in: no `memhooks.store.<module>`."""
    reaching = {}
    for name, path in _outside_the_store().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, _, _ in _store_imports(tree):
            modules = [node.module] if isinstance(node, ast.ImportFrom) else []
            modules += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(m and m != "memhooks.store" for m in modules):
                reaching.setdefault(name, []).append(node.lineno)
    unexpected = {n: lines for n, lines in reaching.items() if n not in TESTS_REACHING_IN}
    assert not unexpected, f"import from the face, `from memhooks.store import X`: {unexpected}"
    stale = sorted(TESTS_REACHING_IN - set(reaching))
    assert not stale, f"no longer reaches in: remove from TESTS_REACHING_IN: {stale}"


def test_the_face_names_each_name_once_and_where_it_lives() -> None:
    import importlib

    tree, full = _face()
    assert not set(tree) & set(full), sorted(set(tree) & set(full))
    for name, module in {**tree, **full}.items():
        defining = importlib.import_module(f"memhooks.store.{module}")
        assert name in vars(defining), f"{name} is not defined in store.{module}"
    modules = {p.stem for p in (PACKAGE / "store").glob("*.py")}
    assert not modules & {*tree, *full}, "a name of the face would shadow a module"


def test_importing_the_face_loads_no_store_module() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, memhooks.store as s\n"
        "print(sorted(m for m in sys.modules if m.startswith('memhooks.store.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(PACKAGE.parent)},
    )
    assert done.stdout.strip() == "[]"


def test_hooks_import_only_the_tree_half() -> None:
    """`hooks/` imports no name of the store half, even inside a function; elsewhere outside
    the command path, the store half is imported only inside the function that needs it."""
    tree, full = _face()
    found = {}
    for name, path in _modules().items():
        folder = name.split("/")[0]
        if name.startswith("store/") or folder in COMMAND_PATH:
            continue
        for node, eager, _ in _store_imports(ast.parse(path.read_text(encoding="utf-8"))):
            names = {a.name for a in node.names} if isinstance(node, ast.ImportFrom) else set()
            outside = names - set(tree) if folder == "hooks" else set()
            half = outside | (names & set(full) if eager else set())
            if half:
                found.setdefault(name, []).append((node.lineno, sorted(half)))
    assert not found, f"the store half on a hook's path: {found}"


def test_the_tree_half_never_imports_the_store_half() -> None:
    """The rules only `Store` applies (reconcile, the rolling window, anti-resurrection) live
    in the store half: a module of the tree half imports it only inside a function of the
    store half (`validate_config` reads the pydantic model)."""
    tree, full = _face()
    store_modules = set(full.values()) - set(tree.values())
    found = {}
    for module in sorted(set(tree.values()) - store_modules):
        path = PACKAGE / "store" / f"{module}.py"
        for node, _, function in _store_imports(ast.parse(path.read_text(encoding="utf-8"))):
            target = node.module if isinstance(node, ast.ImportFrom) else ""
            if (target or "").removeprefix("memhooks.store.") in store_modules and (
                function not in full
            ):
                found.setdefault(module, []).append(node.lineno)
    assert not found, f"the tree half imports the store half: {found}"
