"""The commands' care for the derived files: the catalog made from the files when missing,
brought in line with files changed behind our back, or made again with everything else.

The command path only (it parses frontmatter): a hook files with what the catalog says and
leaves the rest to the next command. The caller holds the store lock.
"""

from __future__ import annotations

from memhooks.store.catalog import Catalog, Entry
from memhooks.store.catalog_entry import file_stamp
from memhooks.store.derived import DerivedFiles
from memhooks.store.memory_file import UnparsableMemoryError
from memhooks.store.scan import ScanResult, memory_files, read_entry, scan_tree
from memhooks.store.scrub import scrub
from memhooks.text.progress import Progress


def catalog_or_scan(derived: DerivedFiles) -> Catalog:
    """The catalog as last written, or made from the files when it is missing or stale."""
    loaded = derived.load_catalog()
    return loaded if loaded is not None else scan_tree(derived.paths).catalog


def behind(derived: DerivedFiles, cat: Catalog) -> bool:
    """Whether a memory file was added, changed or removed since the catalog was written
    (stats only, nothing parsed): the Stop hook appends to a session's journal without
    indexing it. A file that does not parse keeps this true; it is reported, never touched."""
    paths = derived.paths
    on_disk = {paths.relative(p): p for p in memory_files(paths)}
    if on_disk.keys() != cat.entries.keys():
        return True
    return any(file_stamp(target) != cat.entries[rel].stamp for rel, target in on_disk.items())


def reconcile(derived: DerivedFiles, cat: Catalog) -> tuple[list[Entry], list[str], dict[str, str]]:
    """Bring the catalog in line with the files: git pulls, merges and hand edits add,
    change and remove memory files behind our back. (Found, vanished, bodies read.)

    It lists the category folders and stats every file (~20 ms at 10,000 memories); a file
    that does not parse is left out, never touched. One that does is redacted in place
    before it is indexed: nothing written behind the store's back was redacted.
    """
    paths = derived.paths
    on_disk = {paths.relative(p): p for p in memory_files(paths)}
    vanished = [path for path in cat.entries if path not in on_disk]
    for path in vanished:
        cat.remove(path)
    found: list[Entry] = []
    bodies: dict[str, str] = {}
    for relative, target in on_disk.items():
        stamp = file_stamp(target)
        known = cat.entries.get(relative)
        if known is not None and known.stamp == stamp:
            continue
        try:
            entry, body = read_entry(paths, target, stamp)
            if scrub(str(target), derived.settings.redact_patterns):
                entry, body = read_entry(paths, target)
        except (OSError, UnparsableMemoryError, ValueError):
            if known is not None:
                cat.remove(relative)
                vanished.append(relative)
            continue
        cat.upsert(entry)  # keeps the date the index cap first archived it
        found.append(entry)
        bodies[relative] = body
    return found, vanished, bodies


def rebuild(derived: DerivedFiles, progress: Progress | None) -> ScanResult:
    """Everything derived, regenerated from the memory files alone."""
    result = scan_tree(derived.paths, progress.step("reading memory files") if progress else None)
    derived.write_derived(result.catalog)
    indexing = progress.step("indexing (each memory's vector too)") if progress else None
    derived.rebuild_search(result.catalog, result.bodies, indexing)
    derived.update_stats([], result.catalog, None)
    return result
