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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeVar

from app.storage import Document, Store, StoreError, new_id, utc_now_iso
from engine import (
    CodeDamaged,
    FarkleError,
    ImportReport,
    Tournament,
    TournamentFormat,
    decode_result,
    read_code,
)

__all__ = ["Organizer", "TournamentSummary", "Refusal", "COLLECTION", "REFUSALS_KEPT", "describe_error", "parse_whole"]

COLLECTION: Final = "tournaments"
REFUSALS_KEPT: Final = 30

T = TypeVar("T")


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
        return f"{self.name} ({self.event_id}) · {self.players} players · {state}"


@dataclass(frozen=True)
class Refusal:
    """A result code the organizer's device refused, and why (in the engine's words)."""

    at: str
    code: str
    reason: str

    @property
    def short_code(self) -> str:
        return self.code if len(self.code) <= 24 else self.code[:21] + "..."


class Organizer:
    """Holds the open tournament and keeps the store in step with it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tournament: Tournament | None = None
        self.tournament_id: str | None = None
        self.link_base: str = ""
        self.refusals: list[Refusal] = []

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
        self, name: str, cap: int | None = None, event_id: str | None = None, link_base: str = ""
    ) -> str:
        """Create, persist and open a tournament in the house format (``cap``: another player cap)."""
        house = TournamentFormat.house()
        fmt = house if cap is None or cap == house.cap else TournamentFormat(house.name, cap, house.rounds)
        tournament = Tournament(name, fmt, event_id=event_id or None)
        previous = self.tournament, self.tournament_id, self.link_base, self.refusals
        self.tournament, self.tournament_id = tournament, new_id()
        self.link_base, self.refusals = link_base.strip().rstrip("/"), []
        try:
            await self._save()
        except StoreError:
            self.tournament, self.tournament_id, self.link_base, self.refusals = previous
            raise
        return self.tournament_id

    async def open(self, tournament_id: str) -> Tournament | None:
        """Load a stored tournament by replaying its log; None if there is no readable one."""
        if self.tournament_id == tournament_id and self.tournament is not None:
            return self.tournament
        document = await self.store.load(COLLECTION, tournament_id)
        if document is None:
            return None
        try:
            tournament = Tournament.from_events(document["events"])
        except (FarkleError, KeyError, TypeError):
            return None
        self.tournament, self.tournament_id = tournament, tournament_id
        self.link_base = str(document.get("link_base", ""))
        self.refusals = [Refusal(**item) for item in document.get("refused", [])]
        return tournament

    async def find_event(self, event_id: str) -> str | None:
        """The stored tournament running event ``event_id`` (the open one first)."""
        if self.tournament is not None and self.tournament.event_id == event_id:
            return self.tournament_id
        for summary in await self.summaries():
            if summary.event_id == event_id:
                return summary.id
        return None

    async def delete(self, tournament_id: str) -> None:
        await self.store.delete(COLLECTION, tournament_id)
        if self.tournament_id == tournament_id:
            self.tournament = self.tournament_id = None

    # -- acting -------------------------------------------------------------------------

    @property
    def open_tournament(self) -> Tournament:
        if self.tournament is None:
            raise LookupError("No tournament is open.")
        return self.tournament

    async def act(self, action: Callable[[Tournament], T]) -> T:
        """Apply an engine action to the open tournament and persist it before returning.

        A refused action raises the engine's error and changes nothing; a failed write
        restores the tournament as it was and raises the store's error.
        """
        tournament = self.open_tournament
        before = tournament.events
        value = action(tournament)
        if tournament.events != before:
            try:
                await self._save()
            except StoreError:
                self.tournament = Tournament.from_events(before)
                raise
        return value

    async def undo(self) -> None:
        await self.act(lambda tournament: tournament.undo())

    async def set_link_base(self, link_base: str) -> None:
        """Where phones reach this app (``http://host:port``): put in each setup code for the result's deep link."""
        text = link_base.strip().rstrip("/")
        if text and not (text.startswith("http://") or text.startswith("https://")):
            raise CodeDamaged(f"{link_base!r} is not an address: it starts with http:// or https://.")
        previous = self.link_base
        self.link_base = text
        try:
            await self._save()
        except StoreError:
            self.link_base = previous
            raise

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
        except CodeDamaged:
            code = " ".join(str(text).split())
        self.refusals = [Refusal(utc_now_iso(), code, reason), *self.refusals][:REFUSALS_KEPT]
        try:
            await self._save()
        except StoreError:
            pass  # the refusal is still shown; only its memory is lost

    async def clear_refusals(self) -> None:
        self.refusals = []
        await self._save()

    @staticmethod
    def event_of(text: str) -> str:
        """The event a result code claims to be from (not yet trusted); raises :class:`CodeDamaged`."""
        return decode_result(text).result.event_id

    # -- exports ------------------------------------------------------------------------

    def export_name(self, what: str) -> str:
        tournament = self.open_tournament
        return f"{tournament.event_id.lower()}-{what}.csv"

    # -- persistence --------------------------------------------------------------------

    async def _save(self) -> None:
        tournament, tournament_id = self.open_tournament, self.tournament_id
        assert tournament_id is not None
        champion = tournament.champion
        document: Document = {
            "id": tournament_id,
            "name": tournament.name,
            "event_id": tournament.event_id,
            "players": len(tournament.players),
            "round": tournament.round,
            "champion": tournament.player(champion).name if champion is not None else None,
            "link_base": self.link_base,
            "refused": [refusal.__dict__ for refusal in self.refusals],
            "updated": utc_now_iso(),
            "events": tournament.events,
        }
        await self.store.save(COLLECTION, tournament_id, document)


def describe_error(error: Exception) -> str:
    """A refusal as the organizer reads it; a storage failure says nothing was kept."""
    if isinstance(error, FarkleError):
        return str(error)
    if isinstance(error, StoreError):
        return f"Not saved, so nothing changed: {error}"
    return f"Something went wrong, nothing changed: {error}"


def parse_whole(text: str, what: str, *, minimum: int = 0) -> int:
    """A whole number typed by the organizer, or a clear refusal (:class:`engine.InvalidInput`)."""
    from engine import InvalidInput

    cleaned = str(text).replace(",", "").replace(" ", "").strip()
    if not cleaned.isdigit() or int(cleaned) < minimum:
        shown = str(text).strip() or "nothing"
        raise InvalidInput(f"{what} must be a whole number{f' of {minimum} or more' if minimum else ''}, not {shown!r}.")
    return int(cleaned)

