"""The export bundle: one `.tar.gz` holding `manifest.json` and `memory/<folder>/<name>.md`.

Writing is deterministic (sorted members, fixed owner, mode and times), so the same memories
exported at the same moment give the same bytes. Reading treats the bundle as hostile: it is
streamed, never extracted to disk, and every member is checked before its data is read —
only regular files with plain names under `memory/<category folder>/` (no absolute names,
`..`, backslashes, symlinks, hard links, devices, sparse files), each at most
`MAX_MEMBER_BYTES`, at most `MAX_MEMBERS` of them, and at most `MAX_UNPACKED_BYTES` read out
of the gzip stream in all (a decompression bomb stops there, tar headers included).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import tarfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from memhooks.store import BY_FOLDER, BundleManifest
from memhooks.text.controls import control_in

MANIFEST = "manifest.json"
MEMORY_PREFIX = "memory/"
MAX_BUNDLE_BYTES = 64 * 1024 * 1024
MAX_UNPACKED_BYTES = 128 * 1024 * 1024
MAX_MEMBER_BYTES = 4 * 1024 * 1024
MAX_MEMBERS = 10_001  # 10,000 memories and the manifest
#: A plain file name: no separator, no leading dot, nothing Windows reads specially.
_NAME = re.compile(r'^[^./\\\x00-\x1f:*?"<>|][^/\\\x00-\x1f:*?"<>|]*\.md$')


class BundleError(Exception):
    """The bundle cannot be imported. `unsafe`: it holds what no bundle should (refused)."""

    def __init__(self, message: str, *, unsafe: bool = False) -> None:
        super().__init__(message)
        self.unsafe = unsafe


@dataclass(frozen=True)
class Bundle:
    manifest: BundleManifest
    files: dict[str, bytes]  # path inside .claude/memory/ -> bytes as packed


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def memory_path(relative: str) -> str:
    """A path inside `.claude/memory/` as a bundle may name it: `<category folder>/<name>.md`."""
    parts = relative.split("/")
    named = _NAME.match(parts[-1]) and control_in(relative) is None  # no escape in a name
    if len(parts) != 2 or parts[0] not in BY_FOLDER or not named:  # noqa: PLR2004
        raise BundleError(
            f"bundle member {relative!r} is not a memory file (<category folder>/<name>.md)",
            unsafe=True,
        )
    return relative


def pack(manifest: BundleManifest, files: dict[str, bytes], mtime: int) -> bytes:
    """The bundle's bytes: the manifest first, then the memories by path."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        members = [(MANIFEST, manifest_bytes(manifest))]
        members += [(MEMORY_PREFIX + path, files[path]) for path in sorted(files)]
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = mtime
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=mtime) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def manifest_bytes(manifest: BundleManifest) -> bytes:
    return (json.dumps(manifest.model_dump(), indent=2, ensure_ascii=False) + "\n").encode()


class _Capped(io.RawIOBase):
    """The decompressed stream, refusing to give more than `limit` bytes in all."""

    def __init__(self, inner: IO[bytes], limit: int) -> None:
        self._inner = inner
        self._left = limit

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        want = self._left + 1 if size is None or size < 0 else min(size, self._left + 1)
        data = self._inner.read(want)
        self._left -= len(data)
        if self._left < 0:
            raise BundleError(
                f"the bundle unpacks to more than {MAX_UNPACKED_BYTES // 2**20} MiB "
                "(a decompression bomb?)",
                unsafe=True,
            )
        return data


def _member_name(info: tarfile.TarInfo) -> str:
    """The member's name if it is a plain relative name, else a refusal naming the reason."""
    name = info.name
    pure = PurePosixPath(name)
    if (
        name.startswith(("/", "\\"))
        or re.match(r"^[A-Za-z]:", name)
        or pure.is_absolute()
        or "\\" in name
        or "\x00" in name
    ):
        raise BundleError(f"bundle member {name!r} has an absolute name", unsafe=True)
    if ".." in pure.parts or "." in name.split("/") or "" in name.split("/"):
        raise BundleError(f"bundle member {name!r} points outside the memory tree", unsafe=True)
    return name


def _check_type(info: tarfile.TarInfo) -> None:
    name = info.name
    if info.issym():
        raise BundleError(f"bundle member {name!r} is a symlink", unsafe=True)
    if info.islnk():
        raise BundleError(f"bundle member {name!r} is a hard link", unsafe=True)
    if info.ischr() or info.isblk() or info.isfifo():
        raise BundleError(f"bundle member {name!r} is a device or a fifo", unsafe=True)
    if info.isdir():
        raise BundleError(
            f"bundle member {name!r} is a directory; a bundle holds regular files only",
            unsafe=True,
        )
    if info.type not in (tarfile.REGTYPE, tarfile.AREGTYPE):
        raise BundleError(f"bundle member {name!r} is not a regular file", unsafe=True)


def _members(stream: IO[bytes]) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=stream, mode="r|") as tar:
        for info in tar:
            if len(found) >= MAX_MEMBERS:
                raise BundleError(
                    f"the bundle holds more than {MAX_MEMBERS:,} members", unsafe=True
                )
            name = _member_name(info)
            _check_type(info)
            if name != MANIFEST:
                if not name.startswith(MEMORY_PREFIX):
                    raise BundleError(
                        f"bundle member {name!r} is neither the manifest nor under memory/",
                        unsafe=True,
                    )
                memory_path(name[len(MEMORY_PREFIX) :])
            if info.size > MAX_MEMBER_BYTES:
                raise BundleError(
                    f"bundle member {name!r} declares {info.size:,} bytes; a member may hold "
                    f"at most {MAX_MEMBER_BYTES:,}",
                    unsafe=True,
                )
            if name in found:
                raise BundleError(f"bundle member {name!r} appears twice", unsafe=True)
            handle = tar.extractfile(info)
            data = handle.read() if handle is not None else b""
            if len(data) != info.size:
                raise BundleError(f"bundle member {name!r} is truncated")
            found[name] = data
    return found


def _open_members(path: Path) -> dict[str, bytes]:
    size = path.stat().st_size
    if not path.is_file():
        raise BundleError(f"{path} is not a file")
    if size > MAX_BUNDLE_BYTES:
        raise BundleError(
            f"{path} is {size:,} bytes; a bundle may be at most {MAX_BUNDLE_BYTES:,}",
            unsafe=True,
        )
    with path.open("rb") as handle:
        if handle.read(2) != b"\x1f\x8b":
            raise BundleError(f"{path} is not a .tar.gz bundle made by `memhooks export`")
        handle.seek(0)
        try:
            with gzip.GzipFile(fileobj=handle, mode="rb") as gz:
                return _members(_Capped(gz, MAX_UNPACKED_BYTES))  # type: ignore[arg-type]
        except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
            raise BundleError(f"{path} is damaged: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def read_manifest(data: bytes) -> BundleManifest:
    from pydantic import ValidationError

    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BundleError(f"bad manifest: not JSON ({exc})") from None
    try:
        return BundleManifest.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "manifest"
        raise BundleError(
            f"bad manifest: {where}: {first['msg']}"
            + (f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else "")
        ) from None


def read_bundle(path: Path) -> Bundle:
    """Every member, checked against the manifest; raises BundleError before returning
    anything when one member is unsafe, missing, extra or altered."""
    members = _open_members(path)
    if MANIFEST not in members:
        raise BundleError("bad manifest: the bundle has no manifest.json")
    manifest = read_manifest(members.pop(MANIFEST))
    files = {name[len(MEMORY_PREFIX) :]: data for name, data in members.items()}
    listed: set[str] = set()
    for item in manifest.files:
        memory_path(item.path)
        if item.path in listed:
            raise BundleError(f"bad manifest: {item.path} is listed twice")
        listed.add(item.path)
        data = files.get(item.path)
        if data is None:
            raise BundleError(f"bad manifest: it lists {item.path}, which the bundle lacks")
        if BY_FOLDER[item.path.split("/", 1)[0]].name != item.category:
            raise BundleError(f"bad manifest: {item.path} is not in the {item.category} folder")
        if len(data) != item.size or sha256(data) != item.sha256:
            raise BundleError(f"{item.path} does not match its sha256 in the manifest")
    extra = sorted(set(files) - listed)
    if extra:
        raise BundleError(f"bad manifest: {extra[0]} is in the bundle but not in the manifest")
    return Bundle(manifest, files)
