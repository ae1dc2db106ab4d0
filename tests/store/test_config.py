"""Each persisted file is described once: the hooks' stdlib readers equal the pydantic models.

config.json's settings are one table (`config.FIELDS`): the hooks' lenient reader walks it,
and `models.ConfigModel` is generated from it. What is checked here is that the two readers
built on it (the stdlib `fits`, pydantic's strict validation) accept the same values.
"""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import ValidationError

from memhooks.store import (
    DIRECT_EDITS,
    FIELDS,
    KEYS,
    NUDGES,
    RECORD_KEYS,
    SECTION_MODELS,
    SEMANTIC_MODES,
    ConfigModel,
    SessionRecord,
    SessionState,
    Settings,
    settings_from_dict,
)


def _candidates(kind: object, allowed: tuple[Any, ...]) -> list[Any]:
    if kind is bool:
        return [True, False, 0, 1, "yes", None]
    if kind is str:
        return [*allowed, "other", "", 1, True, None, list(allowed)]
    low, high = allowed
    values: list[Any] = [low, high, low - 1, high + 1, 1e10, -1, "5", True, None, 2.5]
    return values


def _strict_accepts(data: dict[str, Any]) -> bool:
    try:
        ConfigModel.model_validate(data)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(("section", "key"), sorted(FIELDS))
def test_config_field_defaults_agree(section: str, key: str) -> None:
    name = FIELDS[(section, key)][0]
    model_default = getattr(getattr(ConfigModel(), section), key)
    assert model_default == getattr(Settings, name)
    assert settings_from_dict({}).__getattribute__(name) == model_default


@pytest.mark.parametrize(("section", "key"), sorted(FIELDS))
def test_strict_and_lenient_config_readers_accept_the_same_values(section: str, key: str) -> None:
    _, kind, allowed = FIELDS[(section, key)]
    for value in _candidates(kind, allowed):
        lenient = settings_from_dict({section: {key: value}})
        strict = _strict_accepts({section: {key: value}})
        assert strict == (not lenient.problems), (section, key, value, lenient.problems)


def test_the_model_is_the_table() -> None:
    """Every scalar setting of the validated model is a row of FIELDS, and the reverse."""
    described = {
        (section, key) for section, model in SECTION_MODELS.items() for key in model.model_fields
    }
    assert described == set(FIELDS)
    scalar = [
        name for name in ConfigModel.model_fields if name not in ("version", "categories", "redact")
    ]
    assert scalar == list(dict.fromkeys(section for section, _ in FIELDS))


def test_the_min_score_bug_is_gone() -> None:
    """`retrieval.min_score = 1e10` used to pass the strict check while the hooks ignored it."""
    assert not _strict_accepts({"retrieval": {"min_score": 1e10}})
    assert settings_from_dict({"retrieval": {"min_score": 1e10}}).problems


def test_nudge_values_agree() -> None:
    field = SECTION_MODELS["stop"].model_fields["nudge"]
    assert get_args(field.annotation) == NUDGES
    assert field.default == Settings.nudge
    for value in [*NUDGES, "loud", 1]:
        lenient = settings_from_dict({"stop": {"nudge": value}})
        assert _strict_accepts({"stop": {"nudge": value}}) == (not lenient.problems)


def test_direct_edits_values_agree() -> None:
    field = SECTION_MODELS["guard"].model_fields["direct_edits"]
    assert get_args(field.annotation) == DIRECT_EDITS
    assert field.default == Settings.direct_edits
    for value in [*DIRECT_EDITS, "sometimes", True]:
        lenient = settings_from_dict({"guard": {"direct_edits": value}})
        assert _strict_accepts({"guard": {"direct_edits": value}}) == (not lenient.problems)


def test_semantic_values_agree() -> None:
    field = SECTION_MODELS["retrieval"].model_fields["semantic"]
    assert get_args(field.annotation) == SEMANTIC_MODES
    assert field.default == Settings.semantic
    for value in [*SEMANTIC_MODES, "always", False]:
        lenient = settings_from_dict({"retrieval": {"semantic": value}})
        assert _strict_accepts({"retrieval": {"semantic": value}}) == (not lenient.problems)
        assert lenient.semantic == (value if value in SEMANTIC_MODES else "auto")


def test_every_settings_default_is_described() -> None:
    described = {name for name, *_ in FIELDS.values()}
    plain = {"redact_patterns", "categories", "problems"}
    public = {
        n for n in vars(Settings) if not n.startswith("_") and not callable(vars(Settings)[n])
    }
    assert public == described | plain


def _default(model: type[Any], name: str) -> object:
    field = model.model_fields[name]
    if field.is_required():
        return None
    value = field.get_default(call_default_factory=True)
    return value.model_dump() if hasattr(value, "model_dump") else value


def test_session_state_keys_match_the_model() -> None:
    assert list(SessionState.model_fields) == list(KEYS)
    for name, default in KEYS.items():
        model_default = _default(SessionState, name)
        if name == "stats":  # the model fills the counters; the hooks start from {}
            assert isinstance(model_default, dict)
            continue
        assert model_default == default, name


def test_session_record_keys_match_the_model() -> None:
    assert list(SessionRecord.model_fields) == list(RECORD_KEYS)
    for name, default in RECORD_KEYS.items():
        assert _default(SessionRecord, name) == default, name


def test_a_state_with_every_key_validates() -> None:
    state = dict(KEYS)
    state["lastNudge"] = "2026-01-01T00:00:00Z"
    state["sessions"] = [{**RECORD_KEYS, "id": "abc"}]
    SessionState.model_validate(state)
