"""A player's record (app/table/player_record.py): read from the stored games, without a screen."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.table.player_record import player_record
from app.storage import MemoryStore, StoreError
from app.storage.base import Store
from engine import Game, Rules
from tests.app.test_game_over import stored


def finished(players: list[str]) -> Game:
    """A game to 1,000 the first player wins in one turn; the others farkle their last turn."""
    game = Game(players, Rules(target=1000, entry_threshold=0))
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()
    for _ in players[1:]:
        game.roll("2 2 3 3 4 6")
    return game


def test_a_record_holds_only_that_players_games_newest_first_whatever_the_letter_case() -> None:
    store, ids = stored(finished(["Ann", "Bob"]), finished(["Cy", "Dee"]), finished(["bob", "Eve"]))
    record = asyncio.run(player_record(store, "BOB"))
    assert [game_id for game_id, _ in record.games] == sorted([ids[0], ids[2]], reverse=True)
    assert record.figures.games == 2 and record.figures.wins == 1
    assert dict(record.games)[ids[0]] == "Ann 1,000, Bob 0 · Ann won"


def test_an_unreadable_game_does_not_count_in_a_record() -> None:
    store, (kept, damaged) = stored(finished(["Ann", "Bob"]), finished(["Ann", "Cy"]))

    async def damage_and_read() -> list[str]:
        document = await store.load("games", damaged)
        assert document is not None
        document["events"] = [{"type": "rolled", "dice": [7]}]
        await store.save("games", damaged, document)
        return [game_id for game_id, _ in (await player_record(store, "Ann")).games]

    assert asyncio.run(damage_and_read()) == [kept]


def test_a_store_that_cannot_be_read_raises_its_error() -> None:
    class Unreadable(MemoryStore):
        async def load_all(self, collection: str) -> dict[str, Any]:
            raise StoreError("the data folder is gone")

    store: Store = Unreadable()
    with pytest.raises(StoreError, match="the data folder is gone"):
        asyncio.run(player_record(store, "Ann"))
