"""Figures players argue about after a game: the score race and each player's turns.

Everything here is read off a game's turn history (:attr:`engine.Game.history`), so a
finished game, a game in progress and a game replayed from its log all agree.

>>> from engine import Game, Rules
>>> game = Game(["Ann", "Bob"], Rules.preset("house"))
>>> game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()
>>> game.roll("2 2 3 3 4 6")
>>> score_race(game)
((0, 1050, 1050), (0, 0, 0))
>>> ann, bob = player_stats(game)
>>> ann.turns, ann.best_turn, ann.on_board_turn, bob.farkles
(1, 1050, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.game import Game

__all__ = ["PlayerStats", "Career", "score_race", "player_stats", "career"]


@dataclass(frozen=True)
class PlayerStats:
    """One player's turns in one game.

    :param on_board_turn: the player's own turn (1 = their first) in which they first
        banked, i.e. got on the board; None if they never did.
    :param penalties: each third farkle in a row that took points, as (the game's turn
        number from 1, as the history numbers it; the points taken). The banked points less
        these are the player's total.
    :param hot_dice: the player's hot dice, or None when a turn of theirs was entered as
        points only: its throws, and so its hot dice, are unknown.
    """

    name: str
    turns: int
    farkles: int
    hot_dice: int | None
    best_turn: int
    banked_turns: int
    banked_points: int
    on_board_turn: int | None
    penalties: tuple[tuple[int, int], ...]

    @property
    def average_bank(self) -> float:
        """Average points of a banked turn (0 with none banked)."""
        return self.banked_points / self.banked_turns if self.banked_turns else 0.0


@dataclass(frozen=True)
class Career:
    """A player, by name, across the games on this device."""

    name: str
    games: int
    wins: int
    average_score: float
    turns: int
    farkles: int
    best_turn: int

    @property
    def farkle_rate(self) -> float:
        return self.farkles / self.turns if self.turns else 0.0


def score_race(game: Game) -> tuple[tuple[int, ...], ...]:
    """Every player's total after each turn of the game (starting at 0), one series per seat."""
    totals = [0] * len(game.players)
    series: list[list[int]] = [[0] for _ in game.players]
    for record in game.history:
        totals[record.seat] = record.total
        for seat, total in enumerate(totals):
            series[seat].append(total)
    return tuple(tuple(points) for points in series)


def player_stats(game: Game) -> tuple[PlayerStats, ...]:
    """Each seat's figures: turns, farkles, hot dice, best and average banked turn, entry."""
    stats = []
    for seat, name in enumerate(game.players):
        records = [record for record in game.history if record.seat == seat]
        penalties = tuple((turn, record.penalty) for turn, record in enumerate(game.history, 1)
                          if record.seat == seat and record.penalty)
        banked = [record for record in records if record.outcome == "banked"]
        first_bank = next((number for number, record in enumerate(records, 1) if record.outcome == "banked"), None)
        stats.append(PlayerStats(
            name=name,
            turns=len(records),
            farkles=len(records) - len(banked),
            hot_dice=None if any(not record.throws for record in records) else sum(
                1 for record in records for throw in record.throws if throw.kept and len(throw.kept) == len(throw.dice)
            ),
            best_turn=max((record.points for record in banked), default=0),
            banked_turns=len(banked),
            banked_points=sum(record.points for record in banked),
            on_board_turn=first_bank,
            penalties=penalties,
        ))
    return tuple(stats)


def career(name: str, games: Iterable[Game]) -> Career:
    """``name``'s games on this device (names compared without case), with their figures."""
    wanted = name.casefold()
    played = wins = turns = farkles = best = 0
    scores: list[int] = []
    for game in games:
        seats = [seat for seat, player in enumerate(game.players) if player.casefold() == wanted]
        if not seats:
            continue
        seat = seats[0]
        played += 1
        wins += game.winner == seat
        scores.append(game.scores[seat])
        mine = player_stats(game)[seat]
        turns, farkles, best = turns + mine.turns, farkles + mine.farkles, max(best, mine.best_turn)
    return Career(name=name, games=played, wins=wins, average_score=sum(scores) / len(scores) if scores else 0.0,
                  turns=turns, farkles=farkles, best_turn=best)
