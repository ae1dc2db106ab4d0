"""Pure text helpers every layer shares: redaction, the <memhooks-data> frame, lazy regexes,
the clock. Standard library only; imports nothing else of ours."""
