# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Whether semantic signals serve this project, in one line for `doctor` and `status`."""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store import MemoryPaths

if TYPE_CHECKING:
    from typing import Any


def describe(paths: MemoryPaths) -> dict[str, Any]:
    """{"mode", "serving", "ok", "detail", "fix"}: the config key, whether the per-prompt gate
    uses the token table now, whether anything needs doing, and what."""
    from memhooks.install import deps
    from memhooks.install.invocation import cli_hint
    from memhooks.install.semantic_assets import state, table_file
    from memhooks.recall.search_index import SearchIndex
    from memhooks.recall.search_read import has_vectors
    from memhooks.store import load_settings, rebuild_job

    mode = load_settings(paths.config).semantic
    data = deps.data_dir(fallback=True)
    ok, detail = state(data, mode)
    out: dict[str, Any] = {"mode": mode, "serving": False, "ok": ok, "detail": detail, "fix": ""}
    if mode == "off" or data is None or not table_file(data).exists():
        if mode != "off" and data is not None:
            out["fix"] = f"run {cli_hint('doctor --install')} to install it now"
        return out
    vectors = False
    if os.path.exists(paths.search_db):
        with SearchIndex(paths.search_db, table=None) as index:
            conn = index._read_connection()  # noqa: SLF001 - read-only look at the meta table
            vectors = conn is not None and has_vectors(conn)
    if vectors:
        out.update(serving=True, detail=f"on ({mode}): lexical gate, re-ranked by meaning")
        return out
    job, said = rebuild_job(paths)
    if job == "running":
        out.update(
            detail="waiting: the token table is ready and the rebuild SessionStart started "
            f"(process {said}) is giving this project's memories their vectors in the "
            "background; the lexical gate serves alone until then",
            fix=f"or run {cli_hint('rebuild')} now",
        )
    elif job == "failed":
        out.update(
            ok=False,
            detail="the token table is ready, but the rebuild SessionStart started for the "
            f"memory vectors failed: {said} (its output: rebuild.log in the machine-local "
            "folder, `memhooks status`); the lexical gate serves alone",
            fix=f"run {cli_hint('rebuild')}",
        )
    else:
        out.update(
            ok=False,
            detail="the token table is ready, but this project's search index has no memory "
            "vectors yet: the lexical gate serves alone",
            fix=f"run {cli_hint('rebuild')}",
        )
    return out
