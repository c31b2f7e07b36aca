"""The command line: output, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from docs_pages import DOCS

import riskmath as rm
from riskmath.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_roll(capsys):
    status, out, err = run(capsys, "roll", "3", "2")
    assert status == 0
    assert err == ""
    assert "0 2  1445/3888" in out
    assert "2 0  2275/7776" in out


def test_roll_json(capsys):
    _, out, _ = run(capsys, "roll", "1", "1", "--ties", "attacker", "--json")
    rows = json.loads(out)
    assert rows[0] == {"attacker_losses": 0, "defender_losses": 1, "probability": "7/12", "float": 7 / 12}


def test_odds_text(capsys):
    status, out, _ = run(capsys, "odds", "10", "10")
    assert status == 0
    assert "win_probability" in out
    assert "0.567593" in out  # P(win) with >= 4 decimals
    assert "expected_attackers_left " in out
    assert "expected_defender_losses" in out


def test_odds_exact_stop_at(capsys):
    _, out, _ = run(capsys, "odds", "5", "3", "--exact", "--stop-at", "1")
    assert "/" in out.splitlines()[1]  # a fraction
    assert "stopping at 1" in out
    # battle(5, 3, stop_at=1, exact=True): the option reaches the battle (a mutant dropping it printed 0.77)
    assert out.splitlines()[1].split() == ["win_probability", "5452132164295/7522959753216", "(~0.724732)"]


def test_odds_json(capsys):
    _, out, _ = run(capsys, "odds", "9", "10", "--json")
    document = json.loads(out)
    assert document["attackers"] == 9
    assert document["win_probability"] == pytest.approx(0.47993525647768026, rel=1e-14)


def test_odds_json_has_every_statistic_null_where_undefined(capsys):
    # The mean left if won was left out of the document where winning is impossible in float64, while conquest
    # --json writes null (hostile CLI review, 2026-12-03); a subnormal win probability is such a case now too.
    for attackers, defenders, mean in [("9", "10", 4.2455), ("2", "1005", None), ("1", "800", None)]:
        status, out, _ = run(capsys, "odds", attackers, defenders, "--json")
        assert status == 0
        document = json.loads(out)
        assert set(rm.STATISTICS) <= set(document)
        if mean is None:
            assert document["expected_attackers_left_if_won"] is None
        else:
            assert document["expected_attackers_left_if_won"] == pytest.approx(mean, abs=1e-4)


def test_odds_json_exact_and_variant(capsys):
    _, out, _ = run(capsys, "odds", "2", "1", "--json", "--exact", "--defender-max-dice", "3")
    # 125/216 + 91/216 * 15/36; with one defender a third defending die changes nothing.
    assert json.loads(out)["win_probability"] == "1955/2592"


@pytest.mark.parametrize(
    "verb",
    [("odds", "10", "10", "--json"), ("conquest", "10", "3", "2", "--json"), ("need", "3", "2", "--p", "0.8")],
)
def test_a_preset_gives_its_editions_dice_and_the_other_options_change_them(capsys, verb):
    def json_of(*options):  # (the text itself where the verb has no --json)
        status, out, err = run(capsys, *verb, *options)
        assert (status, err) == (0, "")
        return json.loads(out) if "--json" in verb else out

    # risiko: three defending dice (rm.Rules.preset("risiko").combat), the same as the option written out
    assert json_of("--preset", "risiko") == json_of("--defender-max-dice", "3")
    assert json_of("--preset", "risiko") != json_of()
    # an option given changes the preset's dice in that respect only: back to the classic two dice here
    assert json_of("--preset", "risiko", "--defender-max-dice", "2") == json_of()
    assert json_of("--preset", "us_1993") == json_of()


@pytest.mark.parametrize("verb", [("odds", "10", "10"), ("conquest", "10", "3", "2"), ("need", "3", "2", "--p", "0.8")])
def test_results_under_other_dice_say_so_and_classic_ones_do_not(capsys, verb):
    # The odds of --preset risiko printed exactly as the classic ones would: now a line names the rules.
    _, classic, _ = run(capsys, *verb)
    _, three, _ = run(capsys, *verb, "--preset", "risiko")
    assert "under CombatRules" not in classic
    assert "  under CombatRules(attacker_max_dice=3, defender_max_dice=3," in three
    _, document, _ = run(capsys, *verb, "--json", "--defender-sides", "8")
    assert json.loads(document)["rules"]["defender_sides"] == 8
    _, document, _ = run(capsys, *verb, "--json")
    assert "rules" not in json.loads(document)


def test_need_as_json_is_the_python_answer(capsys):
    status, out, _ = run(capsys, "need", "3", "2", "2", "--p", "9/10", "--leave", "2", "--json")
    assert status == 0
    document = json.loads(out)
    n = rm.armies_needed([3, 2, 2], Fraction(9, 10), leave=2)
    assert document == {
        "defenders": [3, 2, 2],
        "probability": 0.9,
        "leave": 2,
        "attackers": n,
        "win_probability": rm.conquest(n, [3, 2, 2], leave=2).win_probability,
    }


def test_a_text_table_under_other_dice_says_so_above_the_grid(capsys):
    argv = ("table", "--attackers", "3", "--defenders", "3")
    _, classic, _ = run(capsys, *argv)
    _, three, _ = run(capsys, *argv, "--preset", "risiko")
    assert three.splitlines()[0].startswith("under CombatRules(attacker_max_dice=3, defender_max_dice=3,")
    assert three.splitlines()[1:] != classic.splitlines()  # (the odds differ too)
    assert classic.splitlines()[0].startswith("attackers")
    _, csv, _ = run(capsys, *argv, "--preset", "risiko", "--format", "csv")
    assert "CombatRules" not in csv


def test_the_odds_with_a_preset_are_the_python_odds_of_its_rules(capsys):
    _, out, _ = run(capsys, "odds", "10", "10", "--json", "--preset", "risiko")
    assert json.loads(out)["win_probability"] == rm.battle(10, 10, rules=rm.Rules.preset("risiko")).win_probability


def test_an_unknown_preset_is_one_line_naming_the_presets(capsys):
    status, _, err = run(capsys, "odds", "5", "3", "--preset", "nope")
    assert status == 2
    assert err.count("\n") == 1
    assert "unknown rules preset 'nope'" in err
    assert "risiko" in err


@pytest.mark.parametrize("fmt", ["text", "csv", "markdown", "latex", "json"])
def test_table_formats(capsys, fmt):
    status, out, _ = run(capsys, "table", "--attackers", "4", "--defenders", "3", "--format", fmt)
    assert status == 0
    assert "0.4167" in out


def test_table_statistic(capsys):
    _, out, _ = run(
        capsys, "table", "--attackers", "2", "--defenders", "2", "--stat", "expected_rolls", "--format", "csv"
    )
    assert out.splitlines()[0] == "attackers,1,2"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["odds", "-3", "2"], "expected a non-negative integer, got '-3'"),
        (["odds", "3.5", "2"], "expected a non-negative integer, got '3.5'"),
        (["odds", "3", "0"], "defenders must be >= 1, got 0"),
        (["roll", "0", "2"], "attacker_dice must be >= 1, got 0"),
        (["table", "--format", "html"], "invalid choice: 'html'"),
        (["table", "--stat", "nope"], "invalid choice: 'nope'"),
        (["odds", "3", "2", "--attacker-sides", "1"], "attacker_sides must be an integer in 2..1000, got 1"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "required: command"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, argv, fragment):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("riskmath: error: ")
    assert fragment in err


@pytest.mark.slow  # starts a new interpreter
def test_module_entry_point_has_no_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "riskmath", "odds", "4", "-1"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().startswith("riskmath: error:")
    ok = subprocess.run(
        [sys.executable, "-m", "riskmath", "roll", "3", "2"], capture_output=True, text=True, check=True
    )
    assert "1445/3888" in ok.stdout


def test_conquest(capsys):
    status, out, _ = run(capsys, "conquest", "20", "3", "2", "1", "2")
    assert status == 0
    assert "win_probability              0.986466" in out
    assert out.count("\n") == 8  # title, 2 statistics, header, 4 steps


def test_conquest_json_exact(capsys):
    _, out, _ = run(capsys, "conquest", "5", "3", "--json", "--exact")
    document = json.loads(out)
    assert document["defenders"] == [3]
    assert document["win_probability"] == str(rm.battle(5, 3, exact=True).win_probability)
    # The keys before the new names stay, with the same values (docs/cli.rst showed them to scripts).
    assert document["success_probability"] == document["win_probability"]
    assert document["expected_final_armies_if_success"] == document["expected_final_armies_if_won"] is not None


def test_conquest_leave_reaches_the_conquest(capsys):
    # Only the docs page's example saw --leave dropped (a mutation test): the number, here too.
    _, out, _ = run(capsys, "conquest", "10", "2", "2", "--leave", "2", "--exact", "--json")
    document = json.loads(out)
    assert document["leave"] == 2
    assert document["win_probability"] == str(rm.conquest(10, [2, 2], leave=2, exact=True).win_probability)
    assert document["win_probability"] != str(rm.conquest(10, [2, 2], exact=True).win_probability)


def test_need(capsys):
    status, out, _ = run(capsys, "need", "3", "2", "2", "--p", "0.9")
    assert status == 0
    assert out.startswith("14 armies able to attack (the territory holds 15)")
    _, out, _ = run(capsys, "need", "10", "--p", "9/10")
    assert out.startswith("16 armies")


def test_policy(capsys):
    status, out, _ = run(capsys, "policy", "8", "8", "--two-sided")
    assert status == 0
    assert "should not throw maximum dice: 0" in out
    _, out, _ = run(capsys, "policy", "8", "8", "--objective", "win_with", "--min-left", "2", "--exact")
    assert "optimal value" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["need", "3", "--p", "1.5"], "expected a probability strictly between 0 and 1, got '1.5'"),
        (["need", "3", "--p", "abc"], "expected a probability such as 0.9 or 9/10, got 'abc'"),
        (["need", "3"], "the following arguments are required: --p"),
        (["conquest", "10"], "the following arguments are required: defenders"),
        (["conquest", "10", "0"], r"defenders[0] must be >= 1, got 0"),
        # once printed the plain win probability as if the threshold had been applied
        (["policy", "10", "10", "--min-left", "3"], "--min-left 3 applies to --objective win_with only"),
        # named odds_table's max_attackers / max_defenders, not the options
        (["table", "--attackers", "2", "--stop-at", "2"], "--attackers 2 must be more than --stop-at 2"),
        (["table", "--defenders", "0"], "--defenders must be at least 1, got 0"),
    ],
)
def test_new_verbs_reject(capsys, argv, fragment):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.count("\n") == 1
    assert fragment in err


def test_simulate(capsys, tmp_path):
    out = tmp_path / "games.csv"
    status, text, _ = run(
        capsys, "simulate", "--players", "2", "--agents", "aggressive,random", "--games", "4", "--max-turns", "80",
        "--out", str(out),
    )  # fmt: skip
    assert status == 0
    assert text.startswith("4 games, 2 players (us_1993), seed 0, cap 80 turns")
    assert "by agent: aggressive" in text
    assert out.read_text().splitlines()[0].startswith("seed,winner,draw,turns")
    assert len(out.read_text().splitlines()) == 5


def test_simulate_with_one_agent_name_seats_it_everywhere(capsys):
    # ``--agents odds`` once asked for "one agent per player"; ``outlook --agents`` and simulate() take one name
    # for every seat, and so does the verb now: the same games as the name written out for each seat.
    argv = ("simulate", "--players", "3", "--games", "3", "--max-turns", "60", "--seed", "7", "--agents")
    status, once, _ = run(capsys, *argv, "aggressive")
    assert status == 0
    status, listed, _ = run(capsys, *argv, "aggressive,aggressive,aggressive")
    assert status == 0
    assert once == listed
    assert "aggressive" in once


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["simulate", "--agents", "aggressive,genius,random,random"], "unknown agent 'genius'"),
        (["simulate", "--players", "3", "--agents", "random,random"], "--agents names 2 agents, but --players is 3"),
        (["simulate", "--agents", "random,random,random,random", "--games", "0"], "n_games must be >= 1, got 0"),
        (["simulate", "--agents", "random,random,random,random", "--preset", "nope"], "unknown rules preset 'nope'"),
    ],
)
def test_simulate_rejects(capsys, argv, fragment):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.count("\n") == 1
    assert fragment in err


def test_unreachable_steps_need_and_tables_read_as_a_person_would_write_them(capsys):
    # From the hostile-user review: NaN for a step never reached, "Fraction(9, 10)" for a typed 0.9, and
    # "1.000000 >= 1" for a probability just under 1.
    status, out, _ = run(capsys, "conquest", "2", "1", "1", "1")
    assert status == 0
    assert out.splitlines()[-1].split()[3:5] == ["-", "-"]
    assert "nan" not in out
    status, _, err = run(capsys, "need", "1000000", "--p", "0.9")
    assert status == 2
    assert "probability=9/10)" in err
    status, out, _ = run(capsys, "need", "3", "--p", "0.999999999999")
    assert status == 0
    assert out.rstrip().endswith("with probability 0.9999999999994491 >= 0.999999999999")
    pd = pytest.importorskip("pandas")
    with pytest.raises(rm.InvalidArgumentError, match="table must hold numbers"):
        rm.format_table(pd.DataFrame({"a": ["x"]}))


def test_the_help_of_simulate_names_every_built_in_agent(capsys):
    # The help said "random, aggressive" while every agent of riskmath.agents.AGENTS was taken.
    from riskmath.agents import AGENTS

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"one per seat: {', '.join(AGENTS)}" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "--attackers", "10000", "--defenders", "10000"],
        ["odds", "300", "300", "--exact", "--max-seconds", "0.01"],
    ],
)
def test_a_refusal_for_the_limits_names_the_option_that_raises_it(capsys, argv):
    # The remedies were Python's ("raise it with riskmath.set_limits(max_memory=...)"), which a shell user
    # cannot act on.  The cli page shows these two refusals as they are printed (memory limit 2 GiB).
    with rm.set_limits(max_memory=2 * 2**30):
        status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert "set_limits" not in err
    assert "exact=False" not in err
    assert err.count("\n") == 1
    page = (DOCS / "cli.rst").read_text(encoding="utf-8")
    assert f"   $ riskmath {' '.join(argv)}\n   {err}" in page


def test_the_limit_options_hold_for_the_run_only(capsys):
    before = rm.get_limits()
    status, _, err = run(capsys, "table", "--attackers", "200", "--defenders", "200", "--max-memory", "1KiB")
    assert status == 2
    assert "more than the memory limit of 1.0 KiB" in err
    status, out, _ = run(capsys, "odds", "5", "5", "--max-memory", "64MB", "--max-seconds", "30")
    assert status == 0
    assert "win_probability" in out
    assert rm.get_limits() == before


@pytest.mark.parametrize(
    ("text", "size"),
    [("8GiB", 8 * 2**30), ("8G", 8 * 2**30), ("8gb", 8e9), ("500MB", 5e8), ("2e9", 2e9), ("1.5 KiB", 1536.0)],
)
def test_memory_sizes(text, size):
    from riskmath.cli._parser import _bytes

    assert _bytes(text) == size


@pytest.mark.parametrize("text", ["0", "-1G", "8XB", "G", "nan", "inf", "1e999", "9" * 500])
def test_bad_memory_sizes_are_refused_in_one_line(capsys, text):
    status, _, err = run(capsys, "odds", "5", "5", f"--max-memory={text}")
    assert status == 2
    assert err.startswith("riskmath: error: argument --max-memory: expected an amount of memory such as 8GiB")
    assert err.count("\n") == 1
    assert len(err) < 300


def test_simulate_names_its_defaults_and_refuses_in_its_own_words(capsys):
    # "need one agent per player (4), got 3" named a hidden default; --help showed no default for --players,
    # --games, --seed or --max-turns; --move-time 2e6 passed the parser and was refused in the library's words,
    # "(None for no limit)" (hostile CLI review, 2026-12-03).
    status, _, err = run(capsys, "simulate", "--agents", "odds,aggressive,random", "--games", "2")
    assert status == 2
    assert "--agents names 3 agents, but --players is 4" in err
    status, _, err = run(capsys, "simulate", "--agents", "odds", "--move-time", "2e6")
    assert status == 2
    assert "argument --move-time: expected at most 1000000 seconds, got '2e6'" in err
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for fragment in ("(default 4)", "(default 100)", "(default 0)", "(default 300)", "(default us_1993)"):
        assert fragment in text


def test_need_does_not_print_a_chance_below_one_as_one(capsys):
    # "with probability 1.000000 >= 1.0" for --p 0.9999999999999999999 hid that the target is below 1 (the
    # answer, 78, is exact; hostile CLI review, 2026-12-03).
    status, out, _ = run(capsys, "need", "3", "--p", "0.9999999999999999999")
    assert status == 0
    assert out.strip() == (
        "78 armies able to attack (the territory holds 79) take [3] with probability 1.0 in float64 "
        "(within 1e-16 of 1) >= 1 - 1e-19"
    )
