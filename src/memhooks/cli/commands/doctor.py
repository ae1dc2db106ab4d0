"""`memhooks doctor`: say what is wrong, and how to fix it."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from memhooks.cli.common import add_json, memory_paths
from memhooks.cli.output import emit
from memhooks.errors import Exit
from memhooks.install import deps, host_plugin
from memhooks.install.invocation import cli_hint
from memhooks.install.semantic_assets import state as semantic_state
from memhooks.install.semantic_assets import table_file
from memhooks.store import LockTimeoutError, MemoryPaths, load_catalog, quick_lock
from memhooks.text.progress import say, wanted


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "doctor",
        help="check the installation and the memory tree",
        description="Check Python, the dependencies, the memory tree, "
        "config.json, _session.json, the catalog, the index, the search "
        "index and semantic signals (the token table and the index's memory vectors). "
        "Exit 1 when something needs fixing; with --install, also when the token table "
        "the configuration uses could not be built.",
    )
    parser.add_argument(
        "--install",
        action="store_true",
        help="install missing dependencies into ${CLAUDE_PLUGIN_DATA} now, and build the token "
        "table of semantic signals (one-time: ~100 MB download, ~15 MB kept, about a minute)",
    )
    parser.add_argument(
        "--link",
        nargs="?",
        const="~/.local/bin",
        metavar="DIR",
        help="write a `memhooks` command for your shell into DIR (default ~/.local/bin): the "
        "plugin's command line with its data folder, wherever Claude Code installed it",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def link(args: argparse.Namespace) -> int:
    """`--link`: one `memhooks` a person can type, the same one Claude runs."""
    from pathlib import Path

    from memhooks.errors import UserError
    from memhooks.install.invocation import launcher_path
    from memhooks.install.link import on_path, ours, write_link

    folder = Path(args.link).expanduser().absolute()
    data = deps.data_dir(fallback=True)
    if launcher_path() is None:
        text = "memhooks is installed as a package: its `memhooks` command is on PATH already."
    elif data is None and host_plugin.host_plugin_dir():
        raise UserError(host_plugin.UNKNOWN_DATA_DIR, Exit.NOT_FOUND)
    elif os.name == "nt" or data is None:
        raise UserError(
            f"--link writes a POSIX shell script; here, run {cli_hint('…')} instead",
            Exit.REFUSED,
        )
    elif not ours(folder / "memhooks"):
        raise UserError(
            f"{folder / 'memhooks'} exists and is not one `doctor --link` wrote: not replaced; "
            "name another folder",
            Exit.REFUSED,
        )
    else:
        target = write_link(folder, data)
        text = f"Wrote {target}: the memhooks plugin's command line, data folder {data}."
        text += (
            "\nRun `memhooks --help` from any folder of a project."
            if on_path(folder)
            else f"\n{folder} is not on your PATH: add it (in ~/.bashrc or ~/.zshrc: "
            f'export PATH="{folder}:$PATH"), or run {target} by its full path.'
        )
    emit({"link": str(folder / "memhooks"), "data_dir": str(data)}, text, as_json=args.json)
    return Exit.OK


def _check(checks: list[dict[str, Any]], name: str, ok: bool, detail: str, fix: str = "") -> None:
    checks.append({"check": name, "ok": ok, "detail": detail, "fix": "" if ok else fix})


def _unreadable(paths: MemoryPaths, relatives: list[str]) -> dict[str, str]:
    from memhooks.store import read_entry

    def problem(relative: str) -> str | None:
        try:
            read_entry(paths, Path(paths.base) / relative)
        except (OSError, ValueError) as exc:
            return " ".join(str(exc).split())[:200]
        return None

    found = {relative: problem(relative) for relative in relatives[:50]}
    return {relative: why for relative, why in found.items() if why is not None}


def check_tree(paths: MemoryPaths, checks: list[dict[str, Any]]) -> None:
    from pydantic import ValidationError

    from memhooks.store import SessionState, memory_files, read_bytes, validate_config

    try:
        SessionState.model_validate_json(read_bytes(paths.session, 1_000_000, whole=True))
        _check(checks, "_session.json", True, "valid")
    except (ValidationError, OSError) as exc:
        _check(
            checks,
            "_session.json",
            False,
            str(exc).splitlines()[0],
            "fix the file by hand or move it away and run " + cli_hint("start"),
        )
    if Path(paths.config).exists():
        try:
            validate_config(json.loads(read_bytes(paths.config, 1_000_000, whole=True)))
            _check(checks, "config.json", True, "valid")
        except (ValueError, OSError) as exc:
            _check(checks, "config.json", False, str(exc)[:300], "see docs/configuration.md")
    else:
        _check(checks, "config.json", True, "absent (defaults apply)")
    _check_patterns(paths, checks)
    cat = load_catalog(paths.catalog)
    files = {paths.relative(p) for p in memory_files(paths)}
    if cat is None:
        _check(checks, "catalog", False, "missing or unreadable", "run " + cli_hint("rebuild"))
    else:
        missing = sorted(set(cat.entries) - files)
        unknown = sorted(files - set(cat.entries))
        broken = _unreadable(paths, unknown)
        unknown = [u for u in unknown if u not in broken]
        _check(
            checks,
            "catalog",
            not missing and not unknown,
            f"{len(cat.entries)} entries, {len(files)} files"
            + (f"; gone: {missing[:3]}" if missing else "")
            + (f"; not indexed: {unknown[:3]}" if unknown else ""),
            "run " + cli_hint("rebuild"),
        )
        for relative, why in broken.items():
            # A rebuild cannot index these: only an edit of the file can.
            _check(checks, relative, False, f"does not parse: {why}", "fix or move the file")
    try:
        size = Path(paths.index).stat().st_size
        lines = len(read_bytes(paths.index).splitlines())
        _check(checks, "MEMORY.md", True, f"{lines} lines, {size:,} bytes")
    except OSError:
        _check(checks, "MEMORY.md", False, "missing", "run " + cli_hint("rebuild"))
    from memhooks.store import CATEGORIES, conflicted_files

    conflicts = conflicted_files(paths.base, tuple(c.folder for c in CATEGORIES))
    _check(
        checks,
        "conflict markers",
        not conflicts,
        (f"in {', '.join(conflicts[:5])}" if conflicts else "none"),
        "resolve the git merge conflict in those files, then run " + cli_hint("rebuild"),
    )
    _check_search(paths, checks, len(cat.active()) if cat else 0)
    try:
        with quick_lock(paths.lock, 0.2):
            _check(checks, "store lock", True, "free")
    except LockTimeoutError:
        _check(
            checks,
            "store lock",
            False,
            "held by another process",
            "wait for it; if no memhooks process runs, the holder died and the OS freed it",
        )


def _check_patterns(paths: MemoryPaths, checks: list[dict[str, Any]]) -> None:
    from memhooks.view.tree_status import dropped_patterns

    dropped = dropped_patterns(paths)
    if dropped:
        fix = "make each pattern start with a literal and avoid repeats that can backtrack"
        _check(checks, "redact.extra_patterns", False, "; ".join(dropped), fix)


def _check_search(paths: MemoryPaths, checks: list[dict[str, Any]], active: int) -> None:
    from memhooks.install.semantic_status import describe
    from memhooks.recall.search_index import SearchIndex

    with SearchIndex(paths.search_db) as index:
        indexed = index.count()
    _check(
        checks,
        "search index",
        indexed == active,
        f"{indexed} documents, {active} active",
        "run " + cli_hint("rebuild"),
    )
    semantic = describe(paths)
    detail = semantic["detail"]
    if semantic["ok"] and semantic["fix"]:  # nothing broken, but full quality is one step away
        detail += f" ({semantic['fix']})"
    _check(checks, "semantic signals", semantic["ok"], detail, semantic["fix"])


def _semantic_mode(args: argparse.Namespace) -> str:
    """retrieval.semantic of this project (`auto` where it has no config)."""
    from memhooks.store import load_settings

    try:
        return load_settings(memory_paths(args).config).semantic
    except (OSError, ValueError):
        return "auto"


def _install(args: argparse.Namespace, checks: list[dict[str, Any]]) -> None:
    """Everything the configuration uses: the dependencies, then the token table (unless
    this project turned semantic signals off). A table that was not built fails the check."""
    semantic = _semantic_mode(args) != "off"
    say(
        "installing what is missing: the dependencies"
        + (", then the token table of semantic signals (a few minutes, once)" if semantic else "")
    )
    # In a terminal pip shows its own lines and download bars; elsewhere it stays quiet.
    code = deps.install_now(fallback=True, quiet=not wanted(), semantic=semantic)
    data = deps.data_dir(fallback=True)
    if code == 0 and data is not None:
        deps.activate(deps.target_dir(data))
    detail = f"dependencies: pip exit code {code}"
    table_ok = True
    if semantic and code == 0 and data is not None:
        table_ok = table_file(data).exists()
        detail += "; token table: " + ("ready" if table_ok else "not built")
    _check(
        checks,
        "install",
        code == 0 and table_ok,
        detail,
        "see the lines above; run " + cli_hint("doctor --install") + " again when online",
    )


def run(args: argparse.Namespace) -> int:
    if args.link:
        return link(args)
    checks: list[dict[str, Any]] = []
    if args.install:
        _install(args, checks)
    info = deps.describe()
    modules = info["modules"]
    missing = (
        [m for m, origin in modules.items() if origin is None] if isinstance(modules, dict) else []
    )
    _check(checks, "python", True, f"{info['python']} ({info['executable']})")
    _check(
        checks,
        "dependencies",
        not missing,
        "all importable" if not missing else f"missing: {', '.join(missing)}",
        f"run {cli_hint('doctor --install')}, or {deps.manual_install_hint(data)}"
        if (data := deps.data_dir(fallback=True))
        else "pip install pydantic python-frontmatter",
    )
    paths = memory_paths(args)
    if not Path(paths.session).exists():
        _check(checks, "memory tree", True, f"not started in {Path(paths.base).parent.parent}")
        # The table belongs to the data folder, not the project: say whether it is there.
        ok, detail = semantic_state(deps.data_dir(fallback=True), _semantic_mode(args))
        _check(checks, "semantic signals", ok, detail, "run " + cli_hint("doctor --install"))
    elif not missing:
        _check(checks, "memory tree", True, paths.base)
        check_tree(paths, checks)
    ok = all(c["ok"] for c in checks)
    text = "\n".join(
        f"[{'ok' if c['ok'] else 'FIX'}] {c['check']}: {c['detail']}"
        + (f"\n      -> {c['fix']}" if c["fix"] else "")
        for c in checks
    )
    emit({"ok": ok, "checks": checks, "environment": info}, text, as_json=args.json)
    return Exit.OK if ok else Exit.FAILED
