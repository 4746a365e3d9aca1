"""Farkle Table's rules engine: pure Python, no UI, storage or QR code here.

The public API is what ``__all__`` lists; the app, the organizer and outside scripts
use nothing else.
"""

from engine.dice import format_dice, parse_dice
from engine.errors import FarkleError, IllegalAction, InvalidInput
from engine.game import MAX_PLAYERS, MIN_PLAYERS, Game, GameState, Notice, Offer, Throw, TurnRecord
from engine.rules import N_OF_A_KIND_MODELS, PRESET_NAMES, Rules
from engine.scoring import (
    ChartLine,
    ScoringOption,
    best_score,
    farkle_chance,
    score,
    scoring_chart,
    scoring_dice,
    scoring_options,
)

__all__ = [
    "Rules",
    "Game",
    "parse_dice",
    "score",
    "best_score",
    "scoring_options",
    "farkle_chance",
    "FarkleError",
    "InvalidInput",
    "IllegalAction",
    # beyond the contract: what the app renders
    "GameState",
    "Offer",
    "Throw",
    "TurnRecord",
    "Notice",
    "ScoringOption",
    "ChartLine",
    "scoring_chart",
    "scoring_dice",
    "format_dice",
    "PRESET_NAMES",
    "N_OF_A_KIND_MODELS",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
]
