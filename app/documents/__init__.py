"""What the app stores, one module per collection, above the stores of :mod:`app.storage`.

- :mod:`app.documents.games`: a game's document, its checks, Home's listing, its noun.
- :mod:`app.documents.events`: an event's document, its checks, the list of events, its noun.
- :mod:`app.documents.settings`: the app's settings, merged rather than revised.

Each says what its documents are (a :class:`~app.storage.DocumentKind`); how one is opened,
acted on and saved over its revision, and what another screen's save means, is the
:class:`~app.storage.DocumentSession`'s, once.  A service (:mod:`app.table.scorekeeper`,
:mod:`app.event.organizer`) only says what an action is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from app.documents import events, games, settings
from app.storage import BESIDE, DOCUMENT_SCHEMAS, DocumentSchema

__all__ = ["CHECKS"]

CHECKS: Final[Mapping[str, DocumentSchema]] = {
    games.COLLECTION: games.CHECKS,
    events.COLLECTION: events.CHECKS,
    settings.COLLECTION: settings.CHECKS,
    BESIDE: DOCUMENT_SCHEMAS[BESIDE],
}
"""What every stored document must be before it is listed or opened: its shape, and for
games and events a log the engine replays.  Both services give these to their store, so a
document that fails is kept aside and named in ``store.problems`` instead of failing a screen."""
