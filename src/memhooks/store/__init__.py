"""The store's one face: `from memhooks.store import X` is the only way in from outside.

Two halves. The **tree** half is standard library only: what the hooks and the per-prompt
path may use (paths, safe reads, atomic writes, settings, session state and journal,
checkpoints, caches, the quick lock, filing a new memory with `HookWriter`). The **store**
half is the commands' full `Store` (create and update with the conflict check, lifecycle,
the rolling window, reconcile, rebuild) and the pydantic models: a hook never loads it
(tests/system/test_structure.py checks both).

Names resolve lazily (PEP 562): importing `memhooks.store` loads nothing; a name loads the
one module that defines it, the first time it is asked for.
"""

from __future__ import annotations

import sys

from memhooks import TYPE_CHECKING

# fmt: off
# isort: off
if TYPE_CHECKING:
    from memhooks.store.caches import (all_sessions as all_sessions, append_log as append_log,
        HANDOFF_KEPT as HANDOFF_KEPT, keep_prompt as keep_prompt, leave_pointers as leave_pointers,
        load_verdicts as load_verdicts, LOG_HEADER as LOG_HEADER, read_prompts as read_prompts,
        read_summary as read_summary, record_injected as record_injected,
        save_verdicts as save_verdicts, session_counts as session_counts, SUMMARY as SUMMARY,
        take_pointers as take_pointers, without_native as without_native,
        write_marks as write_marks, write_summary as write_summary)
    from memhooks.store.catalog import (Entry as Entry, entry_for as entry_for,
        SearchDoc as SearchDoc, load_catalog as load_catalog, ordered as ordered)
    from memhooks.store.checkpoints import (checkpoint_document as checkpoint_document,
        checkpoint_path as checkpoint_path, open_job_log as open_job_log,
        others_newest_first as others_newest_first, read_baseline as read_baseline,
        read_evidence as read_evidence, rebuild_job as rebuild_job, rebuilding as rebuilding,
        rebuilt as rebuilt, record_job as record_job, save_baseline as save_baseline,
        save_evidence as save_evidence, VectorMarks as VectorMarks,
        write_checkpoint as write_checkpoint)
    from memhooks.store.config import (CONFIG_CAP as CONFIG_CAP, DIRECT_EDITS as DIRECT_EDITS,
        FIELDS as FIELDS, HOST_CONTEXT_CAP as HOST_CONTEXT_CAP, load_settings as load_settings,
        NUDGES as NUDGES, SEMANTIC_MODES as SEMANTIC_MODES, Settings as Settings,
        settings_from_dict as settings_from_dict, untrusted as untrusted,
        validate_config as validate_config)
    from memhooks.store.context import (conflicted_files as conflicted_files,
        has_markers as has_markers, is_filler as is_filler, PREVIOUS as PREVIOUS,
        read_status as read_status, replace_master as replace_master, section as section,
        Status as Status, status_line as status_line, unbulleted as unbulleted,
        write_task as write_task)
    from memhooks.store.derived import (safe_state as safe_state)
    from memhooks.store.files import (check_folders as check_folders, check_target as check_target,
        create_exclusive as create_exclusive, discard_derived as discard_derived,
        log_line as log_line, makedirs as makedirs, open_created as open_created,
        read_bytes as read_bytes, READ_CAP_BYTES as READ_CAP_BYTES, read_memory as read_memory,
        read_text as read_text, replace_with_built as replace_with_built,
        split_frontmatter as split_frontmatter, tree_problem as tree_problem,
        UnsafeFileError as UnsafeFileError, write_atomic as write_atomic)
    from memhooks.store.locking import (command_lock as command_lock,
        LockTimeoutError as LockTimeoutError, quick_lock as quick_lock)
    from memhooks.store.machine import (checkout_of as checkout_of,
        consent_decision as consent_decision,
        consent_file as consent_file, CONSENT_OFF as CONSENT_OFF, CONSENT_ON as CONSENT_ON,
        is_on as is_on, mark_slow as mark_slow, NOTICE as NOTICE, record_consent as record_consent,
        STATE_ENV as STATE_ENV, usable_patterns as usable_patterns)
    from memhooks.store.memory_file import (content_hash as content_hash,
        first_heading as first_heading, parse_bytes as parse_bytes, parse_text as parse_text,
        render_document as render_document, UnparsableMemoryError as UnparsableMemoryError)
    from memhooks.store.models import (BundleFile as BundleFile, BundleManifest as BundleManifest,
        ConfigModel as ConfigModel, DESCRIPTION_MAX as DESCRIPTION_MAX, META_MODELS as META_MODELS,
        meta_to_dict as meta_to_dict, parse_meta as parse_meta, PROVENANCE_KEYS as PROVENANCE_KEYS,
        SECTION_MODELS as SECTION_MODELS, SessionRecord as SessionRecord,
        SessionState as SessionState, TITLE_MAX as TITLE_MAX)
    from memhooks.store.names import (BY_FOLDER as BY_FOLDER, BY_NAME as BY_NAME,
        CATEGORIES as CATEGORIES, ConflictError as ConflictError, contained as contained,
        DuplicateError as DuplicateError, Naming as Naming, NotFoundError as NotFoundError,
        resolve_category as resolve_category, ResurrectionError as ResurrectionError,
        slugify as slugify, StoreError as StoreError)
    from memhooks.store.pages import (default_page as default_page, IndexCaps as IndexCaps,
        index_line as index_line, render_archive as render_archive,
        render_index as render_index, write_page as write_page)
    from memhooks.store.paths import (command_project_root as command_project_root,
        discover_project as discover_project, inside as inside, LAYOUT as LAYOUT,
        MEMORY_DIR as MEMORY_DIR, MemoryPaths as MemoryPaths, project_root as project_root,
        resolves_inside as resolves_inside, session_file_stem as session_file_stem,
        TREE_PREFIX as TREE_PREFIX, UnsafePathError as UnsafePathError)
    from memhooks.store.session import (append_journal as append_journal,
        change_state as change_state, is_active as is_active, JOURNAL_HEADING as JOURNAL_HEADING,
        journal_part as journal_part, KEYS as KEYS, read_offsets as read_offsets,
        read_state as read_state, record_activity as record_activity, RECORD_KEYS as RECORD_KEYS,
        record_shown as record_shown, repair_state as repair_state,
        reset_reminder as reset_reminder, save_offset as save_offset,
        shown_statuses as shown_statuses,
        StateUnreadableError as StateUnreadableError)
    from memhooks.store.setup import (create_tree as create_tree, Draft as Draft,
        undo_created as undo_created, validate_draft as validate_draft)
    from memhooks.store.tree import (project_of as project_of, HookWriter as HookWriter,
        is_marked as is_marked,
        LOCK_TIMEOUT as LOCK_TIMEOUT, mark_filed as mark_filed, marker_path as marker_path)
    from memhooks.store.upkeep import (memory_files as memory_files, read_entry as read_entry,
        scan_tree as scan_tree, scrub as scrub)
    from memhooks.store.watch import (edited_file as edited_file, forget_backup as forget_backup,
        keep_backup as keep_backup, kept_copies as kept_copies, kept_copy as kept_copy,
        LOST_REPORTED as LOST_REPORTED, mark_lost_reported as mark_lost_reported,
        memory_listing as memory_listing, mirror_dir as mirror_dir, put_aside as put_aside,
        put_back as put_back, quarantined as quarantined, quick_line as quick_line,
        record_quick as record_quick, record_tree as record_tree,
        recorded_listing as recorded_listing, recorded_quick as recorded_quick,
        recover_missing as recover_missing, restore_backup as restore_backup,
        was_absent as was_absent, watched_changed as watched_changed)
    from memhooks.store.tier_move import (move_between as move_between, MOVABLE as MOVABLE,
        MOVES_KEPT as MOVES_KEPT)
    from memhooks.store.user_tier import (checked_user_paths as checked_user_paths,
        DATA_ENV as DATA_ENV, display as display, inside_project as inside_project,
        InsideProjectError as InsideProjectError, made as made, PROJECT as PROJECT, USER as USER,
        user_dir as user_dir, user_paths as user_paths)
    from memhooks.store.worktree import (git_dirs as git_dirs,
        is_linked_worktree as is_linked_worktree, join_worktree as join_worktree)
    from memhooks.store.writer import (NewMemory as NewMemory, Store as Store)
# isort: on

#: The tree half (module: its names): standard library only, what a hook may import.
TREE = {
    "caches": "all_sessions append_log HANDOFF_KEPT keep_prompt leave_pointers load_verdicts"
        " LOG_HEADER read_prompts read_summary record_injected save_verdicts session_counts"
        " SUMMARY take_pointers without_native write_marks write_summary",
    "catalog": "Entry entry_for SearchDoc load_catalog ordered",
    "checkpoints": "checkpoint_document checkpoint_path open_job_log others_newest_first"
        " read_baseline read_evidence rebuild_job rebuilding rebuilt record_job"
        " save_baseline save_evidence VectorMarks write_checkpoint",
    "config": "CONFIG_CAP DIRECT_EDITS FIELDS HOST_CONTEXT_CAP load_settings NUDGES"
        " SEMANTIC_MODES Settings settings_from_dict untrusted",
    "context": "conflicted_files has_markers is_filler PREVIOUS read_status replace_master"
        " section Status status_line unbulleted write_task",
    "derived": "safe_state",
    "files": "check_folders check_target create_exclusive discard_derived log_line makedirs"
        " open_created read_bytes READ_CAP_BYTES read_memory read_text replace_with_built"
        " split_frontmatter tree_problem UnsafeFileError write_atomic",
    "locking": "LockTimeoutError quick_lock",
    "machine": "checkout_of"
        " consent_decision consent_file CONSENT_OFF CONSENT_ON is_on mark_slow NOTICE"
        " record_consent STATE_ENV usable_patterns",
    "memory_file": "content_hash first_heading render_document UnparsableMemoryError",
    "names": "BY_FOLDER BY_NAME CATEGORIES contained DuplicateError Naming resolve_category"
        " slugify StoreError",
    "pages": "default_page IndexCaps index_line render_archive render_index write_page",
    "paths": "command_project_root discover_project inside LAYOUT MEMORY_DIR MemoryPaths"
        " project_root resolves_inside session_file_stem TREE_PREFIX UnsafePathError",
    "session": "append_journal change_state is_active JOURNAL_HEADING journal_part KEYS"
        " read_offsets read_state record_activity RECORD_KEYS record_shown repair_state"
        " reset_reminder save_offset shown_statuses StateUnreadableError",
    "tree": "HookWriter is_marked LOCK_TIMEOUT mark_filed marker_path project_of",
    "watch": "edited_file forget_backup keep_backup kept_copies kept_copy LOST_REPORTED"
        " mark_lost_reported memory_listing mirror_dir put_aside put_back quarantined"
        " quick_line record_quick record_tree recorded_listing recorded_quick"
        " recover_missing restore_backup was_absent watched_changed",
    "user_tier": "checked_user_paths DATA_ENV display inside_project InsideProjectError made"
        " PROJECT USER user_dir user_paths",
    "worktree": "git_dirs is_linked_worktree join_worktree",
}
#: The store half: the commands' `Store`, lifecycle, upkeep, models.
STORE = {
    "config": "validate_config",
    "locking": "command_lock",
    "memory_file": "parse_bytes parse_text",
    "models": "BundleFile BundleManifest ConfigModel DESCRIPTION_MAX META_MODELS meta_to_dict"
        " parse_meta PROVENANCE_KEYS SECTION_MODELS SessionRecord SessionState TITLE_MAX",
    "names": "ConflictError NotFoundError ResurrectionError",
    "setup": "create_tree Draft undo_created validate_draft",
    "tier_move": "move_between MOVABLE MOVES_KEPT",
    "upkeep": "memory_files read_entry scan_tree scrub",
    "writer": "NewMemory Store",
}
# fmt: on
_WHERE: dict[str, str] = {}


if not TYPE_CHECKING:  # mypy reads the imports above, and flags a name not in them

    def __getattr__(name: str) -> object:
        """A name of either half, imported from its module the first time it is asked."""
        if not _WHERE:
            _WHERE.update({n: m for m, ns in (*TREE.items(), *STORE.items()) for n in ns.split()})
        module = _WHERE.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        __import__(f"{__name__}.{module}")
        value = getattr(sys.modules[f"{__name__}.{module}"], name)
        globals()[name] = value
        return value
