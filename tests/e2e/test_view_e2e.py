"""`memhooks view` in a real headless browser (Debian's chromium, installed by .ci/run).

The page is loaded from disk with --dump-dom (the DOM after its script ran) and
--screenshot; chromium's own log (--enable-logging=stderr) carries every console message,
so a script error, a CSP refusal (a blocked network load) or an alert shows up there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest

from memhooks.cli.main import main
from memhooks.hooks.post_compact import render_entry
from memhooks.store import append_journal
from memhooks.text.clock import iso
from memhooks.view.data import gather
from memhooks.view.page import csp
from view_tree import HOSTILE_TITLE, build_store

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.e2e

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--enable-logging=stderr",
    "--v=0",
)
CONSOLE = re.compile(r":CONSOLE[:(].*")
HOSTILE_SUBJECT = "<img src=x onerror=\"document.title='PWNED'\"> first commit"


def _unavailable(reason: str) -> None:
    """As tests/e2e/conftest.py: a skip locally, a failure under CI=true."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the e2e suite must run, not skip)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        _unavailable("chromium is not installed (apt-get install -y chromium)")
    assert found is not None
    return found


def browse(chromium: str, url: str, tmp: Path, *extra: str) -> tuple[str, list[str]]:
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    done = subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *extra, url],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, CONSOLE.findall(done.stderr)


@pytest.fixture(scope="module")
def view_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HOME of the module's machine: the store's session record lives under it, and the
    page is made before (and outlives) each test's own empty HOME."""
    return tmp_path_factory.mktemp("view-home")


@pytest.fixture(scope="module")
def page(
    tmp_path_factory: pytest.TempPathFactory, view_home: Path
) -> Iterator[tuple[Path, Path, dict[str, object]]]:
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HOME", str(view_home))
        for name in ("XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            env.delenv(name, raising=False)
        yield _made_page(tmp_path_factory)


@pytest.fixture
def on_view_machine(view_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test runs as the machine where the store was started (its HOME)."""
    monkeypatch.setenv("HOME", str(view_home))


def _made_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, object]]:
    project = tmp_path_factory.mktemp("view") / "proj"
    project.mkdir()
    git = ["git", "-c", 'user.name=Eve & "Mallory"', "-c", "user.email=e@example.com"]
    git += ["-c", "commit.gpgsign=false", "-C", str(project)]
    # A git checkout before `start`: the id `start` makes is kept in its git dir.
    subprocess.run([*git, "init", "-q"], check=True)
    paths = build_store(project)
    append_journal(
        paths,
        "s-333",
        render_entry("<summary>Shipping the view</summary>", trigger="auto", when=iso()),
    )
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", HOSTILE_SUBJECT], check=True)
    assert main(["--project", str(project), "view"]) == 0
    target = Path(paths.cache) / "view.html"
    assert target.is_file()
    return project, target, gather(paths)


def _status(project: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["--project", str(project), "status", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


@pytest.mark.usefixtures("on_view_machine")
def test_counts_match_status_and_nothing_logged(
    chromium: str,
    page: tuple[Path, Path, dict[str, object]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    project, target, _ = page
    dom, console = browse(chromium, target.as_uri(), tmp_path, "--dump-dom")
    assert 'data-ready="1"' in dom, dom[:2000]
    assert console == []  # no script error, no CSP refusal, no alert
    status = _status(project, capsys)
    states = re.findall(
        r'<details class="mem[^"]*" id="[^"]*" data-path="[^"]*" data-state="(\w+)"', dom
    )
    active = [s for s in states if s in ("active", "stale")]
    assert len(active) == status["total"]
    assert states.count("stale") == status["stale"] == 1
    assert states.count("retired") == 2
    assert states.count("archived") == 1
    counts = status["counts"]
    assert isinstance(counts, dict)
    for category, n in counts.items():
        if n:
            heading = re.search(
                rf'data-category="{category}"><h3>[^<]*\((\d+) active[^<]*\)</h3>', dom
            )
            assert heading, category
            assert int(heading.group(1)) == n, category
    assert dom.count('class="chain"') == 1
    assert dom.count("data-kind=") >= 4
    assert 'data-kind="compaction summary"' in dom
    assert "s-222" in dom
    assert "UserPromptSubmit" in dom


def test_search_through_the_fragment(
    chromium: str, page: tuple[Path, Path, dict[str, object]], tmp_path: Path
) -> None:
    _, target, _ = page
    dom, console = browse(chromium, target.as_uri() + "#q=frontend", tmp_path, "--dump-dom")
    assert console == []
    assert 'data-matches="1"' in dom
    shown = re.findall(r'<details class="mem" id="[^"]*" data-path="([^"]*)"', dom)
    assert len(shown) == 1
    assert shown[0].startswith("runbooks/")
    url = target.as_uri() + "#q=frontend&m=" + quote(shown[0], safe="")
    dom, console = browse(chromium, url, tmp_path, "--dump-dom")
    assert console == []
    link = re.search(r'<a href="#m=decisions%2F([^"]+)">the db</a>', dom)  # memory links stay local
    assert link, "a link to another memory of the store is an in-page link"
    assert "<code>make deploy</code>" in dom
    dom, _ = browse(
        chromium, target.as_uri() + "#q=" + quote("nothing-like-this"), tmp_path, "--dump-dom"
    )
    assert 'data-matches="0"' in dom


def test_hostile_memory_opened_runs_nothing(
    chromium: str, page: tuple[Path, Path, dict[str, object]], tmp_path: Path
) -> None:
    _, target, data = page
    memories = data["memories"]
    assert isinstance(memories, list)
    hostile = next(m for m in memories if m["title"] == HOSTILE_TITLE)
    url = target.as_uri() + "#m=" + quote(hostile["path"], safe="")
    dom, console = browse(chromium, url, tmp_path, "--dump-dom")
    assert console == []
    assert "<title>memhooks: what Claude remembers</title>" in dom
    assert "PWNED</title>" not in dom
    assert "<pwned-marker" not in dom
    assert "<img" not in dom
    assert 'href="javascript:' not in dom
    assert dom.count("<script") == 2  # the page's own data block and script, nothing added
    assert dom.count("<style") == 1
    opened = re.search(r"<details[^>]*" + re.escape(hostile["path"]) + r'[^>]*open=""', dom)
    assert opened, "the hostile memory was opened and its body rendered"
    assert "&lt;img src=x onerror=" in dom  # shown as text
    assert "<h4>History in git</h4>" in dom
    assert re.search(r"History in git.*Eve &amp; \"Mallory", dom), dom[-3000:]
    assert "first commit</span>" in dom
    shot = tmp_path / "memory-view.png"
    browse(chromium, url, tmp_path, f"--screenshot={shot}", "--window-size=1200,900")
    assert shot.is_file()
    assert shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")


def test_the_console_check_would_see_a_blocked_load(chromium: str, tmp_path: Path) -> None:
    """Control: under the view's CSP a network load is refused, and the refusal is logged."""
    probe = tmp_path / "probe.html"
    probe.write_text(
        f'<html><head><meta http-equiv="Content-Security-Policy" content="{csp("x")}"></head>'
        '<body><img src="http://127.0.0.1:9/x.png"></body></html>'
    )
    _, console = browse(chromium, probe.as_uri(), tmp_path, "--dump-dom")
    assert any("Content Security Policy" in line for line in console), console
