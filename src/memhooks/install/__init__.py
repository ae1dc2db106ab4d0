"""The plugin in its host: its own dependencies, and how Claude runs this CLI."""
