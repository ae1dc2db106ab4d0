"""docs/architecture.md against the code: the paths table against `MemoryPaths`, the command
list against `COMMANDS`, the store's face against its two tables, the parts table's "writes"
column against what each folder's modules write (directly or through the store), and every
module the page names against the files."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from memhooks import store
from memhooks.cli.main import COMMANDS
from test_structure import PACKAGE, _writes

DOC = PACKAGE.parents[1] / "docs" / "architecture.md"
_CODE = re.compile(r"`([^`]+)`")


def _table(first_header: str) -> list[list[str]]:
    """The rows (cells stripped) of the doc's table whose header row starts with `first_header`."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
        rows.append([cell.strip() for cell in cells])
    return rows


def _named(cell: str) -> set[str]:
    return {name.rstrip("/") for name in _CODE.findall(cell)}


def test_the_paths_table_names_every_entry_of_both_halves() -> None:
    """Each top-level file or folder of `LAYOUT` and `LOCAL` is named in its row, and nothing
    else (a file below a folder may be named too, when it is an entry of its own)."""
    rows = {row[3]: row[2] for row in _table("place")}
    for table, entries in (("`LAYOUT`", store.LAYOUT), ("`LOCAL`", store.LOCAL)):
        named = _named(rows[table].split(":", 1)[1])
        top = {relative.split("/")[0] for relative in entries.values()}
        assert {name.split("/")[0] for name in named} == top, table
        assert named <= top | set(entries.values()), table


def test_the_command_list_is_cli_mains() -> None:
    """The doc lists `COMMANDS` in order, and each command's module."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    paragraph = text[text.index("**The commands.**") :]
    listed, rest = paragraph.split("order: ", 1)[1].split(". Each is", 1)
    assert _CODE.findall(listed) == [name for name, _, _ in COMMANDS]
    exceptions = rest.split(" but ", 1)[1].split(". Before", 1)[0]
    documented = {}
    for names, module in re.findall(r"((?:`[a-z]+`(?:, | and )?)+) \(`(\w+)\.py`\)", exceptions):
        documented |= dict.fromkeys(_CODE.findall(names), module)
    assert {name: documented.get(name, name) for name, _, _ in COMMANDS} == {
        name: module for name, module, _ in COMMANDS
    }


def test_the_face_names_the_modules_of_each_half() -> None:
    text = DOC.read_text(encoding="utf-8")
    for half, table in (("TREE", store.TREE), ("STORE", store.STORE)):
        bullet = next(p for p in text.split("\n- ") if p.startswith(f"**`{half}`"))
        named = {name.removeprefix("store/").removesuffix(".py") for name in _named(bullet)}
        assert set(table) <= named, f"{half}: name these in the doc: {set(table) - named}"


def _primitive(node: ast.AST) -> bool:
    """`node` writes a file itself (the audit of test_structure, less the calls it must count
    for want of types: str.replace, os.open for reading), or writes a descriptor (os.write)."""
    own = {kind for _, kind in _writes(node)} - {".replace", "os.open"}
    return bool(own) or any(
        isinstance(n, ast.Attribute) and n.attr == "write" and getattr(n.value, "id", "") == "os"
        for n in ast.walk(node)
    )


class _Module:
    """A module's units (its functions, and its classes' methods as `Class.method`), the names
    each unit refers to, and where the names the module imports come from."""

    def __init__(self, path: Path) -> None:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        self.imports: dict[str, tuple[str, str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memhooks"):
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (node.module or "", alias.name)
        self.units: dict[str, ast.AST] = {}
        self.classes: dict[str, set[str]] = {}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                self.units[node.name] = node
            elif isinstance(node, ast.ClassDef) and not node.name.endswith("Error"):
                methods = [m for m in node.body if isinstance(m, ast.FunctionDef)]
                self.classes[node.name] = {m.name for m in methods}
                self.units |= {f"{node.name}.{m.name}": m for m in methods}
        self.refers = {
            name: {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            | {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            for name, node in self.units.items()
        }


def _writers() -> dict[str, tuple[bool, bool]]:
    """ "module:unit" -> (it writes a file itself, it reaches a store unit that writes), for every
    unit of the package, followed through imports. A unit that names a class reaches the
    methods it calls by name, and its constructor."""
    modules = {
        "memhooks." + p.relative_to(PACKAGE).with_suffix("").as_posix().replace("/", "."): _Module(
            p
        )
        for p in sorted(PACKAGE.rglob("*.py"))
    }
    face = {n: m for t in (store.TREE, store.STORE) for m, ns in t.items() for n in ns.split()}
    found = {
        f"{module}:{unit}": (_primitive(node), _primitive(node) and ".store." in module)
        for module, parsed in modules.items()
        for unit, node in parsed.units.items()
    }

    def targets(module: str, unit: str, name: str) -> list[str]:
        source, original = modules[module].imports.get(name, (module, name))
        if source == "memhooks.store" and original in face:
            source = f"memhooks.store.{face[original]}"
        if source not in modules:
            return []
        methods = modules[source].classes.get(original)
        if methods is None:
            return [f"{source}:{original}"]
        called = (modules[module].refers[unit] & methods) | {"__init__", "__enter__"}
        return [f"{source}:{original}.{method}" for method in called]

    grew = True
    while grew:
        grew = False
        for module, parsed in modules.items():
            for unit, refers in parsed.refers.items():
                key = f"{module}:{unit}"
                names = set(refers)
                if "." in unit:  # a method reaches its own class's methods by name
                    names |= {f"{unit.split('.')[0]}.{m}" for m in refers}
                reached = [
                    found.get(target, (False, False))
                    for name in names
                    for target in (
                        [f"{module}:{name}"]
                        if name in parsed.units
                        else targets(module, unit, name)
                    )
                ]
                now = (
                    found[key][0] or any(o for o, _ in reached),
                    found[key][1] or any(t for _, t in reached),
                )
                if now != found[key]:
                    found[key] = now
                    grew = True
    return found


def test_the_parts_table_says_who_writes() -> None:
    """A folder whose "writes" cell is "nothing" writes no file, neither itself nor through
    the store; one that writes through the store says so."""
    writers = _writers()
    problems = []
    for row in _table("layer"):
        folder, cell = row[1].strip("`").removesuffix("/"), row[4]
        if folder in ("store", "errors.py"):
            continue
        prefix = "memhooks." + folder.replace("/", ".") + "."
        units = {k: v for k, v in writers.items() if k.startswith(prefix)}
        own = sorted(k for k, (o, t) in units.items() if o and not t)
        through = sorted(k for k, (_, t) in units.items() if t)
        if cell == "nothing" and (own or through):
            problems.append(f"{folder} says nothing, writes: {(own + through)[:5]}")
        if through and "through the store" not in cell:
            problems.append(f"{folder} writes through the store: {through[:5]}")
        if cell != "nothing" and not (own or through):
            problems.append(f"{folder} writes nothing: say so")
    assert not problems, problems


def test_every_module_the_doc_names_is_there() -> None:
    """A backticked `folder/module.py` is a file of the package (or of the repository), and
    a backticked name with a `.py` of its own is one somewhere in the package."""
    root = PACKAGE.parents[1]
    files = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py*")}
    missing = []
    for name in set(_CODE.findall(DOC.read_text(encoding="utf-8"))):
        if not re.fullmatch(r"[\w./]+\.pyi?", name):
            continue
        if "/" in name:
            found = (root / name).is_file() or any(
                f == name or f.endswith("/" + name) for f in files
            )
        else:
            found = any(f.rsplit("/", 1)[-1] == name for f in files)
        if not found:
            missing.append(name)
    assert not missing, f"the doc names modules that are not there: {sorted(missing)}"


def test_the_write_step_names_its_callers() -> None:
    """The modules "One write step, one record" names as `tree_turn`'s callers are those that
    call it."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    listed = text.split("its callers: ", 1)[1].split(")", 1)[0]
    callers = {
        p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*.py")
        if p.name != "trusted.py" and re.search(r"\btree_turn\(", p.read_text(encoding="utf-8"))
    }
    assert set(_CODE.findall(listed)) == callers
