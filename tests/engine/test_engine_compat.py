"""Logs and codes written by an earlier engine replay to the same outcomes today.

The fixtures (``tests/fixtures/*_v1.json``) were written by the engine before the
tournament became a package and before seat draws recorded their round of the format
(see ``tests/fixtures/write_v1_fixtures.py``). Devices in the field hold such logs.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Tournament
from engine.codec import decode_result, decode_setup, encode_result, encode_setup, link_form, result_from_game, safe_form, typing_form
from tests.fixtures.write_v1_fixtures import LINK_BASE, checkpoint, game_outcome, tournament_outcome

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def as_json(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


TOURNAMENT = load("tournament_v1.json")
GAMES = load("games_v1.json")
CODES = load("codes_v1.json")


def cells_of_csv_exports(outcome: dict[str, Any]) -> dict[str, Any]:
    """The outcome with its CSV exports as the cells a spreadsheet reads: since v1 every text
    cell is quoted (so a name can never run as a formula), which changes the bytes, not the cells."""
    return {key: list(csv.reader(io.StringIO(value))) if key.endswith("_csv") else value
            for key, value in outcome.items()}


def test_an_old_tournament_log_replays_to_the_same_standings_champion_seatings_and_exports() -> None:
    t = Tournament.from_events(TOURNAMENT["events"])
    assert cells_of_csv_exports(as_json(tournament_outcome(t))) == cells_of_csv_exports(TOURNAMENT["expected"])
    assert t.champion == 7


def test_an_old_tournament_log_is_kept_exactly_as_it_was_written() -> None:
    assert Tournament.from_events(TOURNAMENT["events"]).events == TOURNAMENT["events"]


@pytest.mark.parametrize("length", range(1, len(TOURNAMENT["events"]) + 1))
def test_every_step_of_an_old_tournament_log_replays_to_the_state_it_had(length: int) -> None:
    t = Tournament.from_events(TOURNAMENT["events"][:length])
    assert as_json(checkpoint(t)) == TOURNAMENT["checkpoints"][length - 1]


def test_redrawing_each_old_round_from_its_seed_seats_the_same_tables() -> None:
    events = TOURNAMENT["events"]
    for position, entry in enumerate(events):
        if entry["type"] != "seats_drawn":
            continue
        t = Tournament.from_events(events[:position])
        assert t.draw_seats(seed=entry["seed"]) == tuple(tuple(table) for table in entry["tables"])
        assert t.draw_info() == (entry["seed"], entry["clashes"])


def test_an_old_tournament_log_goes_on_with_todays_actions() -> None:
    t = Tournament.from_events(TOURNAMENT["events"])
    t.undo()
    assert t.prize is None
    t.award_prize(1000, "$", {7: 700, 12: 300}, "split agreed at the table")
    assert t.events == TOURNAMENT["events"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_old_game_log_replays_to_the_same_scores_places_and_history(name: str) -> None:
    game = Game.from_events(GAMES[name]["events"])
    assert as_json(game_outcome(game)) == GAMES[name]["expected"]
    assert game.events == GAMES[name]["events"]


def test_an_old_setup_code_reads_the_same_and_is_written_the_same() -> None:
    expected = CODES["expected"]
    setup = decode_setup(CODES["setup_code"])
    assert [[p.number, p.name] for p in setup.players] == expected["setup"]["players"]
    assert (setup.event_id, setup.round, setup.table, setup.key.hex(), setup.link_base) == (
        expected["setup"]["event_id"], expected["setup"]["round"], expected["setup"]["table"],
        expected["setup"]["key"], expected["setup"]["link_base"],
    )
    assert setup.rules.to_dict() == expected["setup"]["rules"]
    assert setup.switch_to is not None and setup.switch_to.to_dict() == expected["setup"]["switch_to"]
    assert encode_setup(setup) == CODES["setup_code"]
    assert safe_form(CODES["setup_code"]) == expected["setup_safe_form"]


def test_an_old_result_code_verifies_and_the_game_behind_it_signs_the_same_code() -> None:
    expected = CODES["expected"]
    result = decode_result(CODES["result_code"]).verify(bytes.fromhex(CODES["table_key"]))
    assert (list(result.numbers), list(result.totals), list(result.places)) == (
        expected["result"]["numbers"], expected["result"]["totals"], expected["result"]["places"],
    )
    assert result.digest.hex() == expected["result"]["digest"]
    game = Game.from_events(CODES["final_game_events"])
    assert as_json(game_outcome(game)) == expected["final_game"]
    setup = decode_setup(CODES["setup_code"])
    assert encode_result(result_from_game(game, setup), setup.key) == CODES["result_code"]
    assert safe_form(CODES["result_code"]) == expected["result_safe_form"]
    assert typing_form(CODES["result_code"]) == expected["result_typing_form"]
    assert link_form(CODES["result_code"], LINK_BASE) == expected["result_link_form"]


def test_the_old_result_code_in_the_old_log_is_the_one_the_final_handed_in() -> None:
    finals = [entry for entry in TOURNAMENT["events"] if entry["type"] == "result_recorded" and entry["round"] == 3]
    assert [entry["code"] for entry in finals] == [CODES["result_code"]]
