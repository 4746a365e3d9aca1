"""The table app driven through a real Flet session without a browser: fast UI tests."""

from __future__ import annotations

import asyncio
from typing import Any

from app.table.scorekeeper import Scorekeeper
from app.storage import DATA_DIR_ENV, FileStore, StoreWriteError
from app.views.table_state import TableState
from engine import Game, Rules
from tests.support.app_driver import keep, run, saved_events, start_game, throw
from tests.support.flet_harness import FletHarness


def test_a_new_game_starts_from_the_form_and_shows_whose_turn_it_is(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        assert ui.text_of("turn-line") == "Ann's turn · turn total 0 · six dice in hand"
        assert "Enter Ann's throw: six dice" in ui.texts()

    run(test)


def test_a_throw_tapped_in_shows_the_options_and_a_live_preview(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "1 2 3 3 3 5")
        assert "Ann threw 1 2 3 3 3 5" in ui.texts()
        assert ui.is_disabled("bank")
        await ui.click("best-option")
        assert ui.text_of("keep-preview") == "Set aside 1 3 3 3 5: three 3s 300 + 1 100 + 5 50 = 450 · turn 450"
        assert ui.is_disabled("bank")
        assert ui.text_of("bank-reason") == (
            "Ann needs 500 in one turn to get on the board: 450 is not enough, throw again."
        )
        await ui.click("roll")
        assert ui.text_of("turn-line") == "Ann's turn · turn total 450 · one die in hand"

    run(test)


def test_a_die_that_scores_in_no_keep_is_refused_with_the_engines_reason_and_not_set_aside(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "1 2 3 3 3 5")
        await keep(ui, 0, 1)  # the 1 and the 2
        assert ui.text_of("refusal") == "2 does not score in 1 2 3 3 3 5: set aside only dice that score."
        assert ui.accessible_name(ui.find("die-1")) == "Die 2 shows 2"
        assert ui.text_of("keep-preview") == "Set aside 1: 1 100 = 100 · turn 100"
        await keep(ui, 2)  # one 3 of three is not refused: the triple is being tapped in
        assert not ui.exists("refusal")

    run(test)


def test_a_seventh_die_is_refused_with_a_message_and_changes_nothing(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        for face in "1 2 3 4 5 6".split():
            await ui.click(f"face-{face}")
        await ui.click("face-6")
        assert "Ann throws six dice: 1 2 3 4 5 6 is complete." == ui.text_of("refusal")
        assert len(saved_events(data_dir)) == 1

    run(test)


def test_each_accepted_action_is_on_disk_before_the_screen_shows_it(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "1 1 1 5 2 3")
        assert saved_events(data_dir)[-1] == {"type": "rolled", "dice": [1, 1, 1, 2, 3, 5]}
        await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
        await ui.click("bank")
        assert [event["type"] for event in saved_events(data_dir)] == ["started", "rolled", "kept", "banked"]
        assert ui.text_of("total-0") == "1,050"
        assert "Ann is on the board with 1,050." in ui.texts()

    run(test)


def test_the_keyboard_enters_faces_picks_dice_and_banks(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        for key in ["1", "1", "1", "5", "2", "3", "Enter", "1", "1", "1", "5", "b"]:
            await ui.press_key(key)
        assert ui.text_of("total-0") == "1,050"
        assert ui.text_of("turn-line").startswith("Bob's turn")

    run(test)


def test_a_farkle_is_announced_and_the_dice_pass_on(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "2 2 3 3 4 6")
        assert "Farkle! 2 2 3 3 4 6 has nothing to set aside." in ui.texts()
        assert ui.text_of("turn-line").startswith("Bob's turn")

    run(test)


def test_undo_takes_back_one_action_at_a_time(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "2 2 3 3 4 6")
        await ui.click("undo")
        assert ui.text_of("turn-line").startswith("Ann's turn")
        assert len(saved_events(data_dir)) == 1

    run(test)


def test_progressive_offers_the_next_player_build_or_fresh_six(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", preset="progressive")
        await throw(ui, "1 1 1 5 2 3")
        await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
        await ui.click("bank")
        assert "Ann: bank 1,050 with TWO dice to pass." in ui.texts()
        assert "On offer to Bob: 1,050 with TWO dice" in ui.texts()
        await ui.click("build")
        assert ui.text_of("turn-line") == "Bob's turn · turn total 1,050 · two dice in hand"
        await throw(ui, "5 2")
        assert "Bob threw 5 2" in ui.texts()  # in the order typed
        assert ui.accessible_name(ui.find("die-0")) == "Die 1 shows 5"

    run(test)


def test_entering_only_the_passed_dice_with_an_offer_open_builds_on_it(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", preset="progressive")
        await throw(ui, "1 1 1 5 2 3")
        await keep(ui, 0, 1, 2, 3)
        await ui.click("bank")
        assert ui.text_of("offer-hint") == "or enter the two dice passed (builds on it), or six fresh dice"
        await ui.click("face-5")
        await ui.press_key("Enter")
        assert ui.text_of("refusal") == "Enter six fresh dice, or the two dice passed to build on 1,050 (1 so far)."
        await throw(ui, "2")  # no tap on Build: the two passed dice can only mean building
        assert [event["type"] for event in saved_events(data_dir)][-2:] == ["built", "rolled"]
        assert ui.text_of("thrown") == "Bob threw 5 2"
        assert ui.text_of("turn-line") == "Bob's turn · turn total 1,050 before this throw"

    run(test)


def test_enter_after_tapping_the_last_face_enters_the_throw_once(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        for face in "2 2 3 3 4 6".split():
            await ui.click(f"face-{face}")
        await ui.press_key("Enter")
        assert ui.text_of("turn-line") == "Bob's turn · turn total 0 · six dice in hand"
        assert not ui.exists("entered-0")

    run(test)


def test_a_restarted_app_opens_the_same_game_in_the_same_state(data_dir):
    async def first(ui: FletHarness) -> str:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "1 1 1 5 2 3")
        return str(ui.page.route)

    route = run(first)

    async def second(ui: FletHarness) -> None:
        assert "Ann threw 1 1 1 2 3 5" in ui.texts()
        await ui.click("best-option")
        assert ui.text_of("keep-preview").endswith("= 1,050 · turn 1,050")

    run(second, route=route)


def test_the_lookup_scores_tapped_dice_with_breakdown_and_odds(data_dir):
    async def test(ui: FletHarness) -> None:
        await ui.click("lookup")
        for face in "1 2 4 4 4 5".split():
            await ui.click(f"lookup-face-{face}")
        assert ui.text_of("lookup-best") == "Best: 550"
        assert "three 4s 400 + 1 100 + 5 50" in ui.texts()
        assert "Chance of a farkle with 6 dice: 2.31%" in ui.texts()
        await ui.set_value("lookup-rules", "official", event="select")
        assert "Straight 1-2-3-4-5-6" in ui.texts() and "1,000" in ui.texts()

    run(test)


def test_a_won_game_shows_the_standings_and_is_listed_as_finished(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", target="1000")
        await throw(ui, "1 1 1 5 2 3")
        await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
        await ui.click("bank")
        assert "Ann reached 1,050. Final round: last turns for Bob." in ui.texts()
        await throw(ui, "2 2 3 3 4 6")
        assert "Ann wins!" in ui.texts()
        assert "1. Ann 1,050" in ui.texts()
        await ui.navigate("/")
        assert "Ann won" in " ".join(ui.texts())

    run(test)


def test_every_control_a_person_can_use_has_a_name(data_dir):
    async def test(ui: FletHarness) -> None:
        assert ui.unlabelled_controls() == []
        await start_game(ui, "Ann", "Bob")
        assert ui.unlabelled_controls() == []
        await throw(ui, "1 2 3 3 3 5")
        assert ui.unlabelled_controls() == []
        await ui.navigate("/lookup")
        assert ui.unlabelled_controls() == []

    run(test)


def test_a_tie_for_the_win_asks_for_each_tied_players_roll_off_die(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", target="1000")
        for _ in range(2):
            await throw(ui, "1 1 1 5 2 3")
            await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
            await ui.click("bank")
        assert "Ann and Bob are tied at 1,050: each throws one die, highest wins." in ui.texts()
        assert ui.is_disabled("record-roll-off")
        await ui.click("roll-off-0-4")
        await ui.click("roll-off-1-4")
        await ui.click("record-roll-off")
        assert "Ann and Bob tied again with 4s: throw again." in ui.texts()
        await ui.click("roll-off-0-2")
        await ui.click("roll-off-1-6")
        await ui.click("record-roll-off")
        assert "Bob wins!" in ui.texts() and "1. Bob 1,050 · roll-off 4, 6" in ui.texts()

    run(test)


def test_the_history_lists_every_turn_with_its_throws(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "1 1 1 5 2 3")
        await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
        await ui.click("bank")
        await throw(ui, "2 2 3 3 4 6")
        await ui.click("history")
        texts = ui.texts()
        first_turn = texts.index("2. Bob: farkled · total 0")
        assert ui.exists("race-chart") and ui.exists("player-stats")
        assert texts[first_turn:first_turn + 4] == [
            "2. Bob: farkled · total 0",
            "2 2 3 3 4 6 → farkle",
            "1. Ann: banked 1,050 · total 1,050",
            "1 1 1 2 3 5 → kept 1 1 1 5",
        ]

    run(test)


def test_switching_to_progressive_mid_game_takes_effect_next_turn(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "1 1 1 5 2 3")
        await ui.click("change-rules")
        await ui.set_value("switch-progressive", True)
        await ui.click("apply-rules")
        assert any(text.startswith("From the next turn: Progressive: to 10,000") for text in ui.texts())
        await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
        await ui.click("bank")
        assert "On offer to Bob" not in " ".join(ui.texts())
        await throw(ui, "1 1 1 5 2 3")
        await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
        await ui.click("bank")
        assert "On offer to Ann: 1,050 with TWO dice" in ui.texts()

    run(test)


def test_a_two_step_action_refused_half_way_leaves_the_game_as_it_was(data_dir):
    async def test() -> None:
        keeper = Scorekeeper(FileStore(data_dir))
        table = TableState(keeper, await keeper.start_game(["Ann", "Bob"], Rules.preset("house")))
        await table.load()
        await table.act(lambda game: game.roll("1 2 3 3 3 5"))
        before = keeper.game.events

        def keep_then_bank(game: Game) -> None:
            game.keep("3 3 3")
            game.bank()  # 300 is below the entry threshold

        await table.act(keep_then_bank)
        assert table.refusal is not None and "300 is not enough" in table.refusal
        assert keeper.game.events == before == saved_events(data_dir)

    asyncio.run(test())


def test_a_failed_write_is_not_shown_as_accepted(data_dir, monkeypatch):
    store = FileStore(data_dir)

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")

        async def disk_full(*args: Any, **options: Any) -> None:
            raise StoreWriteError("No space left on the device")

        monkeypatch.setattr(store, "save", disk_full)
        await throw(ui, "1 2 3 3 3 5")
        assert ui.text_of("refusal") == "Not saved, so not counted: No space left on the device"
        assert len(saved_events(data_dir)) == 1
        assert ui.text_of("turn-line") == "Ann's turn · turn total 0 · six dice in hand"

    run(test, store=store)


def test_a_desktop_shows_the_keyboard_keys_and_a_phone_does_not(data_dir):
    hint = "Keyboard: 1-6 enter faces, Enter throws, Backspace takes one back; on a throw, 1-6 pick dice to set aside and B banks."

    async def test(ui: FletHarness) -> bool:
        await start_game(ui, "Ann", "Bob")
        return hint in ui.texts()

    assert run(test, platform="linux") is True
    assert run(test, platform="android") is False


def test_an_action_on_a_game_another_screen_moved_on_is_refused_and_shows_theirs(data_dir):
    store = FileStore(data_dir)

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        other = Scorekeeper(store)  # a second tab on the same server
        (game,) = await other.summaries()
        await other.open_game(game.id)
        await other.act(lambda game: game.roll("2 2 3 3 4 6"))  # Ann farkles over there
        await throw(ui, "1 1 1 5 2 3")
        assert ui.text_of("refusal").startswith("This game was changed on another screen meanwhile.")
        assert ui.text_of("turn-line").startswith("Bob's turn")
        assert [event["type"] for event in saved_events(data_dir)] == ["started", "rolled"]
        await throw(ui, "1 1 1 5 2 3")
        assert saved_events(data_dir)[-1] == {"type": "rolled", "dice": [1, 1, 1, 2, 3, 5]}

    run(test, store=store)


def test_a_reloaded_page_shows_what_another_tab_stored_meanwhile_and_keeps_nothing_stale(data_dir):
    store = FileStore(data_dir)

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await ui.click("face-1")  # tapped, not entered: a reload drops it, as a browser reload does
        other = Scorekeeper(store)  # a second tab on the same server
        (game,) = await other.summaries()
        await other.open_game(game.id)
        await other.act(lambda game: game.roll("2 2 3 3 4 6"))  # Ann farkles over there
        assert ui.text_of("turn-line").startswith("Ann's turn")  # this tab has not looked
        await ui.reconnect()  # the reload: Flet reattaches the tab to its session
        assert ui.text_of("turn-line").startswith("Bob's turn")
        assert not ui.exists("entered-0")
        await throw(ui, "1 1 1 5 2 3")  # and it plays on from there, nothing refused
        assert not ui.exists("refusal")
        assert saved_events(data_dir)[-1] == {"type": "rolled", "dice": [1, 1, 1, 2, 3, 5]}

    run(test, store=store)


def test_a_data_folder_that_cannot_be_used_is_explained_instead_of_crashing(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder's parent should be")
    monkeypatch.setenv(DATA_DIR_ENV, str(blocker / "data"))

    async def test(ui: FletHarness) -> str:
        return ui.text_of("store-unusable")

    message = run(test)
    assert str(blocker / "data") in message
    assert blocker.read_text() == "a file where the data folder's parent should be"
