"""The store's face is one list (TREE and STORE in `memhooks/store/__init__.py`); the stub
mypy reads, `memhooks/store/__init__.pyi`, is generated from it.

    python tests/store/test_face.py     # writes the stub again after a name moved
"""

from __future__ import annotations

import sys
from pathlib import Path

STUB = Path(__file__).resolve().parents[2] / "src" / "memhooks" / "store" / "__init__.pyi"


def _isort_order(name: str) -> tuple[int, str]:
    """isort's order by type, as ruff applies it: CONSTANTS, Classes, then the rest."""
    kind = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return kind, name


def render_stub() -> str:
    """One `from memhooks.store.<module> import X as X` per name, modules and names sorted."""
    from memhooks import store

    by_module: dict[str, set[str]] = {}
    for table in (store.TREE, store.STORE):
        for module, names in table.items():
            by_module.setdefault(module, set()).update(names.split())
    lines = [
        "# What mypy reads of `memhooks.store`: generated from its TREE and STORE tables by",
        "# `python tests/store/test_face.py`; do not edit.",
        "",
    ]
    for module in sorted(by_module):
        lines += [
            f"from memhooks.store.{module} import {name} as {name}"
            for name in sorted(by_module[module], key=_isort_order)
        ]
    lines += ["", "TREE: dict[str, str]", "STORE: dict[str, str]", ""]
    return "\n".join(lines)


def test_the_stub_is_generated_from_the_tables() -> None:
    assert STUB.read_text(encoding="utf-8") == render_stub(), (
        "run `python tests/store/test_face.py` to write src/memhooks/store/__init__.pyi again"
    )


def test_the_package_lists_its_names_once() -> None:
    source = STUB.with_suffix(".py").read_text(encoding="utf-8")
    assert " as " not in source  # no import list beside the tables
    from memhooks import store

    names = [n for table in (store.TREE, store.STORE) for ns in table.values() for n in ns.split()]
    assert len(names) == len(set(names))


if __name__ == "__main__":
    sys.path.insert(0, str(STUB.parents[2]))
    STUB.write_text(render_stub(), encoding="utf-8")
    print(f"wrote {STUB}")
