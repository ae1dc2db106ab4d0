"""Keeping memories true and well filed: consolidation, its undo and pending note, relative
dates, the category guess for `remember`."""
