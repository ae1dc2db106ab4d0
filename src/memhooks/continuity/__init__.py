"""What a session said and where it stands: the transcript reader, the extraction, the live
state, the checkpoint, the briefing, the journal entry and the summary material."""
