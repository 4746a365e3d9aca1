"""Where a session's client is: the organizer's own addresses, and the address recorded for a session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from app.event.access import DeviceAccess
from app.venue.client_address import ORGANIZER_ADDRESSES_ENV, is_organizer_address, organizer_networks, peer_of, remember_peer
from tests.support.access_support import PHONE


def test_loopback_is_the_organizers_address_by_default_and_a_configured_list_replaces_it(monkeypatch):
    monkeypatch.delenv(ORGANIZER_ADDRESSES_ENV, raising=False)
    assert is_organizer_address("127.0.0.1") and is_organizer_address("::1")
    assert is_organizer_address("::ffff:127.0.0.1")
    assert not is_organizer_address(PHONE) and not is_organizer_address("") and not is_organizer_address("x")
    monkeypatch.setenv(ORGANIZER_ADDRESSES_ENV, "192.0.2.1, 10.0.0.0/24")
    assert is_organizer_address("192.0.2.1") and is_organizer_address("10.0.0.77")
    assert not is_organizer_address("127.0.0.1") and not is_organizer_address("10.0.1.1")


def test_a_configured_organizer_address_that_is_not_one_is_named():
    with pytest.raises(ValueError, match="'organizer-laptop' is not an address or network"):
        organizer_networks("127.0.0.1, organizer-laptop")


def test_a_session_is_known_by_the_address_recorded_when_it_was_created_not_a_later_page_patch():
    @dataclass
    class Page:
        session: Any
        client_ip: str | None

    class Session:
        pass

    page = Page(Session(), PHONE)
    remember_peer(page)
    page.client_ip = "127.0.0.1"  # what a client's property patch could do
    assert peer_of(page) == PHONE
    assert peer_of(Page(Session(), None)) is None  # not served over the network: the desktop, a test


def test_a_session_served_by_flets_own_web_server_is_known_by_its_connections_address():
    """``ft.run(view=None)`` without app.venue.server records no address: the connection's is read."""

    class FletApp:
        def __init__(self, address: str) -> None:
            self._FletApp__client_ip = address

    FletApp.__module__ = "flet_web.fastapi.flet_app"

    class Session:
        def __init__(self, connection: Any) -> None:
            self.connection = connection

    @dataclass
    class Page:
        session: Any
        client_ip: str | None = "127.0.0.1"  # patched by the client

    assert peer_of(Page(Session(FletApp(PHONE)))) == PHONE
    assert DeviceAccess.of_page(Page(Session(FletApp(PHONE)))).organizer is False
    assert DeviceAccess.of_page(Page(Session(FletApp("127.0.0.1")))).organizer is True
