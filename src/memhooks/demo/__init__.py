# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`memhooks demo`: watch the plugin carry a session through compaction, offline.

Plays a scripted coding session in a throwaway project and prints what each hook
injected. With the `claude` CLI available (the pinned one in the e2e cache, $CLAUDE_BIN,
or one on PATH) it drives the real CLI against a local mock of the API; without it, it
runs the hook entry points directly. No API account is needed either way.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["HarnessError", "run_demo"]


class HarnessError(RuntimeError):
    """The CLI or the plugin could not be set up; the message says what to do."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memhooks demo", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--install",
        action="store_true",
        help="also install the plugin into your own Claude Code (marketplace add + install)",
    )
    parser.add_argument(
        "--no-claude", action="store_true", help="run the hooks directly even if claude is found"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary project and print where it is"
    )
    parser.add_argument("--json", action="store_true", help="print the run as JSON")
    return parser


#: Where `--install` clones the plugin from: the folder the README's install steps use.
CLONE = Path("~/.local/share/memhooks")


def _clean_clone(plugin_root: Path) -> tuple[Path | None, str]:
    """The README's clean clone of this checkout (its committed branch: a marketplace install
    copies the folder whole, so never the working checkout with its venvs and caches), made
    once, or the one already there. (None, why) when there is none to use."""
    clone = CLONE.expanduser()
    if (clone / ".claude-plugin" / "plugin.json").is_file():
        return clone, f"--install: using the clone already at {clone} (`git -C {clone} pull`)"
    if clone.exists():
        return None, f"--install: {clone} exists and is not a memhooks clone: nothing installed"
    done = subprocess.run(
        ["git", "clone", "--quiet", str(plugin_root), str(clone)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        why = done.stderr.strip()[-300:]
        return None, f"--install: git clone {plugin_root} {clone} failed: {why}"
    return clone, f"--install: cloned {plugin_root} (what is committed) into {clone}"


def where_claude_is(claude: Path) -> str:
    """The CLI's path, and how to put it on PATH when it is not there."""
    on_path = shutil.which("claude")
    if on_path is not None and Path(on_path).resolve() == claude.resolve():
        return f"claude CLI: {claude} (on your PATH as `claude`)"
    return (
        f"claude CLI: {claude}. It is not on your PATH as `claude`: for the commands the "
        f'README gives, run `export PATH="{claude.parent}:$PATH"` (add it to ~/.bashrc or '
        "~/.zshrc to keep it), or install Claude Code itself."
    )


def _install_for_user(claude: Path | None, plugin_root: Path | None) -> list[str]:
    """Install the plugin into the user's real Claude Code as the README's 'Install in Claude
    Code' does (a clean clone, marketplace add, install), with the CLI the demo used."""
    from memhooks.demo import harness

    if claude is None:
        return [
            "--install: no claude CLI (none on PATH, and npm was not there to fetch the pinned "
            "one), so nothing was installed. With claude installed, run the commands under "
            "'Install in Claude Code' in the README."
        ]
    if plugin_root is None:
        return ["--install: this copy of memhooks is not a plugin checkout; nothing was installed."]
    clone, said = _clean_clone(plugin_root)
    done = [said]
    if clone is None:
        return done
    for args in (
        ["plugin", "marketplace", "add", str(clone)],
        ["plugin", "install", f"{harness.PLUGIN}@{harness.MARKETPLACE}"],
    ):
        proc = subprocess.run([str(claude), *args], capture_output=True, text=True, check=False)
        state = "ok"
        if proc.returncode != 0:
            said = (proc.stderr or proc.stdout).strip()
            state = f"failed (exit {proc.returncode}): {said[-300:]}"
            if args[1] == "marketplace" and "already" in said:
                state += (
                    f" (`claude plugin marketplace remove {harness.MARKETPLACE}`, then run "
                    "this again to add the clean clone)"
                )
        done.append(f"--install: claude {' '.join(args)}: {state}")
    done.append("--install: run `/memory start` in a project to turn memory on there.")
    return done


def _find_or_fetch_claude(notes: list[str]) -> Path | None:
    """$CLAUDE_BIN, the pinned CLI in the user cache, `claude` on PATH; else fetch the pinned
    one with npm (once, with progress). None, with a note saying why, when there is no npm."""
    from memhooks.demo import pinned_cli

    cache = pinned_cli.cache_dir()
    found = pinned_cli.find_claude(cache, allow_path=True)
    if found is not None:
        return found
    try:
        return pinned_cli.install_claude(cache, progress=True)
    except HarnessError as exc:
        notes.append(
            f"No claude CLI: {exc}. The demo ran the hook entry points directly instead "
            "(the same hooks, without the real CLI around them)."
        )
        return None


def run_demo(argv: list[str]) -> int:
    """The `memhooks demo` command. Returns 0 when every step of the session ran."""
    from memhooks.demo import harness, report, session
    from memhooks.text.progress import say

    args = _parser().parse_args(argv)
    plugin_root = harness.repo_root()
    notes: list[str] = []
    claude = None if args.no_claude else _find_or_fetch_claude(notes)
    workdir = Path(tempfile.mkdtemp(prefix="memhooks-demo-"))
    stream = None if args.json else report.Stream()
    watch = stream.watch if stream is not None else None
    try:
        if claude is not None and plugin_root is not None:
            python, deps = _hook_python(notes)
            say("demo: installing the plugin into a sandbox through its marketplace...")
            result = session.play_with_claude(
                claude, plugin_root, workdir, python, deps, watch=watch
            )
            notes.insert(0, where_claude_is(claude))
        else:
            why = "--no-claude" if args.no_claude else "no claude CLI found"
            result = session.play_direct(plugin_root, workdir, watch=watch, why=why)
        result.notes.extend(notes)
        if args.install:
            if claude is None and args.no_claude:
                claude = _find_or_fetch_claude(result.notes)
            result.notes.extend(_install_for_user(claude, plugin_root))
            where = where_claude_is(claude) if claude is not None else ""
            if where and where not in result.notes:
                result.notes.append(where)
        if args.keep:
            result.notes.append(f"kept: {workdir}")
        if stream is None:
            print(json.dumps(result.as_json(), indent=2))
        else:
            stream.finish(result)
        return 0 if all(step.ok for step in result.steps) else 1
    except HarnessError as exc:
        print(f"memhooks demo: {exc}", file=sys.stderr)
        return 2
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


def _hook_python(notes: list[str]) -> tuple[Path, Path | None]:
    """The interpreter the hooks get, and dependencies to seed for it (None: it has them)."""
    from memhooks.demo import hook_python, pinned_cli

    current = Path(sys.executable)
    if hook_python.has_deps(current):
        return current, None
    python = hook_python.base_python()
    try:
        return python, hook_python.ensure_deps(pinned_cli.cache_dir(), python)
    except HarnessError as exc:
        notes.append(f"Dependencies not pre-installed ({exc}); the plugin installs them itself.")
        return python, None
