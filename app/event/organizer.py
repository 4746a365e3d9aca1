"""The organizer's tournaments without any widget: open, act, persist, undo.

Like :class:`app.table.scorekeeper.Scorekeeper` for a game: screens call this and render what
it holds; every rule is the engine's (:class:`engine.Tournament`), every write the
event's :class:`~app.storage.DocumentSession` (what an event's document is:
:mod:`app.documents.events`). An action is shown only after the store has kept it; a
refused action raises the engine's error and changes nothing.

Beside it: the format being edited (:mod:`app.event.format_draft`), a sign-up file's text
(:mod:`app.event.sign_up_file`) and the numbers the organizer types (:mod:`app.event.number_entry`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from app.documents import CHECKS
from app.documents.events import (
    KIND,
    CopyMark,
    KeptEvent,
    Refusal,
    TournamentSummary,
    copy_kept,
    copy_mark,
    event_summaries,
    players_page_kept,
    players_page_open,
    refusals,
    refusals_kept,
)
from app.event.event_copy import CopyOpened, CopyRefused, EventCopy, open_copy
from app.event.codes import SharedCode, holders_among, refuse_taken_code
from app.event.format_draft import FormatDraft
from app.event.number_entry import ORGANIZER_DIGITS, parse_number
from app.storage import ChangedElsewhere, DocumentSession, Store, StoreError, new_id, utc_now_iso
from app.storage.base import off_the_loop
from app.storage.errors import failure_in_words
from app.i18n import tr, tr_words
from engine.codec import MAX_CODE_CHARS, SealedResult
from engine.tournament.checks import sealed_of
from engine.tournament.signups import SignUpPreview
from engine import (
    CodeDamaged,
    FarkleError,
    IllegalAction,
    ImportReport,
    InvalidInput,
    Prize,
    TableResult,
    Tournament,
    TournamentFormat,
    read_code,
)

__all__ = ["Organizer", "TournamentSummary", "ListChanged", "DrawCheck", "describe_error"]

T = TypeVar("T")
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DrawCheck:
    """The recorded draw re-run from its seed: the same seating again, or not."""

    seed: int
    same: bool

    @property
    def message(self) -> str:
        if self.same:
            return tr("Re-run from seed {seed}: the same seating, table for table.", seed=self.seed)
        return tr("Re-run from seed {seed} gives another seating: the recorded draw was changed.", seed=self.seed)


class ListChanged(IllegalAction):
    """A previewed sign-up list would now add other players than shown: :attr:`preview` is the new one."""

    def __init__(self, preview: SignUpPreview) -> None:
        super().__init__(tr("The players signed up changed since the preview: check the new preview below, then "
                            "add again."))
        self.preview = preview


class Organizer:
    """Holds the open tournament and keeps the store in step with it (a :class:`DocumentSession`).

    When another screen saved the event meanwhile, it takes that screen's event and raises
    :class:`~app.storage.ChangedElsewhere`, writing nothing.
    """

    def __init__(self, store: Store, announce: Callable[[str], None] = lambda tournament_id: None) -> None:
        self.store = store
        store.check_with(CHECKS)
        self.session = DocumentSession(store, KIND)
        self.announce = announce
        """Tells the other screens showing an event that it was saved (:mod:`app.documents.changes`)."""

    @property
    def tournament(self) -> Tournament | None:
        kept = self.session.value
        return kept.tournament if kept is not None else None

    @property
    def tournament_id(self) -> str | None:
        return self.session.doc_id

    @property
    def revision(self) -> int:
        """The stored revision the open tournament was read at or saved as (0: not stored yet)."""
        return self.session.revision

    @property
    def link_base(self) -> str:
        return self.session.value.link_base if self.session.value is not None else ""

    @property
    def refusals(self) -> tuple[Refusal, ...]:
        """The result codes refused lately on this device, newest first (kept beside the event)."""
        return refusals(self.session.beside)

    @property
    def passphrase_hash(self) -> str:
        """The open event's organizer passphrase as a salted hash (:mod:`app.event.passphrase`); "" for none yet."""
        return self.session.value.passphrase_hash if self.session.value is not None else ""

    # -- the list of events -------------------------------------------------------------

    async def summaries(self) -> list[TournamentSummary]:
        """Every readable tournament, most recently changed first (from the events' index)."""
        return await event_summaries(self.store)

    async def create(
        self, name: str, cap: int | None = None, event_id: str | None = None, link_base: str = "",
        format: TournamentFormat | None = None, passphrase_hash: str = "",
    ) -> str:
        """Create, persist and open a tournament: ``format`` (the house tournament by default), ``cap`` another cap,
        ``passphrase_hash`` its organizer passphrase's hash (:func:`app.event.passphrase.hash_passphrase`).

        :raises CodeTaken: another stored event holds the code (:mod:`app.event.codes`); nothing is stored.
        """
        fmt = format or TournamentFormat.house()
        if cap is not None and cap != fmt.cap:
            fmt = TournamentFormat(fmt.name, cap, fmt.rounds)
        tournament = Tournament(name, fmt, event_id=event_id or None)
        await refuse_taken_code(self.store, tournament.event_id)
        tournament_id = new_id()
        await self.session.create(tournament_id, KeptEvent(tournament, link_base.strip().rstrip("/"), passphrase_hash))
        return tournament_id

    async def open(self, tournament_id: str) -> Tournament | None:
        """The stored tournament as it is now (its log replayed); None if there is no readable one.

        Reading again is cheap: the open tournament is kept when the store still holds
        the revision it was read at.
        """
        try:
            kept = await self.session.open(tournament_id)
        except (FarkleError, KeyError, TypeError):
            return None
        return kept.tournament if kept is not None else None

    async def passphrase_hashes(self) -> dict[str, str]:
        """Every stored event's organizer passphrase hash by id ("" where none is set yet)."""
        return {summary.id: summary.passphrase_hash for summary in await event_summaries(self.store)}

    async def set_passphrase_hash(self, passphrase_hash: str) -> None:
        """Keep a new organizer passphrase (its hash) with the open event."""
        await self.session.act(lambda kept: (replace(kept, passphrase_hash=passphrase_hash), None))

    async def event_for_code(self, text: str | SealedResult) -> str | None:
        """The stored event a result code (any form) would be imported into, without opening it.

        The event holding the code the result claims to be from; without one stored here, the
        open event, else the latest (the import then refuses the code in the engine's words);
        None when this device runs no tournament.

        :raises CodeDamaged: the text is not a readable result code.
        :raises SharedCode: several stored events hold its code (data kept before codes were
            unique): which one is meant is the person's to choose, never guessed.
        """
        return (await self._event_for(text))[1]

    async def open_event_of(self, text: str | SealedResult) -> str:
        """Open the event a result code would be imported into (:meth:`event_for_code`); its id.

        :raises CodeDamaged: the text is not a readable result code.
        :raises SharedCode: several stored events hold its code.
        :raises LookupError: this device runs no tournament.
        """
        event_id, tournament_id = await self._event_for(text)
        if tournament_id is None or await self.open(tournament_id) is None:
            raise LookupError(tr("This result is for event {event}, and this device runs no tournament.",
                                 event=event_id))
        return tournament_id

    async def _event_for(self, text: str | SealedResult) -> tuple[str, str | None]:
        """The event code a result claims (its code read once) and the stored event it goes to,
        from one listing of the events' index."""
        event_id = self.event_of(text)
        events = await event_summaries(self.store)
        holders = holders_among(events, event_id)
        if len(holders) > 1:
            raise SharedCode(event_id, holders)
        tournament_id = holders[0].id if holders else self.tournament_id
        if tournament_id is None and events:
            tournament_id = events[0].id
        return event_id, tournament_id

    async def delete(self, tournament_id: str) -> None:
        await self.session.delete(tournament_id)

    # -- acting -------------------------------------------------------------------------

    @property
    def open_tournament(self) -> Tournament:
        return self._kept().tournament

    def _kept(self) -> KeptEvent:
        if self.session.value is None:
            raise LookupError(tr("No tournament is open."))
        return self.session.value

    async def act(self, action: Callable[[Tournament], T]) -> T:
        """Apply an engine action to the open tournament and persist it before returning.

        The action plays on a copy of the tournament (it may take several engine steps:
        check in everyone): a refused action raises the engine's error and changes
        nothing, a failed write keeps the tournament held before and raises the store's
        error; another screen's save in between shows that screen's event
        (:class:`~app.storage.ChangedElsewhere`).
        """
        self._kept()

        def play(kept: KeptEvent) -> tuple[KeptEvent, T]:
            trial = kept.tournament.copy()
            answer = action(trial)
            if len(trial) == len(kept.tournament):  # every action that changes the event logs or takes back events
                return kept, answer
            return replace(kept, tournament=trial), answer

        answer = await self.session.act(play)
        if self.session.doc_id is not None:
            self.announce(self.session.doc_id)
        return answer

    async def undo(self) -> str:
        """Take back the last organizer action, stored before it returns; what it took back, in words."""
        return await self.act(lambda tournament: tournament.undo())

    async def check_in_all(self) -> int:
        """Check in everyone signed up and not yet checked in; how many that was."""

        def check_all(tournament: Tournament) -> int:
            waiting = [p.number for p in tournament.players if not p.withdrawn and not p.checked_in]
            if not waiting:
                raise InvalidInput(tr("Everyone signed up is already checked in."))
            for number in waiting:
                tournament.check_in(number)
            return len(waiting)

        return await self.act(check_all)

    async def preview_sign_ups(self, text: str) -> SignUpPreview:
        """What signing up a pasted list or CSV would add and refuse, line by line; nothing is changed.

        Worked out in a worker thread (a list may hold 1,000 lines, each tried on the event;
        one too large is refused by its size first), so other devices are answered meanwhile.
        """
        if not text or text.isspace():
            raise InvalidInput(tr("Paste or type the names first: one a line, or a CSV of name and number."))
        return await off_the_loop(self.open_tournament.preview_sign_ups, text)

    async def sign_up_list(self, text: str, shown: SignUpPreview) -> tuple[int, ...]:
        """Sign up the players the preview ``shown`` adds, all stored in one write before it returns.

        Refused, with nothing changed, when the list would now add others (the event changed
        since: another screen signed someone up): the screen shows the new preview to check.
        The list is previewed again in a worker thread; only if this screen acted meanwhile is
        it previewed once more, on the event as it is then.
        """
        previewed = self.open_tournament
        again = await off_the_loop(previewed.preview_sign_ups, text)

        def sign_up_all(tournament: Tournament) -> tuple[int, ...]:
            now = again if self.open_tournament is previewed else tournament.preview_sign_ups(text)
            if now.entries != shown.entries:
                raise ListChanged(now)
            if not now.entries:
                raise InvalidInput(tr("Nothing to add: every line of the list is refused (the reasons are listed)."))
            return tournament.sign_up_all(now.entries)

        return await self.act(sign_up_all)

    async def check_in_number(self, text: str) -> int:
        """Check in the player whose number was typed (``12`` or ``#12``); their number."""
        number = parse_number(tr("A player number"), text.strip().lstrip("#"), minimum=1, digits=ORGANIZER_DIGITS)
        await self.act(lambda tournament: tournament.check_in(number))
        return number

    async def revoke_card(self, table: int, reason: str) -> int:
        """A table's card no longer signs (a lost phone): results it signs are refused from now on.

        The table gets a new card with a new key (its setup code on the seating and print
        pages); returns the new card's issue (1 for the first re-issue).
        """
        return await self.act(lambda tournament: tournament.revoke_card(table, reason))

    def verify_draw(self) -> DrawCheck:
        """Re-run the current round's draw from its recorded seed and compare the seating."""
        tournament = self.open_tournament
        if not tournament.round:
            raise InvalidInput(tr("No round has been drawn yet: there is no draw to re-run."))
        again = tournament.rerun_draw(tournament.round)
        return DrawCheck(tournament.draw_info()[0], again == tournament.seating())

    def preview_format(self, draft: FormatDraft) -> TournamentFormat:
        """The draft's format as the engine would take it for the open event now (nothing is changed).

        :raises FarkleError: the engine's refusal of the format or of the change.
        """
        fmt = draft.build()
        self.open_tournament.copy().change_format(fmt)
        return fmt

    async def change_format(self, draft: FormatDraft) -> bool:
        """Put the edited format in place before round 1 is drawn; False if nothing changed."""
        fmt = draft.build()
        return await self.act(lambda tournament: tournament.change_format(fmt))

    async def enter_paper_result(self, table: int, totals: Sequence[str], reason: str) -> TableResult:
        """A table's final totals typed from paper (seat order), with why they were not scanned.

        The engine checks them as it checks a result code; the reason is kept with the result.
        """
        tournament = self.open_tournament
        if not tournament.round_open:
            raise InvalidInput(tr("No round is being played now: a paper result is entered while its round is open."))
        numbers = tournament.seating()[table - 1] if 1 <= table <= len(tournament.seating()) else ()
        values = [
            parse_number(tr("The total of {name} (seat {seat})",
                            name=tournament.player(number).name, seat=seat), text, digits=ORGANIZER_DIGITS)
            for seat, (number, text) in enumerate(zip(numbers, totals), 1)
        ]
        if not " ".join(str(reason).split()):
            raise InvalidInput(tr("Give a reason: a result entered by hand is kept with why (device lost, paper "
                                  "sheet...)."))
        return await self.act(lambda t: t.record_result(table, values, reason=reason))

    async def award_prize(self, amount: str, currency: str, shares: Mapping[int, str], note: str) -> Prize:
        """The prize as typed: the amount, and each finalist's share where one is given (else all to the champion)."""
        tournament = self.open_tournament
        whole = parse_number(tr("The prize"), amount, minimum=1, digits=ORGANIZER_DIGITS)
        split = {
            number: parse_number(tr("{name}'s share",
                                    name=tournament.player(number).name), share, digits=ORGANIZER_DIGITS)
            for number, share in shares.items() if share.strip()
        }
        return await self.act(lambda t: t.award_prize(whole, currency.strip() or "$", split or None, note))

    async def set_link_base(self, link_base: str) -> None:
        """Where phones reach this app (``http://host:port``): put in each setup code for the result's deep link."""
        text = link_base.strip().rstrip("/")
        if text and not (text.startswith("http://") or text.startswith("https://")):
            raise CodeDamaged(tr("{link_base!r} is not an address: it starts with http:// or https://.",
                                 link_base=link_base))
        await self.session.act(lambda kept: (replace(kept, link_base=text), None))

    async def import_code(self, text: str | SealedResult) -> ImportReport:
        """Check a result code (any form) and count, hold or report it as a duplicate.

        A refusal raises the engine's error after being kept in the refused list, beside the
        event (another screen's next action is not refused as "changed elsewhere" for it).
        """
        read: str | SealedResult = text
        try:
            read = sealed_of(text)  # once: the event's checks and the refused list take it as read
            sealed = read
            return await self.act(lambda tournament: tournament.import_result(sealed))
        except FarkleError as refusal:
            await self._remember_refusal(read, str(refusal))
            raise

    async def _remember_refusal(self, text: str | SealedResult, reason: str) -> None:
        if isinstance(text, SealedResult):
            code = text.code
        else:
            try:
                code = read_code(text)
            except CodeDamaged:  # kept as typed, up to what a code can be: a pasted novel is not stored 30 times
                code = " ".join(str(text)[:MAX_CODE_CHARS].split())
        try:
            await self.session.keep_beside(**refusals_kept((Refusal(utc_now_iso(), code, reason), *self.refusals)))
        except StoreError:
            pass  # the refusal is still shown; only its memory is lost

    async def clear_refusals(self) -> None:
        await self.session.keep_beside(**refusals_kept(()))

    @staticmethod
    def event_of(text: str | SealedResult) -> str:
        """The event a result code claims to be from (not yet trusted); raises :class:`CodeDamaged`."""
        return sealed_of(text).event_id

    # -- the players' page -------------------------------------------------------------

    @property
    def players_page_open(self) -> bool:
        """Whether phones may open the players' page of the open event (kept beside it)."""
        return players_page_open(self.session.beside)

    async def open_players_page(self, open_: bool) -> None:
        """Open or close the players' page, kept beside the event; players' pages already open
        are told, so a closed page stops showing the event without a tap.

        :raises StoreError: it was not kept; the page stays as it was.
        """
        self._kept()
        await self.session.keep_beside(**players_page_kept(open_))
        assert self.session.doc_id is not None
        self.announce(self.session.doc_id)

    # -- exports ------------------------------------------------------------------------

    @property
    def last_copy(self) -> CopyMark | None:
        """When a copy of the open event was last saved on this device (kept beside the event)."""
        self._kept()
        return copy_mark(self.session.beside)

    def event_copy(self) -> EventCopy:
        """The open event as a file to keep off the device (nothing is stored until :meth:`copy_saved`)."""
        kept = self._kept()
        tournament_id = self.session.doc_id
        assert tournament_id is not None
        return EventCopy(tournament_id, kept.tournament, utc_now_iso())

    async def copy_saved(self, copy: EventCopy) -> None:
        """Remember that ``copy`` was saved: the event page says when, and offers the next after the next round."""
        self._kept()
        await self.session.keep_beside(**copy_kept(CopyMark(copy.saved, copy.actions)))

    async def open_copy(self, data: bytes | None, link_base: str = "") -> CopyOpened:
        """Add (or bring up to date) the event a copy file holds, then open it; see
        :func:`app.event.event_copy.open_copy` (``link_base``: where phones reach this device, for an
        event it did not hold)."""
        opened = await open_copy(self.store, data, link_base)
        await self.open(opened.tournament_id)
        return opened

    def export_name(self, what: str) -> str:
        tournament = self.open_tournament
        return f"{tournament.event_id.lower()}-{what}.csv"

    def export_csv(self, what: str) -> str:
        """``standings`` or ``results`` of the open event as CSV text."""
        tournament = self.open_tournament
        return tournament.standings_csv() if what == "standings" else tournament.results_csv()


def describe_error(error: Exception) -> str:
    """A refusal as the organizer reads it; a storage failure says nothing was kept."""
    if isinstance(error, FarkleError):
        return tr_words(error.words)
    if isinstance(error, (ChangedElsewhere, CopyRefused)):
        return str(error)
    if isinstance(error, StoreError):
        return tr("Not saved, so nothing changed: {reason}", reason=failure_in_words(error, tr("do it again")))
    logger.error("An organizer action failed in a way no refusal explains", exc_info=error)
    return tr("Something went wrong, nothing changed: {error}", error=error)
