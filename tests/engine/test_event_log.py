"""One event style: the game's and the tournament's events are typed values, logged and read
back by one codec (engine/event_log.py), and both folds keep their states, so undo is a pop."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import Game, IllegalAction, InvalidInput, Notice, Rules, Tournament
from engine.codec import TableResult
from engine.events import GAME_LOG, Rolled, RolledOff, event_from_dict
from engine.tournament.events import TOURNAMENT_LOG, ResultRecorded, SeatsDrawn, TournamentCreated
from engine.tournament.format import Cut, TournamentFormat
from tests.support.game_play import play_game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD_TOURNAMENT = json.loads((FIXTURES / "tournament_v1.json").read_text(encoding="utf-8"))["events"]
OLD_GAMES = json.loads((FIXTURES / "games_v1.json").read_text(encoding="utf-8"))


def test_every_kind_of_event_in_the_old_logs_reads_as_a_typed_value_and_writes_back_as_it_was() -> None:
    entries = OLD_TOURNAMENT + [entry for game in OLD_GAMES.values() for entry in game["events"]]
    for entry in entries:
        log = TOURNAMENT_LOG if entry["type"] in TOURNAMENT_LOG.kinds else GAME_LOG
        event = log.from_dict(entry)
        assert not any(isinstance(value, dict) for value in vars(event).values()), event
        assert log.to_dict(event) == entry
    kinds = {entry["type"] for entry in entries}
    newer = {"card_revoked", "place_taken", "player_missing"}  # kinds the v1 fixture's engine had not yet
    assert kinds >= set(TOURNAMENT_LOG.kinds) - newer


def test_a_tournament_event_holds_its_result_format_cut_and_secret_as_values() -> None:
    t = Tournament("Cup", event_id="CUP-1", secret=bytes(range(16)))
    for name in ("Ann", "Bob", "Cy"):
        t.check_in(t.sign_up(name))
    t.draw_seats(seed=1)
    t.record_result(1, [10_000, 600, 8_000], reason="paper sheet")
    created, *_, drawn, recorded = [TOURNAMENT_LOG.from_dict(entry) for entry in t.events]
    assert isinstance(created, TournamentCreated) and created.secret == bytes(range(16))
    assert isinstance(created.format, TournamentFormat)
    assert isinstance(drawn, SeatsDrawn) and drawn.cut == Cut.final()
    assert isinstance(recorded, ResultRecorded) and isinstance(recorded.result, TableResult)
    assert recorded.result.totals == (10_000, 600, 8_000)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"type": "rolled", "dice": "123456"}, "A rolled entry of the game log is damaged: dice is a text, expected a list of faces."),
        ({"type": "rolled_off", "faces": {"0": "3"}}, "A rolled_off entry of the game log is damaged: faces has a die face"),
        ({"type": "started", "players": ["Ann", 7], "rules": {}, "first": 0},
         "A started entry of the game log is damaged: players[1] is a whole number, expected a text"),
        ({"type": "kept"}, "A kept entry of the game log is damaged: dice is missing."),
        (["rolled"], "A game log entry is a list, not an object: the log is damaged."),
        ({"type": "teleported"}, "The game log has an entry of an unknown kind ('teleported'): it is damaged."),
    ],
)
def test_a_damaged_game_entry_is_refused_naming_the_entry_and_the_field(entry: Any, words: str) -> None:
    with pytest.raises(InvalidInput) as refusal:
        event_from_dict(entry)
    assert str(refusal.value).startswith(words)


def test_a_damaged_result_in_a_tournament_log_names_the_field_inside_the_result() -> None:
    entry = next(entry for entry in OLD_TOURNAMENT if entry["type"] == "result_recorded")
    damaged = {**entry, "result": {**entry["result"], "totals": [10_400, "7000", 5_000, 3_000]}}
    with pytest.raises(InvalidInput, match=r"^A result_recorded entry of the tournament log is damaged: "
                                           r"result\.totals\[1\] is a text, expected a whole number\.$"):
        TOURNAMENT_LOG.from_dict(damaged)


def test_undo_on_the_table_says_what_it_took_back_and_redo_plays_the_very_event_again() -> None:
    game = Game(["Ann", "Bob"], Rules.preset("house"))
    game.roll("2 2 3 3 4 6")
    taken = game.peek()
    assert taken == Rolled((2, 2, 3, 3, 4, 6))
    assert game.undo() == Notice("undone", "Undone: Ann's farkle on 2 2 3 3 4 6")
    game.redo(taken)
    assert game.events[-1] == {"type": "rolled", "dice": [2, 2, 3, 3, 4, 6]} and game.current == 1


def test_a_roll_off_is_logged_as_each_seats_face() -> None:
    assert GAME_LOG.to_dict(RolledOff(((0, 6), (1, 2)))) == {"type": "rolled_off", "faces": {"0": 6, "1": 2}}


def test_a_replayed_game_undoes_every_event_without_replaying_its_log(monkeypatch: pytest.MonkeyPatch) -> None:
    played = play_game(Game(["Ann", "Bob", "Cy"]), random.Random(19))
    game = Game.from_events(played.events)
    monkeypatch.setattr("engine.game.game.event_from_dict", lambda data: pytest.fail("undo read the log back"))
    for _ in range(len(played.events) - 1):
        assert game.undo().text.startswith("Undone: ")
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        game.undo()


def closed_event() -> Tournament:
    t = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"):
        t.check_in(t.sign_up(name))
    t.draw_seats(seed=3)
    for table, numbers in enumerate(t.seating(), 1):
        t.record_result(table, [10_000] + [500 * seat for seat in range(1, len(numbers))], reason="paper")
    t.close_round()
    return t


def test_a_tournament_undo_is_a_pop_back_to_each_state_before_without_a_replay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    t = closed_event()
    before = [Tournament.from_events(t.events[:length]) for length in range(1, len(t))]
    monkeypatch.setattr("engine.tournament.history.replay", lambda events: pytest.fail("undo replayed the log"))
    for earlier in reversed(before):
        t.undo()
        assert (t.events, t.players, t.standings(), t.plan()) == (
            earlier.events, earlier.players, earlier.standings(), earlier.plan())


def test_acting_on_a_copy_of_a_tournament_leaves_the_original_as_it_was() -> None:
    t = closed_event()
    events, standings = t.events, t.standings()
    trial = t.copy()
    trial.draw_seats(seed=4)
    trial.undo()
    trial.undo()
    assert (t.events, t.standings(), t.round_open) == (events, standings, False)
    assert len(trial) == len(t) - 1 and trial.round_open
