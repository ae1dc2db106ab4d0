"""Pydantic models for everything persisted: memory frontmatter, `_session.json`, `config.json`.

Only the command path and PreCompact import this module (pydantic costs ~60 ms to import).
Memory frontmatter keeps unknown keys (`extra="allow"`) so that a key a person added by hand
survives a rewrite; the files that are wholly ours (`_session.json`, `config.json`) forbid them.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, field_validator

from memhooks.store.config import FIELDS, Settings
from memhooks.store.session import SCHEMA_VERSION
from memhooks.text.controls import refuse_controls

TITLE_MAX = 120
DESCRIPTION_MAX = 200
PROVENANCE_MAX = 300
#: The frontmatter keys `memhooks import` adds: not part of what a memory says, so they are
#: left out when deciding whether two memories are the same.
PROVENANCE_KEYS = ("imported_from", "imported_path", "imported_at")


def _iso(value: object) -> object:
    """YAML turns `2025-09-17` into a date: keep every timestamp a string, as written."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None and value.utcoffset() == dt.timedelta(0):
            return value.strftime("%Y-%m-%dT%H:%M:%SZ")
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


Timestamp = Annotated[str, BeforeValidator(_iso)]
RecordStatus = Literal["active", "retired", "archived"]


class MemoryMeta(BaseModel):
    """Fields every memory carries in its frontmatter."""

    model_config = ConfigDict(extra="allow", validate_assignment=True)

    title: str = Field(min_length=1, max_length=TITLE_MAX)
    category: str
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)
    created: Timestamp | None = None
    updated: Timestamp | None = None
    tags: list[str] = Field(default_factory=list)
    record_status: RecordStatus = "active"
    retired_at: Timestamp | None = None
    retired_reason: str | None = None
    archived_at: Timestamp | None = None
    archived_reason: str | None = None
    related_files: list[str] | None = None
    #: Code this memory cites, `path:start-end#hash` (see memhooks.recall.citations); the store
    #: adds the body's `path:line` references and the hashes at save time.
    cites: list[str] | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    schema_version: int | None = None
    # Provenance, set by `memhooks import`: the source project, the file's path there, when.
    imported_from: str | None = Field(default=None, max_length=PROVENANCE_MAX)
    imported_path: str | None = Field(default=None, max_length=PROVENANCE_MAX)
    imported_at: Timestamp | None = None

    @field_validator("title", "description", "imported_from", "imported_path")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        if value is not None and ("\n" in value or "\r" in value):
            raise ValueError("must be a single line")
        return value if value is None else refuse_controls(value)

    @field_validator("cites", mode="before")
    @classmethod
    def _cites(cls, value: object) -> object:
        if isinstance(value, str):
            return [c.strip() for c in value.replace(",", " ").split() if c.strip()]
        return value

    @field_validator("tags", mode="before")
    @classmethod
    def _tags(cls, value: object) -> object:
        if isinstance(value, str):
            return [refuse_controls(t.strip()) for t in value.split(",") if t.strip()]
        if isinstance(value, list):
            return [refuse_controls(str(t)) for t in value]
        return value


class DecisionMeta(MemoryMeta):
    category: Literal["decision"] = "decision"
    status: (
        Literal["proposed", "accepted", "decided", "pending", "deprecated", "superseded"] | None
    ) = None
    kind: (
        Literal["architecture", "implementation", "configuration", "dependency", "process"] | None
    ) = None
    supersedes: str | None = None
    superseded_by: str | None = None


class AnalysisMeta(MemoryMeta):
    category: Literal["analysis"] = "analysis"
    path: str | None = None
    kind: Literal["file", "component", "module", "service"] | None = None


class RunbookMeta(MemoryMeta):
    category: Literal["runbook"] = "runbook"
    environment: str | None = None


class ConstraintMeta(MemoryMeta):
    category: Literal["constraint"] = "constraint"
    kind: Literal["limitation", "gap", "policy", "technical"] | None = None
    severity: Literal["high", "medium", "low"] | None = None
    active: bool | None = None
    expires: str | None = None


class TechDebtMeta(MemoryMeta):
    category: Literal["tech_debt"] = "tech_debt"
    status: Literal["open", "in_progress", "resolved", "wont_fix"] | None = None
    priority: Literal["critical", "high", "medium", "low"] | None = None


class PreferenceMeta(MemoryMeta):
    category: Literal["preference"] = "preference"
    topic: str | None = None
    strength: Literal["strong", "default", "soft"] | None = None


class SessionSummaryMeta(MemoryMeta):
    category: Literal["session_summary"] = "session_summary"
    session_id: str | None = None
    outcome: Literal["success", "partial", "blocked", "abandoned"] | None = None
    started: Timestamp | None = None
    ended: Timestamp | None = None
    end_reason: str | None = None


class SubagentMeta(MemoryMeta):
    category: Literal["subagent"] = "subagent"
    agent: str | None = None
    agent_id: str | None = None
    task: str | None = None
    session_id: str | None = None


class CheckpointMeta(MemoryMeta):
    """Checkpoints are state, not memories; they carry frontmatter so a person can date them."""

    category: Literal["checkpoint"] = "checkpoint"
    session_id: str | None = None
    trigger: Literal["manual", "auto"] | None = None


META_MODELS: dict[str, type[MemoryMeta]] = {
    "decision": DecisionMeta,
    "analysis": AnalysisMeta,
    "runbook": RunbookMeta,
    "constraint": ConstraintMeta,
    "tech_debt": TechDebtMeta,
    "preference": PreferenceMeta,
    "session_summary": SessionSummaryMeta,
    "subagent": SubagentMeta,
    "checkpoint": CheckpointMeta,
}


def parse_meta(data: dict[str, Any], default_category: str | None = None) -> MemoryMeta:
    """Validate frontmatter with the model of its category (from the data or its folder)."""
    category = str(data.get("category") or default_category or "")
    model = META_MODELS.get(category)
    if model is None:
        raise ValueError(f"unknown category {category!r}")
    return model.model_validate({**data, "category": category})


def meta_to_dict(meta: MemoryMeta) -> dict[str, Any]:
    """The frontmatter to write: set fields only, in model order, then unknown keys as read."""
    known = meta.model_dump(
        exclude_none=True, exclude_unset=False, exclude=set(meta.model_extra or {})
    )
    known = {k: v for k, v in known.items() if k in meta.model_fields_set or k in _ALWAYS}
    extra = dict(meta.model_extra or {})
    return {**known, **extra}


_ALWAYS = {"title", "category", "record_status"}


class SessionStats(BaseModel):
    model_config = ConfigDict(extra="allow")

    decisions: int = 0
    analyses: int = 0
    indexArchived: int = 0  # noqa: N815 - seed 000's field name
    subagentOutputs: int = 0  # noqa: N815 - seed 000's field name
    memories: int = 0


class SessionRecord(BaseModel):
    """One Claude Code session seen by the hooks."""

    model_config = ConfigDict(extra="forbid")

    id: str
    started: str | None = None
    ended: str | None = None
    end_reason: str | None = None
    last_activity: str | None = None
    prompts: int = 0


class SessionState(BaseModel):
    """`_session.json`: seed 000's fields plus the sessions seen. State, not memory."""

    model_config = ConfigDict(extra="forbid")

    version: int = SCHEMA_VERSION
    active: bool = False
    started: str | None = None
    stopped: str | None = None
    project: str | None = None
    branch: str | None = None
    lastActivity: str | None = None  # noqa: N815 - seed 000's field name
    lastMemoryWrite: str | None = None  # noqa: N815 - matches seed 000's naming
    lastNudge: str | None = None  # noqa: N815 - the Stop hook's last reminder
    stats: SessionStats = Field(default_factory=SessionStats)
    sessions: list[SessionRecord] = Field(default_factory=list)
    task: str | None = None
    archived_sessions: list[dict[str, Any]] = Field(default_factory=list)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CategorySettings(_Strict):
    enabled: bool = True
    auto_capture: bool = True
    retention_days: int = Field(default=0, ge=0)
    max_retained: int | None = Field(default=None, ge=1)


class RedactSettings(_Strict):
    extra_patterns: list[str] = Field(default_factory=list)


def _field(kind: type, allowed: tuple[Any, ...], default: object) -> tuple[Any, Any]:
    """A config.FIELDS row as a pydantic field: the annotation, then the default and bounds."""
    annotation: Any = Literal[allowed] if kind is str else kind
    if default is None:
        annotation = annotation | None
    if kind in (int, float):
        return annotation, Field(default=default, ge=allowed[0], le=allowed[1])
    return annotation, Field(default=default)


def _section_models() -> dict[str, type[_Strict]]:
    """One strict model per config.json section of `config.FIELDS`, in the table's order."""
    fields: dict[str, dict[str, Any]] = {}
    for (section, key), (name, kind, allowed) in FIELDS.items():
        fields.setdefault(section, {})[key] = _field(kind, allowed, getattr(Settings, name))
    return {
        section: create_model(f"{section.capitalize()}Settings", __base__=_Strict, **keys)
        for section, keys in fields.items()
    }


#: The models of the sections `config.FIELDS` describes (generated from it).
SECTION_MODELS = _section_models()
#: config.json's sections in the file's (and its errors') order; a new one goes last.
_SECTION_ORDER = (
    *("index", "briefing", "retrieval", "categories", "delete", "checkpoints"),
    *("stop", "capture", "redact", "guard"),
)


def _known_categories(value: dict[str, CategorySettings]) -> dict[str, CategorySettings]:
    unknown = sorted(set(value) - (set(META_MODELS) - {"checkpoint"}))
    if unknown:
        raise ValueError(f"unknown categories: {', '.join(unknown)}")
    return value


def _config_model() -> type[_Strict]:
    """`config.json`: every key optional; see docs/configuration.md."""
    sections: dict[str, Any] = {
        name: (model, Field(default_factory=model)) for name, model in SECTION_MODELS.items()
    }
    sections["categories"] = (dict[str, CategorySettings], Field(default_factory=dict))
    sections["redact"] = (RedactSettings, Field(default_factory=RedactSettings))
    last = len(_SECTION_ORDER)
    ordered = sorted(
        sections, key=lambda n: _SECTION_ORDER.index(n) if n in _SECTION_ORDER else last
    )
    return create_model(
        "ConfigModel",
        __base__=_Strict,
        __doc__=_config_model.__doc__,
        __validators__={"known_categories": field_validator("categories")(_known_categories)},
        version=(int, SCHEMA_VERSION),
        **{name: sections[name] for name in ordered},
    )


ConfigModel = _config_model()


class BundleFile(_Strict):
    """One memory in a bundle: its path inside `.claude/memory/`, size and sha256 as packed."""

    path: str = Field(min_length=1, max_length=PROVENANCE_MAX)
    category: str
    size: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class BundleManifest(_Strict):
    """`manifest.json`, the first member of an export bundle."""

    format: Literal["memhooks-bundle"]
    format_version: Literal[1]
    source_project: str = Field(min_length=1, max_length=PROVENANCE_MAX)
    exported_at: str = Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
    memhooks_version: str = Field(max_length=40)
    selection: dict[str, str | list[str] | bool | None] = Field(default_factory=dict)
    files: list[BundleFile]

    @field_validator("source_project")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        if any(ch in value for ch in "\n\r\x00"):
            raise ValueError("must be a single line")
        return refuse_controls(value)
