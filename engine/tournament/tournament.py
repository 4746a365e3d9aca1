"""The organizer's tournament: every action checked, then logged as an event and applied.

:class:`Tournament` is a :class:`~engine.tournament.history.TournamentHistory` (the log,
its replay, undo and copy) with the organizer's actions and the questions the organizer's
screens ask. This module holds the checks that refuse an action (saying what was entered
and why); the pieces are in the modules beside it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime

from engine.codec import LATEST_KEY_SCHEME, SealedResult, TableResult, TableSetup, encode_setup
from engine.errors import FarkleError, IllegalAction, InvalidInput
from engine.names import NameClash, clean_name, find_clash
from engine.rules import Rules, preset_words
from engine.tournament.cards import printed_card, stamp, table_setup
from engine.tournament.checks import (
    ImportReport, WrongTable, authentic, placed, sealed_of, seated_at, seen_before, typed_result,
)
from engine.tournament.corrections import Correcting, Flag, consequence, flags, with_recut
from engine.tournament.events import (
    CardRevoked,
    DrawCancelled,
    FormatChanged,
    HeldResultSettled,
    PlayerCheckedIn,
    PlayerSignedUp,
    PrizeAwarded,
    ResultHeld,
    ResultRecorded,
    ResultReplaced,
    ResultVoided,
    RollOffRecorded,
    RoundClosed,
    RulesSwitched,
    SeatsDrawn,
)
from engine.tournament.exports import results_csv, standings_csv
from engine.tournament.format import RoundPlan, TournamentFormat
from engine.tournament.history import TournamentHistory
from engine.tournament.prizes import prize_shares
from engine.tournament.replacements import Vacancy, as_drawn, mark_missing, missing_words, take_place, vacancy, withdrawal
from engine.tournament.room import Room, room_of
from engine.tournament.seating import Tables, draw_tables
from engine.tournament.signups import PreviewLine, SignUpPreview, clash_refusal, read_sign_up_list
from engine.tournament.standings import PlayerLookup, RollOffNeeded, StandingRow, cut_of, lookup, round_places, standings
from engine.tournament.state import Correction, Player, Prize, Revocation
from engine.tournament.summary import result_summary, sentence, state_line
from engine.words import listed, one_of, say, say_n

__all__ = ["Tournament"]


class Tournament(TournamentHistory):
    """One event, from sign-up to the champion's prize.

    >>> t = Tournament("Spring cup", event_id="SPRING-26", secret=bytes(16))
    >>> for name in ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]:
    ...     t.check_in(t.sign_up(name))
    >>> [plan.describe() for plan in t.plan()]  # doctest: +NORMALIZE_WHITESPACE
    ['Round 1: 6 players, 2 tables of 3, house rules; the 4 best totals over all tables go on.',
     'Final: 4 players, 1 table of 4, house rules; the winner is the champion.']
    >>> t.draw_seats(seed=2026)
    ((5, 4, 3), (6, 1, 2))
    >>> Tournament.from_events(t.events).seating() == t.seating()
    True
    """

    def change_format(self, fmt: TournamentFormat) -> bool:
        """Put another format in place before round 1 is drawn; False if it is the same one.

        Refused once a round is drawn (the seating rests on it) and when more players are
        signed up than the new cap seats.
        """
        if not isinstance(fmt, TournamentFormat):
            raise InvalidInput(say("{fmt!r} is not a tournament format.", fmt=fmt))
        if self._state.rounds:
            raise IllegalAction(say("Round 1 is drawn: the format is fixed for the rest of the event."))
        active = self._state.active
        if active > fmt.cap:
            raise IllegalAction(
                say("{active} players are signed up: a cap of {cap} would leave {over} without a seat (withdraw "
                    "players first, or keep a higher cap).", active=active, cap=fmt.cap, over=active - fmt.cap)
            )
        if fmt.to_dict() == self.format.to_dict():
            return False
        self._push(FormatChanged(fmt))
        return True

    # -- players -------------------------------------------------------------------------

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(self._state.players[number] for number in sorted(self._state.players))

    def player(self, number: int) -> Player:
        if number not in self._state.players:
            raise InvalidInput(say("There is no player number {number!r}.", number=number))
        return self._state.players[number]

    def sign_up(self, name: str, number: int | None = None) -> int:
        """Sign a player up; returns their number (the next free one unless given).

        The name is kept in its one form (:func:`engine.names.clean_name`); one that is,
        or looks like, a name signed up already is refused with the player it matches.
        """
        entered, name = name, clean_name(name)
        if self._state.rounds:
            raise IllegalAction(say("Round 1 is drawn: sign-ups are closed, so {name} cannot join.", name=name))
        if self._state.active >= self.format.cap:
            raise IllegalAction(say("The event is full ({cap} players): {name} cannot sign up.", cap=self.format.cap, name=name))
        clash = self.name_clash(name)
        if clash is not None:
            raise IllegalAction(clash_refusal(entered, name, clash))
        if number is None:
            number = max(self._state.players, default=0) + 1
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 99_999:
            raise InvalidInput(say("{number!r} is not a player number: use 1 to 99999.", number=number))
        if number in self._state.players:
            raise IllegalAction(say("Number {number} is already {owner}'s: choose another for {name}.",
                                    number=number, owner=self._state.players[number].name, name=name))
        self._push(PlayerSignedUp(number, name))
        return number

    def name_clash(self, name: str) -> NameClash | None:
        """The player still in the event whose name ``name`` is, or looks like (None: it is new)."""
        taken = {n: player.name for n, player in self._state.players.items() if not player.withdrawn}
        return find_clash(name, taken)

    def preview_sign_ups(self, text: str) -> SignUpPreview:
        """What signing up a pasted list or CSV (:func:`read_sign_up_list`) would do; nothing is recorded.

        Each line is tried in turn on a copy of the event, with every check of
        :meth:`sign_up` (so a name twice in the list, or past the cap, is refused there).
        """
        trial = self.copy()
        from_list: dict[int, int] = {}  # the line of each number this list signs up
        lines: list[PreviewLine] = []
        for item in read_sign_up_list(text):
            entered = item.name + (f", {item.number}" if item.number else "")
            try:
                number = item.player_number()
                name = clean_name(item.name)
                clash = trial.name_clash(name)
                if clash is not None and clash.number in from_list:
                    raise IllegalAction(clash_refusal(item.name, name, clash, from_list[clash.number]))
                number = trial.sign_up(item.name, number)
            except FarkleError as refusal:
                lines.append(PreviewLine(item.line, entered, refusal=refusal.words))
                continue
            from_list[number] = item.line
            lines.append(PreviewLine(item.line, entered, name, number))
        return SignUpPreview(tuple(lines))

    def sign_up_all(self, entries: Sequence[tuple[str, int]]) -> tuple[int, ...]:
        """Sign up every (name, number) of a previewed list, or none of them if one is refused."""
        signed = len(self._events)
        try:
            return tuple(self.sign_up(name, number) for name, number in entries)
        except FarkleError:
            self._keep_first(signed)
            raise

    def check_in(self, number: int) -> None:
        player = self.player(number)
        if self._state.rounds:
            raise IllegalAction(say("Round 1 is drawn: check-in is closed ({name}, number {number}).", name=player.name, number=number))
        if player.withdrawn:
            raise IllegalAction(say("{name} (number {number}) has withdrawn and cannot check in.", name=player.name, number=number))
        if player.checked_in:
            raise IllegalAction(say("{name} (number {number}) is already checked in.", name=player.name, number=number))
        self._push(PlayerCheckedIn(number))

    def withdraw(self, number: int, reason: str = "") -> None:
        """Withdraw a player before a round (a place won at the last cut may go on: :meth:`take_place`)."""
        self._push(withdrawal(self._state, number, reason))

    def vacancy(self, number: int) -> Vacancy | None:
        """The place ``number`` won at the last cut, with who is next in line for it (None: no such place)."""
        return vacancy(self._state, number)

    def take_place(self, withdrawn: int, roll_off: Mapping[int, int] | None = None) -> None:
        """The next in line takes a withdrawn player's place (``roll_off``: the die each tied one threw)."""
        self._push(take_place(self._state, withdrawn, roll_off))

    def mark_missing(self, number: int, reason: str = "") -> None:
        """A player drawn who did not come: their table plays without them, and its card says so."""
        self._push(mark_missing(self._state, number, reason))

    def short_table(self, table: int) -> str:
        """``plays as three (Dan did not come)`` for a table of the last draw that started short; else ""."""
        return missing_words(self._state, self._state.drawn_round(None), table)

    # -- rounds and seating --------------------------------------------------------------

    @property
    def round(self) -> int:
        """The number of the round drawn last (0 before the first draw)."""
        return len(self._state.rounds)

    @property
    def round_open(self) -> bool:
        """A round is drawn and not yet closed."""
        return self._state.round_open

    @property
    def champion(self) -> int | None:
        return self._state.champion

    @property
    def champion_name(self) -> str | None:
        """The champion's name, for a list of events; None until the final is closed."""
        return None if self._state.champion is None else self.player(self._state.champion).name

    def plan(self) -> tuple[RoundPlan, ...]:
        """Every round, as played so far and as planned from now (with the cuts scaled)."""
        return self._state.plan()

    def next_round(self) -> RoundPlan:
        """The round the next draw will seat."""
        if self.champion is not None:
            raise IllegalAction(say("The event is over: {label} is the champion.", label=self._state.label(self.champion)))
        if self.round_open:
            raise IllegalAction(say("Round {round} is still being played: close it before drawing the next.", round=self.round))
        entrants = self._state.entrants()
        if len(entrants) < 2:
            if self._state.rounds:
                raise IllegalAction(say("Only {count} player is left: there is no round to draw.", count=len(entrants)))
            raise IllegalAction(say("Nobody has checked in: a round needs at least 2 players.") if not entrants else
                                say("Only one player has checked in: a round needs at least 2 players."))
        return self.plan()[self.round]

    def draw_seats(self, seed: int | None = None, *, at: datetime | None = None) -> Tables:
        """Seat the next round at random, reproducibly: the seed is recorded with the draw.

        Players who shared a table in the round before are spread over different tables
        where the numbers allow; the clashes left are recorded too, and so are the round
        of the format and its cut, so the log replays without asking the planner; and when (now by default).
        """
        plan = self.next_round()
        if seed is None:
            seed = secrets.randbelow(2**32)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidInput(say("{seed!r} is not a draw seed: a whole number, 0 or more.", seed=seed))
        before = self._spread_from(plan.number, plan.spec_index)
        tables, clashes = draw_tables(self._state.entrants(), plan.table_sizes, seed, before)
        draw = secrets.token_hex(6)  # the draw's own id: its cards' keys are bound to it
        self._push(SeatsDrawn(plan.number, seed, tables, clashes, plan.spec_index, plan.cut, LATEST_KEY_SCHEME, draw, stamp(at)))
        return tables

    def rerun_draw(self, round_number: int) -> Tables:
        """Re-run a recorded draw from its seed, to show the room it was not arranged."""
        round_ = self._state.drawn_round(round_number)
        entrants, sizes = as_drawn(round_)
        before = self._spread_from(round_.number, round_.spec_index)
        return draw_tables(entrants, sizes, round_.seed, before)[0]

    def _spread_from(self, number: int, spec_index: int) -> Tables:
        """The tables whose players round ``number`` keeps apart: the round before's, if the format spreads."""
        if self.format.rounds[spec_index].spread and number > 1:
            return self._state.rounds[number - 2].tables
        return ()

    def cancel_draw(self) -> str:
        """Undo the current round's draw (nothing recorded for it yet); what it did to the round before, in words."""
        round_ = self._state.open_round()
        if round_.results or round_.held or round_.roll_offs:
            raise IllegalAction(say("Round {number} already has results: its draw can no longer be cancelled.", number=round_.number))
        return self._correct(DrawCancelled(round_.number))

    def seating(self, round_number: int | None = None) -> Tables:
        """Player numbers at each table (table 1 first), in seat order."""
        return self._state.drawn_round(round_number).tables

    def round_advancing(self, round_number: int | None = None) -> tuple[int, ...] | None:
        """Who went on from a round, as recorded when it closed (None while it is played)."""
        return self._state.drawn_round(round_number).advancing

    def draw_info(self, round_number: int | None = None) -> tuple[int, int]:
        """(seed, clashes) of a round's draw: shown so anyone can re-run it."""
        round_ = self._state.drawn_round(round_number)
        return round_.seed, round_.clashes

    def rules_for(self, round_number: int | None = None) -> Rules:
        round_ = self._state.drawn_round(round_number)
        spec = self.format.rounds[round_.spec_index]
        return Rules.preset(round_.rules_switched or spec.rules)

    def switch_rules(self) -> None:
        """The organizer switches the final to its alternative rules (engine/RULES.md §5.7: progressive)."""
        round_ = self._state.open_round()
        spec = self.format.rounds[round_.spec_index]
        if spec.switch_to is None:
            raise IllegalAction(say("Round {number} is played under {rules} rules throughout: no switch allowed.",
                                    number=round_.number, rules=preset_words(spec.rules)))
        if round_.rules_switched:
            raise IllegalAction(say("Round {number} is already switched to {rules} rules.",
                                    number=round_.number, rules=preset_words(round_.rules_switched)))
        self._push(RulesSwitched(round_.number, spec.switch_to))

    def setup(self, table: int, link_base: str = "") -> TableSetup:
        """What the table's device needs for the current round (see :func:`engine.codec.encode_setup`)."""
        round_ = self._state.open_round()
        return table_setup(self._state, round_, table, seated_at(round_, table), link_base)

    def setup_code(self, table: int, link_base: str = "") -> str:
        return encode_setup(self.setup(table, link_base))

    def printed(self, setup: TableSetup) -> bool:
        """Whether this event printed the card ``setup`` holds (its key, not just its event code; any issue or draw)."""
        return printed_card(self._state, setup)

    def revoke_card(self, table: int, reason: str, *, at: datetime | None = None) -> int:
        """A table's card no longer signs (a lost phone): its results are refused from now on, saying so
        (one counted before stays counted). Returns the new card's issue; print its :meth:`setup_code`."""
        round_ = self._state.open_round()
        seated_at(round_, table)
        self._need_reason(reason)
        self._push(CardRevoked(round_.number, table, " ".join(reason.split()), stamp(at)))
        return self._state.rounds[-1].issue(table)

    def card_issue(self, table: int, round_number: int | None = None) -> int:
        """Which printing of its card a table signs with: 0, then 1 after its first revocation..."""
        return self._state.drawn_round(round_number).issue(table)

    def revocations(self, table: int, round_number: int | None = None) -> tuple[Revocation, ...]:
        """A table's revoked cards in a round, first to last."""
        return tuple(self._state.drawn_round(round_number).revoked.get(table, ()))

    def card_key(self, table: int, round_number: int | None = None) -> bytes:
        """The key a table's current card signs with (the key in its :meth:`setup`)."""
        return self._state.card_key(self._state.drawn_round(round_number), table)

    # -- results -------------------------------------------------------------------------

    def check_result(self, code: str | SealedResult, *, correcting: bool = False) -> TableResult:
        """Read and check a result code against the event; raises with the reason it is refused.

        The checks and their order are :mod:`engine.tournament.checks`'. ``correcting``
        allows a closed round (for :meth:`replace_result`).
        """
        return placed(self._state, authentic(self._state, sealed_of(code)), correcting)

    def import_result(self, code: str | SealedResult, *, at: datetime | None = None) -> ImportReport:
        """Check a result code and count it; a second copy is a duplicate, a different one is held,
        and so is one a player declined to confirm (the organizer counts it or asks the table again).

        A copy of a counted result is reported as a duplicate even once its round is
        closed (scanning a table's code twice is harmless); any other result for a closed
        round is refused as another round.
        """
        sealed = sealed_of(code)
        result = authentic(self._state, sealed)
        seen = seen_before(self._state, self._state.rounds[result.round - 1], result) if 1 <= result.round <= self.round else None
        if seen is not None:
            return seen
        placed(self._state, result, correcting=False)
        code = sealed.code
        round_ = self._state.rounds[result.round - 1]
        where = say("{round}, table {table}", round=self._state.format.round_name(round_.number, round_.spec_index), table=result.table)
        if round_.results.get(result.table) is not None:
            self._push(ResultHeld(result.round, result.table, result, code))
            return ImportReport(
                "held", result.round, result.table,
                say("{where} already has a different result: this one is held for the organizer to choose.", where=where),
            )
        if result.confirmations is not None and False in result.confirmations:
            self._push(ResultHeld(result.round, result.table, result, code))
            return ImportReport(
                "held", result.round, result.table,
                say("{where}: result {confirmation}, so it is held for the organizer: count it, or ask the table to confirm again "
                    "({summary}).", where=where, confirmation=self.confirmation_of(result), summary=self.result_summary(result)),
            )
        self._push(ResultRecorded(result.round, result.table, result, code, at=stamp(at)))
        counted = say("{where}: result counted ({summary}).", where=where, summary=self.result_summary(result))
        return ImportReport("accepted", result.round, result.table, counted if result.confirmations is None else
                            say("{counted} {confirmation}.", counted=counted, confirmation=sentence(self.confirmation_of(result))))

    def record_result(
        self, table: int, totals: Sequence[int], roll_offs: Sequence[Mapping[int, int]] = (), *, reason: str,
        at: datetime | None = None,
    ) -> TableResult:
        """The organizer enters a table's result by hand (totals in seat order), e.g. from a paper score sheet.

        It is checked as a result code is (the players seated there, totals and places
        possible under the round's rules) and kept as entered by hand, with ``reason``: why
        it was not scanned, required, as a correction's is (a code carries its own proof).
        A tie for the win without a roll-off is accepted here: the roll-off is then
        recorded with :meth:`record_roll_off` before the round can close.
        """
        round_ = self._state.open_round()
        if table in round_.results:
            raise IllegalAction(say("Table {table} of round {number} already has a result: replace it with a "
                                    "reason instead.", table=table, number=round_.number))
        result = typed_result(self._state, round_, table, totals, roll_offs)
        self._need_reason(reason, "a result entered by hand is kept with why (device lost, paper sheet...)")
        self._push(ResultRecorded(round_.number, table, result, "", " ".join(reason.split()), stamp(at)))
        return result

    def result_source(self, round_number: int, table: int) -> tuple[str, str]:
        """How a counted result arrived: ("code" or "entered" by hand, the reason kept with it)."""
        recorded = self._state.drawn_round(round_number).results.get(table)
        if recorded is None:
            raise IllegalAction(say("Round {round_number}, table {table} has no result.", round_number=round_number, table=table))
        return ("code" if recorded.code else "entered"), recorded.reason

    def confirmation(self, round_number: int, table: int) -> str:
        """How the players confirmed a counted result at their table: ``confirmed by 4 of 4``,
        ``confirmed by 3 of 4 · Bob declined``, ``not confirmed (older table app)`` for a code
        made before tables asked, ``entered by hand`` for a result the organizer typed in."""
        recorded = self._state.drawn_round(round_number).results.get(table)
        if recorded is None:
            raise IllegalAction(say("Round {round_number}, table {table} has no result.", round_number=round_number, table=table))
        return recorded.confirmation_line(self._state.players)

    def confirmation_of(self, result: TableResult) -> str:
        """How the players confirmed ``result`` (a code's, e.g. a held one) at their table."""
        return result.confirmation_line([self._state.players[n].name for n in result.numbers])

    def void_result(self, round_number: int, table: int, reason: str, *, at: datetime | None = None) -> str:
        """Strike a table's result out for good (its code is refused again, with when and why); what
        depended on it follows or is flagged (:mod:`~engine.tournament.corrections`), as the words returned say."""
        round_ = self._state.drawn_round(round_number)
        self._need_reason(reason)
        if table not in round_.results:
            raise IllegalAction(say("Round {number}, table {table} has no result to void.", number=round_.number, table=table))
        return self._correct(ResultVoided(round_.number, table, reason.strip(), stamp(at)))

    def replace_result(
        self,
        round_number: int,
        table: int,
        reason: str,
        *,
        code: str | None = None,
        totals: Sequence[int] | None = None,
        roll_offs: Sequence[Mapping[int, int]] = (),
    ) -> str:
        """Put another result in a table's place, from a code or typed totals, as :meth:`void_result` does."""
        round_ = self._state.drawn_round(round_number)
        self._need_reason(reason)
        if (code is None) == (totals is None):
            raise InvalidInput(say("Replace a result with either a result code or the totals, not both or neither."))
        if code is not None:
            sealed = sealed_of(code)
            result = self.check_result(sealed, correcting=True)
            if (result.round, result.table) != (round_.number, table):
                raise WrongTable(say("That code is for round {round}, table {table}, not round {number}, table "
                                     "{asked}.", round=result.round, table=result.table, number=round_.number, asked=table))
            source = sealed.code
        else:
            result = typed_result(self._state, round_, table, totals or (), roll_offs)
            source = ""
        return self._correct(ResultReplaced(round_.number, table, result, source, reason.strip()))

    def held_results(self) -> tuple[tuple[int, int, TableResult, TableResult | None], ...]:
        """(round, table, held result, result counted now) for every conflict awaiting a choice."""
        return tuple(
            (round_.number, table, held.result, round_.results[table].result if table in round_.results else None)
            for round_ in self._state.rounds
            for table, items in sorted(round_.held.items())
            for held in items
        )

    def settle_held(self, table: int, take: bool, reason: str, index: int = 0) -> None:
        """Choose between the counted result and a held one (``take=True``: the held one counts);
        for a table with none counted yet, ``take=False`` asks the table to confirm again."""
        round_ = self._state.open_round()
        self._need_reason(reason)
        items = round_.held.get(table, ())
        if not 0 <= index < len(items):
            raise IllegalAction(say("Round {number}, table {table} has no held result number {index}.",
                                    number=round_.number, table=table, index=index + 1))
        self._push(HeldResultSettled(round_.number, table, index, take, reason.strip()))

    def missing_tables(self) -> tuple[int, ...]:
        """Tables of the current round still without a result."""
        return self._state.missing_tables()

    def result_summary(self, result: TableResult) -> str:
        """A table's result in one line, by place: ``1. Bob 10,050, 2. Ann 7,500`` (the words of
        :func:`engine.tournament.summary.result_summary`, as the import and the screens say it)."""
        return result_summary(self._state, result)

    def state_line(self) -> str:
        """Where the event stands, in one line: ``Round 1 is being played: waiting for table 2.``
        (the words of :func:`engine.tournament.summary.state_line`)."""
        return state_line(self._state)

    def room(self) -> Room:
        """Where the room stands, for a display and the round at a glance (:mod:`~engine.tournament.room`)."""
        return room_of(self._state)

    def results(self, round_number: int | None = None) -> dict[int, TableResult]:
        round_ = self._state.drawn_round(round_number)
        return {table: recorded.result for table, recorded in sorted(round_.results.items())}

    def corrections(self) -> tuple[Correction, ...]:
        return tuple(item for round_ in self._state.rounds for item in round_.corrections)

    # -- cuts and roll-offs --------------------------------------------------------------

    def pending_roll_offs(self, round_number: int | None = None) -> tuple[RollOffNeeded, ...]:
        """Ties at the cut that block the round from closing (only once every table has a result)."""
        return cut_of(self._state, self._state.drawn_round(round_number))[1]

    def record_roll_off(self, table: int, faces: Mapping[int, int]) -> None:
        """The die each tied player threw at a cut (``table`` 0: a tie over all tables)."""
        round_ = self._state.open_round()
        for number, face in faces.items():
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                raise InvalidInput(say("{face!r} for player {number} is not a die face: a die shows 1 to 6.", face=face, number=number))
        needed = [item for item in cut_of(self._state, round_)[1] if item.table == table]
        if not any(set(item.numbers) == set(faces) for item in needed):
            if not needed:
                where = say("over all tables") if table == 0 else say("at table {table}", table=table)
                raise IllegalAction(say("Round {number} has no tie to roll off {where}.", number=round_.number, where=where))
            wanted = one_of([item.players for item in needed])
            thrown = listed([self._state.label(n) if n in self._state.players else say("number {number}", number=n)
                             for n in sorted(faces)])
            raise IllegalAction(
                say("The roll-off must be thrown by {wanted} (all still tied, and only them), not {thrown}.", wanted=wanted, thrown=thrown)
            )
        self._push(RollOffRecorded(round_.number, table, tuple(sorted(faces.items()))))

    def close_round(self) -> tuple[int, ...]:
        """Apply the cut and record who goes on (the champion, after the final)."""
        round_ = self._state.open_round()
        missing = self.missing_tables()
        if round_.held:
            tables = ", ".join(map(str, sorted(round_.held)))
            raise IllegalAction(say("Round {number} has held results for table {tables}: choose which counts first.",
                                    number=round_.number, tables=tables))
        if missing:
            raise IllegalAction(say_n("Round {number} waits for the results of table {tables}.",
                                      "Round {number} waits for the results of tables {tables}.", len(missing),
                                      number=round_.number, tables=", ".join(map(str, missing))))
        advancing, pending = cut_of(self._state, round_)
        if pending:
            raise IllegalAction(say("Nothing goes on while a tie is open. {ties}", ties=listed([item.describe() for item in pending], " ")))
        self._push(RoundClosed(round_.number, advancing))
        return advancing

    def flags(self) -> tuple[Flag, ...]:
        """What rests on results corrected after their round's cut, and a prize that no longer stands."""
        return flags(self._state)

    def _correct(self, event: Correcting) -> str:
        """Log a correction with the cut it takes again; what it did beyond its table, in words."""
        before = self._state
        self._push(with_recut(before, event))
        return consequence(before, self._state)

    # -- standings, lookup, prize ---------------------------------------------------------

    def standings(self) -> tuple[StandingRow, ...]:
        """Everyone, best first: furthest round reached, then place in it, then the rounds before."""
        return standings(self._state)

    def round_places(self) -> dict[int, tuple[int | None, ...]]:
        """Each player's place in each round (by number): it ranks them before their total."""
        return self._state.cached("places", lambda: round_places(self._state))

    def lookup(self, query: str | int) -> tuple[PlayerLookup, ...]:
        """Find players by number or by part of their name: table, seat and standing."""
        return lookup(self._state, query)

    def award_prize(self, amount: int, currency: str = "$", split: Mapping[int, int] | None = None, note: str = "") -> Prize:
        """Record the prize with the champion; ``split``: what each finalist agreed to take."""
        shares = prize_shares(self._state, self.champion, amount, split)
        self._push(PrizeAwarded(amount, currency.strip() or "$", tuple(sorted(shares.items())), note.strip()))
        assert self._state.prize is not None
        return self._state.prize

    @property
    def prize(self) -> Prize | None:
        return self._state.prize

    # -- exports -------------------------------------------------------------------------

    def standings_csv(self) -> str:
        """The standings as CSV: rank, number, name, status and each round's total."""
        return standings_csv(self._state)

    def results_csv(self) -> str:
        """Every result counted or held, one row per seat, with where it came from."""
        return results_csv(self._state)

    # -- helpers -------------------------------------------------------------------------

    @staticmethod
    def _need_reason(reason: str, why: str = "corrections are kept with their reason") -> None:
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidInput(say("Give a reason: {why}.", why=why))
