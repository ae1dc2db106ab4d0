"""`memhooks view`: the memory tree as one self-contained, read-only HTML page."""
