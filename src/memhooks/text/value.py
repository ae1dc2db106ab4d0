"""Frozen, slotted value classes without `dataclasses` (~8 ms to import, +0.5 ms a class).

`Value` gives a class whose fields are its `__slots__` equality, hashing, a repr, a
keyword-wise `replace` and `as_dict`, and refuses attribute assignment after `__init__`
(which sets its fields with `object.__setattr__`, exported here as `set_field`).
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Self

set_field = object.__setattr__


class Value:
    """An immutable value with equality and repr from its ``__slots__``."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._values() == self._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def as_dict(self) -> dict[str, object]:
        """The fields by name, in slot order (what `dataclasses.asdict` gave, one level)."""
        return {name: getattr(self, name) for name in self.__slots__}

    def replace(self, **changes: object) -> Self:
        """A copy with `changes`; the class's `__init__` takes every field by keyword."""
        return type(self)(**{**self.as_dict(), **changes})
