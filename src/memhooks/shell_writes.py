"""The files a shell command plainly writes: redirections and the file-changing verbs.

Standard library only (the PreToolUse hook uses it). "Plainly" is the contract: `>`, `>>`,
`tee`, `sed -i`, `mv`, `cp`, `rm`, `truncate` and a few like them, after `cd`, `sudo` or
`env`. A write hidden in a script (`python -c "open(...)"`) is not seen; the reconcile on
the next store write heals what such a write leaves behind.
"""

from __future__ import annotations

import os
import re
import shlex

#: The command's whole text is never tokenised past this: a heredoc body can be huge.
MAX_COMMAND_CHARS = 100_000

_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", "|&", ";;"})
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
_FD_DUPS = frozenset({">&", "<&", "<", "<<", "<<<", "<>"})
_PREFIXES = frozenset({"sudo", "command", "env", "nohup", "time", "nice", "builtin", "exec"})
#: Every argument that is not an option is written, moved away or removed.
_ALL_ARGS = frozenset({"mv", "rm", "rmdir", "unlink", "truncate", "touch", "shred", "tee"})
#: Only the destination (the last argument, or `-t DIR`) is written.
_DESTINATION = frozenset({"cp", "ln", "install", "rsync"})
#: Options of those prefixes that take a value (`sudo -u root`, `nice -n 5`).
_VALUED_OPTIONS = frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-n"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def _strip_heredocs(command: str) -> str:
    """The command without heredoc bodies: a `> quote` line inside one is not a redirect."""
    kept: list[str] = []
    delimiter: str | None = None
    for line in command.split("\n"):
        if delimiter is not None:
            if line.strip("\t") == delimiter:
                delimiter = None
            continue
        kept.append(line)
        found = _HEREDOC.findall(line)
        if found:
            delimiter = found[-1][1]
    return "\n".join(kept)


def _tokens(command: str) -> list[str]:
    code = _strip_heredocs(command[:MAX_COMMAND_CHARS]).replace("\\\n", " ")
    lexer = shlex.shlex(code.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        return code.replace("\n", " ; ").split()


def _simple_commands(tokens: list[str]) -> list[tuple[list[str], list[str]]]:
    """(words, redirect targets) of each simple command, in order."""
    found: list[tuple[list[str], list[str]]] = []
    words: list[str] = []
    targets: list[str] = []
    skip_next = False
    pending_target = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if pending_target:
            targets.append(token)
            pending_target = False
            continue
        if token in _SEPARATORS:
            found.append((words, targets))
            words, targets = [], []
        elif token in _REDIRECTS:
            pending_target = True
        elif token in _FD_DUPS:
            skip_next = True
        else:
            words.append(token)
    found.append((words, targets))
    return found


def _verb_and_args(words: list[str]) -> tuple[str, list[str]]:
    index = 0
    while index < len(words) and (
        _ASSIGNMENT.match(words[index]) or os.path.basename(words[index]) in _PREFIXES
    ):
        index += 1
        # `sudo -u root rm x`, `env -i rm x`: skip the prefix's own options.
        while index < len(words) and words[index].startswith("-"):
            index += 2 if words[index] in _VALUED_OPTIONS else 1
    if index >= len(words):
        return "", []
    return os.path.basename(words[index]), words[index + 1 :]


def _operands(args: list[str]) -> list[str]:
    out: list[str] = []
    ended = False
    for arg in args:
        if not ended and arg == "--":
            ended = True
        elif ended or not arg.startswith("-") or arg == "-":
            out.append(arg)
    return out


def _in_place(arg: str) -> bool:
    """`-i`, `-i.bak`, `-pi`, `--in-place[=SUFFIX]`: sed and perl edit the files they name."""
    if arg.startswith("--"):
        return arg == "--in-place" or arg.startswith("--in-place=")
    return arg.startswith("-") and "i" in arg[1:]


def _written_by(verb: str, args: list[str]) -> list[str]:  # noqa: PLR0911 - one per verb kind
    if verb in _ALL_ARGS:
        return _operands(args)
    if verb in ("sed", "perl") and any(_in_place(a) for a in args):
        return _operands(args)
    if verb in _DESTINATION:
        for i, arg in enumerate(args):
            if arg in ("-t", "--target-directory") and i + 1 < len(args):
                return [args[i + 1]]
            if arg.startswith("--target-directory="):
                return [arg.partition("=")[2]]
        operands = _operands(args)
        return operands[-1:] if len(operands) > 1 else []
    if verb == "dd":
        return [a[3:] for a in args if a.startswith("of=")]
    return []


def write_targets(command: str, cwd: str) -> list[tuple[str, str]]:
    """(verb, path) for every file the command plainly writes; paths absolute and normalised,
    `$VAR` and `~` expanded, relative ones against `cwd` (and the `cd`s before them)."""
    out: list[tuple[str, str]] = []
    here = cwd
    for words, redirects in _simple_commands(_tokens(command)):
        verb, args = _verb_and_args(words)
        if verb == "cd" and args:
            here = _absolute(args[0], here)
            continue
        out += [(">", _absolute(target, here)) for target in redirects]
        written = _written_by(verb, args)
        if verb == "mv" and len(written) > 1:  # the sources leave, the destination is written
            out += [("mv", _absolute(t, here)) for t in written[:-1]]
            out.append(("mv-to", _absolute(written[-1], here)))
        else:
            out += [(verb, _absolute(target, here)) for target in written]
    return out


def _absolute(path: str, cwd: str) -> str:
    expanded = os.path.expanduser(os.path.expandvars(path))
    return os.path.normpath(os.path.join(cwd, expanded))
