"""Ordering by total and roll-offs, one ranking for games, table results and standings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Game, InvalidInput, Rules
from engine.ranking import places_from, places_in, rank_blocks, ranked_seats


def test_roll_offs_split_ties_by_face_and_keep_equal_faces_tied() -> None:
    blocks = rank_blocks({1: 900, 2: 900, 3: 900, 4: 100}, [[(1, 4), (2, 6), (3, 4)]])
    assert blocks == [[2], [1, 3], [4]]
    assert places_from((900, 900, 900, 100), [[(0, 4), (1, 6), (2, 4)]]) == (2, 1, 2, 4)


def test_a_roll_off_is_repeated_among_the_players_still_tied() -> None:
    roll_offs = [[(0, 5), (1, 5), (2, 2)], [(0, 3), (1, 6)]]
    assert ranked_seats((2100, 2100, 2100, 50), roll_offs) == (1, 0, 2, 3)
    assert places_from((2100, 2100, 2100, 50), roll_offs) == (2, 1, 3, 4)


def test_players_still_tied_share_a_place_and_the_next_place_is_skipped() -> None:
    assert places_in(rank_blocks({7: 500, 3: 500, 9: 800}, [])) == {9: 1, 3: 2, 7: 2}
    assert places_from((500, 800, 500, 100), []) == (2, 1, 2, 4)


def test_seats_still_tied_keep_seat_order() -> None:
    assert ranked_seats((300, 900, 300, 900), []) == (1, 3, 0, 2)


@pytest.mark.parametrize(
    ("roll_off", "why"),
    [
        ([(1, 4), (4, 6)], "players from two totals"),
        ([(2, 4), (3, 6)], "only part of the tied players"),
        ([(4, 3)], "a player who is not tied"),
    ],
)
def test_a_roll_off_not_thrown_by_one_whole_block_of_tied_players_is_refused(roll_off: list[tuple[int, int]], why: str) -> None:
    with pytest.raises(InvalidInput, match=r"does not match any group of tied players"):
        rank_blocks({1: 900, 2: 900, 3: 900, 4: 100}, [roll_off])


@given(st.lists(st.sampled_from([0, 50, 500, 900]), min_size=2, max_size=8))
def test_places_follow_the_number_of_players_strictly_ahead(totals: list[int]) -> None:
    places = places_from(totals, [])
    assert places == tuple(1 + sum(other > total for other in totals) for total in totals)
    assert sorted(places) == [places[seat] for seat in ranked_seats(totals, [])]


def test_a_game_ranks_its_seats_with_the_shared_ranking() -> None:
    game = Game(["Ann", "Bob", "Cy"], Rules(target=1000, entry_threshold=0))
    for _ in range(3):
        game.roll("1 1 1 2 3 4")
        game.keep("1 1 1")
        game.bank()
    game.roll_off({0: 4, 1: 4, 2: 1})
    game.roll_off({0: 2, 1: 5})
    assert game.standings == (1, 0, 2) == ranked_seats(game.scores, game.state.roll_offs)
    assert game.places == (2, 1, 3)
