"""Fixtures of the guard's tests that run the hooks as the host does."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from plugin_host import TAG


@pytest.fixture(scope="module")
def plugin_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CLAUDE_PLUGIN_DATA whose deps folder holds the dependencies, as the installer
    leaves it (the hook interpreter itself has none: `-S`)."""
    data = tmp_path_factory.mktemp("plugin-data")
    deps = data / "deps" / TAG
    deps.parent.mkdir(parents=True)
    deps.symlink_to(sysconfig.get_paths()["purelib"])
    return data
