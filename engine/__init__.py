"""Farkle Table's rules engine: pure Python, no UI, storage or QR code here.

The public API is what ``__all__`` lists; the app, the organizer and outside scripts
use nothing else. The tournament and the table codes load on first use, so a table that
only keeps score does not pay for them at start-up (it matters in the browser build).
"""

import importlib
from typing import TYPE_CHECKING, Any

from engine.dice import format_dice, parse_dice
from engine.errors import FarkleError, IllegalAction, InvalidInput
from engine.names import NAME_LONGEST, clean_name
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

if TYPE_CHECKING:
    from engine.advice import (
        Advice,
        CostlyDecision,
        KeepChoice,
        advise,
        bank_thresholds,
        catch_up_chance,
        costliest,
        costly_decisions,
        judge_decisions,
        expected_turn,
        keep_chances,
        keep_values,
        prepare,
        prepared,
        roll_value,
        step_of,
        throw_advice,
        turn_advice,
    )
    from engine.codec import (
        B45_ALPHABET,
        LINK_ROUTE,
        RESULT_PREFIX,
        SETUP_PREFIX,
        CodeAltered,
        CodeDamaged,
        ResultImpossible,
        SeatedPlayer,
        SignedResult,
        TableResult,
        TableSetup,
        decode_result,
        decode_setup,
        encode_result,
        encode_setup,
        link_form,
        read_code,
        read_sealed_result,
        result_from_game,
        safe_form,
        typing_form,
    )
    from engine.tournament import (
        Correction,
        Cut,
        Flag,
        ImportReport,
        Player,
        PlayerLookup,
        Prize,
        RollOffNeeded,
        RoundPlan,
        RoundSpec,
        StandingRow,
        Tournament,
        TournamentFormat,
        WrongEvent,
        WrongPlayers,
        WrongRound,
        WrongTable,
        RevokedCard,
        VoidedResult,
        Revocation,
        check_possible,
        table_sizes,
    )

_LAZY_MODULES = {
    **{name: "engine.advice" for name in ("expected_turn", "bank_thresholds", "catch_up_chance", "roll_value", "keep_values", "keep_chances", "advise", "Advice", "KeepChoice", "costly_decisions", "CostlyDecision", "prepare", "prepared", "turn_advice", "throw_advice", "judge_decisions", "costliest", "step_of")},
    **{name: "engine.codec" for name in ("B45_ALPHABET", "LINK_ROUTE", "RESULT_PREFIX", "SETUP_PREFIX", "CodeAltered", "CodeDamaged", "ResultImpossible", "SeatedPlayer", "SignedResult", "TableResult", "TableSetup", "decode_result", "decode_setup", "encode_result", "encode_setup", "link_form", "read_code", "read_sealed_result", "result_from_game", "safe_form", "typing_form")},
    **{name: "engine.tournament" for name in ("Correction", "Cut", "Flag", "ImportReport", "Player", "PlayerLookup", "Prize", "RollOffNeeded", "RoundPlan", "RoundSpec", "StandingRow", "Tournament", "TournamentFormat", "WrongEvent", "WrongPlayers", "WrongRound", "WrongTable", "RevokedCard", "VoidedResult", "Revocation", "check_possible", "table_sizes")},
}


def __getattr__(name: str) -> Any:
    """Import the tournament, codec and advice names when first asked for (PEP 562)."""
    module = _LAZY_MODULES.get(name)
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
    "NAME_LONGEST",
    # play advice, solved exactly under a table's rules
    "expected_turn",
    "bank_thresholds",
    "catch_up_chance",
    "roll_value",
    "keep_values",
    "keep_chances",
    "advise",
    "Advice",
    "KeepChoice",
    "costly_decisions",
    "CostlyDecision",
    "judge_decisions",
    "costliest",
    "step_of",
    "prepare",
    "prepared",
    "turn_advice",
    "throw_advice",
    # the tournament and the codes tables hand to the organizer
    "Tournament",
    "TournamentFormat",
    "RoundSpec",
    "Cut",
    "RoundPlan",
    "Player",
    "ImportReport",
    "RollOffNeeded",
    "Correction",
    "Flag",
    "StandingRow",
    "PlayerLookup",
    "Prize",
    "WrongEvent",
    "WrongRound",
    "WrongTable",
    "WrongPlayers",
    "RevokedCard",
    "VoidedResult",
    "Revocation",
    "table_sizes",
    "TableSetup",
    "TableResult",
    "SeatedPlayer",
    "SignedResult",
    "CodeDamaged",
    "CodeAltered",
    "ResultImpossible",
    "encode_setup",
    "decode_setup",
    "encode_result",
    "decode_result",
    "read_sealed_result",
    "result_from_game",
    "read_code",
    "safe_form",
    "typing_form",
    "link_form",
    "LINK_ROUTE",
    "SETUP_PREFIX",
    "RESULT_PREFIX",
    "B45_ALPHABET",
    "check_possible",
]
