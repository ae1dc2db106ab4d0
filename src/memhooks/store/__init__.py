"""The tree and the only code that writes it: paths, safe reads, atomic writes, locks, memory
files, the catalog and derived files, the commands' `Store` and the hooks' `HookWriter`,
session state, the caches and context files, config and the models."""
