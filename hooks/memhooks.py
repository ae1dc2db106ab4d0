#!/usr/bin/env python3
"""Launcher for the plugin: `memhooks.py hook <Event>` or `memhooks.py <command>`.

It runs the package from the plugin's own `src/`, finds the dependencies that the plugin
installs into ${CLAUDE_PLUGIN_DATA}, and keeps bytecode there so that a read-only plugin
root or PYTHONDONTWRITEBYTECODE does not make every hook recompile the package.
"""

import gc
import os
import sys

if sys.version_info < (3, 10):
    sys.stderr.write("memhooks needs Python >= 3.10; this is %s\n" % sys.version.split()[0])
    # Non-zero for hooks too: hooks.json then tries `python` (the host ignores the code).
    sys.exit(11)

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(_ROOT, "src"))
_HOOK = sys.argv[1:2] == ["hook"]
if _HOOK:
    # A hook lives well under a second and makes little cyclic garbage: the collector's
    # passes over every object imported cost it ~2 ms of CPU, and what it would free is
    # freed at exit anyway.
    gc.disable()
_DATA = os.environ.get("CLAUDE_PLUGIN_DATA")
_FROM = "CLAUDE_PLUGIN_DATA"
_OPTIONS = sys.argv[: sys.argv.index("--")] if "--" in sys.argv else sys.argv
if not _HOOK and "--plugin-data" in _OPTIONS[2:]:
    # The command files pass `<verb> --plugin-data "${CLAUDE_PLUGIN_DATA}"`: the host
    # substitutes it in a command's body but does not export it to a !`...` injection.
    _AT = sys.argv.index("--plugin-data", 2)
    _GIVEN = (sys.argv[_AT + 1 : _AT + 2] or [""])[0]
    del sys.argv[_AT : _AT + 2]
    if _GIVEN and "${" not in _GIVEN:  # empty, or an unsubstituted placeholder: ignore
        _DATA, _FROM = _GIVEN, "--plugin-data"
if _DATA:
    # The data folder is the one place besides this plugin's root that code is imported
    # from: never one the project could have chosen or filled (install.data_folder).
    from memhooks.install.data_folder import problem

    _WHY = problem(_DATA, _OPTIONS)
    if _WHY:
        sys.stderr.write("memhooks: refused %s: %s\n" % (_FROM, _WHY))
        if not _HOOK:
            sys.exit(9)  # Exit.REFUSED
        _DATA = None  # a hook fails open: it runs without the folder
        os.environ.pop("CLAUDE_PLUGIN_DATA", None)
    else:
        os.environ["CLAUDE_PLUGIN_DATA"] = _DATA
        if _FROM == "--plugin-data":
            from memhooks.install.deps import record_data_dir

            record_data_dir(_DATA)
if not _DATA and not _HOOK:
    # Claude's own Bash calls of this launcher: the folder a command file gave it before,
    # else (a checkout run by hand) the user cache; either only if it passes the same
    # checks. Never a guessed name.
    from memhooks.install.deps import default_data_dir

    _FOUND = default_data_dir()
    _DATA = str(_FOUND) if _FOUND else None
if _DATA:
    _TAG = "py%d%d" % sys.version_info[:2]
    sys.path.append(os.path.join(_DATA, "deps", _TAG))
    sys.pycache_prefix = os.path.join(_DATA, "pycache", _TAG)
    sys.dont_write_bytecode = False
    if _HOOK:
        # Compiled patterns kept beside the bytecode: a hook compiles dozens (text.regex_cache).
        from memhooks.text import regex_cache

        regex_cache.start(sys.pycache_prefix)

if sys.flags.no_site and not _HOOK:
    # hooks.json runs hooks with -S (site costs ~5 ms and hooks need nothing from it);
    # commands need site-packages for pydantic and friends.
    import site

    site.main()

if _HOOK:
    # Straight to the hook entry: the command-line module is not needed on the hot path.
    from memhooks.hooks.entry import run

    _CODE = run((sys.argv[2:3] or [""])[0])
    if _DATA:
        regex_cache.save()
    # Every file the hook wrote is closed: leave without the interpreter's teardown, which
    # frees each module and object one by one (~3 ms of a hook's CPU); the output first.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # the host closed the pipe: nothing more to say
        pass
    os._exit(_CODE)

from memhooks.cli.main import main

sys.exit(main(sys.argv[1:]))
