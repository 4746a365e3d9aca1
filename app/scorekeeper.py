"""The table's scorekeeper without any widget: open, play, persist and list games.

Screens call this and render what it holds; it calls the engine for every rule and
the store for every write. An action is shown only after the store has kept it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from app.export import GameExport, KeyPolicy, export_games
from app.storage import (
    BOOLEAN,
    DOCUMENT_SCHEMAS,
    INTEGER,
    NULL,
    STRING,
    REVISION_FIELD,
    Document,
    DocumentChanged,
    DocumentSchema,
    DocumentSession,
    Store,
    Listing,
    StoreError,
    list_of,
    new_id,
    revision_of,
    utc_now_iso,
)
from engine import FarkleError, Game, Rules, Tournament

__all__ = ["Scorekeeper", "KeptGame", "GameSummary", "GameChangedElsewhere", "RECENT_NAMES_KEPT", "APP_CHECKS",
           "GAME_LISTING", "replay_game", "replay_tournament"]

RECENT_NAMES_KEPT = 16
_SETTINGS_ID = "app"


def replay_game(document: Document) -> None:
    """A stored game's log replays (the engine refuses an illegal one) to the players
    and scores it lists.

    :raises FarkleError: the log is not a legal game.
    :raises ValueError: the listed players or scores are not the log's.
    """
    game = Game.from_events(document["events"])
    if list(game.players) != document["players"]:
        raise ValueError(f"it lists players {document['players']!r} but its log has {list(game.players)!r}")
    if "scores" in document and len(document["scores"]) != len(game.players):
        raise ValueError(f"it lists {len(document['scores'])} scores for {len(game.players)} players")


def replay_tournament(document: Document) -> None:
    """A stored tournament's log replays (the engine refuses an illegal one).

    :raises FarkleError: the log is not a legal tournament.
    """
    Tournament.from_events(document["events"])


APP_CHECKS: dict[str, DocumentSchema] = {
    "games": DOCUMENT_SCHEMAS["games"].with_checks(replay_game),
    "tournaments": DOCUMENT_SCHEMAS["tournaments"].with_checks(replay_tournament),
    "settings": DOCUMENT_SCHEMAS["settings"],
}
"""What every stored document of the app must be before it is listed or opened: its
shape, and for games and tournaments a log the engine replays.  A
:class:`Scorekeeper` gives these to its store, so a document that fails is kept aside
and named in ``store.problems`` instead of failing a screen."""


def _listed_fields(document: Document) -> dict[str, Any]:
    """What Home shows of a game, under the document's own field names."""
    players = [str(name) for name in document.get("players", [])]
    return {
        "players": players,
        "scores": list(document.get("scores", [0] * len(players))),
        "finished": bool(document.get("finished")),
        "updated": str(document.get("updated", "")),
        "winner": document.get("winner"),
        "title": document.get("title"),
    }


GAME_LISTING = Listing(
    "game-summary-1",
    _listed_fields,
    DocumentSchema(
        "game summary",
        required={"players": list_of(STRING), "scores": list_of(INTEGER), "finished": BOOLEAN, "updated": STRING,
                  "winner": STRING | NULL, "title": STRING | NULL},
    ),
)
"""What the games' index keeps of each game for Home (:meth:`app.storage.Store.summaries`)."""


class GameChangedElsewhere(Exception):
    """The stored game moved on since this screen read it (another tab or device played)."""


@dataclass(frozen=True)
class GameSummary:
    """One line of the home screen's game lists."""

    id: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool
    updated: str
    winner: str | None
    title: str | None

    @property
    def line(self) -> str:
        cells = ", ".join(f"{name} {total:,}" for name, total in zip(self.players, self.scores))
        return f"{self.title} · {cells}" if self.title else cells


@dataclass(frozen=True)
class KeptGame:
    """What the scorekeeper keeps of one game: the engine's game and the fields stored with
    it that are not part of play (``created``, ``tournament``, ``title``, ``advice``)."""

    game: Game
    meta: Mapping[str, Any]


_META_FIELDS = ("created", "tournament", "title", "advice")


def read_game(document: Document) -> KeptGame:
    """A stored game as the scorekeeper holds it (its log replayed once)."""
    return KeptGame(Game.from_events(document["events"]),
                    {key: document[key] for key in _META_FIELDS if key in document})


def game_document(game_id: str, kept: KeptGame) -> Document:
    """The document that keeps a game: its log (serialised once) and what Home lists."""
    game = kept.game
    return {
        **kept.meta,
        "id": game_id,
        "players": list(game.players),
        "scores": list(game.scores),
        "rules": game.rules.to_dict(),
        "finished": game.is_over,
        "winner": game.players[game.winner] if game.winner is not None else None,
        "updated": utc_now_iso(),
        "events": game.events,
    }


class Scorekeeper:
    """Holds the open game and keeps the store in step with it (a :class:`DocumentSession`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.check_with(APP_CHECKS)
        self.session = DocumentSession(store, "games", read_game, game_document)

    @property
    def game(self) -> Game | None:
        kept = self.session.value
        return kept.game if kept is not None else None

    @property
    def game_id(self) -> str | None:
        return self.session.doc_id

    @property
    def meta(self) -> Mapping[str, Any]:
        kept = self.session.value
        return kept.meta if kept is not None else {}

    @property
    def revision(self) -> int:
        """The open game's stored revision as this screen last read or wrote it: a save
        over any other is refused (another screen saved in between)."""
        return self.session.revision

    # -- games -------------------------------------------------------------------------

    async def start_game(
        self, players: list[str], rules: Rules, first: int = 0, meta: dict[str, Any] | None = None
    ) -> str:
        """Create, persist and open a game; engine errors leave nothing behind."""
        game = Game(players, rules, first)
        game_id = new_id()
        kept = KeptGame(game, {"created": utc_now_iso(), **(meta or {})})
        try:
            await self.session.create(game_id, kept)
        except StoreError:
            self.session.close()
            raise
        await self.remember_names(players)
        return game_id

    async def open_game(self, game_id: str, reload: bool = False) -> Game | None:
        """Load a stored game (its log replayed, unless it is the open game at the stored
        revision); None if there is no such readable game."""
        if self.game_id == game_id and self.game is not None and not reload:
            return self.game
        kept = await self.session.open(game_id)
        return kept.game if kept is not None else None

    async def act(self, action: Callable[[Game], None]) -> None:
        """Apply an engine action to the open game and persist it before returning.

        The action plays on a copy of the game (it may take several engine steps: keep,
        then bank): if any is refused, or the write fails, the game held is still the one
        before and the error is raised.  If another screen saved the game since this one
        read it, nothing is written: the game shown becomes theirs and
        :class:`GameChangedElsewhere` is raised.
        """
        kept = self._kept()
        trial = kept.game.copy()
        try:
            action(trial)
        except FarkleError:
            await self._refuse_if_changed_elsewhere()
            raise
        await self._save(replace(kept, game=trial))

    async def update_meta(self, key: str, value: Any) -> None:
        """Set one field of the open game's metadata (``"tournament"``, ``"title"``, ``"advice"``) and
        persist it before returning, over the revision this screen read.

        If the write fails, the metadata is as it was and the error raised; if another
        screen saved the game since this one read it, nothing is written: the game and
        metadata shown become theirs and :class:`GameChangedElsewhere` is raised.
        """
        kept = self._kept()
        await self._save(replace(kept, meta={**kept.meta, key: value}))

    async def _refuse_if_changed_elsewhere(self) -> None:
        """A refusal judged against a screen another one has moved on from is no answer:
        show theirs instead (nothing is written, so a read is enough)."""
        stored = await self.session.changed_elsewhere()
        if stored is not None:
            self._show_theirs(stored)

    def _show_theirs(self, stored: Document | None) -> NoReturn:
        """Show what another tab or device saved instead of writing over it."""
        assert self.game_id is not None
        if stored is not None:
            self.session.adopt(self.game_id, stored)
        raise GameChangedElsewhere(
            "This game was changed on another screen meanwhile. It now shows that screen's "
            "latest state: check it, then enter your action again."
        )

    async def _save(self, kept: KeptGame) -> None:
        """Persist ``kept`` as the open game over the revision this screen read, then hold
        it; a game deleted on another screen meanwhile is kept again, as nothing entered
        is ever dropped."""
        try:
            try:
                await self.session.save(kept)
            except DocumentChanged as changed:
                if changed.stored is not None:
                    raise
                await self.session.save(kept, over=0)
        except DocumentChanged as changed:
            self._show_theirs(changed.stored)

    def _kept(self) -> KeptGame:
        if self.session.value is None:
            raise LookupError("No game is open.")
        return self.session.value

    async def delete_game(self, game_id: str) -> None:
        await self.store.delete("games", game_id)
        if self.game_id == game_id:
            self.session.close()

    async def delete_finished(self) -> int:
        """Delete every finished game (unfinished ones are never touched); how many went."""
        finished = [summary.id for summary in await self.summaries() if summary.finished]
        for game_id in finished:
            await self.delete_game(game_id)
        return len(finished)

    async def export_games(self, may_carry_keys: KeyPolicy) -> GameExport:
        """Every readable game as one JSON file a person can keep or move to another device,
        a table game with its signing key only where ``may_carry_keys`` allows its event
        (:func:`app.export.signing_events`)."""
        return export_games(await self.store.load_all("games"), may_carry_keys)

    async def summaries(self) -> list[GameSummary]:
        """Every readable game, most recently played first (from the games' index)."""
        listed = await self.store.summaries("games", GAME_LISTING)
        summaries = [_summary(doc_id, fields) for doc_id, fields in listed.items()]
        return sorted(summaries, key=lambda summary: summary.updated, reverse=True)

    # -- settings ----------------------------------------------------------------------

    async def settings(self) -> Document:
        settings = await self.store.load("settings", _SETTINGS_ID) or {}
        settings.pop(REVISION_FIELD, None)
        return settings

    async def update_settings(self, **changes: Any) -> None:
        await self._change_settings(lambda settings: settings.update(changes))

    async def recent_names(self) -> list[str]:
        return list((await self.settings()).get("recent_names", []))

    async def remember_names(self, names: list[str]) -> None:
        """Put these names first in the recent list offered on the next new game."""
        recent = [name.strip() for name in names if name.strip()]
        seen = {name.casefold() for name in recent}

        def put_first(settings: Document) -> None:
            kept = recent + [name for name in settings.get("recent_names", []) if name.casefold() not in seen]
            settings["recent_names"] = kept[:RECENT_NAMES_KEPT]

        await self._change_settings(put_first)

    async def _change_settings(self, change: Callable[[Document], None]) -> None:
        """Apply ``change`` to the stored settings and save them over the revision read.

        Settings are merged, not a screen's state: if another screen saved them in
        between, the change is applied again to theirs, once; a second clash raises
        :class:`~app.storage.DocumentChanged`.
        """
        stored = await self.store.load("settings", _SETTINGS_ID)
        for attempt in (1, 2):
            settings = dict(stored or {})
            change(settings)
            try:
                await self.store.save("settings", _SETTINGS_ID, settings, expect_revision=revision_of(stored))
                return
            except DocumentChanged as changed:
                if attempt == 2:
                    raise
                stored = changed.stored


def _summary(doc_id: str, fields: Document) -> GameSummary:
    """A line of Home from the fields :data:`GAME_LISTING` keeps."""
    return GameSummary(
        id=doc_id,
        players=tuple(fields["players"]),
        scores=tuple(fields["scores"]),
        finished=fields["finished"],
        updated=fields["updated"],
        winner=fields["winner"],
        title=fields["title"],
    )
