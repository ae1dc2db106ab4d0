"""MEMORY.md stays within its caps at any size and says what it cut."""

from __future__ import annotations

from memhooks.store import Entry, IndexCaps, Status, index_line, render_archive, render_index

CATEGORIES = [
    "decision",
    "runbook",
    "constraint",
    "preference",
    "tech_debt",
    "analysis",
    "session_summary",
    "subagent",
]


def entries(count: int) -> list[Entry]:
    made = [
        Entry(
            path=f"decisions/2026-01-01_{n:05d}_memory-{n}.md",
            category=CATEGORIES[n % 8],
            title=f"A fairly long memory title number {n} about caching and retries",
            description=f"One-line description {n} explaining why this matters " * 2,
            updated=f"2026-01-01T00:00:{n % 60:02d}Z",
            created="2026-01-01",
        )
        for n in range(count)
    ]
    return sorted(made, key=Entry.sort_key, reverse=True)


def test_index_caps_hold_at_ten_thousand_and_say_what_was_cut() -> None:
    many = entries(10_000)
    rendered = render_index(
        many, Status(task="ship"), active=True, started="2026-01-01", caps=IndexCaps()
    )
    data = rendered.text.encode("utf-8")
    assert len(rendered.text.splitlines()) <= 200
    assert len(data) <= 25_000
    cut = 10_000 - len(rendered.shown)
    assert len(rendered.cut) == cut > 9_000
    assert f"> {cut} older entries are not shown here" in rendered.text
    assert "MEMORY-archive.md" in rendered.text


def test_max_entries_gives_seed_000_behaviour() -> None:
    rendered = render_index(
        entries(50), Status(), active=True, started="", caps=IndexCaps(max_entries=20)
    )
    assert len(rendered.shown) == 20
    assert "> 30 older entries" in rendered.text


def test_small_index_has_status_header_and_pointer_lines_only() -> None:
    rendered = render_index(
        entries(3),
        Status(task="Fix slugs", next_step="tests", blockers=("CI red",)),
        active=True,
        started="2026-01-01T00:00:00Z",
        caps=IndexCaps(),
    )
    lines = rendered.text.splitlines()
    assert "- **Status**: ACTIVE since 2026-01-01T00:00:00Z" in lines
    assert "- **Task**: Fix slugs — next: tests" in lines
    assert "- **Blockers**: CI red" in lines
    pointers = [line for line in lines if line.startswith("- [")]
    assert len(pointers) == 3
    assert not rendered.cut
    assert "older entries" not in rendered.text


def test_pointer_line_format_and_escaping() -> None:
    entry = Entry(
        path="runbooks/x.md",
        category="runbook",
        title="Fix [prod] now",
        description="when  it\nbreaks",
    )
    assert index_line(entry) == "- [Fix (prod) now](runbooks/x.md) — when it breaks"


def test_archive_lists_cut_entries_and_sessions() -> None:
    cut = entries(2)
    text = render_archive(
        cut,
        [
            {
                "started": "2026-01-15T10:00:00Z",
                "ended": "2026-01-15T18:00:00Z",
                "entries_archived": 45,
            }
        ],
    )
    assert "| 2026-01-15T10:00:00Z | 2026-01-15T18:00:00Z | 45 |" in text
    assert all(e.path in text for e in cut)


def short_entries(count: int) -> list[Entry]:
    """Entries whose pointer lines are short: the line cap binds long before the byte cap."""
    return [
        Entry(
            path=f"decisions/2026-01-01_{n:03d}_m.md",
            category="decision",
            title=f"m{n}",
            description="",
            updated="2026-01-01",
            created="2026-01-01",
        )
        for n in range(count)
    ]


def test_the_line_cap_holds_where_the_bytes_would_allow_more() -> None:
    """The host loads MEMORY.md's first 200 lines: 300 short entries (9 KB) must still give
    at most 200 lines, and the note says how many were cut."""
    rendered = render_index(short_entries(300), Status(), active=True, started="", caps=IndexCaps())
    lines = rendered.text.splitlines()
    assert len(rendered.text.encode("utf-8")) < 25_000 // 2
    assert len(lines) == 200
    cut = 300 - len(rendered.shown)
    assert cut == len(rendered.cut) > 100
    assert lines[-1].startswith(f"> {cut} older entries are not shown here (index cap: 200 lines")


def test_a_configured_line_cap_is_held_at_every_size() -> None:
    for max_lines in (20, 50, 200):
        for count in (max_lines - 12, max_lines - 9, max_lines, 3 * max_lines):
            rendered = render_index(
                short_entries(count),
                Status(),
                active=True,
                started="",
                caps=IndexCaps(max_lines=max_lines),
            )
            assert len(rendered.text.splitlines()) <= max_lines, (max_lines, count)
            assert len(rendered.shown) + len(rendered.cut) == count
