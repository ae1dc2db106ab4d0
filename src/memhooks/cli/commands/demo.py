"""`memhooks demo`: a whole session in a temporary project, showing what is injected when."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "demo",
        help="run a whole session offline and show what is injected",
        description="Start memory in a temporary project, work a few "
        "turns, compact, restore and start a new session, printing what "
        "each hook injected. Uses the real claude CLI against a local mock "
        "API when it is available, the hook entry points otherwise. No API "
        "account needed.",
        add_help=False,
    )
    parser.add_argument("demo_args", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_with(list(args.demo_args))


def run_with(argv: list[str]) -> int:
    from memhooks import deps
    from memhooks.demo import run_demo

    if not deps.ensure_now():
        return 4  # ensure_now said what failed and what to run

    return run_demo(argv)
