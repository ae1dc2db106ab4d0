"""The installed plugin run by hand from a terminal (issue 33): the data folder a command
finds when the host did not give it one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memhooks.errors import Exit
from plugin_host import Host, bare_python, install_plugin, seed_deps


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("machine")
    return bare_python(base), seed_deps(base / "deps")


@pytest.fixture
def host(machine: tuple[Path, Path], tmp_path: Path) -> Host:
    """The plugin in this HOME's plugin cache, its data folder beside it, as the host has them."""
    python, deps = machine
    host = Host(python, install_plugin(Path.home()), deps, Path.home(), tmp_path / "project")
    (host.data / "semantic").mkdir(parents=True)
    (host.data / "semantic" / "disabled").touch()  # no download in a test
    return host


def test_doctor_link_from_the_plugin_cache_finds_the_plugins_data_folder(
    host: Host, tmp_path: Path
) -> None:
    """The user's record of which data folder goes with which plugin root is gone (a new
    version's root, or `rm -rf ~/.cache/memhooks` as docs/install.md's uninstall says): the
    data folder is still found, by the record SessionStart keeps in it, never the user cache."""
    assert host.command("start").returncode == 0
    host.hook("SessionStart", source="startup")
    shutil.rmtree(Path.home() / ".cache" / "memhooks", ignore_errors=True)
    link_dir = tmp_path / "user-bin"
    launcher = str(host.root / "hooks" / "memhooks.py")
    done = host.run("python3", launcher, "doctor", "--link", str(link_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"data folder {host.data}." in done.stdout
    status = host.run(str(link_dir / "memhooks"), "status")
    assert status.returncode == 0, status.stderr
    assert "Semantic signals: disabled" in status.stdout, status.stdout
    assert not (Path.home() / ".cache" / "memhooks" / "deps").exists()


def test_doctor_link_before_the_plugin_ever_ran_says_what_to_do(host: Host, tmp_path: Path) -> None:
    launcher = str(host.root / "hooks" / "memhooks.py")
    done = host.run("python3", launcher, "doctor", "--link", str(tmp_path / "user-bin"))
    # Exit 4: the dependencies of the data folder are what the launcher looks for first.
    assert done.returncode == Exit.MISSING_DEPENDENCIES, done.stdout + done.stderr
    assert "the plugin's data folder is not known yet" in done.stderr
    assert "/memory status" in done.stderr
    assert not (tmp_path / "user-bin" / "memhooks").exists()
