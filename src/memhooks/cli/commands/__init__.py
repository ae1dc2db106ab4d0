"""One module per `memhooks` command."""
