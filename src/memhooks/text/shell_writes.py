"""The files a shell command plainly writes: redirections and the file-changing verbs.

Standard library only (the PreToolUse hook uses it). "Plainly" is the contract: `>`, `>>`,
`>&`, `<>`, `tee`, `sed -i`, `sort -o`, `mv`, `cp`, `rm`, `find -delete`, `truncate` and a
few like them, after `cd`, `sudo` or `env`, with the variables the command sets itself; the
code a `bash -c` or `eval` runs is read the same way, and a `python -c` (or `perl -e`...)
whose code names a path and writes is taken to write that path. A write hidden better than
that is not seen here: the next hook notices what it changed (`tree_settle`).
"""

from __future__ import annotations

import os
import re

from memhooks.text.shell_lex import expand, join_continuations, strip_heredocs, words

#: The command's whole text is never tokenised past this: a heredoc body can be huge. A
#: longer command that names the tree is refused as unchecked (`too_long`).
MAX_COMMAND_CHARS = 100_000

#: How deep `bash -c "bash -c '...'"` is followed.
MAX_DEPTH = 3
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", "|&", ";;"})
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
_FD_DUPS = frozenset({">&", "<&", "<", "<<", "<<<", "<<-"})
_PREFIXES = frozenset({"sudo", "command", "env", "nohup", "time", "nice", "builtin", "exec"})
#: Every argument that is not an option is written, moved away or removed.
_ALL_ARGS = frozenset({"mv", "rm", "rmdir", "unlink", "truncate", "touch", "shred", "tee"})
#: Only the destination (the last argument, or `-t DIR`) is written.
_DESTINATION = frozenset({"cp", "ln", "install", "rsync"})
#: Options of those prefixes that take a value (`sudo -u root`, `nice -n 5`).
_VALUED_OPTIONS = frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-n"})
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.DOTALL)
#: Shells whose `-c` code (and `eval`'s words) is read like the command itself.
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})
#: Interpreters whose inline code (`-c`, `-e`) is not read, only looked at.
_INLINE = {"python": "-c", "python3": "-c", "perl": "-e", "ruby": "-e", "node": "-e"}
_WRITES_IN_CODE = re.compile(
    r"write|unlink|remove|rmtree|rename|replace|truncate|move|copy|"
    r"""open\([^)]*['"][^'"]*[wax+][^'"]*['"]|>"""
)
_PATH_IN_CODE = re.compile(r"""[^\s'"(),;]*\.claude[^\s'"(),;]*""")
_FIND_WRITES = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fls"})


#: A command with none of these can write nothing `write_targets` sees (a quick look first).
_MAY_WRITE = re.compile(
    r">(?!&|>?\s*/dev/null)|\b(?:"
    + "|".join(sorted(_ALL_ARGS | _DESTINATION | _SHELLS | _INLINE.keys() | {"sed", "dd", "sort"}))
    + r"|find|eval|python[\d.]*)\b"
)


def may_write(command: str) -> bool:
    """Whether `command` may plainly write a file: without a redirection or a verb of those
    `write_targets` reads, it writes none."""
    return _MAY_WRITE.search(command) is not None


def too_long(command: str) -> bool:
    """Past the length the guard reads (heredoc bodies aside): not checked, so refused when
    it names the tree."""
    return len(command) > MAX_COMMAND_CHARS and (
        len(command) > 10 * MAX_COMMAND_CHARS or len(_code(command)) > MAX_COMMAND_CHARS
    )


def _code(command: str) -> str:
    return strip_heredocs(join_continuations(command))


_OPERATOR = re.compile(r"&>>|&>|>>|>&|>\||<>|<<<|<<-|<<|<&|&&|\|\||\|&|;;|[;&|()<>]")


def _split_operators(tokens: list[str]) -> list[str]:
    """shlex runs operators together (`;>`): split such a run into the shell's operators."""
    out: list[str] = []
    for token in tokens:
        if token and not token.strip(";&|()<>") and token not in _REDIRECTS | _FD_DUPS:
            out += _OPERATOR.findall(token)
        else:
            out.append(token)
    return out


def _simple_commands(tokens: list[str]) -> list[tuple[list[str], list[str]]]:
    """(words, redirect targets) of each simple command, in order."""
    found: list[tuple[list[str], list[str]]] = []
    words_of: list[str] = []
    targets: list[str] = []
    skip_next = False
    redirect = ""  # the redirection whose target comes next
    for item in _split_operators(tokens):
        if skip_next:
            skip_next = False
        elif redirect:
            # `>&1` duplicates a descriptor; `>& file` (bash) writes the file.
            if redirect != ">&" or not (item.isdigit() or item == "-"):
                targets.append(item)
            redirect = ""
        elif item in _SEPARATORS:
            found.append((words_of, targets))
            words_of, targets = [], []
        elif item in _REDIRECTS or item == ">&":
            redirect = item
        elif item in _FD_DUPS:
            skip_next = True
        else:
            words_of.append(item)
    found.append((words_of, targets))
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


def _edited_in_place(args: list[str]) -> list[str]:
    """The files `sed -i` or `perl -pi` edits: its operands, less its script (the first
    operand, unless `-e` or `-f` gave it; their values are no file either)."""
    given = [i + 1 for i, arg in enumerate(args) if arg in ("-e", "-f", "--expression", "--file")]
    files = [arg for i, arg in enumerate(args) if i not in given]
    operands = _operands(files)
    scripted = given or any(a.startswith(("--expression=", "--file=")) for a in args)
    return operands if scripted else operands[1:]


def _find_writes(args: list[str]) -> list[str]:
    """`find` with `-delete`, `-exec` and the like changes what it finds: its start points."""
    if not any(a in _FIND_WRITES for a in args):
        return []
    starts: list[str] = []
    for arg in args:
        if arg.startswith(("-", "(", "!")) or arg in (")", ","):
            break
        starts.append(arg)
    return starts or ["."]


def _option_value(args: list[str], short: str, long: str) -> list[str]:
    """The value of `-o FILE`, `-oFILE`, `--output FILE` or `--output=FILE`."""
    for i, arg in enumerate(args):
        if arg in (short, long) and i + 1 < len(args):
            return [args[i + 1]]
        if arg.startswith(long + "="):
            return [arg.partition("=")[2]]
        if arg.startswith(short) and len(arg) > len(short) and not arg.startswith("--"):
            return [arg[len(short) :]]
    return []


def _written_by(verb: str, args: list[str]) -> list[str]:  # noqa: PLR0911 - one per verb kind
    if verb in _ALL_ARGS:
        return _operands(args)
    if verb in ("sed", "perl") and any(_in_place(a) for a in args):
        return _edited_in_place(args)
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
    if verb == "sort":
        return _option_value(args, "-o", "--output")
    if verb == "find":
        return _find_writes(args)
    return []


def _inline_code(verb: str, args: list[str]) -> str:
    """The code a `python -c`, `perl -e`, `ruby -e` or `node -e` runs, or ''."""
    flag = _INLINE.get(re.sub(r"[\d.]+$", "", verb) if verb.startswith("python") else verb)
    if flag is None:
        return ""
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(flag) and not arg.startswith("--"):  # `-c'...'` and `-ec`
            return arg[len(flag) :]
    return ""


def _code_writes(code: str) -> list[str]:
    """The `.claude` paths a piece of inline code names, if it looks like it writes."""
    if ".claude" not in code or not _WRITES_IN_CODE.search(code):
        return []
    return _PATH_IN_CODE.findall(code) or [".claude"]


class _Shell:
    """What the reader knows while it walks the command: the folder, the last one, and the
    variables the command has set."""

    __slots__ = ("before", "here", "variables")

    def __init__(self, cwd: str) -> None:
        self.here = cwd
        self.before = cwd
        self.variables: dict[str, str] = {}

    def path(self, word: str) -> str:
        expanded = expand(word, self.variables, self.here, self.before)
        return os.path.normpath(os.path.join(self.here, expanded))

    def cd(self, args: list[str]) -> None:
        operands = [a for a in args if a == "-" or not a.startswith("-")]
        if not operands or operands[0] == "-":
            self.here, self.before = (self.before if operands else self.here), self.here
            return
        self.before, self.here = self.here, self.path(operands[0])


def write_targets(command: str, cwd: str, *, depth: int = 0) -> list[tuple[str, str]]:
    """(verb, path) for every file the command plainly writes; paths absolute and normalised,
    `$VAR`, `${VAR:-x}` and `~` expanded, relative ones against `cwd` (and the `cd`s before
    them)."""
    out: list[tuple[str, str]] = []
    shell = _Shell(cwd)
    for words_of, redirects in _simple_commands(words(_code(command[: MAX_COMMAND_CHARS * 10]))):
        out += [(">", shell.path(target)) for target in redirects]
        if words_of and all(_ASSIGNMENT.match(w) for w in words_of):
            for word in words_of:  # `d=.claude/memory; echo x > $d/MEMORY.md`
                name, value = _ASSIGNMENT.match(word).groups()  # type: ignore[union-attr]
                shell.variables[name] = expand(value, shell.variables, shell.here, shell.before)
            continue
        verb, args = _verb_and_args(words_of)
        if verb in ("export", "declare", "local", "readonly", "typeset"):
            out += write_targets(" ".join(a for a in args if "=" in a), shell.here, depth=depth)
            for word in args:
                found = _ASSIGNMENT.match(word)
                if found:
                    value = expand(found.group(2), shell.variables, shell.here, shell.before)
                    shell.variables[found.group(1)] = value
            continue
        if verb in ("cd", "pushd"):
            shell.cd(args)
            continue
        out += _nested(verb, args, shell, depth)
        written = _written_by(verb, args)
        if verb == "mv" and len(written) > 1:  # the sources leave, the destination is written
            out += [("mv", shell.path(t)) for t in written[:-1]]
            out.append(("mv-to", shell.path(written[-1])))
        else:
            out += [(verb, shell.path(target)) for target in written]
    return out


def _nested(verb: str, args: list[str], shell: _Shell, depth: int) -> list[tuple[str, str]]:
    """What a `bash -c`, an `eval` or an inline script writes."""
    if depth < MAX_DEPTH and verb in _SHELLS and "-c" in args[:-1]:
        return write_targets(args[args.index("-c") + 1], shell.here, depth=depth + 1)
    if depth < MAX_DEPTH and verb == "eval":
        return write_targets(" ".join(args), shell.here, depth=depth + 1)
    code = _inline_code(verb, args)
    return [("script", shell.path(path)) for path in _code_writes(code)]
