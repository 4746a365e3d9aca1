"""The engine's public names: what the app and outside scripts may import, and its constants."""

from __future__ import annotations

import ast
import importlib
import io
import tokenize
from pathlib import Path

import pytest

import engine

ENGINE = Path(engine.__file__).resolve().parent

# What code outside the engine imported from engine.tournament when it was one module.
TOURNAMENT_NAMES = [
    "Correction", "Cut", "Flag", "ImportReport", "Player", "PlayerLookup", "Prize", "RollOffNeeded", "RoundPlan",
    "RoundSpec", "StandingRow", "Tournament", "TournamentFormat", "WrongEvent", "WrongPlayers", "WrongRound",
    "WrongTable", "table_sizes",
]


@pytest.mark.parametrize("name", engine.__all__)
def test_every_public_name_of_the_engine_resolves(name: str) -> None:
    assert getattr(engine, name) is not None


@pytest.mark.parametrize("name", engine.__all__)
def test_every_public_name_of_the_engine_is_listed_once(name: str) -> None:
    assert engine.__all__.count(name) == 1


@pytest.mark.parametrize("name", TOURNAMENT_NAMES)
def test_every_name_imported_from_the_tournament_module_is_still_there(name: str) -> None:
    tournament = importlib.import_module("engine.tournament")
    assert getattr(tournament, name) is getattr(engine, name)


def test_the_code_constants_are_public() -> None:
    assert (engine.SETUP_PREFIX, engine.RESULT_PREFIX, engine.MAX_PLAYERS) == ("FT1", "FR1", 8)
    assert len(engine.B45_ALPHABET) == 45 and engine.B45_ALPHABET.startswith("0123456789ABC")


def string_literals(path: Path) -> list[str]:
    """Every string literal of a module that is code, not documentation (a bare string statement)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documentation = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
    ]


@pytest.mark.parametrize("constant", ["SETUP_PREFIX", "RESULT_PREFIX", "B45_ALPHABET"])
def test_each_code_constant_is_spelled_once_in_the_engine(constant: str) -> None:
    value = getattr(engine, constant)
    found = [path.relative_to(ENGINE).as_posix() for path in sorted(ENGINE.rglob("*.py")) for text in string_literals(path) if value in text]
    assert found == ["codec/primitives.py"]


def test_the_table_limit_is_spelled_once_in_the_engine() -> None:
    spelled = []
    for path in sorted(ENGINE.rglob("*.py")):
        for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            if token.type == tokenize.NUMBER and token.string == "8":
                spelled.append(f"{path.relative_to(ENGINE).as_posix()}: {token.line.strip()}")
    assert spelled == ["game/state.py: MAX_PLAYERS = 8"]


# What engine.game exported when it was one module.
GAME_NAMES = [
    "Game", "GameState", "Offer", "Throw", "TurnRecord", "Notice", "Phase", "MIN_PLAYERS", "MAX_PLAYERS", "apply",
    "bank_refusal",
]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_name_of_the_game_module_still_imports_from_engine_game(name: str) -> None:
    game = importlib.import_module("engine.game")
    assert name in game.__all__ and getattr(game, name) is not None
