"""The organizer's tournaments without any widget: open, act, persist, undo.

Like :class:`app.scorekeeper.Scorekeeper` for a game: screens call this and render what
it holds; every rule is the engine's (:class:`engine.Tournament`), every write the
store's ("tournaments" collection, one document per event holding its event log). An
action is shown only after the store has kept it; a refused action raises the engine's
error and changes nothing.

Besides the log, a document keeps what is not part of the event itself: the address
phones reach this app on (for the deep link in the tables' result codes) and the last
result codes refused, with the reason, for the results inbox.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal, TypeVar

from app.storage import Document, DocumentChanged, DocumentSession, Store, StoreError, new_id, utc_now_iso
from app.event_copy import CopyMark, CopyOpened, CopyRefused, EventCopy, open_copy
from app.storage.errors import failure_in_words
from engine.codec import MAX_CODE_CHARS
from engine.tournament.signups import SignUpPreview
from engine import (
    CodeDamaged,
    Cut,
    FarkleError,
    IllegalAction,
    ImportReport,
    InvalidInput,
    Prize,
    RoundSpec,
    TableResult,
    Tournament,
    TournamentFormat,
    read_code,
    read_sealed_result,
)

__all__ = [
    "Organizer", "KeptEvent", "TournamentSummary", "ListChanged", "read_list_file", "Refusal", "DrawCheck", "EventChangedElsewhere", "FormatDraft", "RoundDraft",
    "COLLECTION", "REFUSALS_KEPT",
    "TABLE_SIZES", "describe_error", "parse_whole",
]

COLLECTION: Final = "tournaments"
REFUSALS_KEPT: Final = 30

T = TypeVar("T")

TABLE_SIZES: Final = (3, 4, 5, 6)
CutChoice = Literal["overall", "per_table", "winners", "final"]
OWN_FORMAT: Final = "Own format"


@dataclass
class RoundDraft:
    """One round of a format as the organizer edits it (the count as typed)."""

    rules: str = "house"
    table_size: int = 4
    cut: CutChoice = "overall"
    count: str = ""
    """Best N overall, or places per table; unused for table winners and the final."""
    switch_to: str = ""
    """The final only: a preset the organizer may switch the table to ("" for none)."""
    spread: bool = True

    @classmethod
    def of(cls, spec: RoundSpec) -> RoundDraft:
        cut: CutChoice
        if spec.cut.kind == "final":
            cut = "final"
        elif spec.cut.kind == "per_table" and spec.cut.count == 1:
            cut = "winners"
        else:
            cut = spec.cut.kind
        count = "" if cut in ("winners", "final") else str(spec.cut.count)
        return cls(spec.rules, spec.table_size, cut, count, spec.switch_to or "", spec.spread)

    def spec(self, number: int) -> RoundSpec:
        """The engine's round (its checks and messages); ``number`` names it in a refusal."""
        if self.cut == "final":
            return RoundSpec(self.rules, Cut.final(), self.table_size, self.spread, self.switch_to or None)
        if self.cut == "winners":
            return RoundSpec(self.rules, Cut.table_winners(), self.table_size, self.spread)
        what = "the number of best totals going on" if self.cut == "overall" else "the places per table going on"
        count = parse_whole(self.count, f"Round {number}: {what}", minimum=1)
        cut = Cut.overall(count) if self.cut == "overall" else Cut.per_table(count)
        return RoundSpec(self.rules, cut, self.table_size, self.spread)


@dataclass
class FormatDraft:
    """A tournament format being edited: player cap and rounds, the last being the final.

    :meth:`build` hands it to the engine, which refuses an impossible format with its
    message; nothing here decides what is possible.
    """

    cap: str
    rounds: list[RoundDraft] = field(default_factory=list)
    name: str = ""

    @classmethod
    def of(cls, fmt: TournamentFormat) -> FormatDraft:
        return cls(str(fmt.cap), [RoundDraft.of(spec) for spec in fmt.rounds], fmt.name)

    @classmethod
    def house(cls) -> FormatDraft:
        return cls.of(TournamentFormat.house())

    def build(self) -> TournamentFormat:
        cap = parse_whole(self.cap, "The player cap")
        rounds = tuple(draft.spec(number) for number, draft in enumerate(self.rounds, 1))
        house = TournamentFormat.house()
        if rounds == house.rounds:
            name = house.name
        elif self.name and self.name != house.name:
            name = self.name
        else:
            name = OWN_FORMAT
        return TournamentFormat(name, cap, rounds)

    def add_round(self) -> None:
        """A round before the final, like the one before it (the first: table winners, the final's rules and size)."""
        before = self.rounds[:-1]
        if before:
            self.rounds.insert(len(self.rounds) - 1, replace(before[-1]))
        else:
            final = self.rounds[-1]
            self.rounds.insert(0, RoundDraft(final.rules, final.table_size, "winners"))

    def remove_round(self, index: int) -> None:
        if not 0 <= index < len(self.rounds) - 1:
            raise InvalidInput("The final cannot be removed: a format ends with a final round.")
        del self.rounds[index]

    def set_cut(self, index: int, cut: str) -> None:
        """Another kind of cut for a round before the final (2 places per table; best N overall: N to type)."""
        draft = self.rounds[index]
        choices: dict[str, CutChoice] = {"overall": "overall", "per_table": "per_table", "winners": "winners"}
        if cut not in choices or draft.cut == "final":
            raise InvalidInput(f"{cut!r} is not a cut for round {index + 1}.")
        if choices[cut] != draft.cut:
            draft.count = {"overall": "", "per_table": "2", "winners": ""}[cut]
            draft.cut = choices[cut]

    def set_rules(self, index: int, rules: str) -> None:
        draft = self.rounds[index]
        draft.rules = rules
        if draft.switch_to == rules:
            draft.switch_to = ""


@dataclass(frozen=True)
class TournamentSummary:
    """One line of the organizer's list of events."""

    id: str
    name: str
    event_id: str
    players: int
    round: int
    champion: str | None
    updated: str

    @property
    def line(self) -> str:
        if self.champion:
            state = f"champion {self.champion}"
        elif self.round:
            state = f"round {self.round}"
        else:
            state = "sign-up"
        return f"{self.name} ({self.event_id}) · {self.players} player{'' if self.players == 1 else 's'} · {state}"


@dataclass(frozen=True)
class Refusal:
    """A result code the organizer's device refused, and why (in the engine's words)."""

    at: str
    code: str
    reason: str

    @property
    def short_code(self) -> str:
        return self.code if len(self.code) <= 24 else self.code[:21] + "..."


@dataclass(frozen=True)
class DrawCheck:
    """The recorded draw re-run from its seed: the same seating again, or not."""

    seed: int
    same: bool

    @property
    def message(self) -> str:
        if self.same:
            return f"Re-run from seed {self.seed}: the same seating, table for table."
        return f"Re-run from seed {self.seed} gives another seating: the recorded draw was changed."


class EventChangedElsewhere(Exception):
    """The stored event moved on since this screen read it (another tab or device acted)."""

    def __init__(self) -> None:
        super().__init__(
            "This event was changed on another screen meanwhile. It now shows that screen's "
            "latest state: check it, then enter your action again."
        )


class ListChanged(IllegalAction):
    """A previewed sign-up list would now add other players than shown: :attr:`preview` is the new one."""

    def __init__(self, preview: SignUpPreview) -> None:
        super().__init__("The players signed up changed since the preview: check the new preview below, then add again.")
        self.preview = preview


def read_list_file(data: bytes | None, name: str) -> str:
    """The text of a picked sign-up file (UTF-8, a spreadsheet's UTF-8 with BOM, or Windows-1252)."""
    if data is None:
        raise InvalidInput(f"{name} could not be read: pick it again.")
    if b"\x00" in data[:4096]:
        raise InvalidInput(f"{name} is not a text or CSV file: save the list as CSV and pick it again.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


@dataclass(frozen=True)
class KeptEvent:
    """What the organizer keeps of one event: the engine's tournament and, beside its log,
    the address phones reach this app on, the codes refused lately, the passphrase's hash and
    when a copy of the event was last saved (:mod:`app.event_copy`)."""

    tournament: Tournament
    link_base: str = ""
    refusals: tuple[Refusal, ...] = ()
    passphrase_hash: str = ""
    copied: CopyMark | None = None


def read_event(document: Document) -> KeptEvent:
    """A stored event as the organizer holds it (its log replayed once).

    :raises FarkleError: the log is not a legal tournament.
    :raises KeyError, TypeError: the document is not an event's.
    """
    return KeptEvent(
        Tournament.from_events(document["events"]),
        str(document.get("link_base", "")),
        tuple(Refusal(**item) for item in document.get("refused", [])),
        str(document.get("passphrase_hash", "") or ""),
        CopyMark(**document["last_copy"]) if document.get("last_copy") else None,
    )


def event_document(tournament_id: str, kept: KeptEvent) -> Document:
    """The document that keeps an event: its log (serialised once) and what its list shows."""
    tournament = kept.tournament
    champion = tournament.champion
    return {
        "id": tournament_id,
        "name": tournament.name,
        "event_id": tournament.event_id,
        "players": len(tournament.players),
        "round": tournament.round,
        "champion": tournament.player(champion).name if champion is not None else None,
        "link_base": kept.link_base,
        "passphrase_hash": kept.passphrase_hash,
        "refused": [refusal.__dict__ for refusal in kept.refusals],
        "last_copy": kept.copied.__dict__ if kept.copied is not None else None,
        "updated": utc_now_iso(),
        "events": tournament.events,
    }


class Organizer:
    """Holds the open tournament and keeps the store in step with it (a :class:`DocumentSession`).

    It remembers the revision of the stored document it holds and saves only over that
    revision: when another screen saved the event meanwhile, it takes that screen's
    event and raises :class:`EventChangedElsewhere`, writing nothing.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = DocumentSession(store, COLLECTION, read_event, event_document)

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
        return self.session.value.refusals if self.session.value is not None else ()

    @property
    def passphrase_hash(self) -> str:
        """The open event's organizer passphrase as a salted hash (:mod:`app.access`); "" for none yet."""
        return self.session.value.passphrase_hash if self.session.value is not None else ""

    # -- the list of events -------------------------------------------------------------

    async def summaries(self) -> list[TournamentSummary]:
        """Every readable tournament, most recently changed first."""
        documents = await self.store.load_all(COLLECTION)
        out: list[TournamentSummary] = []
        for doc_id, document in documents.items():
            try:
                tournament = Tournament.from_events(document["events"])
            except (FarkleError, KeyError, TypeError):
                continue
            champion = tournament.champion
            out.append(
                TournamentSummary(
                    doc_id, tournament.name, tournament.event_id, len(tournament.players), tournament.round,
                    tournament.player(champion).name if champion is not None else None,
                    str(document.get("updated", "")),
                )
            )
        return sorted(out, key=lambda summary: summary.updated, reverse=True)

    async def create(
        self, name: str, cap: int | None = None, event_id: str | None = None, link_base: str = "",
        format: TournamentFormat | None = None, passphrase_hash: str = "",
    ) -> str:
        """Create, persist and open a tournament: ``format`` (the house tournament by default), ``cap`` another cap,
        ``passphrase_hash`` its organizer passphrase's hash (:func:`app.access.hash_passphrase`)."""
        fmt = format or TournamentFormat.house()
        if cap is not None and cap != fmt.cap:
            fmt = TournamentFormat(fmt.name, cap, fmt.rounds)
        tournament = Tournament(name, fmt, event_id=event_id or None)
        tournament_id = new_id()
        await self.session.create(tournament_id, KeptEvent(tournament, link_base.strip().rstrip("/"), (), passphrase_hash))
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

    def _adopt(self, tournament_id: str, document: Document) -> bool:
        """Hold the stored document's tournament; False if it cannot be read."""
        try:
            self.session.adopt(tournament_id, document)
        except (FarkleError, KeyError, TypeError):
            return False
        return True

    async def passphrase_hashes(self) -> dict[str, str]:
        """Every stored event's organizer passphrase hash by id ("" where none is set yet)."""
        documents = await self.store.load_all(COLLECTION)
        return {doc_id: str(document.get("passphrase_hash", "") or "") for doc_id, document in documents.items()}

    async def set_passphrase_hash(self, passphrase_hash: str) -> None:
        """Keep a new organizer passphrase (its hash) with the open event."""
        await self._save(replace(self._kept(), passphrase_hash=passphrase_hash))

    async def find_event(self, event_id: str) -> str | None:
        """The stored tournament running event ``event_id`` (the open one first)."""
        if self.tournament is not None and self.tournament.event_id == event_id:
            return self.tournament_id
        for summary in await self.summaries():
            if summary.event_id == event_id:
                return summary.id
        return None

    async def event_for_code(self, text: str) -> str | None:
        """The stored event a result code (any form) would be imported into, without opening it.

        The event the code claims to be from; without one stored here, the open event, else
        the latest (the import then refuses the code in the engine's words); None when this
        device runs no tournament.

        :raises CodeDamaged: the text is not a readable result code.
        """
        tournament_id = await self.find_event(self.event_of(text)) or self.tournament_id
        if tournament_id is None:
            summaries = await self.summaries()
            tournament_id = summaries[0].id if summaries else None
        return tournament_id

    async def open_event_of(self, text: str) -> str:
        """Open the event a result code would be imported into (:meth:`event_for_code`); its id.

        :raises CodeDamaged: the text is not a readable result code.
        :raises LookupError: this device runs no tournament.
        """
        tournament_id = await self.event_for_code(text)
        if tournament_id is None or await self.open(tournament_id) is None:
            raise LookupError(f"This result is for event {self.event_of(text)}, and this device runs no tournament.")
        return tournament_id

    async def delete(self, tournament_id: str) -> None:
        await self.store.delete(COLLECTION, tournament_id)
        if self.tournament_id == tournament_id:
            self.session.close()

    # -- acting -------------------------------------------------------------------------

    @property
    def open_tournament(self) -> Tournament:
        return self._kept().tournament

    def _kept(self) -> KeptEvent:
        if self.session.value is None:
            raise LookupError("No tournament is open.")
        return self.session.value

    async def act(self, action: Callable[[Tournament], T]) -> T:
        """Apply an engine action to the open tournament and persist it before returning.

        The action plays on a copy of the tournament (it may take several engine steps:
        check in everyone): a refused action raises the engine's error and changes
        nothing, a failed write keeps the tournament held before and raises the store's
        error; another screen's save in between shows that screen's event
        (:class:`EventChangedElsewhere`).
        """
        kept = self._kept()
        trial = kept.tournament.copy()
        value = action(trial)
        if len(trial) != len(kept.tournament):  # every action that changes the event logs or takes back events
            await self._save(replace(kept, tournament=trial))
        return value

    async def undo(self) -> str:
        """Take back the last organizer action, stored before it returns; what it took back, in words."""
        return await self.act(lambda tournament: tournament.undo())

    async def check_in_all(self) -> int:
        """Check in everyone signed up and not yet checked in; how many that was."""

        def check_all(tournament: Tournament) -> int:
            waiting = [p.number for p in tournament.players if not p.withdrawn and not p.checked_in]
            if not waiting:
                raise InvalidInput("Everyone signed up is already checked in.")
            for number in waiting:
                tournament.check_in(number)
            return len(waiting)

        return await self.act(check_all)

    def preview_sign_ups(self, text: str) -> SignUpPreview:
        """What signing up a pasted list or CSV would add and refuse, line by line; nothing is changed."""
        if not text.strip():
            raise InvalidInput("Paste or type the names first: one a line, or a CSV of name and number.")
        return self.open_tournament.preview_sign_ups(text)

    async def sign_up_list(self, text: str, shown: SignUpPreview) -> tuple[int, ...]:
        """Sign up the players the preview ``shown`` adds, all stored in one write before it returns.

        Refused, with nothing changed, when the list would now add others (the event changed
        since: another screen signed someone up): the screen shows the new preview to check.
        """

        def sign_up_all(tournament: Tournament) -> tuple[int, ...]:
            now = tournament.preview_sign_ups(text)
            if now.entries != shown.entries:
                raise ListChanged(now)
            if not now.entries:
                raise InvalidInput("Nothing to add: every line of the list is refused (the reasons are listed).")
            return tournament.sign_up_all(now.entries)

        return await self.act(sign_up_all)

    async def check_in_number(self, text: str) -> int:
        """Check in the player whose number was typed (``12`` or ``#12``); their number."""
        number = parse_whole(text.strip().lstrip("#"), "A player number", minimum=1)
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
            raise InvalidInput("No round has been drawn yet: there is no draw to re-run.")
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
            raise InvalidInput("No round is being played now: a paper result is entered while its round is open.")
        numbers = tournament.seating()[table - 1] if 1 <= table <= len(tournament.seating()) else ()
        values = [
            parse_whole(text, f"The total of {tournament.player(number).name} (seat {seat})")
            for seat, (number, text) in enumerate(zip(numbers, totals), 1)
        ]
        if not " ".join(str(reason).split()):
            raise InvalidInput("Give a reason: a result entered by hand is kept with why (device lost, paper sheet...).")
        return await self.act(lambda t: t.record_result(table, values, reason=reason))

    async def award_prize(self, amount: str, currency: str, shares: Mapping[int, str], note: str) -> Prize:
        """The prize as typed: the amount, and each finalist's share where one is given (else all to the champion)."""
        tournament = self.open_tournament
        whole = parse_whole(amount, "The prize", minimum=1)
        split = {
            number: parse_whole(share, f"{tournament.player(number).name}'s share")
            for number, share in shares.items() if share.strip()
        }
        return await self.act(lambda t: t.award_prize(whole, currency.strip() or "$", split or None, note))

    async def set_link_base(self, link_base: str) -> None:
        """Where phones reach this app (``http://host:port``): put in each setup code for the result's deep link."""
        text = link_base.strip().rstrip("/")
        if text and not (text.startswith("http://") or text.startswith("https://")):
            raise CodeDamaged(f"{link_base!r} is not an address: it starts with http:// or https://.")
        await self._save(replace(self._kept(), link_base=text))

    async def import_code(self, text: str) -> ImportReport:
        """Check a result code (any form) and count, hold or report it as a duplicate.

        A refusal raises the engine's error after being kept in the refused list.
        """
        try:
            return await self.act(lambda tournament: tournament.import_result(text))
        except FarkleError as refusal:
            await self._remember_refusal(text, str(refusal))
            raise

    async def _remember_refusal(self, text: str, reason: str) -> None:
        try:
            code = read_code(text)
        except CodeDamaged:  # kept as typed, up to what a code can be: a pasted novel is not stored 30 times
            code = " ".join(str(text)[:MAX_CODE_CHARS].split())
        kept = self._kept()
        try:
            await self._save(replace(kept, refusals=(Refusal(utc_now_iso(), code, reason), *kept.refusals)[:REFUSALS_KEPT]))
        except (StoreError, EventChangedElsewhere):
            pass  # the refusal is still shown; only its memory is lost

    async def clear_refusals(self) -> None:
        await self._save(replace(self._kept(), refusals=()))

    @staticmethod
    def event_of(text: str) -> str:
        """The event a result code claims to be from (not yet trusted); raises :class:`CodeDamaged`."""
        return read_sealed_result(text).event_id

    # -- exports ------------------------------------------------------------------------

    @property
    def last_copy(self) -> CopyMark | None:
        return self._kept().copied

    def event_copy(self) -> EventCopy:
        """The open event as a file to keep off the device (nothing is stored until :meth:`copy_saved`)."""
        kept = self._kept()
        tournament_id = self.session.doc_id
        assert tournament_id is not None
        return EventCopy(tournament_id, event_document(tournament_id, kept), utc_now_iso())

    async def copy_saved(self, copy: EventCopy) -> None:
        """Remember that ``copy`` was saved: the event page says when, and offers the next after the next round."""
        await self._save(replace(self._kept(), copied=CopyMark(copy.saved, copy.actions)))

    async def open_copy(self, data: bytes | None) -> CopyOpened:
        """Add (or bring up to date) the event a copy file holds, then open it; see :func:`app.event_copy.open_copy`."""
        from app.scorekeeper import APP_CHECKS  # the store's own checks (scorekeeper imports this module's users)

        opened = await open_copy(self.store, COLLECTION, data, APP_CHECKS[COLLECTION])
        await self.open(opened.tournament_id)
        return opened

    def export_name(self, what: str) -> str:
        tournament = self.open_tournament
        return f"{tournament.event_id.lower()}-{what}.csv"

    def export_csv(self, what: str) -> str:
        """``standings`` or ``results`` of the open event as CSV text."""
        tournament = self.open_tournament
        return tournament.standings_csv() if what == "standings" else tournament.results_csv()

    # -- persistence --------------------------------------------------------------------

    async def _save(self, kept: KeptEvent) -> None:
        """Write ``kept`` as the open event over the revision it was read at, then hold it;
        another screen's newer save wins (it is held instead, and nothing is written)."""
        try:
            await self.session.save(kept)
        except DocumentChanged as changed:
            tournament_id = self.session.doc_id
            self.session.close()  # whatever is stored now is read in full
            if tournament_id is not None and changed.stored is not None:
                self._adopt(tournament_id, changed.stored)
            raise EventChangedElsewhere() from changed


def describe_error(error: Exception) -> str:
    """A refusal as the organizer reads it; a storage failure says nothing was kept."""
    if isinstance(error, (FarkleError, EventChangedElsewhere, CopyRefused)):
        return str(error)
    if isinstance(error, StoreError):
        return f"Not saved, so nothing changed: {failure_in_words(error, 'do it again')}"
    return f"Something went wrong, nothing changed: {error}"


def parse_whole(text: str, what: str, *, minimum: int = 0) -> int:
    """A whole number typed by the organizer, or a clear refusal (:class:`engine.InvalidInput`)."""
    from engine import InvalidInput

    cleaned = str(text).replace(",", "").replace(" ", "").strip()
    if not _WHOLE.fullmatch(cleaned) or int(cleaned) < minimum:
        shown = str(text).strip()
        if len(shown) > 24:
            shown = shown[:24] + "…"
        entered = f', not "{shown}"' if shown else ": nothing was entered"
        raise InvalidInput(f"{what} must be a whole number{f' of {minimum} or more' if minimum else ''} "
                           f"(digits 0-9, at most 9){entered}.")
    return int(cleaned)


_WHOLE = re.compile(r"[0-9]{1,9}")
"""ASCII digits only ("²" and other digits that ``str.isdigit`` takes are refused), of a sane length."""

