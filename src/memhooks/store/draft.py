"""A memory before it is filed: its category, frontmatter and body, and the check every way in
makes (`save`, `remember`, `import`): the frontmatter as the category's model accepts it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memhooks.errors import Exit, UserError


@dataclass
class Draft:
    category: str
    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    source_path: str | None = None


def validate(draft: Draft, *, partial: bool = False) -> dict[str, Any]:
    """The frontmatter as the category's model accepts it (a partial one for updates)."""
    from pydantic import ValidationError

    from memhooks.store.models import meta_to_dict, parse_meta

    probe = dict(draft.meta)
    if partial:
        probe.setdefault("title", "placeholder")
    try:
        model = parse_meta({**probe, "category": draft.category})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise UserError(f"invalid {draft.category}: {problems}", Exit.INVALID_INPUT) from None
    validated = meta_to_dict(model)
    validated.pop("category", None)
    if partial:
        return {k: v for k, v in validated.items() if k in draft.meta}
    return validated
