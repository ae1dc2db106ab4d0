"""The quick look before reading a command's writes never misses one `write_targets` sees."""

from __future__ import annotations

from memhooks.text.shell_writes import may_write, write_targets

#: Commands that write, each in a form only one alternative of the quick look can catch.
_WRITING = (
    "python3 -c \"open('.claude/notes.txt', 'w').write('x')\"",
    "python3.12 -c \"open('.claude/notes.txt', 'w').write('x')\"",
    "python -c \"import os; os.remove('.claude/old.txt')\"",
    "perl -e \"unlink '.claude/old.txt'\"",
    "ruby -e \"File.write('.claude/notes.txt', 'x')\"",
    "node -e \"require('fs').writeFileSync('.claude/notes.txt', 'x')\"",
    "bash -c 'touch .claude/notes.txt'",
    "eval touch .claude/notes.txt",
    "sed -i s/a/b/ .claude/notes.txt",
    "sort -o .claude/sorted.txt names.txt",
    "find .claude -name '*.tmp' -delete",
    "echo done > .claude/notes.txt",
)


def test_a_command_that_writes_may_write() -> None:
    for command in _WRITING:
        assert write_targets(command, "/p"), command
        assert may_write(command), command


def test_a_command_with_no_writing_word_may_not() -> None:
    for command in ("git status", "ls -c .claude", "grep -e x notes.txt", "pytest -q"):
        assert not write_targets(command, "/p"), command
        assert not may_write(command), command
