"""The memory view's page (`memhooks view`): machine-local, by default `.cache/view.html`.

Written whole and atomically, without fsync (it is made again on every run); the default
place is refused when `.cache/` or the page is a symlink.
"""

from __future__ import annotations

import os
from pathlib import Path

from memhooks.store.atomic import write_atomic
from memhooks.store.paths import MemoryPaths
from memhooks.store.safe_fs import check_target

DEFAULT_NAME = "view.html"


def default_page(paths: MemoryPaths) -> Path:
    """`.cache/<DEFAULT_NAME>`; UnsafeFileError when it or a folder on the way is a symlink."""
    target = Path(paths.cache) / DEFAULT_NAME
    check_target(target)
    return target


def write_page(path: str | os.PathLike[str], page: str) -> None:
    write_atomic(path, page, durable=False)
