"""What a turn did that its words may leave open: the git commands that recorded work (a
commit, an amend, a push, a branch made), shown with their outcome wherever a turn shows
more than its prompt and answer, so "amend or a new commit?" followed by the amend reads
as done; an interruption, the host's mark; the checks a removed test file settles."""

from __future__ import annotations

import json

import pytest
from records import bash, edit, prompt, said

from memhooks.continuity import turn_files
from memhooks.continuity.evidence import Evidence
from memhooks.continuity.handover import LEVELS, next_session, turn_lines
from memhooks.continuity.proofs import CHECKS_HEADING

AMEND = (
    "cd /p/api && pytest -q tests/ && git add -A && "
    "git -C /p/api commit --amend -m \"$(cat <<'EOF'\n"
    'Rate limits per tenant, fixed window\n\nCo-Authored-By: someone\nEOF\n)" 2>&1'
)

RECORDED = {
    AMEND: '… && git -C /p/api commit --amend -m "Rate limits per tenant, fixed window"',
    "git checkout -b feat/limits && git add -A && git commit -qm 'first cut'": (
        'git checkout -b feat/limits && git commit -qm "first cut"'
    ),
    "git switch -c fix/eof; git push -u origin fix/eof": (
        "git switch -c fix/eof; git push -u origin fix/eof"
    ),
    "git -c user.name=ci tag -a v1.4.0 -m 'cut 1.4'": (
        'git -c user.name=ci tag -a v1.4.0 -m "cut 1.4"'
    ),
    "git stash && make test && git stash pop": "git stash && … && git stash pop",
    "git rebase -i origin/main": "git rebase -i origin/main",
    "git merge --no-ff feat/limits 2>&1 | tail -3": "git merge --no-ff feat/limits",
    "git branch -D old/spike": "git branch -D old/spike",
    "git reset --hard HEAD~1": "git reset --hard HEAD~1",
    # looking, staging and listing record nothing
    "git status && git log --oneline -5": "",
    "git add -A": "",
    "git tag": "",
    "git tag -l 'v1.*'": "",
    "git branch -vv": "",
    "git stash list": "",
    "git checkout src/app.py": "",
    "git diff HEAD~1 -- src/ > /tmp/d.patch": "",
    "echo 'git commit -m x' >> notes.txt": "",
    # a run that only shows what it would do records nothing (`commit -n` does commit)
    "git commit --dry-run -am 'wip'": "",
    "git push --dry-run origin main && git push -n": "",
    "git commit --help": "",
    "git commit -n -m 'skip hooks'": 'git commit -n -m "skip hooks"',
}


@pytest.mark.parametrize(("command", "shown"), RECORDED.items())
def test_the_git_commands_that_record_work_verbatim_by_selection(command: str, shown: str) -> None:
    assert turn_files.recorded(command) == shown


def test_what_a_long_command_recorded_is_read_and_kept_capped() -> None:
    """A command of many files or commits, or of 'git' many times on one line (its search
    was quadratic), is read to a cap and kept to one; a heredoc's message past it still
    shows by its first line."""
    many = "git commit " + " ".join(f"src/m{i}.py" for i in range(5_000))
    assert len(turn_files.recorded(many)) <= turn_files.RECORDED_CAP
    assert turn_files.recorded("git log x " * 20_000) == ""
    body = "\n".join(f"- line {i} of the body" for i in range(400))
    message = f"git commit -m \"$(cat <<'EOF'\nfirst line\n\n{body}\nEOF\n)\" && git push"
    assert turn_files.recorded(message) == 'git commit -m "first line" && git push'


def test_a_turn_shown_short_shows_its_git_work_without_messages() -> None:
    brief = {
        'git commit -q -m "wip: parser" && git push': "git commit && git push",
        'git stash push -q -u -m "include WIP"': "git stash push -u",
        "git branch -m old/name new/name": "git branch -m old/name new/name",
    }
    for git, shown in brief.items():
        assert turn_files.run_command({"cmd": "x", "git": git}, brief=True) == shown


def test_a_turn_shows_what_it_recorded_in_git_at_every_level() -> None:
    records = [
        prompt("amend plz, then push the branch"),
        said("Amending the last commit, then pushing."),
        *bash("1", AMEND, ok=True),
        *bash("2", "git status --short && git log --oneline -3", ok=True),
        *bash("3", "git push", ok=False, output="fatal: No configured push destination."),
        *[call for i in range(8) for call in bash(f"x{i}", f"ls dir{i}", ok=True)],
    ]
    turn = Evidence().add_all(records).state["turns"][0]
    amended = '`… && git -C /p/api commit --amend -m "Rate limits per tenant, fixed window"` ok'
    for level, (*_, with_runs) in enumerate(LEVELS[1:], 1):
        text = "\n".join(turn_lines(turn, level))
        # a turn shown short: without the message
        assert (amended if with_runs else "`… && git -C /p/api commit --amend` ok") in text
        assert "`git push` failed (fatal: No configured push destination.)" in text, level
    assert "git status" not in "\n".join(turn_lines(turn, 1))
    # at its shortest, a turn keeps the prompt and Claude's answer
    assert "[1] ran:" not in "\n".join(turn_lines(turn, 0))


def test_an_interruption_is_the_hosts_mark_not_the_users_words() -> None:
    """The host writes "[Request interrupted by user…]" when the user stops Claude: no
    prompt (it answers no question of Claude's, and opens no turn), but the turn it cut short
    says so where it shows what ran."""
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    records = [
        prompt("clear out the staging bucket"),
        said("Should I also drop the thumbnails? I'll list the bucket first."),
        *bash("1", "aws s3 ls s3://staging-assets", ok=False, output=rejected),
        prompt("[Request interrupted by user for tool use]"),
    ]
    state = Evidence().add_all(records).state
    assert [turn["n"] for turn in state["turns"]] == [1]
    text = next_session(state, budget=3_000)
    assert "Request interrupted" not in text
    assert "(not run: the user said no); then the user interrupted" in text
    assert "Claude asked, and no prompt has answered yet: Should I also drop" in text
    state = Evidence().add_all([*records, prompt("[Request interrupted by user]")]).state
    assert [len(turn["ran"]) for turn in state["turns"]] == [2]  # one mark for both
    assert "[Request interrupted" not in next_session(state, budget=3_000)


def test_a_removed_test_file_leaves_no_current_proof_nor_open_failure() -> None:
    """A check whose target is only a file the session removed, or whose failure named it,
    proves nothing now and fails on nothing open: it leaves the checks (its turn still says
    what ran); a check of another file stays."""
    failed = "FAILED tests/test_slug_props.py::test_roundtrip - AssertionError: 'a-b'\n1 failed"
    records = [
        prompt("try a property test for the slug encoder"),
        *edit("1", "/p/tests/test_slug_props.py", tool="Write"),
        *bash("2", "pytest tests/test_slug_props.py", ok=False, output=failed),
        *bash("3", "pytest tests/test_slug_props.py::test_unicode", ok=True, output="1 passed"),
        *bash(
            "4", "pytest tests/", ok=False, output=failed.replace("1 failed", "1 failed, 9 passed")
        ),
        *bash(
            "5",
            "pytest tests/test_api.py",
            ok=False,
            output="FAILED tests/test_api.py::t\n1 failed",
        ),
        *edit("6", "/p/tests/test_legacy_slug.py"),
        *bash("7", "pytest -q ./tests/test_legacy_slug.py", ok=True, output="3 passed"),
        prompt("drop both slug tests, they test the wrong thing"),
        *bash("8", "rm tests/test_slug_props.py && git rm -q tests/test_legacy_slug.py", ok=True),
    ]
    state = Evidence().add_all(records).state
    assert [entry["cmd"] for entry in state["checks"].values()] == ["pytest tests/test_api.py"]
    assert list(state["files"]) == ["tests/test_legacy_slug.py"]  # made elsewhere: deleted
    text = next_session(state, budget=4_000)
    shown = text.split(CHECKS_HEADING, 1)[1].split("\n\n", 1)[0]
    assert "slug" not in shown
    assert "(turn 1): `pytest tests/test_api.py`: FAILED tests/test_api.py::t" in shown
    assert "`pytest tests/test_slug_props.py` failed (FAILED tests/test_slug_props.py" in text


REMOVALS_THAT_SETTLE_NOTHING = [
    # a folder of what the run read, removed: a stack frame there named no failure of it
    (
        "npm test",
        "Error: Cannot find module 'x' from node_modules/jest/build/index.js",
        "rm -rf node_modules",
    ),
    # a file of the same name elsewhere, or in the folder the check did not run from
    ("go build ./...", "./main.go:12:2: undefined: helper", "rm cmd/scratch/main.go"),
    (
        "pytest tests/test_api.py",
        "FAILED tests/test_api.py::t - assert 0",
        "rm old/tests/test_api.py",
    ),
    ("cd web && npx jest src/a.test.ts", "FAIL src/a.test.ts", "rm src/a.test.ts"),
    # a run that failed in another file too
    (
        "pytest tests/",
        "FAILED tests/test_old.py::t - assert 0\nFAILED tests/test_api.py::u - assert 0\n2 failed",
        "rm tests/test_old.py",
    ),
    # a file the run read, not one it ran
    ("python3 app.py", "FileNotFoundError: No such file: 'data/cache.json'", "rm data/cache.json"),
]


@pytest.mark.parametrize(("check", "error", "removal"), REMOVALS_THAT_SETTLE_NOTHING)
def test_a_removal_settles_no_failure_of_another_file(check: str, error: str, removal: str) -> None:
    records = [
        prompt("make it pass"),
        *edit("1", "/p/README.md"),
        *bash("2", check, ok=False, output=error),
        prompt("clean up"),
        *bash("3", removal, ok=True),
    ]
    state = Evidence().add_all(records).state
    assert [entry["cmd"] for entry in state["checks"].values() if not entry["ok"]] == [check]


@pytest.mark.parametrize(
    "command",
    [
        "git commit -m 'wip' || true",
        "git commit -am 'tidy'; git status --short",
        "git push origin main 2>&1 | tail -3",
        "git push &",
    ],
)
def test_a_success_that_is_not_the_git_commands_own_shows_no_outcome(command: str) -> None:
    """After `||`, `;`, `|` or `&` the exit status is another command's: 'nothing to
    commit' or a rejected push reads as unknown, not as done."""
    records = [
        prompt("commit and push"),
        *bash("1", command, ok=True, output="nothing to commit, working tree clean"),
        said("Done."),
    ]
    text = next_session(Evidence().add_all(records).state, budget=3_000)
    assert "(piped: outcome not known)" in text
    assert "` ok" not in text
    assert turn_files.recorded_work("(cd api && git add -A && git commit -m x) && git push") == (
        "git commit -m x && git push",
        True,
    )


def test_what_a_command_recorded_in_git_is_redacted_before_it_is_kept() -> None:
    """A token in a commit's message, a heredoc's first line or a push's URL is redacted
    with the command, before its git work is selected from it."""
    token = "ghp_" + "a1B2c3D4e5" * 4
    command = (
        f"git commit -m \"$(cat <<'EOF'\nrotate {token}\nEOF\n)\" && "
        f"git push https://bot:{token}@github.com/acme/api.git && git tag -m '{token}' v1"
    )
    records = [prompt("ship it"), *bash("1", command, ok=True), said("Pushed.")]
    state = Evidence().add_all(records).state
    assert state["turns"][-1]["ran"][-1]["git"].startswith('git commit -m "rotate [REDACTED')
    assert token not in json.dumps(state)
    assert token not in next_session(state, budget=3_000)
