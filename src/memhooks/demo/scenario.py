# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The scripted session the demo and the end-to-end tests play: data, not behaviour.

A user asks Claude to fix how a sales report prints prices. Claude keeps a todo list,
writes a helper, runs a test that fails, states a decision, fixes the helper, and is
told about a blocker. The same turns become mock API rules (for the real CLI) and
transcript records in the CLI's own shape (for the fallback that calls the hooks directly),
so both paths show the plugin the same work.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memhooks.demo.mock_api import Rule
from memhooks.demo.mock_replies import text_block, tool_use

JsonDict = dict[str, Any]

REPORT_PY = '''"""Print the monthly sales report."""

SALES = [("Coffee beans", 12.5), ("Espresso cups", 2.675), ("Milk frother", 39.9)]


def main():
    for name, price in SALES:
        print(f"{name:<16} {price}")


if __name__ == "__main__":
    main()
'''
MONEY_V1 = '''"""Money formatting for the reports."""


def format_price(value):
    return f"${value:.2f}"
'''
MONEY_OLD = 'def format_price(value):\n    return f"${value:.2f}"\n'
MONEY_NEW = (
    "from decimal import ROUND_HALF_UP, Decimal\n\n\n"
    "def format_price(value):\n"
    '    cents = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)\n'
    '    return f"${cents}"\n'
)
TEST_MONEY = """from money import format_price

assert format_price(12.5) == "$12.50", format_price(12.5)
assert format_price(2.675) == "$2.68", format_price(2.675)
print("ok")
"""

TASK = (
    "The sales report prints prices like 12.5 instead of $12.50. Add a format_price() helper "
    "in money.py, use it in report.py, and keep a todo list so I can follow along."
)
BLOCKER = (
    "Heads up: I'm blocked on the EUR price feed, its API key expired and won't be renewed "
    "until Friday, so leave euro prices alone. Wire format_price into report.py now."
)
DECISION = (
    "use decimal.Decimal with ROUND_HALF_UP in format_price() instead of float formatting, "
    "because floats round 2.675 down to $2.67"
)
TODOS = (
    "Add format_price() to money.py",
    "Test format_price() rounding",
    "Use format_price() in report.py",
)
FAILING_COMMAND = "python3 test_money.py"
AFTER_COMPACT = "Where do we stand? What is left to do?"
NEXT_DAY = "Good morning. Let's pick up where we left off."
#: (title, prompt, continue the session) for each `claude -p` run; docs/development.md lists
#: the titles (a test keeps them the same). Without a CLI, all but the fifth are played.
PLAN: tuple[tuple[str, str, bool], ...] = (
    ("Turn memory on for this project", "/memory start", False),
    ("Work: todo list, a new file, a failing test, a decision", TASK, True),
    ("A blocker, and an edit", BLOCKER, True),
    ("Compact the conversation", "/compact", True),
    ("The first prompt after compaction", AFTER_COMPACT, True),
    ("Next morning: a new session, not --continue", NEXT_DAY, False),
)


#: Facts of the session that must survive compaction and the end of the session.
FACTS = {
    "task": "format_price",
    "todo": TODOS[2],
    "file_written": "money.py",
    "file_edited": "report.py",
    "decision": "ROUND_HALF_UP",
    "blocker": "EUR price feed",
    "failed_command": FAILING_COMMAND,
}


@dataclass(frozen=True)
class Call:
    """One scripted tool call, with what the tool gives back in the fallback transcript."""

    name: str
    tool_input: JsonDict
    tool_id: str
    output: str = ""
    error: bool = False


@dataclass(frozen=True)
class Reply:
    """One assistant reply: optional text, then at most one tool call."""

    text: str = ""
    call: Call | None = None

    def blocks(self) -> list[JsonDict]:
        out = [text_block(self.text)] if self.text else []
        if self.call is not None:
            out.append(tool_use(self.call.name, self.call.tool_input, self.call.tool_id))
        return out


@dataclass(frozen=True)
class Turn:
    """A user prompt and the replies the model gives, one per API request."""

    prompt: str
    replies: tuple[Reply, ...] = field(default_factory=tuple)

    def rules(self) -> list[Rule]:
        """The mock rules: the prompt opens the chain, each tool result moves it on."""
        rules: list[Rule] = []
        when = self.prompt[:60]
        for reply in self.replies:
            rules.append(Rule(when=when, content=reply.blocks()))
            if reply.call is not None:
                when = reply.call.tool_id
        return rules


def _todos(*statuses: str) -> JsonDict:
    forms = ("Adding format_price()", "Testing format_price()", "Wiring format_price()")
    items = zip(TODOS, statuses, forms, strict=True)
    return {"todos": [{"content": c, "status": s, "activeForm": f} for c, s, f in items]}


def turns(project: str) -> list[Turn]:
    """The scripted work, with absolute paths inside `project` as the real tools need."""
    money, test, report = (
        f"{project}/{name}" for name in ("money.py", "test_money.py", "report.py")
    )
    work = Turn(
        TASK,
        (
            Reply(
                "I'll track this in a todo list.",
                Call("ToolSearch", {"query": "select:TodoWrite"}, "toolu_demo_01"),
            ),
            Reply(
                call=Call("TodoWrite", _todos("in_progress", "pending", "pending"), "toolu_demo_02")
            ),
            Reply(
                "Starting with a small helper module.",
                Call("Write", {"file_path": money, "content": MONEY_V1}, "toolu_demo_03"),
            ),
            Reply(call=Call("Write", {"file_path": test, "content": TEST_MONEY}, "toolu_demo_04")),
            Reply(
                call=Call(
                    "Bash",
                    {"command": FAILING_COMMAND, "description": "Run the money tests"},
                    "toolu_demo_05",
                    output="Exit code 1\nAssertionError: $2.67",
                    error=True,
                ),
            ),
            Reply(
                f"The float formatting rounds 2.675 down.\n\nDecision: {DECISION}.",
                Call(
                    "Edit",
                    {
                        "file_path": money,
                        "old_string": MONEY_OLD,
                        "new_string": MONEY_NEW,
                        "replace_all": False,
                    },
                    "toolu_demo_06",
                ),
            ),
            Reply(
                call=Call(
                    "Bash",
                    {"command": FAILING_COMMAND, "description": "Rerun"},
                    "toolu_demo_07",
                    "ok",
                )
            ),
            Reply(
                call=Call("TodoWrite", _todos("completed", "completed", "pending"), "toolu_demo_08")
            ),
            Reply("format_price() is in money.py and tested. Next: use it in report.py."),
        ),
    )
    old_line = '        print(f"{name:<16} {price}")'
    new_line = '        print(f"{name:<16} {format_price(price)}")'
    wire = Turn(
        BLOCKER,
        (
            Reply(
                "Noted the blocker; euro prices stay as they are.",
                Call(
                    "Edit",
                    {
                        "file_path": report,
                        "old_string": old_line,
                        "new_string": new_line,
                        "replace_all": False,
                    },
                    "toolu_demo_09",
                ),
            ),
            Reply(
                call=Call(
                    "TodoWrite", _todos("completed", "completed", "in_progress"), "toolu_demo_10"
                )
            ),
            Reply("report.py now prints prices through format_price(); the import is next."),
        ),
    )
    return [work, wire]


def project_files() -> dict[str, str]:
    """The project as it is before the session starts."""
    return {"report.py": REPORT_PY}
