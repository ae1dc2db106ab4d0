"""`memhooks rebuild`: regenerate the index, archive, caches and stats from the files alone."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit
from memhooks.install.invocation import plural
from memhooks.store import MemoryPaths, rebuilt
from memhooks.text.progress import Progress


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "rebuild",
        help="regenerate MEMORY.md and caches from the files",
        description="Scan every memory file, regenerate MEMORY.md, "
        "MEMORY-archive.md, the search index (with each memory's vector when the token "
        "table of semantic signals is installed) and the stats. A file that "
        "does not parse is reported and left untouched. Exit 1 when any "
        "file was skipped.",
    )
    parser.add_argument(
        "--recover",
        action="store_true",
        help="first put back the memory files deleted behind the store's back (a shell "
        "`rm`, even of the whole .claude/) from the last known copies this machine keeps "
        "outside the project; an existing file is never overwritten",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths, store = open_tree(args)
    recovered: list[str] = []
    if args.recover:
        from memhooks.store import create_tree, recover_missing

        # The whole tree may be gone (`rm -rf .claude`): this machine's record of it is
        # not, so it is made again first, then its memories are put back.
        create_tree(paths)
        with store.locked():
            recovered = recover_missing(paths)
    result = store.rebuild(Progress("rebuild"))
    rebuilt(paths)
    counts = result.counts()
    skipped = [{"path": p, "reason": why} for p, why in result.problems]
    contexts = (
        sum(1 for _ in Path(paths.context).glob("*.md")) if Path(paths.context).is_dir() else 0
    )
    text = (
        f"Index rebuilt. Found {plural(counts.get('decision', 0), 'decision')}, "
        f"{plural(counts.get('analysis', 0), 'analysis', 'analyses')}, "
        f"{plural(contexts, 'context file')}, "
        f"{plural(counts.get('subagent', 0), 'subagent output')}."
    )
    others = {k: v for k, v in counts.items() if k not in ("decision", "analysis", "subagent")}
    if others:
        text += "\nAlso: " + ", ".join(f"{v} {k}" for k, v in sorted(others.items()))
    semantic = _semantic(paths)
    text += f"\nSemantic signals: {semantic['detail']}" + (
        f" ({semantic['fix']})" if semantic["fix"] else ""
    )
    if args.recover:
        text += f"\nPut back {plural(len(recovered), 'memory file')}" + "".join(
            f"\n  {relative}" for relative in recovered
        )
    for item in skipped:
        text += f"\nSkipped (not parsed, left untouched): {item['path']}: {item['reason']}"
    emit(
        {
            "counts": counts,
            "total": sum(counts.values()),
            "skipped": skipped,
            "semantic": semantic,
            "recovered": recovered,
        },
        text,
        as_json=args.json,
    )
    return Exit.FAILED if skipped else Exit.OK


def _semantic(paths: MemoryPaths) -> dict[str, Any]:
    """Whether the rebuilt index serves semantic signals (the `status` line)."""
    from memhooks.view.tree_status import semantic_state

    return semantic_state(paths)
