"""The store's one face: `from memhooks.store import X` is the only way in from outside.

Two halves. The **tree** half is standard library only: what the hooks and the per-prompt
path may use (paths, safe reads, atomic writes, settings, session state and journal,
checkpoints, caches, the quick lock, filing a new memory with `HookWriter`). The **store**
half is the commands' full `Store` (create and update with the conflict check, lifecycle,
the rolling window, reconcile, rebuild) and the pydantic models: a hook never loads it
(tests/system/test_structure.py checks both).

Names resolve lazily (PEP 562): importing `memhooks.store` loads nothing; a name loads the
one module that defines it, the first time it is asked for. TREE and STORE below are the one
list of the face's names; `__init__.pyi`, what mypy reads, is generated from them
(`python tests/store/test_face.py` writes it; the test checks it is current).
"""

from __future__ import annotations

import sys

from memhooks import TYPE_CHECKING

# fmt: off

#: The tree half (module: its names): standard library only, what a hook may import.
TREE = {
    "caches": "HANDOFF_KEPT keep_prompt leave_pointers load_verdicts read_prompts"
        " save_verdicts take_pointers",
    "catalog": "Entry entry_for load_catalog ordered SearchDoc",
    "checkpoints": "checkpoint_document checkpoint_path write_checkpoint",
    "config": "CONFIG_CAP DIRECT_EDITS FIELDS HOST_CONTEXT_CAP load_settings NUDGES"
        " SEMANTIC_MODES Settings settings_from_dict untrusted",
    "consent": "carry_over consent_decision consent_file CONSENT_OFF CONSENT_ON"
        " folder_identity is_on NOTICE read_record record_consent record_file recorded_id"
        " repository_file",
    "consolidation_files": "append_log LOG_HEADER read_summary write_summary",
    "context": "conflicted_files has_markers is_filler read_status replace_master section"
        " Status status_line unbulleted write_task",
    "derived": "safe_state",
    "edit_backup": "edited_file forget_backup keep_backup restore_backup was_absent",
    "evidence_files": "EVIDENCE_DISK_CAP evidence_kept evidence_listing EVIDENCE_MAX_KEPT"
        " EVIDENCE_MIN_KEPT EVIDENCE_READ_CAP others_newest_first read_baseline read_evidence"
        " save_baseline save_evidence",
    "filed_marks": "is_marked mark_filed marker_path",
    "files": "check_folders check_target create_exclusive discard_derived makedirs"
        " open_created read_bytes READ_CAP_BYTES read_memory read_text replace_with_built"
        " tree_problem UnsafeFileError write_atomic",
    "injection_ledger": "all_sessions record_injected session_counts",
    "journal": "append_journal JOURNAL_HEADING journal_part read_offsets save_offset",
    "local": "checkout_id checkout_of common_dir_id ensure_id LEGACY_CACHE LEGACY_SESSION"
        " local_dir make_id move_out state_dir STATE_ENV",
    "locking": "LockTimeoutError quick_lock",
    "memory_file": "content_hash first_heading render_document split_frontmatter"
        " UnparsableMemoryError",
    "names": "BY_FOLDER BY_NAME CATEGORIES contained DuplicateError Naming resolve_category"
        " slugify StoreError",
    "native_marks": "without_native write_marks",
    "pages": "default_page index_line IndexCaps render_archive render_index write_page",
    "paths": "command_project_root discover_project inside LAYOUT LOCAL MEMORY_DIR MemoryPaths"
        " project_root resolves_inside session_file_stem TREE_PREFIX UnsafePathError",
    "pattern_timings": "mark_slow usable_patterns",
    "problem_log": "log_line",
    "read_once": "keep_reads",
    "rebuild_marks": "open_job_log rebuild_job rebuilding rebuilt record_job VectorMarks",
    "reminder": "record_shown reset_reminder shown_statuses",
    "session": "change_state is_active KEYS read_state record_activity RECORD_KEYS"
        " repair_state StateUnreadableError",
    "thread_file": "drop_memo read_memo read_thread save_memo save_thread",
    "tree": "HookWriter LOCK_TIMEOUT project_of",
    "trusted": "settle_trusted tree_turn",
    "user_tier": "checked_user_paths DATA_ENV display inside_project InsideProjectError made"
        " PROJECT USER user_dir user_paths",
    "watch": "changed_since keep_trusted kept_copies kept_copy LOST_REPORTED"
        " mark_lost_reported memory_listing mirror_dir note_own put_aside put_back quarantined"
        " quick_line record_quick record_tree recorded_listing recorded_quick recover_missing"
        " user_cache watched_changed",
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
    "tier_move": "MOVABLE move_between MOVES_KEPT",
    "upkeep": "memory_files read_entry scan_tree scrub",
    "writer": "NewMemory Store",
}
# fmt: on
_WHERE: dict[str, str] = {}


if not TYPE_CHECKING:  # mypy reads __init__.pyi

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
