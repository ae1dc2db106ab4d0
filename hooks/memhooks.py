#!/usr/bin/env python3
"""Launcher for the plugin: `memhooks.py hook <Event>` or `memhooks.py <command>`.

It runs the package from the plugin's own `src/`, finds the dependencies that the plugin
installs into ${CLAUDE_PLUGIN_DATA}, and keeps bytecode there so that a read-only plugin
root or PYTHONDONTWRITEBYTECODE does not make every hook recompile the package.
"""

import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(_ROOT, "src"))
_HOOK = sys.argv[1:2] == ["hook"]
_DATA = os.environ.get("CLAUDE_PLUGIN_DATA")
if not _DATA and not _HOOK:
    # The host sets CLAUDE_PLUGIN_DATA for hooks but not for a command's !`…` injection: use
    # the plugin's data folder when it exists, else (a checkout run by hand) the user cache.
    _HOME = os.path.expanduser("~")
    _CONFIG = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(_HOME, ".claude")
    _DATA = os.path.join(_CONFIG, "plugins", "data", "memory-memhooks")
    if not os.path.isdir(_DATA):
        _CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.join(_HOME, ".cache")
        _DATA = os.path.join(_CACHE, "memhooks")
if _DATA:
    _TAG = "py%d%d" % sys.version_info[:2]
    sys.path.append(os.path.join(_DATA, "deps", _TAG))
    sys.pycache_prefix = os.path.join(_DATA, "pycache", _TAG)
    sys.dont_write_bytecode = False

if sys.version_info < (3, 10):
    sys.stderr.write("memhooks needs Python >= 3.10; this is %s\n" % sys.version.split()[0])
    # Non-zero for hooks too: hooks.json then tries `python` (the host ignores the code).
    sys.exit(11)

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
