#!/usr/bin/env python3
"""Launcher for the plugin: `memhooks.py hook <Event>` or `memhooks.py <command>`.

It runs the package from the plugin's own `src/`, finds the dependencies that the plugin
installs into ${CLAUDE_PLUGIN_DATA}, and keeps bytecode there so that a read-only plugin
root or PYTHONDONTWRITEBYTECODE does not make every hook recompile the package.
"""

import os
import sys

if sys.version_info < (3, 10):
    sys.stderr.write("memhooks needs Python >= 3.10; this is %s\n" % sys.version.split()[0])
    # Non-zero for hooks too: hooks.json then tries `python` (the host ignores the code).
    sys.exit(11)

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(_ROOT, "src"))
_HOOK = sys.argv[1:2] == ["hook"]
_DATA = os.environ.get("CLAUDE_PLUGIN_DATA")
_GIVEN = ""
_OPTIONS = sys.argv[: sys.argv.index("--")] if "--" in sys.argv else sys.argv
if not _HOOK and "--plugin-data" in _OPTIONS[2:]:
    # The command files pass `<verb> --plugin-data "${CLAUDE_PLUGIN_DATA}"`: the host
    # substitutes it in a command's body but does not export it to a !`...` injection.
    _AT = sys.argv.index("--plugin-data", 2)
    _GIVEN = (sys.argv[_AT + 1 : _AT + 2] or [""])[0]
    del sys.argv[_AT : _AT + 2]
    if os.path.isabs(_GIVEN) and "${" not in _GIVEN:  # an unsubstituted placeholder: ignore
        _DATA = os.environ["CLAUDE_PLUGIN_DATA"] = _GIVEN
    else:
        _GIVEN = ""
if not _DATA and not _HOOK:
    # Claude's own Bash calls of this launcher: the folder a command file gave it before,
    # else (a checkout run by hand) the user cache. Never a guessed name.
    from memhooks.deps import default_data_dir

    _DATA = str(default_data_dir())
if _DATA:
    _TAG = "py%d%d" % sys.version_info[:2]
    sys.path.append(os.path.join(_DATA, "deps", _TAG))
    sys.pycache_prefix = os.path.join(_DATA, "pycache", _TAG)
    sys.dont_write_bytecode = False

if _GIVEN:
    from memhooks.deps import record_data_dir

    record_data_dir(_GIVEN)

if sys.flags.no_site and not _HOOK:
    # hooks.json runs hooks with -S (site costs ~5 ms and hooks need nothing from it);
    # commands need site-packages for pydantic and friends.
    import site

    site.main()

if _HOOK:
    # Straight to the hook entry: the command-line module is not needed on the hot path.
    from memhooks.hooks.entry import run

    sys.exit(run((sys.argv[2:3] or [""])[0]))

from memhooks.cli.main import main

sys.exit(main(sys.argv[1:]))
