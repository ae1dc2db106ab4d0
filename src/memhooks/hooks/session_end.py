"""SessionEnd: close the session record. The host gives all SessionEnd hooks 1.5 s in total."""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.hooks.session_record import touch_session
from memhooks.store.config import Settings
from memhooks.store.paths import MemoryPaths

if TYPE_CHECKING:
    from typing import Any


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    del settings
    touch_session(paths, hook.session_id, ended_reason=hook.reason or "other")
    return None
