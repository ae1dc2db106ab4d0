"""Which runs prove something when they pass: a command that tests, builds, lints or runs a
script; not one that makes files, installs, lists, prints, serves or changes data, in every
common ecosystem: its pass is never shown as a proof, its failure still is."""

from __future__ import annotations

import pytest
from records import bash, prompt

from memhooks.continuity import checks
from memhooks.continuity.evidence import Evidence
from memhooks.continuity.handover import next_session
from memhooks.continuity.proofs import CHECKS_HEADING

PROVE_NOTHING = [
    "yarn add date-fns",
    "pnpm install --frozen-lockfile",
    "npm run dev -- --port 5174",
    "npm start",
    "pip install -r requirements-dev.txt",
    "python3 -m pip install --upgrade wheel",
    "python3 -m venv .venv",
    "uv add httpx",
    "poetry lock --no-update",
    "cargo add tokio --features full",
    "cargo tree -d",
    "go mod tidy",
    "go generate ./...",
    "mvn dependency:tree",
    "./gradlew dependencies --configuration runtimeClasspath",
    "bin/rails generate migration AddArchivedToInvoices archived:boolean",
    "bin/rails g scaffold Invoice number:string",
    "bin/rails routes -g invoices",
    "bundle exec rake db:migrate",
    "bundle install",
    "dotnet new xunit -o Billing.Tests",
    "dotnet ef migrations add AddLedger",
    "mix deps.get",
    "mix phx.gen.json Billing Invoice invoices number:string",
    "mix ecto.migrate",
    "docker compose up -d --build",
    "docker compose exec db psql -c 'select count(*) from invoices'",
    "node --version",
    "gh pr comment 31 --body-file /tmp/plan.md",
    "glab mr view 7",
    "python manage.py makemigrations billing",
    "for f in a b; do echo $f; done",
    "python3 -c 'import ledger; ledger.self_test()'",
    "yarn test; yarn start",
    "make check || make deploy",
    "{ make deploy; }",
]

PROVE = [
    "npm test",
    "yarn lint",
    "pnpm run build",
    "npm run test:unit -- --watch=false",
    "python -m pytest -x tests/test_ledger.py",
    "uv run mypy src",
    "poetry run ruff check .",
    "cargo clippy --all-targets",
    "cargo fmt --check",
    "go vet ./...",
    "go test ./billing/...",
    "mvn -q clean install",
    "./gradlew test --tests LedgerTest",
    "bundle exec rspec spec/models/invoice_spec.rb",
    "bin/rails test test/models",
    "bundle install && bundle exec rake spec",
    "dotnet build Billing.sln",
    "mix test test/billing_test.exs",
    "mix format --check-formatted",
    "python3 scripts/reconcile_ledger.py",
    "python manage.py test billing",
    "npx tsc --noEmit",
    "make check && make deploy",
    "yarn test && yarn start",
    "then mix test",
    "do cargo test --lib",
]


@pytest.mark.parametrize(
    ("command", "proves"), [(c, False) for c in PROVE_NOTHING] + [(c, True) for c in PROVE]
)
def test_a_pass_proves_something_when_the_command_tests(command: str, *, proves: bool) -> None:
    """Tests, builds, lints or runs a kept script; not one that makes files, installs, lists,
    prints, serves, changes data, or runs a script written into the command."""
    assert checks.proves_a_pass(command) is proves


def test_a_shell_word_that_opens_a_command_is_passed_over() -> None:
    """`then` or `do` before a check leaves the check its own target; a closing `fi` or
    `done` alone checks nothing."""
    assert checks.target("then mix test") == ("mix test", frozenset())
    assert checks.target("do cargo test --lib") == ("cargo test", frozenset({"--lib"}))
    assert checks.target("while true; do cargo test; done") is None


def test_a_separator_inside_quotes_splits_no_command() -> None:
    """`;` inside a quoted script or message is the script's, not the shell's."""
    segments, all_and = checks._check_segments("python3 -c 'import a; a.run()' && make test")
    assert [words[0] for words in segments] == ["python3", "make"]
    assert all_and


def test_a_heredoc_is_text_written_not_commands() -> None:
    """The lines of a heredoc are a file's text: none of them is a command of the chain (a
    Go test written to a file read as `package probe && import ( && …`, the runner's name)."""
    command = (
        "cat > /tmp/probe_test.go <<'END'\npackage probe\nfunc TestProbe(t *testing.T) {\n"
        "  run(); check()\n}\nEND\ncp /tmp/probe_test.go pkg/ && go test -run TestProbe ./pkg/"
    )
    segments, _ = checks._check_segments(command)
    assert [words[0] for words in segments] == ["cat", "cp", "go"]
    found = checks.target(command)
    assert found is not None
    assert "package" not in found[0]
    assert found[1] == frozenset({"-run=TestProbe", "./pkg/"})


def test_heredocs_opened_on_one_line_are_read_one_after_the_other() -> None:
    """Two heredocs opened on one line: the shell reads the first's text, then the second's;
    neither is a command. A here-string (`<<<`) or a shift (`1 << 2`) opens none: the
    lines after them are commands."""
    two = "sort <<ONE > a.txt && sort -r <<TWO\nplums\nONE\nmake lint\nTWO\nnpm test"
    segments, _ = checks._check_segments(two)
    assert [words[0] for words in segments] == ["sort", "sort", "npm"]
    for opener in ("read name <<< plums", "wc -c <<<plums", "echo $((1 << 2))"):
        segments, _ = checks._check_segments(f"{opener}\nnpm test")
        assert segments[-1] == ("npm", "test"), opener
        assert checks.proves_a_pass(f"{opener}\nnpm test"), opener


def test_a_redirect_before_a_separator_keeps_the_separator() -> None:
    """`npm test > out.log; rm out.log`: the redirect's file ends at the `;`, which still
    separates two commands (its pass proves nothing of `npm test`, which may have failed);
    a line that ends in a redirect is not joined to the next one."""
    segments, all_and = checks._check_segments("npm test > out.log; rm out.log")
    assert segments == (("npm", "test"), ("rm", "out.log"))
    assert not all_and
    assert checks.proven_by_passing("npm test > out.log; rm out.log") == []
    segments, _ = checks._check_segments("make dist > build.log\nnpm test")
    assert segments == (("make", "dist"), ("npm", "test"))


def test_housekeeping_after_a_check_in_an_and_chain_leaves_it_the_chains_check() -> None:
    """`make kiln-test && echo OK` or `… && rm -f /tmp/probe`: the chain's outcome is the
    check's; it was no check at all, so its failure was never listed as open. After `;` the
    exit status is the last command's: no check."""
    assert checks.target("make kiln-test && echo OK") == ("make kiln-test", frozenset())
    found = checks.target("tox -e glaze && rm -f /tmp/probe && ls")
    assert found == ("tox", frozenset({"-e=glaze"}))
    assert checks.target("make kiln-test; echo done") is None
    assert checks.target("echo start && ls") is None
    state = (
        Evidence()
        .add_all(
            [
                prompt("check the kiln"),
                *bash("1", "make kiln-test && echo OK", ok=False, output="FAIL kiln_temp: 1200"),
            ]
        )
        .state
    )
    assert next_session(state, budget=5_000).count("FAILING at its last run") == 1


def test_a_generator_that_passed_is_not_listed_as_a_passing_check() -> None:
    records = [
        prompt("add the invoices controller"),
        *bash("1", "bin/rails generate controller Invoices index show 2>&1", ok=True),
        *bash("2", "bin/rails routes -g invoices 2>&1", ok=True),
        *bash("3", "bin/rails test 2>&1", ok=False, output="1 runs, 1 failures\nFailure: x"),
    ]
    text = next_session(Evidence().add_all(records).state, budget=4_000)
    section = text.split(CHECKS_HEADING, 1)[1].split("\n\n", 1)[0]
    assert "generate" not in section
    assert "routes" not in section
    assert "FAILING at its last run (turn 1): `bin/rails test 2>&1`" in section
    assert "bin/rails generate controller Invoices index show 2>&1` ok" in text  # what ran


def test_an_install_that_failed_is_an_open_failure_until_it_passes() -> None:
    failed = [
        prompt("the CI image cannot fetch the gems"),
        *bash("1", "bundle install --deployment", ok=False, output="Could not reach rubygems"),
    ]
    state = Evidence().add_all(failed).state
    assert "FAILING at its last run (turn 1): `bundle install --deployment`" in next_session(
        state, budget=3_000
    )
    state = Evidence().add_all([*failed, *bash("2", "bundle install --deployment", ok=True)])
    assert CHECKS_HEADING not in next_session(state.state, budget=3_000)


def test_a_call_that_never_ran_is_no_failed_check() -> None:
    """A command the user rejected, or the host cancelled beside a failed parallel call,
    has no outcome: its turn says it did not run, the checks do not list it."""
    rejected = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected "
        "(eg. if it was a file edit, the new_string was NOT written to the file)."
    )
    cancelled = "<tool_use_error>Cancelled: parallel tool call Bash(make lint) errored"
    records = [
        prompt("run the suites"),
        *bash("1", "make integration", ok=False, output=rejected),
        *bash("2", "make unit", ok=False, output=cancelled),
    ]
    text = next_session(Evidence().add_all(records).state, budget=3_000)
    assert CHECKS_HEADING not in text
    assert "`make integration` failed (not run: the user said no)" in text
    assert "`make unit` failed (not run: cancelled)" in text


COVERING = [
    # options that change how a run builds or reports, never which tests it runs
    ("go test -race ./ledger/", "go test -run TestPostingOrder ./ledger/", True),
    ("go test -count=1 -v ./ledger/", "go test -run TestPostingOrder ./ledger/", True),
    ("go test -timeout 90s ./ledger/", "go test -run=TestPostingOrder ./ledger/", True),
    ("pytest --color=yes tests/test_fees.py", "pytest tests/test_fees.py -k rounding", True),
    ("pytest -p no:cacheprovider tests/test_fees.py", "pytest -k rounding tests/", False),
    ("pytest -p no:cacheprovider tests/", "pytest -k rounding tests/", True),
    ("npx jest --ci", "npx jest -t rounds", True),
    ("cargo test", "cargo test -p ledger", True),
    ("cargo test", "cargo test -p ledger -- --nocapture --test-threads=1", True),
    ("make -j8 test", "make test", True),
    # a pass that would have stopped at its first failure ran them all
    ("pytest -x", "pytest tests/test_fees.py::test_rounding", True),
    # a selector narrows the run: it covers no wider one, nor another package
    ("go test -run TestPostingOrder ./ledger/", "go test ./ledger/", False),
    ("go test -race ./ledger/", "go test -run TestPostingOrder ./billing/", False),
    ("npx jest -t 'rounds half up'", "npx jest", False),
    ("pytest -k rounding", "pytest", False),
    ("cargo test -p ledger", "cargo test", False),
    ("npx mocha --grep fees", "npx mocha", False),
    # an option the failing run has more that may widen it or make it stricter
    ("go test ./ledger/", "go test -race ./ledger/", False),
    ("go test ./ledger/", "go test -shuffle=on ./ledger/", False),
    ("go test ./ledger/", "go test -tags=integration ./ledger/", False),
    ("pytest tests/", "pytest tests/ --runslow", False),
    ("cargo test", "cargo test -- --ignored", False),
    ("npx jest", "npx jest --coverage", False),
    # a word after `--color` that is no colour setting is what the run selects
    ("npx jest --color ledger", "npx jest", False),
]


@pytest.mark.parametrize(("run", "other", "covered"), COVERING)
def test_an_option_covers_by_what_it_selects(run: str, other: str, *, covered: bool) -> None:
    """An option that picks tests (`-run`, `-k`, `-t`, `--grep`, cargo's `-p`) narrows the
    run; one that only changes how it builds or reports (`-race`, `-v`, `-count=1`,
    `--color`, `-timeout 90s`) is no other target: a pass over the same package without a
    selector covers the selected run."""
    found, wanted = checks.target(run), checks.target(other)
    assert found is not None
    assert wanted is not None
    assert checks.covers(found, wanted) is covered


def test_a_pass_without_the_race_detector_leaves_its_failure_open() -> None:
    records = [
        prompt("the posting order flips under load"),
        *bash("1", "go test -race ./ledger/", ok=False, output="WARNING: DATA RACE\nFAIL"),
        *bash("2", "go test ./ledger/", ok=True, output="ok  \tacme/ledger\t1.2s"),
    ]
    state = Evidence().add_all(records).state
    assert [entry["cmd"] for entry in state["checks"].values() if not entry["ok"]] == [
        "go test -race ./ledger/"
    ]


def test_a_pass_without_the_selector_closes_the_selected_failure() -> None:
    records = [
        prompt("the posting order flips under load"),
        *bash("1", "go test -run TestPostingOrder ./ledger/", ok=False, output="--- FAIL: x"),
        *bash("2", "go test -race ./ledger/", ok=True, output="ok  \tacme/ledger\t1.2s"),
    ]
    state = Evidence().add_all(records).state
    assert all(entry["ok"] for entry in state["checks"].values())
    assert "FAILING" not in next_session(state, budget=3_000)
