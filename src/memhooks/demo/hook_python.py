# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Which `python3` the hooks get in a sandbox, and the plugin's dependencies pre-installed for it.

Standard library only. A user's hooks run on the `python3` on PATH outside any venv; the
dependencies are installed for it with pip once, into the cache, so that a sandbox can skip
the plugin's own bootstrap.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from memhooks.demo import HarnessError
from memhooks.install.deps import REQUIREMENTS


def base_python() -> Path:
    """The interpreter behind `python3` on PATH, outside any venv: what a user's hooks get."""
    python = shutil.which("python3") or sys.executable
    probe = "import sys; print(getattr(sys, '_base_executable', '') or sys.executable)"
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=False)
    found = out.stdout.strip()
    return Path(found) if out.returncode == 0 and found else Path(sys.executable)


def python_tag(python: Path) -> str:
    """ "py311" for a Python 3.11: the launcher's name for its dependency folder."""
    probe = "import sys; print('py%d%d' % sys.version_info[:2])"
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def has_deps(python: Path) -> bool:
    probe = [str(python), "-c", "import pydantic, frontmatter"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def ensure_deps(cache: Path, python: Path) -> Path:
    """The plugin's dependencies for `python`, installed once with pip into the cache."""
    target = cache / "e2e-deps" / python_tag(python)  # not deps/: the plugin's own layout
    if (target / ".complete").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{target.name}.", dir=target.parent))
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    proc = subprocess.run(
        [*pip, "--target", str(work), *REQUIREMENTS], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise HarnessError(
            f"pip could not install {' '.join(REQUIREMENTS)}:\n{proc.stderr[-1500:]}"
        )
    (work / ".complete").write_text("", encoding="utf-8")
    try:
        work.rename(target)
    except OSError:  # another run finished first; its copy is as good as ours
        shutil.rmtree(work, ignore_errors=True)
    return target
