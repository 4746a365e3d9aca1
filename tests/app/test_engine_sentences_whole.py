"""The engine's sentences are the catalogue's messages through and through: in a language that
translates every message, no English made in code is left (a combination's name, a player's
label, a correction's kind, a preset's key, a code's kind, a separator between decisions).

The language here is made for the test: each message's words in capitals, its ``{places}`` as
they are. Names and reasons are in capitals too, so any lower-case letter left is English the
engine wrote around the catalogue.
"""

from __future__ import annotations

import functools
import gettext
import json
import re
from collections.abc import Iterator

import pytest

import app.i18n
from app.i18n import catalogue_from_po, tr_words
from app.i18n.template import app_messages
from engine import FarkleError, Game, Rules, scoring_options
from engine.advice.review import CostlyDecision, CostlyTurn
from engine.events import Built, GameStarted
from engine.game.undo import undone
from engine.codec import decode_result, decode_setup
from engine.tournament import Cut, RoundSpec, Tournament, TournamentFormat
from engine.tournament.describe import describe
from engine.tournament.events import RulesSwitched
from engine.tournament.state import Correction, Revocation, Voided
from engine.words import say
from tests.support.tournament_support import SECRET, default_totals

FORMAT = TournamentFormat("Two rounds", 8, (RoundSpec("house", Cut.per_table(2)),
                                            RoundSpec("house", Cut.final(), switch_to="progressive")))


def capitals(text: str) -> str:
    """A message's words in capitals, its places untouched."""
    return re.sub(r"\{[^{}]*\}|[^{}]+", lambda part: part[0] if part[0].startswith("{") else part[0].upper(), text)


def _entry(msgid: str, plural: str | None) -> str:
    quoted = json.dumps
    if plural is None:
        return f"msgid {quoted(msgid)}\nmsgstr {quoted(capitals(msgid))}\n"
    return (f"msgid {quoted(msgid)}\nmsgid_plural {quoted(plural)}\n"
            f"msgstr[0] {quoted(capitals(msgid))}\nmsgstr[1] {quoted(capitals(plural))}\n")


@functools.cache
def _capitals_catalogue() -> gettext.GNUTranslations:
    """A catalogue that translates every message the app and the engine have (read from the source once)."""
    header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
    return catalogue_from_po("\n".join([header, *(_entry(m.msgid, m.plural) for m in app_messages())]))


@pytest.fixture(autouse=True)
def every_message_in_capitals(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every text is said as a session in that language says it."""
    catalogue = _capitals_catalogue()
    monkeypatch.setattr(app.i18n, "_current", lambda: ("caps", catalogue))
    yield


def english_left(words: str | FarkleError) -> list[str]:
    """The lower-case words of what a person reads: English written around the catalogue."""
    shown = tr_words(words.words if isinstance(words, FarkleError) else words)
    return re.findall(r"[a-z]+", shown)


def refusal(action: object) -> FarkleError:
    with pytest.raises(FarkleError) as raised:
        action()  # type: ignore[operator]
    return raised.value


def drawn(players: int = 8, checked_in: bool = True) -> Tournament:
    t = Tournament("CUP", FORMAT, event_id="CUP-1", secret=SECRET)
    for index in range(players):
        number = t.sign_up(f"PLAYER {chr(65 + index)}")
        if checked_in:
            t.check_in(number)
    return t


def test_every_way_to_score_a_throw_is_named_in_the_readers_language() -> None:
    for roll in ("3 3 3 1 5 2", "1 1 2 2 3 3", "1 2 3 4 5 6", "2 2 2 3 3 3", "4 4 4 4 2 2", "5 5 5 5 5 1", "6 6 6 6 6 6"):
        for option in scoring_options(roll, Rules.preset("house")):
            assert english_left(option.breakdown) == [], (roll, option.breakdown)
    assert tr_words(scoring_options("3 3 3 1 5 2", Rules.preset("house"))[0].breakdown) == "THREE 3S 300 + 1 100 + 5 50"


def test_a_players_label_a_revoked_card_and_a_voided_result_are_said_whole() -> None:
    t = drawn()
    t.draw_seats(seed=1)
    state = t._state
    assert english_left(state.label(1)) == []
    assert english_left(state.where(state.rounds[-1], 1)) == []
    for at in ("2026-12-05T14:02:00", None):
        assert english_left(Revocation(1, "PHONE LOST", at).described) == []
    t.record_result(1, default_totals(t.seating()[0]), reason="SHEET")
    recorded = t._state.rounds[-1].results[1]
    assert english_left(Voided(recorded, "WRONG TABLE", "2026-12-05T14:02:00").described) == []
    assert english_left(recorded.confirmation_line(t._state.players)) == []


@pytest.mark.parametrize("kind", ["voided", "replaced", "held result taken", "held result dismissed"])
@pytest.mark.parametrize("after_close", [False, True])
def test_each_kind_of_correction_is_a_phrase_of_its_own(kind: str, after_close: bool) -> None:
    correction = Correction(1, 2, kind, "WRONG SHEET", after_close)  # type: ignore[arg-type]
    assert english_left(correction.describe()) == []


def test_a_round_without_enough_players_a_rules_switch_and_a_plan_name_their_preset_in_the_readers_language() -> None:
    assert english_left(refusal(lambda: drawn(1).next_round())) == []
    assert english_left(refusal(lambda: drawn(2, checked_in=False).next_round())) == []
    t = drawn()
    assert english_left(refusal(t.switch_rules)) == []  # no round is being played
    t.draw_seats(seed=1)
    assert english_left(refusal(t.switch_rules)) == []  # round 1 keeps its rules throughout
    assert all(english_left(plan.describe()) == [] for plan in t.plan())
    assert all(english_left(plan.describe()) == [] for plan in drawn(7).plan())  # a table of 4 and one of 3
    assert english_left(describe(RulesSwitched(2, "progressive"), t._state)) == []


def test_a_short_table_is_said_whole_whoever_did_not_come() -> None:
    t = drawn()
    t.draw_seats(seed=1)
    first, second = t.seating()[0][:2]
    t.mark_missing(first)
    assert english_left(t.short_table(1)) == []
    assert english_left(t.player(first).reason) == []  # the default reason, logged in English
    t.mark_missing(second, "ILL")
    assert english_left(t.short_table(1)) == []


def test_a_code_of_the_wrong_kind_or_misread_is_refused_in_the_readers_language() -> None:
    t = drawn()
    t.draw_seats(seed=1)
    setup = t.setup_code(1)
    assert english_left(refusal(lambda: decode_result(setup))) == []
    mistyped = setup[:20] + ("A" if setup[20] != "A" else "B") + setup[21:]
    assert "does not pass its check" in str(refusal(lambda: decode_setup(mistyped)))
    assert english_left(refusal(lambda: decode_setup(mistyped))) == []


def test_an_offer_to_pass_and_a_turns_decisions_are_whole_sentences() -> None:
    game = Game(["ANN", "BOB"], Rules.preset("progressive"))
    game.roll("1 1 1 5 2 3")
    game.keep("1 1 1 5")
    game.bank()
    assert [left for notice in game.notices for left in english_left(notice.text)] == []
    decisions = (CostlyDecision(0, 4, say("kept {keep} ({points:,})", keep="1", points=100), say("threw six fresh dice"), 20.0),
                 CostlyDecision(0, 4, say("threw six fresh dice"), say("built on the offer"), 30.0))
    assert english_left(CostlyTurn(0, 4, decisions).describe()) == []


def test_what_undo_took_back_is_named_for_every_kind_of_action() -> None:
    game = Game(["ANN", "BOB"], Rules.preset("house"))
    started = GameStarted(("ANN", "BOB"), Rules.preset("house"), 0)
    assert english_left(undone(started, game.state, game.state).text) == []
    assert english_left(undone(Built(), game.state, game.state).text) == []  # no offer to name: the turn before
