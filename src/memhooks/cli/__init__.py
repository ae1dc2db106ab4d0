"""The `memhooks` command line: one module per command under `memhooks.cli.commands`."""
