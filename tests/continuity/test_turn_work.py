"""What a turn did that its words may leave open: the git commands that recorded work (a
commit, an amend, a push, a branch made), shown with their outcome at every level a turn is
shown, so "amend or a new commit?" followed by the amend reads as done."""

from __future__ import annotations

import pytest
from records import bash, prompt, said

from memhooks.continuity import turn_files
from memhooks.continuity.evidence import Evidence
from memhooks.continuity.handover import LEVELS, turn_lines

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
}


@pytest.mark.parametrize(("command", "shown"), RECORDED.items())
def test_the_git_commands_that_record_work_verbatim_by_selection(command: str, shown: str) -> None:
    assert turn_files.recorded(command) == shown


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
    for level in range(len(LEVELS)):
        text = "\n".join(turn_lines(turn, level))
        assert amended in text, level
        assert "`git push` failed (fatal: No configured push destination.)" in text, level
    assert "git status" not in "\n".join(turn_lines(turn, 0))
