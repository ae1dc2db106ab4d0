"""The plugin brings its own dependencies into ${CLAUDE_PLUGIN_DATA}, without stalling a session.

Claude Code installs nothing for a plugin. On SessionStart the hook checks a marker file (one
stat); when the dependencies are missing it starts `pip install --target` in a detached
process and returns at once. The hot path never needs them; commands that do say so clearly.
"""

from __future__ import annotations

import os
import sys

from memhooks import TYPE_CHECKING
from memhooks.install.data_folder import problem
from memhooks.install.invocation import PACKAGE_DIR

if TYPE_CHECKING:
    from pathlib import Path

REQUIREMENTS = ("pydantic>=2.6", "python-frontmatter>=1.1")
MODULES = ("pydantic", "frontmatter")
MARKER = ".memhooks-deps-ok"
STALE_INSTALL_SECONDS = 900
#: How long a command waits for an install another process runs.
INSTALL_WAIT_SECONDS = 600.0
#: The folder holding the `memhooks` package, for the detached installer's sys.path.
_SRC = os.path.dirname(PACKAGE_DIR)


def tag() -> str:
    return f"py{sys.version_info[0]}{sys.version_info[1]}"


def _path(text: str) -> Path:
    from pathlib import Path

    return Path(text)


def default_data_dir() -> Path | None:
    """Where a command looks when neither CLAUDE_PLUGIN_DATA nor --plugin-data says.

    The plugin's command files pass `--plugin-data "${CLAUDE_PLUGIN_DATA}"` (the host
    substitutes it); a launcher given it records the folder for its plugin root, so that
    Claude's own Bash calls of the same launcher find it too. A version Claude Code installed,
    run by hand with no record, uses the data folder that names it (`host_data_dir`); a
    checkout run by hand with no record uses the user cache. The folder's name is never
    guessed, and none is used when it fails data_folder's checks (inside the project, or
    others could change it).
    """
    recorded = recorded_data_dir()
    if recorded is not None:
        return recorded
    from memhooks.install.host_plugin import host_data_dir, host_plugin_dir

    if host_plugin_dir():
        # Installed by Claude Code and run by hand: its data folder, found by the record
        # SessionStart keeps in it, or none (never the user cache, which the plugin's hooks
        # do not read: a table built there would not serve).
        found = host_data_dir()
        return None if found is None or problem(found) else _path(found)
    cache = _user_cache_str()
    return None if problem(cache) else _path(cache)


def _user_cache_str() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "memhooks")


def user_cache() -> Path:
    return _path(_user_cache_str())


def _record_file() -> str:
    """One small file per plugin root, named by the root's path, in plain strings:
    SessionStart calls this, and pathlib costs it imports."""
    from memhooks.store import consent_file

    root = os.path.realpath(os.path.dirname(_SRC))
    return os.path.join(_user_cache_str(), "plugin-data", consent_file(root))


def _read_record() -> str:
    try:
        with open(_record_file(), encoding="utf-8") as handle:
            text = handle.read(4096).strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return text if os.path.isabs(text) else ""


def recorded_data_dir() -> Path | None:
    """The recorded folder, unless it fails data_folder's checks now (then it is ignored)."""
    text = _read_record()
    return _path(text) if text and not problem(text) else None


def record_data_dir(data: str) -> None:
    """Remember which data folder the host gave this plugin root (best effort; never one
    that fails data_folder's checks)."""
    if problem(data):
        return
    try:
        if _read_record() == data:
            return
        record = _record_file()
        os.makedirs(os.path.dirname(record), exist_ok=True)
        temp = f"{record}.{os.getpid()}.tmp"
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(data + "\n")
        os.replace(temp, record)
    except OSError:
        pass


def data_dir(*, fallback: bool = False) -> Path | None:
    """${CLAUDE_PLUGIN_DATA}; outside Claude Code, the user cache when `fallback` is set.
    None when the folder fails data_folder's checks."""
    value = os.environ.get("CLAUDE_PLUGIN_DATA")
    if value:
        return None if problem(value) else _path(value)
    return default_data_dir() if fallback else None


def target_dir(data: Path, python_tag: str = "") -> Path:
    """Where the dependencies for this interpreter (or the one `python_tag` names) live."""
    return data / "deps" / (python_tag or tag())


def marker(data: Path) -> Path:
    return target_dir(data) / MARKER


def missing_modules() -> list[str]:
    import importlib.util

    return [m for m in MODULES if importlib.util.find_spec(m) is None]


def ensure_in_background(*, semantic: bool = True) -> str:
    """What it did, in a word: 'present', 'installing', 'started' or 'no-data-dir'.

    SessionStart calls this only where memory is active: the usual answer costs two stats
    and no imports. `semantic`: the token table of semantic signals is wanted too
    (install.semantic_assets; a failed attempt is retried hours later, not every session).
    """
    value = os.environ.get("CLAUDE_PLUGIN_DATA")
    if not value or problem(value):
        return "no-data-dir"
    deps_ok = os.path.exists(os.path.join(value, "deps", tag(), MARKER)) or not missing_modules()
    if deps_ok and (not semantic or _table_ok(value)):
        return "present"
    return _start_install(_path(value), semantic=semantic)


def _table_ok(data: str) -> bool:
    """The token table is there, or its last attempt failed recently (retried later)."""
    from memhooks.recall.semantic import TABLE_FILE

    if os.path.exists(os.path.join(data, "semantic", TABLE_FILE)):
        return True
    from memhooks.install.semantic_assets import building, disabled, failed_recently

    folder = _path(data)
    return disabled(folder) or building(folder) or failed_recently(folder)


def _isolated(*args: str) -> list[str]:
    """This Python in isolated mode (-I): no PYTHON* variables, no user site, and neither
    the current directory nor a script's folder on sys.path, so nothing of the project
    (a `pip/` package, a `subprocess.py`) can be imported in place of the real one."""
    return [sys.executable, "-I", *args]


def _start_install(data: Path, *, semantic: bool = True) -> str:
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
        "from memhooks.install.deps import install_now; "
        f"sys.exit(install_now(semantic={semantic!r}))"
    )
    kwargs: dict[str, object] = {"start_new_session": True}
    if sys.platform == "win32":
        kwargs = {"creationflags": 0x00000008 | 0x00000200}  # DETACHED_PROCESS | NEW_PROCESS_GROUP
    env = {**os.environ, "CLAUDE_PLUGIN_DATA": str(data)}
    subprocess.Popen(
        _isolated("-c", code),
        # Never the project (it is not ours to run code from), nor the data folder: the
        # installer checks that folder again, and a folder it is run from is a project.
        cwd=os.path.abspath(os.sep),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        close_fds=True,
        **kwargs,  # type: ignore[call-overload]
    )
    log.close()
    return "started"


def install_now(*, fallback: bool = False, quiet: bool = True, semantic: bool = False) -> int:
    """Install into a fresh folder, then swap it in, so a half-done install is never used.

    One install at a time per data folder (a lock): a second caller waits for the first
    and finds its result. `semantic`: then build the token table of semantic signals too
    (its outcome does not change the exit code: commands need only the dependencies; doctor
    and status report the table).
    """
    from memhooks.store import LockTimeoutError, quick_lock

    data = data_dir(fallback=fallback)
    if data is None:
        sys.stderr.write("memhooks: CLAUDE_PLUGIN_DATA is not set; nothing to install into\n")
        return 2
    try:
        with quick_lock(data / "deps" / ".install.lock", INSTALL_WAIT_SECONDS):
            try:
                code = _install_locked(data, quiet=quiet)
                if code == 0 and semantic:
                    from memhooks.install.semantic_assets import install

                    install(data, quiet=quiet)
            finally:
                # _start_install's marker, also when the dependencies were there already
                (data / "deps" / ".installing").unlink(missing_ok=True)
            return code
    except LockTimeoutError:
        sys.stderr.write(f"memhooks: another install into {data} has run for too long\n")
        return 3


def _install_locked(data: Path, *, quiet: bool) -> int:
    import shutil
    import subprocess
    import time

    final = target_dir(data)
    if (final / MARKER).exists():
        return 0  # the install we waited for did it
    staging = final.with_name(final.name + f".new-{os.getpid()}")
    busy = data / "deps" / ".installing"
    try:
        busy.write_text(str(os.getpid()), encoding="utf-8")
        command = _isolated(
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            *(["--quiet"] if quiet else []),  # else pip's own lines and download bars
            "--no-warn-conflicts",  # other packages of this Python are not ours to judge
            "--target",
            str(staging),
            *REQUIREMENTS,
        )
        env = {**os.environ, "PIP_ROOT_USER_ACTION": "ignore"}  # a container's root is fine
        # stdout to stderr: a command's stdout is what Claude reads as its result.
        done = subprocess.run(command, check=False, env=env, cwd=str(data), stdout=sys.stderr)
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


def manual_install_hint(data: Path) -> str:
    """What a person can paste into a terminal: no `memhooks`, no unexpanded variable."""
    python = "python" if os.name == "nt" else "python3"
    wanted = " ".join(f'"{r}"' for r in REQUIREMENTS)
    return f'{python} -m pip install --target "{target_dir(data)}" {wanted}'


def ensure_now(*, fallback: bool = True) -> bool:
    """For commands: make the dependencies importable, installing them once, visibly.

    Waits for an install already running (the lock), else runs it itself; says so in
    one line on stderr, and on failure says exactly what to run. True when present.
    """
    if not missing_modules():
        return True
    data = data_dir(fallback=fallback)
    from memhooks.install.host_plugin import UNKNOWN_DATA_DIR, host_plugin_dir

    if data is None and host_plugin_dir():
        sys.stderr.write(f"memhooks: {UNKNOWN_DATA_DIR}\n")
        return False
    if data is None:
        sys.stderr.write(
            f"memhooks: no data folder to install {', '.join(MODULES)} into that only you "
            "can change, outside the project (`memhooks doctor` shows the folder)\n"
        )
        return False
    final = target_dir(data)
    if not (final / MARKER).exists():
        busy = (data / "deps" / ".installing").exists()
        sys.stderr.write(
            f"memhooks: waiting for the install of {', '.join(MODULES)} already running "
            f"into {final}...\n"
            if busy
            else f"memhooks: installing {', '.join(MODULES)} into {final} "
            "(first use only, usually under a minute)...\n"
        )
        from memhooks.text.progress import wanted

        # In a terminal pip shows its own lines; in Claude's Bash tool it stays quiet.
        code = install_now(fallback=fallback, quiet=not wanted())
        if code != 0:
            log = data / "deps" / "install.log"
            sys.stderr.write(
                f"memhooks: could not install {', '.join(MODULES)} (pip exit code {code}; "
                "offline?). When the network is back, run the same command again; or install "
                f"them yourself with:\n  {manual_install_hint(data)}\n"
                + (f"  (the background install's log: {log})\n" if log.exists() else "")
            )
            return False
    activate(final)
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
