# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The pinned `claude` CLI the demo and the e2e suite drive: where it is kept, how it is fetched.

Standard library only. One copy per version in the user cache (or $MEMHOOKS_E2E_DIR), shared by
`.ci/run`, the tests and the demo, fetched with npm once; never inside the plugin's folder (a
marketplace install copies that folder whole).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from memhooks.demo import HarnessError
from memhooks.install.deps import user_cache

CLI_PACKAGE = "@anthropic-ai/claude-code"
CLI_VERSION = "2.1.332"
E2E_DIR_ENV = "MEMHOOKS_E2E_DIR"


def cache_dir() -> Path:
    """Where the pinned CLI and other downloads are kept between runs: $MEMHOOKS_E2E_DIR, else
    the user cache (~/.cache/memhooks, the plugin's own fallback data folder)."""
    override = os.environ.get(E2E_DIR_ENV)
    return Path(override) if override else user_cache()


def _cli_dir(cache: Path, version: str) -> Path:
    return cache / f"cli-{version}"


def find_claude(
    cache: Path, version: str = CLI_VERSION, *, allow_path: bool = False
) -> Path | None:
    """$CLAUDE_BIN, then the pinned CLI in the cache, then (if allowed) `claude` on PATH."""
    candidates = [
        os.environ.get("CLAUDE_BIN"),
        _cli_dir(cache, version) / "node_modules/.bin/claude",
    ]
    if allow_path:
        candidates.append(shutil.which("claude"))
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate).resolve()
    return None


def install_claude(cache: Path, version: str = CLI_VERSION, *, progress: bool = True) -> Path:
    """Install the pinned CLI with npm into the cache, once; safe when runs race.

    With `progress`, says what it fetches and where, and lets npm's own output through
    (to stderr: stdout may be a report or JSON)."""
    found = find_claude(cache, version)
    if found:
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise HarnessError(
            "npm is not on PATH, so the pinned claude CLI cannot be fetched: install Node.js "
            "(it brings npm), or set CLAUDE_BIN to a claude binary"
        )
    cache.mkdir(parents=True, exist_ok=True)
    # npm works in a private folder that is renamed into place whole, so a concurrent
    # run never sees a half-installed CLI and the loser of the race just drops its copy.
    work = Path(tempfile.mkdtemp(prefix=f"cli-{version}.", dir=cache))
    (work / "package.json").write_text('{"name": "memhooks-e2e-cli", "private": true}\n')
    spec = f"{CLI_PACKAGE}@{version}"
    if progress:
        print(
            f"memhooks: fetching {spec} with npm into {_cli_dir(cache, version)} "
            "(about 400 MB, once; a minute or two)...",
            file=sys.stderr,
            flush=True,
        )
    proc = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--prefix", str(work), spec],
        stdout=sys.stderr if progress else subprocess.PIPE,
        stderr=None if progress else subprocess.PIPE,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise HarnessError(
            f"npm install {spec} failed (exit {proc.returncode})"
            + (f":\n{proc.stderr[-2000:]}" if proc.stderr else "")
        )
    try:
        work.rename(_cli_dir(cache, version))
    except OSError:
        shutil.rmtree(work, ignore_errors=True)
    found = find_claude(cache, version)
    if found is None:
        raise HarnessError(f"npm installed {spec} but no claude binary appeared")
    return found
