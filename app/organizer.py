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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal, TypeVar

from app.storage import Document, Store, StoreError, new_id, utc_now_iso
from engine import (
    CodeDamaged,
    Cut,
    FarkleError,
    ImportReport,
    InvalidInput,
    RoundSpec,
    TableResult,
    Tournament,
    TournamentFormat,
    decode_result,
    read_code,
)

__all__ = [
    "Organizer", "TournamentSummary", "Refusal", "FormatDraft", "RoundDraft", "COLLECTION", "REFUSALS_KEPT",
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
        self, name: str, cap: int | None = None, event_id: str | None = None, link_base: str = "",
        format: TournamentFormat | None = None,
    ) -> str:
        """Create, persist and open a tournament: ``format`` (the house tournament by default), ``cap`` another cap."""
        fmt = format or TournamentFormat.house()
        if cap is not None and cap != fmt.cap:
            fmt = TournamentFormat(fmt.name, cap, fmt.rounds)
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

