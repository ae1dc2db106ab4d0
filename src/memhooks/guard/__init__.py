"""The write guard: which of Claude's tool calls write into the tree, and direct edits
made whole."""
