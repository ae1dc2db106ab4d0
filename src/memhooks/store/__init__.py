"""The tree and the only code that writes it: paths, safe reads, atomic writes, locks, memory
files, the catalog and derived files, the store, session state, config and the models."""
