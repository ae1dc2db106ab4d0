"""The hook entry points: one thin module per event around pure functions."""
