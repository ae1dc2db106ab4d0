"""`memhooks export` and `memhooks import`: round trip, idempotence, hostile bundles,
secrets, near-duplicates. Everything runs through the real CLI entry point, in-process."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import tarfile
from pathlib import Path

import pytest

from memhooks.cli.main import main
from memhooks.store import PROVENANCE_KEYS, parse_meta
from support import local_of

PROVENANCE_LINE = re.compile(
    rb"^(?:" + b"|".join(k.encode() for k in PROVENANCE_KEYS) + rb"): .*\n", re.MULTILINE
)


@pytest.fixture(autouse=True)
def _no_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def cli(project: Path, *args: str) -> int:
    return main(["--project", str(project), *args])


def start(tmp_path: Path, name: str) -> Path:
    project = tmp_path / name
    project.mkdir()
    assert cli(project, "start") == 0
    return project


def mem(project: Path) -> Path:
    return project / ".claude" / "memory"


def tree(project: Path) -> dict[str, bytes]:
    """Every file under .claude/memory/, by relative path: "nothing written" means equal."""
    root = mem(project)
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "memhooks.log"
    }


def memories(project: Path) -> dict[str, bytes]:
    from memhooks.store import BY_FOLDER

    root = mem(project)
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for folder in BY_FOLDER
        for p in sorted((root / folder).glob("*.md"))
    }


def fill(project: Path) -> None:
    """One memory of each kind, a retired one, a session summary with its journal."""
    save = [
        [
            "decision",
            "--title",
            "Own stdlib slugify()",
            "--description",
            "no new dependency",
            "--tags",
            "slugs,deps",
            "--section",
            "Context=build runs with plain python3",
            "--section",
            "Decision=write slugify() with unicodedata",
            "--field",
            "status=accepted",
        ],
        [
            "runbook",
            "--title",
            "Rotate the CDN token",
            "--section",
            "Trigger=purge fails with 403",
            "--section",
            "Steps=1. ask ops\n2. update CDN_TOKEN",
            "--field",
            "environment=prod",
        ],
        [
            "constraint",
            "--title",
            "Python 3.10 at least",
            "--body",
            "The build image is 3.10.",
            "--field",
            "severity=high",
        ],
        ["preference", "--title", "Squash-merge feature branches", "--body", "Always squash."],
        [
            "tech_debt",
            "--title",
            "Retry loop without backoff",
            "--body",
            "See fetch.py.",
            "--field",
            "priority=low",
        ],
        [
            "analysis",
            "--title",
            "Auth service",
            "--source-path",
            "src/services/auth.py",
            "--body",
            "Token checks live in one place.",
        ],
        ["decision", "--title", "Use Redis for sessions", "--body", "Superseded later."],
    ]
    for args in save:
        assert cli(project, "save", *args) == 0
    retired = next((mem(project) / "decisions").glob("*_use-redis-for-sessions.md"))
    assert cli(project, "retire", f"decisions/{retired.name}", "--reason", "moved to SQLite") == 0
    from memhooks.cli.common import open_store
    from memhooks.store import MemoryPaths

    store = open_store(MemoryPaths(mem(project)))
    store.write_session_file(
        "s-1",
        {"title": "Slug work"},
        "# Slug work\n\n## Context\nslugs\n\n## Tracking Points\n- Status: done",
    )


def export(project: Path, out: Path, *args: str) -> int:
    return cli(project, "export", "--out", str(out), *args)


# ------------------------------------------------------------------ round trip


def test_round_trip_of_a_whole_store_is_exact(tmp_path: Path) -> None:
    source = start(tmp_path, "alpha")
    fill(source)
    bundle = tmp_path / "backup.tar.gz"
    assert export(source, bundle, "--sessions", "--state", "all") == 0
    target = start(tmp_path, "beta")
    assert cli(target, "import", str(bundle)) == 0

    before, after = memories(source), memories(target)
    assert sorted(before) == sorted(after)
    assert len(before) == 8
    for path, data in before.items():
        # Byte for byte, once the three provenance lines the import adds are taken out.
        assert PROVENANCE_LINE.sub(b"", after[path]) == data, path
        meta = parse_meta(_frontmatter(after[path]))
        assert meta.imported_from == "alpha"
        assert meta.imported_path == path
        assert meta.imported_at
    # The same index: every line but the status line, which says when each was started.
    index = [mem(p).joinpath("MEMORY.md").read_text() for p in (source, target)]
    status = re.compile(r"^- \*\*Status\*\*: .*$", re.MULTILINE)
    assert status.sub("", index[0]) == status.sub("", index[1])
    assert "Own stdlib slugify()" in index[1]
    assert "Use Redis for sessions" not in index[1]  # retired: out of the index, on both sides


def _frontmatter(data: bytes) -> dict[str, object]:
    import yaml

    head = data.decode().split("---\n")[1]
    loaded = yaml.safe_load(head)
    assert isinstance(loaded, dict)
    return loaded


def test_the_bundle_holds_the_files_as_written_and_a_manifest(tmp_path: Path) -> None:
    source = start(tmp_path, "alpha")
    fill(source)
    bundle = tmp_path / "b.tar.gz"
    assert export(source, bundle) == 0
    with tarfile.open(bundle) as tar:
        names = tar.getnames()
        manifest = json.loads(tar.extractfile("manifest.json").read())  # type: ignore[union-attr]
        contents = {n: tar.extractfile(n).read() for n in names[1:]}  # type: ignore[union-attr]
    assert names[0] == "manifest.json"
    assert manifest["format"] == "memhooks-bundle"
    assert manifest["format_version"] == 1
    assert manifest["source_project"] == "alpha"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", manifest["exported_at"])
    listed = {f["path"]: f for f in manifest["files"]}
    # Default: active knowledge only; no sessions, no retired memory, nothing derived.
    assert sorted(listed) == sorted(
        p for p in memories(source) if not p.startswith("sessions/") and "use-redis" not in p
    )
    for path, info in listed.items():
        data = contents["memory/" + path]
        assert info["sha256"] == hashlib.sha256(data).hexdigest()
        assert data == (mem(source) / path).read_bytes()
    assert not any(n.endswith(("MEMORY.md", ".json", ".sqlite3")) for n in names[1:])


def test_export_filters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = start(tmp_path, "alpha")
    fill(source)

    def exported(*args: str) -> list[str]:
        out = tmp_path / f"{len(list(tmp_path.glob('*.tar.gz')))}.tar.gz"
        capsys.readouterr()
        assert export(source, out, "--json", *args) == 0
        return list(json.loads(capsys.readouterr().out)["files"])

    assert [
        p.split("/")[0] for p in exported("--category", "runbooks", "--category", "constraint")
    ] == [
        "constraints",
        "runbooks",
    ]
    assert exported("--query", "CDN token purge") == ["runbooks/rotate-the-cdn-token.md"]
    assert exported("--sessions", "--category", "session_summary") == ["sessions/s-1.md"]
    assert export(source, tmp_path / "none.tar.gz", "--since", "2999-01-01") == 7
    assert not (tmp_path / "none.tar.gz").exists()


def test_export_to_a_relative_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`export --out b.tar.gz` failed with "[Errno 2] No such file or directory: ''": the
    atomic write put its temp file in dirname('b.tar.gz')."""
    source = start(tmp_path, "alpha")
    fill(source)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert export(source, Path("b.tar.gz")) == 0
    assert (tmp_path / "b.tar.gz").is_file()
    assert str(tmp_path / "b.tar.gz") in capsys.readouterr().out


def test_export_never_overwrites_and_never_writes_into_the_tree(tmp_path: Path) -> None:
    source = start(tmp_path, "alpha")
    fill(source)
    taken = tmp_path / "taken.tar.gz"
    taken.write_bytes(b"mine")
    assert export(source, taken) == 9
    assert taken.read_bytes() == b"mine"
    assert export(source, mem(source) / "decisions" / "b.tar.gz") == 9
    assert export(source, tmp_path / "b.tar.gz", "--category", "nonsense") == 5
    assert export(source, tmp_path / "b.tar.gz", "--since", "last week") == 2


def test_export_redacts_a_secret_planted_in_a_memory_file(tmp_path: Path) -> None:
    source = start(tmp_path, "alpha")
    planted = mem(source) / "runbooks" / "deploy.md"
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    planted.write_text(
        f"---\ntitle: Deploy\napi_key: sk-{'x9' * 20}\n---\n\n# Deploy\n\nexport GH={token}\n"
    )
    bundle = tmp_path / "b.tar.gz"
    assert export(source, bundle) == 0
    raw = gzip.decompress(bundle.read_bytes())
    assert token.encode() not in raw
    assert b"x9x9x9" not in raw
    assert b"[REDACTED:" in raw


# ------------------------------------------------------------------ import


def test_import_twice_changes_nothing_the_second_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = start(tmp_path, "alpha")
    fill(source)
    bundle = tmp_path / "b.tar.gz"
    assert export(source, bundle, "--sessions") == 0
    target = start(tmp_path, "beta")
    assert cli(target, "import", str(bundle)) == 0
    first = tree(target)
    capsys.readouterr()
    assert cli(target, "import", str(bundle), "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["counts"] == {"imported": 0, "present": 7, "flagged": 0, "disabled": 0}
    assert tree(target) == first
    # Back into the project it came from: everything is already there.
    before = tree(source)
    assert cli(source, "import", str(bundle)) == 0
    assert tree(source) == before


def test_dry_run_shows_the_plan_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = start(tmp_path, "alpha")
    fill(source)
    bundle = tmp_path / "b.tar.gz"
    assert export(source, bundle) == 0
    target = start(tmp_path, "beta")
    before = tree(target)
    capsys.readouterr()
    assert cli(target, "import", str(bundle), "--dry-run", "--json") == 0
    planned = json.loads(capsys.readouterr().out)
    assert tree(target) == before
    assert planned["dry_run"] is True
    assert planned["counts"]["imported"] == 6
    assert cli(target, "import", str(bundle), "--json") == 0
    done = json.loads(capsys.readouterr().out)
    assert [(i["path"], i["action"], i["target"]) for i in done["items"]] == [
        (i["path"], i["action"], i["target"]) for i in planned["items"]
    ]


def test_near_duplicates_are_flagged_not_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = start(tmp_path, "alpha")
    fill(source)
    bundle = tmp_path / "b.tar.gz"
    assert export(source, bundle, "--category", "runbook", "--category", "constraint") == 0
    target = start(tmp_path, "beta")
    # A close runbook under another name, and a different constraint under the same name.
    assert (
        cli(
            target,
            "save",
            "runbook",
            "--title",
            "Rotate the CDN access token",
            "--body",
            "Ask ops for a new one.",
        )
        == 0
    )
    assert (
        cli(
            target,
            "save",
            "constraint",
            "--title",
            "Python 3.10 at least",
            "--body",
            "Because of match statements.",
        )
        == 0
    )
    before = tree(target)
    capsys.readouterr()
    assert cli(target, "import", str(bundle), "--dry-run") == 6
    assert tree(target) == before
    capsys.readouterr()
    assert cli(target, "import", str(bundle)) == 6
    out, err = capsys.readouterr()
    assert tree(target) == before  # both flagged: nothing copied
    assert "FLAG: near-duplicate, not copied: runbooks/rotate-the-cdn-token.md" in out
    assert "looks like runbooks/rotate-the-cdn-access-token.md" in out
    assert "FLAG: name taken, not copied: constraints/python-3-10-at-least.md" in out
    assert len(err.strip().splitlines()) == 1
    assert "2 memories flagged and not copied" in err
    # The user chose to keep both.
    assert (
        cli(target, "import", str(bundle), "--keep-both", "runbooks/rotate-the-cdn-token.md") == 6
    )
    assert (mem(target) / "runbooks" / "rotate-the-cdn-token.md").is_file()
    assert (mem(target) / "constraints" / "python-3-10-at-least.md").read_bytes() == before[
        "constraints/python-3-10-at-least.md"
    ]


def test_a_disabled_category_is_skipped(tmp_path: Path) -> None:
    source = start(tmp_path, "alpha")
    fill(source)
    bundle = tmp_path / "b.tar.gz"
    assert export(source, bundle) == 0
    target = start(tmp_path, "beta")
    (mem(target) / "config.json").write_text('{"categories": {"runbook": {"enabled": false}}}')
    assert cli(target, "import", str(bundle)) == 0
    assert not (mem(target) / "runbooks" / "rotate-the-cdn-token.md").exists()
    assert (mem(target) / "constraints" / "python-3-10-at-least.md").exists()


# ------------------------------------------------------------------ hostile bundles

GOOD = b"---\ntitle: Fine\ncategory: runbook\n---\n\n# Fine\n\nsteps\n"


def manifest_for(files: dict[str, bytes], **override: object) -> bytes:
    from memhooks.store import BY_FOLDER

    data: dict[str, object] = {
        "format": "memhooks-bundle",
        "format_version": 1,
        "source_project": "elsewhere",
        "exported_at": "2025-01-01T00:00:00Z",
        "memhooks_version": "0.1.0",
        "files": [
            {
                "path": p,
                "category": BY_FOLDER[p.split("/")[0]].name
                if p.split("/")[0] in BY_FOLDER
                else "x",
                "size": len(d),
                "sha256": hashlib.sha256(d).hexdigest(),
            }
            for p, d in files.items()
        ],
    }
    data.update(override)
    return json.dumps(data).encode()


def pack(members: list[tuple[tarfile.TarInfo, bytes]]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return gzip.compress(raw.getvalue())


def regular(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def bundle_of(files: dict[str, bytes], *extra: tuple[tarfile.TarInfo, bytes]) -> bytes:
    members = [regular("manifest.json", manifest_for(files))]
    members += [regular("memory/" + p, d) for p, d in files.items()]
    return pack(members + list(extra))


def special(name: str, kind: bytes, link: str = "") -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    return info, b""


def declared_gigabyte() -> bytes:
    """A header that declares a 1 GB member, followed by nothing: never read that far."""
    head = io.BytesIO()
    with tarfile.open(fileobj=head, mode="w", format=tarfile.PAX_FORMAT) as tar:
        data = manifest_for({})
        tar.addfile(regular("manifest.json", data)[0], io.BytesIO(data))
    big = tarfile.TarInfo("memory/runbooks/big.md")
    big.size = 1 << 30
    raw = head.getvalue().rstrip(b"\0")
    raw += b"\0" * (-len(raw) % 512) + big.tobuf(format=tarfile.PAX_FORMAT) + b"\0" * 512
    return gzip.compress(raw)


def bomb() -> bytes:
    """Each member under the member cap; together far over what a bundle may unpack to."""
    zeros = b"\0" * (4 * 1024 * 1024 - 1)
    files = {f"runbooks/z{i}.md": zeros for i in range(34)}
    return bundle_of(files)


HOSTILE = {
    "traversal": (lambda: bundle_of({}, regular("memory/../../evil.md", GOOD)), 9, "outside"),
    "dotdot-top": (lambda: bundle_of({}, regular("../evil.md", GOOD)), 9, "outside"),
    "absolute": (lambda: bundle_of({}, regular("/tmp/evil.md", GOOD)), 9, "absolute"),
    "symlink": (
        lambda: bundle_of({}, special("memory/runbooks/x.md", tarfile.SYMTYPE, "/etc/passwd")),
        9,
        "symlink",
    ),
    "hardlink": (
        lambda: bundle_of({}, special("memory/runbooks/x.md", tarfile.LNKTYPE, "manifest.json")),
        9,
        "hard link",
    ),
    "device": (
        lambda: bundle_of({}, special("memory/runbooks/x.md", tarfile.CHRTYPE)),
        9,
        "device",
    ),
    "directory": (
        lambda: bundle_of({}, special("memory/runbooks", tarfile.DIRTYPE)),
        9,
        "directory",
    ),
    "not-a-memory-folder": (
        lambda: bundle_of({}, regular("memory/.cache/x.md", GOOD)),
        9,
        "not a memory",
    ),
    "outside-memory": (lambda: bundle_of({}, regular("MEMORY.md", GOOD)), 9, "neither"),
    "gigabyte-member": (declared_gigabyte, 9, "declares 1,073,741,824 bytes"),
    "bomb": (bomb, 9, "decompression bomb"),
    "no-manifest": (lambda: pack([regular("memory/runbooks/fine.md", GOOD)]), 5, "no manifest"),
    "manifest-not-json": (lambda: pack([regular("manifest.json", b"{nope")]), 5, "bad manifest"),
    "manifest-wrong-version": (
        lambda: pack([regular("manifest.json", manifest_for({}, format_version=99))]),
        5,
        "format_version",
    ),
    "manifest-extra-key": (
        lambda: pack([regular("manifest.json", manifest_for({}, run="rm -rf /"))]),
        5,
        "bad manifest",
    ),
    "sha-mismatch": (
        lambda: pack(
            [
                regular("manifest.json", manifest_for({"runbooks/fine.md": GOOD})),
                regular("memory/runbooks/fine.md", GOOD.replace(b"steps", b"STEPS")),
            ]
        ),
        5,
        "sha256",
    ),
    "unlisted-file": (
        lambda: pack(
            [regular("manifest.json", manifest_for({})), regular("memory/runbooks/fine.md", GOOD)]
        ),
        5,
        "not in the manifest",
    ),
    "invalid-memory": (
        lambda: bundle_of({"runbooks/long.md": b"---\ntitle: " + b"x" * 500 + b"\n---\n\nbody\n"}),
        5,
        "title",
    ),
    "wrong-category": (
        lambda: bundle_of({"runbooks/d.md": b"---\ntitle: D\ncategory: decision\n---\n\nbody\n"}),
        5,
        "does not match its folder",
    ),
    "not-gzip": (lambda: b"PK\x03\x04 a zip file", 5, "not a .tar.gz"),
    "truncated": (lambda: bundle_of({"runbooks/fine.md": GOOD})[:-40], 5, "damaged"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_bundles_are_refused_with_one_line_and_nothing_written(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, code, words = HOSTILE[case]
    target = start(tmp_path, "beta")
    bundle = tmp_path / f"{case}.tar.gz"
    bundle.write_bytes(make())  # type: ignore[operator]
    before = tree(target)
    outside = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    capsys.readouterr()
    for args in (["--dry-run"], []):
        assert cli(target, "import", str(bundle), *args) == code
        out, err = capsys.readouterr()
        assert out == ""
        assert len(err.splitlines()) == 1, err
        assert err.startswith("memhooks: bundle refused, nothing written: "), err
        assert words in err, err
    assert tree(target) == before
    assert sorted(p for p in tmp_path.rglob("*") if p.is_file()) == outside


def test_too_many_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("memhooks.transfer.bundle.MAX_MEMBERS", 3)
    target = start(tmp_path, "beta")
    files = {f"runbooks/r{i}.md": GOOD.replace(b"Fine", f"Fine {i}".encode()) for i in range(5)}
    bundle = tmp_path / "many.tar.gz"
    bundle.write_bytes(bundle_of(files))
    before = tree(target)
    assert cli(target, "import", str(bundle)) == 9
    assert "more than 3 members" in capsys.readouterr().err
    assert tree(target) == before


def test_a_planted_secret_is_redacted_on_the_way_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    planted = (
        f"---\ntitle: Deploy\npassword: hunter2hunter2\ntags: [ops, {token}]\n---\n\n"
        f"# Deploy\n\nAuthorization: Bearer {token}\n"
    ).encode()
    target = start(tmp_path, "beta")
    bundle = tmp_path / "secret.tar.gz"
    bundle.write_bytes(bundle_of({"runbooks/deploy.md": planted}))
    assert cli(target, "import", str(bundle)) == 0
    out = capsys.readouterr().out
    assert "Secrets redacted on the way in: 3 value(s) in runbooks/deploy.md" in out
    written = (mem(target) / "runbooks" / "deploy.md").read_bytes()
    assert token.encode() not in written
    assert b"hunter2" not in written
    assert b"imported_from: elsewhere" in written
    for derived in (local_of(mem(target))).iterdir():
        if derived.is_file():
            assert token.encode() not in derived.read_bytes(), derived


def mtimes(project: Path) -> dict[str, int]:
    root = mem(project)
    return {
        p.relative_to(root).as_posix(): p.stat().st_mtime_ns
        for p in sorted(root.rglob("*"))
        if p.name != "memhooks.log"
    }


def test_reimporting_a_bundle_without_dates_is_nothing_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25, item 8: a bundle file without `created`/`updated` (a hand-made or another
    tool's bundle), or whose citations this project hashes differently, was written with
    the dates and hashes the store fills in; the second import took that for a different
    memory with the same name and exited 6."""
    target = start(tmp_path, "beta")
    (target / "app.py").write_text("a\nb\nc\n", encoding="utf-8")
    files = {
        "runbooks/fine.md": GOOD,
        "decisions/crlf.md": b"---\r\ntitle: Line ends\r\n---\r\n\r\nCRLF body\r\n",
        "decisions/cited.md": b"---\ntitle: Cited\n---\n\nSee app.py:1-2 for it.\n",
    }
    bundle = tmp_path / "hand-made.tar.gz"
    bundle.write_bytes(bundle_of(files))
    assert cli(target, "import", str(bundle)) == 0
    before = tree(target), mtimes(target)
    capsys.readouterr()
    assert cli(target, "import", str(bundle)) == 0
    out = capsys.readouterr().out
    assert "Nothing to do: every memory of the bundle is already here." in out
    assert (tree(target), mtimes(target)) == before
    assert cli(target, "import", str(bundle), "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["counts"] == {"imported": 0, "present": 3, "flagged": 0, "disabled": 0}
    assert report["nothing_to_do"] is True


def test_import_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = start(tmp_path, "beta")
    assert cli(target, "import", str(tmp_path / "missing.tar.gz")) == 7
    bundle = tmp_path / "ok.tar.gz"
    bundle.write_bytes(bundle_of({"runbooks/fine.md": GOOD}))
    assert cli(target, "import", str(bundle), "--keep-both", "runbooks/nope.md") == 2
    unstarted = tmp_path / "never"
    unstarted.mkdir()
    assert cli(unstarted, "import", str(bundle)) == 3
    assert not (unstarted / ".claude").exists()


def test_the_frontmatter_model_accepts_provenance() -> None:
    meta = parse_meta(
        {
            "title": "T",
            "category": "runbook",
            "imported_from": "alpha",
            "imported_path": "runbooks/t.md",
            "imported_at": "2025-01-01T00:00:00Z",
        }
    )
    assert meta.imported_from == "alpha"
    assert "imported_from" in type(meta).model_fields
    with pytest.raises(ValueError, match="single line"):
        parse_meta({"title": "T", "category": "runbook", "imported_from": "a\nb"})


def test_an_import_updates_the_derived_files_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.store import Store

    source = start(tmp_path, "alpha")
    fill(source)
    bundle = tmp_path / "b.tar.gz"
    assert export(source, bundle) == 0
    target = start(tmp_path, "beta")
    calls: list[int] = []
    original = Store.after_write

    def counting(self: Store, changed: list[object], *args: object, **kwargs: object) -> object:
        calls.append(len(changed))
        return original(self, changed, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "after_write", counting)
    assert cli(target, "import", str(bundle)) == 0
    assert calls == [6]
    from memhooks.store import load_catalog

    loaded = load_catalog(local_of(mem(target)) / "catalog.json")
    assert loaded is not None
    assert len(loaded.active()) == 6
    capsys.readouterr()
    assert cli(target, "recall", "CDN token") == 0
    assert "runbooks/rotate-the-cdn-token.md" in capsys.readouterr().out  # searchable at once
