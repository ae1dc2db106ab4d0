"""`memhooks view`: one self-contained HTML page showing what the memory holds."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from memhooks.cli.common import add_json, memory_paths, report_config, require_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.store import MemoryPaths


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "view",
        help="write a browser view of the memory (HTML, offline) and print its path",
        description="Write one self-contained HTML file showing the memories by category and "
        "state (Claude Code's own auto memory files not imported yet in a read-only group), "
        "superseded decisions, the session timeline, what the hooks injected and the "
        "health line, with a search box. It loads nothing from the network. By default it "
        "goes to view.html in the checkout's machine-local folder (outside the checkout: "
        "~/.local/state/memhooks/checkouts/<id>/); "
        "open it with any browser, or pass --open.",
    )
    parser.add_argument("--out", metavar="FILE", help="write the page here instead")
    parser.add_argument("--open", action="store_true", help="open it in the default browser")
    add_json(parser)
    parser.set_defaults(func=run)


def _target(args: argparse.Namespace, paths: MemoryPaths) -> Path:
    if args.out:
        out = Path(args.out).expanduser().absolute()
        if out.is_dir():
            raise UserError(f"--out {out} is a folder; name a file", Exit.USAGE)
        return out
    from memhooks.store import UnsafeFileError, default_page

    try:
        return default_page(paths)
    except UnsafeFileError as exc:
        raise UserError(str(exc), Exit.REFUSED) from None


def run(args: argparse.Namespace) -> int:
    from memhooks.store import write_page
    from memhooks.view.data import gather, native_memories
    from memhooks.view.page import render

    paths = memory_paths(args)
    require_tree(paths)
    report_config(paths)
    out = _target(args, paths)
    started = time.perf_counter()
    data = gather(paths)
    from memhooks.cli.user_store import user_memories

    data["memories"] += user_memories(paths)  # after the project's, each marked as the user's
    native = native_memories(paths)
    data["memories"] += native  # the host's own, read only until imported
    page = render(data)
    try:
        write_page(out, page)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror or exc}", Exit.IO_ERROR) from None
    seconds = time.perf_counter() - started
    if args.open:
        import webbrowser

        webbrowser.open(out.as_uri())
    result = {
        "path": os.fspath(out),
        "bytes": len(page.encode("utf-8")),
        "memories": len(data["memories"]),
        "native": len(native),
        "timeline": len(data["timeline"]),
        "chains": len(data["chains"]),
        "seconds": round(seconds, 3),
    }
    emit(result, os.fspath(out), as_json=args.json)
    return Exit.OK
