"""Random but legal play through the public API, shared by property tests and benchmarks."""

from __future__ import annotations

import random

from engine import Game, scoring_options


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
