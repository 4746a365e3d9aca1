"""Any address parses to a screen, and the app shows "not found" for the odd ones."""

from __future__ import annotations

import pytest

from app.routes import Route, parse_route
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness

ID = "20261129-160700-3fa9c2"


@pytest.mark.parametrize(
    ("path", "screen", "game_id"),
    [
        ("/", "home", ""),
        ("", "home", ""),
        ("/new", "new", ""),
        (f"/new/{ID}", "new", ID),
        ("/lookup", "lookup", ""),
        (f"/lookup/{ID}", "lookup", ID),
        (f"/game/{ID}", "game", ID),
        (f"/game/{ID}/", "game", ID),
        (f"/game/{ID}/history", "history", ID),
        ("/join", "join", ""),
        ("/organizer", "organizer", ""),
        ("/IMPORT/FR1ABC", "import", ""),
    ],
)
def test_every_known_address_names_its_screen(path: str, screen: str, game_id: str) -> None:
    route = parse_route(path)
    assert (route.screen, route.game_id) == (screen, game_id)


@pytest.mark.parametrize(
    "path",
    ["/game/..", "/game/%2e%2e%2f..%2fsettings", "/game/" + "a" * 2000, "/game/%20", "/game/ ",
     "/organizer/..", "/organizer/a b", "/game", f"/game/{ID}/history/extra", "/nowhere",
     "/" + "x/" * 3000, "/lookup/../..", "/new/%00"],
)
def test_odd_addresses_parse_to_not_found_without_raising(path: str) -> None:
    assert parse_route(path).screen == "not_found"


def test_a_join_link_keeps_its_code_unquoted() -> None:
    assert parse_route("/join/FT1%2BABC/DEF").payload == "FT1+ABC/DEF"


def test_a_route_is_a_plain_value() -> None:
    assert parse_route("/lookup") == Route("lookup", "/lookup", ("lookup",))


@pytest.mark.parametrize("path", ["/game/..", "/game/%2e%2e%2f%2e%2e", "/game/" + "b" * 2000, "/game/%20",
                                  "/organizer/..", "/game/nosuchgame"])
def test_the_app_shows_not_found_inside_the_app_for_a_bad_address(data_dir, path: str) -> None:
    async def test(ui: FletHarness) -> list[str]:
        return ui.texts()

    texts = " ".join(run(test, route=path))
    assert "Not found" in texts
    assert "on this device" in texts


def test_a_bad_address_after_start_shows_not_found_and_home_still_works(data_dir) -> None:
    async def test(ui: FletHarness) -> None:
        await ui.navigate("/game/..")
        assert ui.exists("not-found")
        await ui.click("not-found-home")
        assert ui.exists("new-game")

    run(test)
