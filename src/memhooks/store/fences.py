"""A memory-style file's `---` frontmatter fence, split by hand. Standard library only: the
hooks read checkpoints and context files with it; the command path parses the frontmatter
itself with python-frontmatter (`memory_file`)."""

from __future__ import annotations


def split_frontmatter(text: str) -> tuple[str, str]:
    """(frontmatter lines without the fences, body); ('', text) when no closed fence opens it."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end >= 0:
            return text[4:end], text[end + 5 :]
    return "", text
