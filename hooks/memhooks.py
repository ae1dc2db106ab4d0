#!/usr/bin/env python3
"""Launcher for the plugin's hooks and commands: `memhooks.py hook <Event>` or `memhooks.py <command>`.

It runs the package from the plugin's own `src/`, finds the dependencies that the plugin
installs into ${CLAUDE_PLUGIN_DATA}, and keeps bytecode there so that a read-only plugin
root or PYTHONDONTWRITEBYTECODE does not make every hook recompile the package.
"""

import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(_ROOT, "src"))
_DATA = os.environ.get("CLAUDE_PLUGIN_DATA")
if _DATA:
    _TAG = "py%d%d" % sys.version_info[:2]  # noqa: UP031 - runs on any Python 3 to say what is wrong
    sys.path.append(os.path.join(_DATA, "deps", _TAG))
    sys.pycache_prefix = os.path.join(_DATA, "pycache", _TAG)
    sys.dont_write_bytecode = False

if sys.version_info < (3, 10):  # noqa: UP036 - a clear message beats a SyntaxError on old Pythons
    sys.stderr.write("memhooks needs Python >= 3.10; this is %s\n" % sys.version.split()[0])  # noqa: UP031
    sys.exit(0 if sys.argv[1:2] == ["hook"] else 3)

if sys.flags.no_site and sys.argv[1:2] != ["hook"]:
    # hooks.json runs hooks with -S (site costs ~5 ms and hooks need nothing from it);
    # commands need site-packages for pydantic and friends.
    import site

    site.main()

from memhooks.cli.main import main  # noqa: E402 - the path is set up above

sys.exit(main(sys.argv[1:]))
