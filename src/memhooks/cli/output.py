"""Printing results: human text by default, one JSON document with `--json`."""

from __future__ import annotations

import json
import sys
from typing import Any


def emit(data: dict[str, Any], text: str, *, as_json: bool) -> None:
    """Print the result. Titles, paths and bodies in it may come from a cloned tree or a
    bundle: their control characters are written visibly (`\x1b`), never obeyed."""
    from memhooks.text.controls import visible, visible_json

    if as_json:
        document = json.dumps(data, indent=2, ensure_ascii=False, default=str)
        sys.stdout.write(visible_json(document) + "\n")
    else:
        sys.stdout.write(visible(text.rstrip("\n")) + "\n")


def table(rows: list[list[str]], headers: list[str]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows, strict=False)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=False))]
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=False)) for r in rows]
    return "\n".join(line.rstrip() for line in lines)
