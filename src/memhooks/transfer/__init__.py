"""Export and import between projects: the bundle and what an import would do."""
