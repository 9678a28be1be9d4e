"""The course's trends: the checks themselves, and the stored pass rates measured again."""

import pandas as pd
import pytest

from monopoly_lesson import simulate
from monopoly_lesson.trends import PASS_RATES, TRENDS, check_trends, pass_rates, ranks


@pytest.fixture(scope="module")
def counts():
    return simulate(seed=3, engine="fast", progress=False).counts


def test_ranks_break_ties_by_space_and_put_go_to_jail_last(counts):
    r = ranks(counts)
    assert sorted(r) == list(range(1, 41)) and r[31] == 40 and r[11] == 1
    flat = pd.Series(5, index=range(1, 41))
    assert list(ranks(flat)[[1, 2, 40]]) == [1, 2, 40]


def test_each_trend_can_fail(counts):
    shown = check_trends(counts)
    assert len(shown) == len(TRENDS) == len(PASS_RATES)
    broken = counts.copy()
    broken[31], broken[11] = 500, 10  # Go to Jail tallied, Jail no longer first
    after = check_trends(broken)
    assert not after[TRENDS[0].name] and not after[TRENDS[6].name]


def test_a_results_table_works_too(counts):
    table = simulate(games=50, seed=1, progress=False).table("board")
    assert set(check_trends(table)) == set(PASS_RATES)
    with pytest.raises(ValueError, match="needs the columns 'space' and 'tally'"):
        check_trends(table.drop(columns="tally"))
    with pytest.raises(TypeError, match="expected counts"):
        check_trends([1, 2, 3])


@pytest.mark.slow
def test_stored_pass_rates_agree_with_a_new_measurement():
    """PASS_RATES came from 10,000 runs; 1000 fresh runs must agree within sampling error."""
    fresh = pass_rates(1000, seed=99)
    for name, stored in PASS_RATES.items():
        se = max((stored * (1 - stored) / 1000) ** 0.5, 0.005)
        assert abs(fresh[name] - stored) <= 4 * se, name
    assert 0.44 < fresh[TRENDS[4].name] < 0.56  # Baltic in the bottom five: a coin flip


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.assign(tally=t["tally"].where(t["space"] != 7)), "missing for space"),
        (lambda t: t.assign(tally=t["tally"] - 10_000), "negative for space"),
        (lambda t: t.assign(tally=t["tally"] / 7), "not whole numbers for space"),
        (lambda t: t.assign(tally=0), "every tally is 0"),
    ],
)
def test_check_results_refuses_tallies_no_simulation_gives(change, message):
    from monopoly_lesson.grading import check_results

    table = simulate(games=5, seed=1, progress=False).table()
    with pytest.raises(ValueError, match=message):
        check_results(change(table))
