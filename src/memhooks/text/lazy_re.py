"""Regular expressions compiled on first use. Standard library only.

Compiling costs 0.2-0.9 ms a pattern, and a hook process is new every time: patterns that
only some inputs need (a failed command, a task id) should not cost every run.
"""

from __future__ import annotations

import re


class _Lazy:
    """The pattern source and its compiled form, made on first use; str and bytes alike."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str | bytes, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | re.Pattern[bytes] | None = None

    def _compile(self) -> re.Pattern[str] | re.Pattern[bytes]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled


class LazyPattern(_Lazy):
    """A text pattern compiled on first use."""

    __slots__ = ()

    def __init__(self, source: str, flags: int = 0) -> None:
        super().__init__(source, flags)

    @property
    def compiled(self) -> re.Pattern[str]:
        return self._compile()  # type: ignore[return-value]  # built from a str

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def sub(self, replacement: str, text: str) -> str:
        return self.compiled.sub(replacement, text)


class LazyBytes(_Lazy):
    """A bytes pattern compiled on first use (the redaction engine scans bytes)."""

    __slots__ = ()

    def __init__(self, source: bytes, flags: int = 0) -> None:
        super().__init__(source, flags)

    @property
    def compiled(self) -> re.Pattern[bytes]:
        return self._compile()  # type: ignore[return-value]  # built from bytes
