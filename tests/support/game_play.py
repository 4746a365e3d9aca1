"""Random but legal play through the public API, shared by property tests and benchmarks, and
scripted games several tests and benchmarks start from."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine import Game, Rules, scoring_options

OFFICIAL = Rules.preset("official")


def throw(rng: random.Random, dice: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(dice)]


def play_turn(game: Game, rng: random.Random, greed: float = 0.5) -> None:
    """One whole turn with a random keep each throw and a random decision to go on."""
    seat = game.current
    turns = len(game.history)
    if game.offer and rng.random() < 0.5:
        game.build()
    while len(game.history) == turns and not game.tied and not game.is_over:
        game.roll(throw(rng, game.state.dice_to_throw or 6))
        if len(game.history) != turns:
            return  # farkle
        options = scoring_options(game.state.last_throw or (), game.rules)
        game.keep(rng.choice(options[: max(1, len(options) // 2)]).keep)
        if game.bank_refusal() is None and rng.random() > greed:
            game.bank()
    assert game.tied or game.is_over or game.current != seat or len(game.players) == 1


def play_game(game: Game, rng: random.Random, max_turns: int = 2000) -> Game:
    """Play to the end (roll-offs included)."""
    for _ in range(max_turns):
        if game.is_over:
            break
        if game.tied:
            game.roll_off({seat: rng.randint(1, 6) for seat in game.tied})
        else:
            play_turn(game, rng)
    return game


def played(rules: Rules, *steps: str) -> Game:
    """Ann and Bob's game under ``rules`` after steps such as "roll 1 5 2 3 3 6", "keep 5", "bank"."""
    game = Game(["Ann", "Bob"], rules)
    for step in steps:
        verb, _, dice = step.partition(" ")
        getattr(game, verb)(*([dice] if dice else []))
    return game


def ann_on_two_farkles() -> Game:
    """At an official table Ann has banked 1,000 (three 1s) and farkled twice since; Bob banks 100 a turn."""
    game = Game(["Ann", "Bob"], OFFICIAL)
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()
    for ann_throws in ("2 2 3 3 4 6", "2 2 3 3 4 6", None):
        game.roll("1 2 3 4 6 6")
        game.keep("1")
        game.bank()
        if ann_throws:
            game.roll(ann_throws)
    assert game.state.current == 0 and game.state.farkle_streak[0] == 2 and game.scores[0] == 1000
    return game


def saved_game_documents(count: int, distinct: int = 10) -> dict[str, dict[str, Any]]:
    """``count`` finished four-player games as the scorekeeper saves them, by id (``distinct``
    different logs, told apart by their titles)."""
    logs = [play_game(Game(["Ann", "Bob", "Cy", "Di"], Rules.preset("house")), random.Random(seed))
            for seed in range(distinct)]
    documents: dict[str, dict[str, Any]] = {}
    for number in range(count):
        game = logs[number % distinct]
        game_id = f"20261201-{number:06d}-abcdef"
        documents[game_id] = {
            "id": game_id, "players": list(game.players), "scores": list(game.scores),
            "rules": game.rules.to_dict(), "finished": game.is_over,
            "winner": None if game.winner is None else game.players[game.winner],
            "created": "2026-12-01T18:00:00+00:00",
            "updated": f"2026-12-01T{18 + number // 3600:02d}:{number // 60 % 60:02d}:{number % 60:02d}+00:00",
            "title": f"Game {number}", "events": game.events,
        }
    return documents


def write_saved_games(data_dir: Path, documents: dict[str, dict[str, Any]]) -> int:
    """The games as files in the data folder's games/; the bytes they take."""
    (data_dir / "games").mkdir(parents=True, exist_ok=True)
    size = 0
    for game_id, document in documents.items():
        text = json.dumps(document, separators=(",", ":"))
        (data_dir / "games" / f"{game_id}.json").write_text(text)
        size += len(text)
    return size
