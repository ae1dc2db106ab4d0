"""A version of the plugin that Claude Code installed (`<config>/plugins/cache/<marketplace>/
<plugin>/<version>/`), run by hand from a terminal: which data folder is its own.

The host names the data folder (`<plugin>-<marketplace>`, `<plugin>-inline`, ...) and passes it
to hooks and commands; a person's terminal gets nothing. The folder is not guessed from its
name: it is the one whose `plugin-root` record (install.link, kept by SessionStart) names a
version of this same plugin. Standard library only.
"""

from __future__ import annotations

import os

from memhooks.install.invocation import PLUGIN_ROOT

#: A plugin Claude Code installed, run by hand before it ever ran there.
UNKNOWN_DATA_DIR = (
    "the plugin's data folder is not known yet (Claude Code names it; the plugin records it "
    "when it first runs): type any `/memory` command in Claude Code once (`/memory status`), "
    "then run this again"
)


def host_plugin_dir() -> str:
    """`<config>/plugins/cache/<marketplace>/<plugin>` when this code is a version of a
    plugin Claude Code installed there, else ""."""
    plugin = os.path.dirname(os.path.realpath(PLUGIN_ROOT))
    cache = os.path.dirname(os.path.dirname(plugin))
    return plugin if os.path.basename(cache) == "cache" else ""


def host_data_dir() -> str | None:
    """The host's data folder of this plugin: the one under `<config>/plugins/data/` whose
    `plugin-root` record (install.link, kept by SessionStart) names a version of this same
    plugin. Read, not guessed: the host's naming of the folder is its own."""
    from memhooks.install.link import ROOT_RECORD

    plugin = host_plugin_dir()
    folders = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(plugin))), "data")
    try:
        names = sorted(os.listdir(folders))
    except OSError:
        return None
    for name in names:
        try:
            with open(os.path.join(folders, name, ROOT_RECORD), encoding="utf-8") as handle:
                root = handle.read(4096).strip()
        except (OSError, UnicodeDecodeError):
            continue
        if root and os.path.dirname(os.path.realpath(root)) == plugin:
            return os.path.join(folders, name)
    return None
