"""Where a checkpoint's host-kept tail starts. Standard library only, tiny: SessionStart needs
only this of the checkpoint renderer."""

from __future__ import annotations

#: Everything from this heading on is what the host keeps verbatim after a compaction: the
#: file keeps it for people, the SessionStart briefing leaves it out.
HOST_KEPT_HEADING = "## Last assistant message (the host keeps it verbatim; not re-injected)"


def without_host_kept(checkpoint: str) -> str:
    """The checkpoint as injected: what the host keeps verbatim is left out."""
    at = checkpoint.find(HOST_KEPT_HEADING)
    return checkpoint[:at].rstrip() + "\n" if at >= 0 else checkpoint
