"""Farkle Table's rules engine: pure Python, no UI, storage or QR code here.

The public API is what ``__all__`` lists; the app, the organizer and outside scripts
use nothing else. The tournament and the table codes load on first use, so a table that
only keeps score does not pay for them at start-up (it matters in the browser build).
"""

import importlib
from typing import TYPE_CHECKING, Any, Final

from engine.dice import format_dice, parse_dice
from engine.errors import FarkleError, IllegalAction, InvalidInput
from engine.names import NAME_LONGEST, clean_name, table_names
from engine.game import MAX_PLAYERS, MIN_PLAYERS, Game, GameState, Notice, Offer, Throw, TurnRecord, bank_refusal
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

_LAZY: Final[dict[str, tuple[str, ...]]] = {
    # play advice, solved exactly under a table's rules
    "engine.advice": (
        "expected_turn", "bank_thresholds", "catch_up_chance", "roll_value", "keep_values", "keep_chances", "advise",
        "Advice", "KeepChoice", "costly_decisions", "CostlyDecision", "CostlyTurn", "judge_decisions", "costliest",
        "step_of", "prepare", "prepared", "turn_advice", "throw_advice", "win_chance", "win_table_ready",
        "prepare_win_chance",
        "WinChances", "win_chances", "work_out_win_chances",
    ),
    # the tournament and the codes tables hand to the organizer
    "engine.tournament": (
        "Tournament", "TournamentFormat", "RoundSpec", "Cut", "RoundPlan", "Player", "ImportReport", "RollOffNeeded",
        "Correction", "Flag", "StandingRow", "PlayerLookup", "Prize", "WrongEvent", "WrongRound", "WrongTable",
        "WrongPlayers", "RevokedCard", "VoidedResult", "Revocation", "table_sizes", "check_possible",
    ),
    "engine.codec": (
        "TableSetup", "TableResult", "SeatedPlayer", "SignedResult", "CodeDamaged", "CodeAltered", "ResultImpossible",
        "encode_setup", "decode_setup", "encode_result", "decode_result", "read_sealed_result", "result_from_game",
        "read_code", "safe_form", "typing_form", "link_form", "LINK_ROUTE", "SETUP_PREFIX", "RESULT_PREFIX",
        "B45_ALPHABET",
    ),
}
"""The names loaded on first use, by the module that has them (each of them in its ``__all__``)."""
_MODULE_OF: Final = {name: module for module, names in _LAZY.items() for name in names}

if TYPE_CHECKING:  # the checker reads each module's names; they import only when first asked for
    from engine.advice import *  # noqa: F403
    from engine.codec import *  # noqa: F403
    from engine.tournament import *  # noqa: F403


def __getattr__(name: str) -> Any:
    """Import the tournament, codec and advice names when first asked for (PEP 562)."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
    "bank_refusal",
    "clean_name",
    "table_names",
    "NAME_LONGEST",
    *_MODULE_OF,
]
