"""Each turn's line of files changed: what its tools wrote, edited or removed, so a reply that
says what Claude is about to do, followed by the edit, reads as done; a file removed later and
a file git shows unchanged are not named as a turn's change."""

from __future__ import annotations

from records import bash, edit, prompt, said

from memhooks.continuity import turn_files
from memhooks.continuity.evidence import Evidence
from memhooks.continuity.git_changes import shown_now
from memhooks.continuity.handover import next_session, turn_lines


def _turn(state: dict[str, object], n: int) -> dict[str, object]:
    turns = state["turns"]
    assert isinstance(turns, list)
    found: dict[str, object] = next(t for t in turns if t["n"] == n)
    return found


def test_the_last_turn_shows_the_edit_that_followed_its_plan() -> None:
    records = [
        prompt("the invoice list comes out newest first, can you flip it?"),
        said("The rows are ordered by id. I need to order them by issue date instead."),
        *edit("1", "/p/billing/report.py"),
        *edit("2", "/p/billing/templates/list.html", tool="Write"),
    ]
    text = next_session(Evidence().add_all(records).state, budget=4_000)
    plan = text.index("[1] Claude: The rows are ordered by id.")
    done = text.index("[1] files changed: `billing/report.py`, `billing/templates/list.html` (new)")
    assert done > plan


def test_a_bash_command_that_wrote_counts_for_its_turn_inside_the_project_only() -> None:
    command = (
        "sed -i 's/port = 80/port = 8080/' conf/site.ini && "
        "cat > docs/ports.md <<'EOF'\nport 8080; see site.ini\nEOF\n"
        "pytest -q > /tmp/ports.log 2>&1 || true; echo done > /dev/null"
    )
    records = [prompt("move the site to 8080"), *edit("0", "/p/a.txt")]
    state = Evidence().add_all([*records, *bash("1", command, ok=True)]).state
    assert _turn(state, 1)["changed"] == {
        "a.txt": "edited",
        "conf/site.ini": turn_files.WROTE,
        "docs/ports.md": turn_files.WROTE,
    }
    # a command that failed proves no write
    failed = Evidence().add_all([*records, *bash("1", "echo x > out.txt", ok=False)]).state
    assert "out.txt" not in _turn(failed, 1)["changed"]


def test_a_file_removed_later_is_shown_removed_or_not_at_all() -> None:
    records = [
        prompt("try the migration on a copy, then drop the legacy loader"),
        *edit("1", "/p/try_copy.py", tool="Write"),
        *bash("2", "echo 'select 1' > probe.sql", ok=True),
        *edit("3", "/p/src/legacy_loader.py"),
        *edit("4", "/p/src/loader.py"),
        prompt("looks fine, clean up"),
        *bash("5", "python3 try_copy.py && rm try_copy.py probe.sql", ok=True),
        *bash("6", "git rm -q src/legacy_loader.py", ok=True),
    ]
    state = Evidence().add_all(records).state
    assert _turn(state, 1)["changed"] == {"src/loader.py": "edited"}
    # a Bash write may have changed a file that was there: its removal is shown
    assert _turn(state, 2)["changed"] == {"probe.sql": "deleted", "src/legacy_loader.py": "deleted"}
    text = next_session(state, budget=4_000)
    assert "try_copy.py`" not in text.split("## What was said", 1)[1].replace("ran: ", "\n")
    assert "[2] files changed: `probe.sql` (deleted), `src/legacy_loader.py` (deleted)" in text


def test_a_removal_is_read_where_the_command_stands_after_its_cd() -> None:
    """`cd docs && rm index.md` takes away docs/index.md, not the index.md at the root that
    an earlier turn edited; `git mv` moves its sources away like `mv`."""
    records = [
        prompt("tidy the index"),
        *edit("1", "/p/index.md"),
        *edit("2", "/p/docs/guide.md"),
        prompt("drop the old copy"),
        *bash("3", "cd docs && rm index.md", ok=True),
        *bash("4", "cd /p && git mv docs/guide.md guide.md", ok=True),
    ]
    state = Evidence().add_all(records).state
    assert _turn(state, 1)["changed"] == {"index.md": "edited"}
    assert _turn(state, 2)["changed"] == {"docs/guide.md": "deleted", "guide.md": "wrote"}
    assert state["files"]["index.md"]["how"] == "edited"
    assert state["files"]["docs/guide.md"]["how"] == "deleted"


def test_a_quoted_or_compared_angle_bracket_writes_no_file() -> None:
    """The write guard reads a lone `>` as a redirection on its safe side; the turn's line
    claims a file written only for a redirection the shell makes."""
    written = {
        "grep -c '>' changelog.txt": {},
        'awk -F ">" "{print $2}" routes.csv': {},
        "[[ v2 > v1 ]] && echo newer": {},
        "echo \\> arrow.txt": {},
        "(( 3 > 2 )) && echo yes": {},
        "grep '<' a.html > tags.txt": {"tags.txt": turn_files.WROTE},
        "sh -c 'sort names > sorted.txt'": {"sorted.txt": turn_files.WROTE},
    }
    for command, changed in written.items():
        evidence = Evidence()
        evidence.state["cwd"] = "/p"
        state = evidence.add_all([prompt("count"), *bash("1", command, ok=True)]).state
        assert _turn(state, 1).get("changed", {}) == changed, command


def test_a_file_is_new_only_when_the_write_says_it_created_it() -> None:
    """A Write over a file that was there is an edit, and so is an append: their removal
    later is shown at the turn that removed it, never dropped as a scratch file's."""
    records = [
        prompt("replace the stale settings and log the change"),
        *edit("1", "/p/settings.yaml", tool="Write", existed=True),
        *bash("2", "echo 'settings replaced' >> CHANGES.txt", ok=True),
        *edit("3", "/p/draft.txt", tool="Write"),
    ]
    state = Evidence().add_all(records).state
    assert _turn(state, 1)["changed"] == {
        "settings.yaml": "edited",
        "CHANGES.txt": turn_files.WROTE,
        "draft.txt": "new",
    }
    assert [how["how"] for how in state["files"].values()] == ["edited", "new"]
    removal = [
        prompt("drop all three"),
        *bash("4", "rm settings.yaml CHANGES.txt draft.txt", ok=True),
    ]
    state = Evidence().add_all(records + removal).state
    assert _turn(state, 1).get("changed", {}) == {}
    assert _turn(state, 2)["changed"] == {"settings.yaml": "deleted", "CHANGES.txt": "deleted"}
    assert list(state["files"]) == ["settings.yaml"]


def test_a_turn_shows_its_newest_files_and_counts_the_rest() -> None:
    records = [prompt("scaffold the views")]
    records += [r for i in range(9) for r in edit(str(i), f"/p/views/v{i}.html", tool="Write")]
    (line,) = [
        line
        for line in turn_lines(_turn(Evidence().add_all(records).state, 1), 5)
        if "files changed" in line
    ]
    assert line.startswith("[1] files changed: `views/v3.html` (new), ")
    assert line.endswith("`views/v8.html` (new) (+3 more)")


def test_git_stays_the_authority_for_what_is_changed_now() -> None:
    """At SessionStart a file git shows unchanged since the session began (reverted) leaves
    the turns' lines; one git cannot see (outside the repository) stays."""
    lines = [
        "[3] user: bump the version",
        "[3] files changed: `app.py`, `lib/util.py`, `/etc/hosts.local`",
        "[4] files changed: `app.py`",
        "[4] ran: `make` ok",
    ]
    text = "\n".join(lines)
    now = {"changed": {"lib/util.py": "edited"}, "tools_only": []}
    shown = shown_now(now, "/r", "/r")
    assert turn_files.without(text, shown).split("\n") == [
        "[3] user: bump the version",
        "[3] files changed: `lib/util.py`, `/etc/hosts.local`",
        "[4] ran: `make` ok",
    ]
    # no baseline: git cannot tell, the record stands
    assert turn_files.without(text, shown_now({"changed": None}, "/r", "/r")) == text


def test_an_earlier_sessions_part_keeps_its_proofs_not_each_turns_files() -> None:
    """The thread's earlier sessions are shown by selection: their files are among their
    proofs, their turns keep their words only."""
    from memhooks.continuity.thread_parts import earlier_part, last_part

    records = [prompt("rename the flag"), said("Renaming it now."), *edit("1", "/p/flags.py")]
    state = Evidence().add_all(records).state
    assert "[1] files changed: `flags.py`" in last_part(state, 3_000)
    earlier = earlier_part(state, 3_000)
    assert "`flags.py`" in earlier
    assert "files changed:" not in earlier
