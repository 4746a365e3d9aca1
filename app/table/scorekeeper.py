"""The table's scorekeeper without any widget: open, play, persist and list games.

Screens call this and render what it holds; it calls the engine for every rule and the
game's :class:`~app.storage.DocumentSession` for every write (what a game's document is:
:mod:`app.documents.games`). An action is shown only after the store has kept it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from app.documents import CHECKS
from app.documents.games import KIND, LISTING, GameSummary, KeptGame, summary_of
from app.documents.settings import change_settings, read_settings, remember_names
from app.table.export import GameExport, KeyPolicy, export_games
from app.storage import Document, DocumentSession, Store, StoreError, new_id, utc_now_iso
from engine import Game, Rules

__all__ = ["Scorekeeper", "GameSummary"]


class Scorekeeper:
    """Holds the open game and keeps the store in step with it (a :class:`DocumentSession`)."""

    def __init__(self, store: Store, announce: Callable[[str], None] = lambda game_id: None) -> None:
        self.store = store
        store.check_with(CHECKS)
        self.session = DocumentSession(store, KIND)
        self.announce = announce
        """Tells the other screens following a game that it was saved (:mod:`app.documents.changes`)."""

    @property
    def game(self) -> Game | None:
        kept = self.session.value
        return kept.game if kept is not None else None

    @property
    def game_id(self) -> str | None:
        return self.session.doc_id

    @property
    def meta(self) -> Mapping[str, Any]:
        """The open game's fields that are not play (``created``, ``tournament``, ``title``) and
        what the device keeps beside it (``advice``)."""
        kept = self.session.value
        return {**kept.meta, **self.session.beside} if kept is not None else {}

    @property
    def revision(self) -> int:
        """The open game's stored revision as this screen last read or wrote it: a save
        over any other is refused (another screen saved in between)."""
        return self.session.revision

    # -- games -------------------------------------------------------------------------

    async def start_game(
        self, players: list[str], rules: Rules, first: int = 0, meta: dict[str, Any] | None = None,
        *, points_only: bool = False,
    ) -> str:
        """Create, persist and open a game (``points_only``: turns entered as their bank or a
        farkle); engine errors leave nothing behind."""
        game = Game(players, rules, first, points_only=points_only)
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
        then bank); a refusal or a failed write keeps the game held before and raises; another
        screen's save in between shows that screen's game (:class:`~app.storage.ChangedElsewhere`).
        """
        def play(kept: KeptGame) -> tuple[KeptGame, None]:
            trial = kept.game.copy()
            action(trial)
            return replace(kept, game=trial), None

        await self.session.act(play)
        self._announce()

    async def update_meta(self, key: str, value: Any) -> None:
        """Set one field of the open game that is not play (``"tournament"``, ``"title"``) over the
        revision this screen read, or one the device keeps beside it (``"advice"``), kept before
        it returns; as :meth:`act` for a failed write or another screen's save."""
        if key in self.session.kind.beside:
            await self.session.keep_beside(**{key: value})
        else:
            await self.session.act(lambda kept: (replace(kept, meta={**kept.meta, key: value}), None))
            self._announce()

    def _announce(self) -> None:
        """The open game was stored: its followers read it again."""
        if self.game_id is not None:
            self.announce(self.game_id)

    async def delete_game(self, game_id: str) -> None:
        await self.session.delete(game_id)

    async def delete_finished(self) -> int:
        """Delete every finished game (unfinished ones are never touched); how many went."""
        finished = [summary.id for summary in await self.summaries() if summary.finished]
        for game_id in finished:
            await self.delete_game(game_id)
        return len(finished)

    async def export_games(self, may_carry_keys: KeyPolicy) -> GameExport:
        """Every readable game as one JSON file a person can keep or move to another device,
        a table game with its signing key only where ``may_carry_keys`` allows its event
        (:func:`app.table.export.signing_events`)."""
        return export_games(await self.store.load_all(KIND.collection), may_carry_keys)

    async def summaries(self) -> list[GameSummary]:
        """Every readable game, most recently played first (from the games' index)."""
        listed = await self.store.summaries(KIND.collection, LISTING)
        summaries = [summary_of(doc_id, fields) for doc_id, fields in listed.items()]
        return sorted(summaries, key=lambda summary: summary.updated, reverse=True)

    # -- settings ----------------------------------------------------------------------

    async def settings(self) -> Document:
        return await read_settings(self.store)

    async def update_settings(self, **changes: Any) -> None:
        await change_settings(self.store, lambda settings: settings.update(changes))

    async def recent_names(self) -> list[str]:
        return list((await self.settings()).get("recent_names", []))

    async def remember_names(self, names: list[str]) -> None:
        """Put these names first in the recent list offered on the next new game."""
        await remember_names(self.store, names)
