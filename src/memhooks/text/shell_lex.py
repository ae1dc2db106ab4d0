"""A shell command as the write guard reads it: heredoc bodies out, line continuations
joined, words split, and a word's variables and tildes expanded as far as the command
itself says. Standard library only (the PreToolUse hook uses it).

It is a reader of the plain forms, not a shell: what it cannot follow (a command substitution,
a parameter expansion with an operator other than a default) is left as written, and the
write guard's second layer (`tree_settle`) catches what slips past after the fact.
"""

from __future__ import annotations

import os
import re
import shlex

_DELIMITER = re.compile(r"\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_PARAMETER = re.compile(
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))"
)


def strip_heredocs(command: str) -> str:
    """The command without heredoc bodies (a `> quote` line inside one is not a redirect)
    and without comments.

    A `<<` counts only outside quotes and comments, so a quoted or commented `<<EOF` does
    not hide the lines after it. A body that never ends runs to the end, as in a shell.
    """
    kept: list[str] = []
    pending: list[str] = []
    quote = ""
    lines = command.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        quote, cut = _scan(line, quote, pending)
        kept.append(line[:cut])
        while pending and not quote:
            delimiter = pending.pop(0)
            while index < len(lines) and lines[index].lstrip("\t") != delimiter:
                index += 1
            index += 1  # the delimiter line
    return "\n".join(kept)


def _scan(line: str, quote: str, pending: list[str]) -> tuple[str, int]:
    """Walk one line from inside `quote` ('' when none); queue the heredoc delimiters it
    opens; returns the quote still open at its end, and where a comment starts."""
    at = 0
    while at < len(line):
        char = line[at]
        if quote:
            at = _in_quote(line, at, quote)
            quote = "" if at < 0 else quote
            if at < 0:
                at = -at
            continue
        if char == "\\":
            at += 2  # the next character is escaped
            continue
        if char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1] in " \t;&|()"):
            return quote, at  # a comment runs to the end of the line
        elif line.startswith("<<", at) and not line.startswith("<<<", at):
            at += 3 if line.startswith("<<-", at) else 2
            found = _DELIMITER.match(line, at)
            if found:
                pending.append(found.group(2))
                at = found.end()
            continue
        at += 1
    return quote, len(line)


def _in_quote(line: str, at: int, quote: str) -> int:
    """The index after `line[at]` inside a quote; negated when that character closed it."""
    char = line[at]
    if quote == '"' and char == "\\":
        return at + 2
    return -(at + 1) if char == quote else at + 1


def words(code: str) -> list[str]:
    """The command's words and operators, quotes removed, newlines as `;` (comments are
    gone already: `strip_heredocs`)."""
    lexer = shlex.shlex(code.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        return code.replace("\n", " ; ").split()


def join_continuations(command: str) -> str:
    """A backslash before a newline joins the lines: `.claude/mem\\<newline>ory` is one word."""
    return command.replace("\\\r\n", "").replace("\\\n", "")


def expand(word: str, variables: dict[str, str], here: str, before: str) -> str:
    """`~`, `~+`, `~-`, `$NAME`, `${NAME}` and `${NAME:-default}` (and `-`, `=`, `:=`),
    from the command's own assignments first, then the shell's PWD and OLDPWD, then the
    environment; anything else stays as written."""

    def value(name: str) -> str | None:
        if name in variables:
            return variables[name]
        if name == "PWD":
            return here
        if name == "OLDPWD":
            return before
        return os.environ.get(name)

    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(4)
        operator, default = match.group(2), match.group(3)
        current = value(name)
        if operator in (None, ""):
            return match.group(0) if current is None else current
        if operator in {"+", ":+"}:
            return match.group(0)
        empty = current is None or (operator.startswith(":") and not current)
        return default if empty else str(current)

    if word == "~+" or word.startswith("~+/"):
        word = here + word[2:]
    elif word == "~-" or word.startswith("~-/"):
        word = before + word[2:]
    return os.path.expanduser(_PARAMETER.sub(replace, word))
