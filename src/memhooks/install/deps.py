"""The plugin brings its own dependencies into ${CLAUDE_PLUGIN_DATA}, without stalling a session.

Claude Code installs nothing for a plugin. On SessionStart the hook checks a marker file (one
stat); when the dependencies are missing it starts `pip install --target` in a detached
process and returns at once. The hot path never needs them; commands that do say so clearly.
"""

from __future__ import annotations

import os
import sys

from memhooks.install.invocation import PACKAGE_DIR

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: SessionStart imports this module
if TYPE_CHECKING:
    from pathlib import Path

REQUIREMENTS = ("pydantic>=2.6", "python-frontmatter>=1.1", "filelock>=3.30")
MODULES = ("pydantic", "frontmatter", "filelock")
MARKER = ".memhooks-deps-ok"
STALE_INSTALL_SECONDS = 900
#: The folder holding the `memhooks` package, for the detached installer's sys.path.
_SRC = os.path.dirname(PACKAGE_DIR)


def tag() -> str:
    return f"py{sys.version_info[0]}{sys.version_info[1]}"


def _path(text: str) -> Path:
    from pathlib import Path

    return Path(text)


def default_data_dir() -> Path:
    """Where commands look when CLAUDE_PLUGIN_DATA is unset (hooks/memhooks.py agrees).

    The host sets it for hooks, not for a slash command's shell injection: the installed
    plugin's data folder comes first; a checkout run by hand uses the user cache.
    """
    home = os.path.expanduser("~")
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    installed = _path(config) / "plugins" / "data"
    if (installed / "memory-memhooks").is_dir():
        return installed / "memory-memhooks"
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    return _path(cache) / "memhooks"


def data_dir(*, fallback: bool = False) -> Path | None:
    """${CLAUDE_PLUGIN_DATA}; outside Claude Code, the user cache when `fallback` is set."""
    value = os.environ.get("CLAUDE_PLUGIN_DATA")
    if value:
        return _path(value)
    return default_data_dir() if fallback else None


def target_dir(data: Path) -> Path:
    return data / "deps" / tag()


def marker(data: Path) -> Path:
    return target_dir(data) / MARKER


def missing_modules() -> list[str]:
    import importlib.util

    return [m for m in MODULES if importlib.util.find_spec(m) is None]


def ensure_in_background() -> str:
    """What it did, in a word: 'present', 'installing', 'started' or 'no-data-dir'.

    SessionStart calls this every time: the usual answer costs one stat and no imports.
    """
    value = os.environ.get("CLAUDE_PLUGIN_DATA")
    if not value:
        return "no-data-dir"
    if os.path.exists(os.path.join(value, "deps", tag(), MARKER)):
        return "present"
    if not missing_modules():
        return "present"
    return _start_install(_path(value))


def _start_install(data: Path) -> str:
    import subprocess
    import time

    busy = data / "deps" / ".installing"
    try:
        if time.time() - busy.stat().st_mtime < STALE_INSTALL_SECONDS:
            return "installing"
    except OSError:
        pass
    busy.parent.mkdir(parents=True, exist_ok=True)
    busy.write_text(str(os.getpid()), encoding="utf-8")
    log = (data / "deps" / "install.log").open("ab")
    code = (
        f"import sys; sys.path.insert(0, {_SRC!r}); "
        "from memhooks.install.deps import install_now; sys.exit(install_now())"
    )
    kwargs: dict[str, object] = {"start_new_session": True}
    if sys.platform == "win32":
        kwargs = {"creationflags": 0x00000008 | 0x00000200}  # DETACHED_PROCESS | NEW_PROCESS_GROUP
    subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        close_fds=True,
        **kwargs,  # type: ignore[call-overload]
    )
    log.close()
    return "started"


def install_now(*, fallback: bool = False) -> int:
    """Install into a fresh folder, then swap it in, so a half-done install is never used."""
    import shutil
    import subprocess
    import time

    data = data_dir(fallback=fallback)
    if data is None:
        sys.stderr.write("memhooks: CLAUDE_PLUGIN_DATA is not set; nothing to install into\n")
        return 2
    final = target_dir(data)
    staging = final.with_name(final.name + f".new-{os.getpid()}")
    busy = data / "deps" / ".installing"
    try:
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            "--quiet",
            "--no-warn-conflicts",  # other packages of this Python are not ours to judge
            "--target",
            str(staging),
            *REQUIREMENTS,
        ]
        env = {**os.environ, "PIP_ROOT_USER_ACTION": "ignore"}  # a container's root is fine
        done = subprocess.run(command, check=False, env=env)
        if done.returncode != 0:
            sys.stderr.write(f"memhooks: pip exited {done.returncode}\n")
            return done.returncode
        (staging / MARKER).write_text(time.strftime("%Y-%m-%dT%H:%M:%SZ\n"), encoding="utf-8")
        if final.exists():
            shutil.rmtree(final, ignore_errors=True)
        os.replace(staging, final)
        return 0
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        busy.unlink(missing_ok=True)


def ensure_now() -> bool:
    """For commands run by hand: install the dependencies once, visibly; True when present."""
    if not missing_modules():
        return True
    data = data_dir(fallback=True)
    assert data is not None  # noqa: S101 - fallback always gives a folder
    sys.stderr.write(
        f"memhooks: installing {', '.join(REQUIREMENTS)} into {target_dir(data)} "
        "(once; about a minute)...\n"
    )
    if install_now(fallback=True) != 0:
        return False
    activate(target_dir(data))
    return not missing_modules()


def activate(folder: Path) -> None:
    """Make a just-installed folder importable in this process. The launcher put it on
    sys.path before it existed, and the import system cached it as empty."""
    import importlib

    path = str(folder)
    if path not in sys.path:
        sys.path.append(path)
    sys.path_importer_cache.pop(path, None)
    importlib.invalidate_caches()


def describe() -> dict[str, object]:
    """For `memhooks doctor`."""
    import importlib.util

    data = data_dir(fallback=True)
    found = {m: (spec.origin if (spec := importlib.util.find_spec(m)) else None) for m in MODULES}
    info: dict[str, object] = {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "modules": found,
        "data_dir": str(data) if data else None,
    }
    if data is not None:
        info["deps_dir"] = str(target_dir(data))
        info["deps_marker"] = marker(data).exists()
        info["installing"] = (data / "deps" / ".installing").exists()
        log = data / "deps" / "install.log"
        if log.exists():
            info["install_log_tail"] = log.read_text(encoding="utf-8", errors="replace")[-800:]
    return info
