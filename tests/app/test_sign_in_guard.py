"""Wrong organizer passphrases limited per device, network, event and overall, each answer at once."""

from __future__ import annotations

import asyncio
from typing import Any

from app.venue.client_address import network_of
from app.event.passphrase import PassphraseRefused
from app.event.sign_in_guard import SignInGuard
from tests.support.access_support import PHONE, FakeClock, right, tries_answered, wrong


def test_a_device_is_paused_after_five_wrong_passphrases_and_told_for_how_long_without_waiting():
    clock = FakeClock()
    guard = SignInGuard(clock=clock)
    answers = tries_answered(guard, PHONE, ["cup"], wrong, 7)
    assert answers[:5] == ["checked"] * 5
    assert answers[5].startswith("Too many wrong passphrases from this device; try again in 1 minute.")
    assert "organizer's own device still opens" in answers[5]
    assert tries_answered(guard, "10.0.0.9", ["cup"], right, 1) == ["checked"]  # another device is not paused
    clock.now += 61
    assert tries_answered(guard, PHONE, ["cup"], wrong, 1) == ["checked"]  # the pause is over


def test_addresses_of_one_network_share_its_limit_an_ipv4_24_and_an_ipv6_64():
    assert network_of("192.168.1.50") == network_of("192.168.1.7") == "192.168.1.0/24"
    assert network_of("2001:db8::1") == network_of("2001:db8::ffff:1") == "2001:db8::/64"
    assert network_of("::ffff:10.1.2.3") == "10.1.2.0/24" and network_of("not an address") == "not an address"
    guard = SignInGuard(clock=FakeClock())
    answers = [tries_answered(guard, f"2001:db8::{n}", [f"event-{n}"], wrong, 1)[0] for n in range(1, 13)]
    assert answers[:10] == ["checked"] * 10
    assert answers[10].startswith("Too many wrong passphrases from this part of the network; try again in 5 minutes")


def test_an_event_takes_ten_wrong_passphrases_from_any_number_of_networks_then_everyone_is_told():
    guard = SignInGuard(clock=FakeClock())
    answers = [tries_answered(guard, f"10.{n}.0.1", ["cup"], wrong, 1)[0] for n in range(16)]
    assert answers[:10] == ["checked"] * 10
    assert set(answers[10:]) == {"Too many wrong passphrases for this event; try again in 15 minutes. "
                                 "The organizer's own device still opens the event."}
    assert tries_answered(guard, "10.99.0.1", ["night"], right, 1) == ["checked"]  # another event opens
    tries = guard.failed_tries("cup")
    assert tries.count == 10 and len(tries.addresses) == 10 and tries.paused_until == guard.clock() + 900
    guard.clock.now += 901  # type: ignore[attr-defined]
    answers = [tries_answered(guard, f"10.{n}.0.1", ["cup"], wrong, 1)[0] for n in range(11)]
    assert answers[10].startswith("Too many wrong passphrases for this event; try again in 30 minutes")


def test_under_a_lasting_attack_an_event_gets_about_ten_tries_an_hour_and_every_event_together_thirty():
    clock = FakeClock()
    guard = SignInGuard(clock=clock)
    checked = {"cup": 0, "all": 0}

    async def day() -> None:  # 16 addresses, each in its own network, each trying every minute
        for minute in range(24 * 60):
            clock.now += 60
            for n in range(16):
                events = ["cup"] if n < 8 else [f"event-{n}"]
                try:
                    await guard.attempt(f"10.{minute % 200}.{n}.1", events, wrong)
                except PassphraseRefused:
                    continue
                checked["all"] += 1
                checked["cup"] += events == ["cup"]

    asyncio.run(day())
    assert checked["cup"] <= 10 * 26  # 10 before each pause: 15, 30, then 60 minutes
    assert checked["all"] <= 30 * 26


def test_a_crowd_of_simultaneous_tries_cannot_pass_the_limit_and_none_waits_for_another():
    guard = SignInGuard(clock=FakeClock())
    started: list[str] = []
    release = asyncio.Event()

    async def slow_wrong() -> bool:
        started.append("check")
        await release.wait()
        return False

    async def crowd() -> list[Any]:
        tries = [asyncio.create_task(guard.attempt(f"10.{n}.0.1", ["cup"], slow_wrong)) for n in range(40)]
        await asyncio.sleep(0)
        assert len(started) == 10  # the rest were refused at once, while ten checks were pending
        release.set()
        return await asyncio.gather(*tries, return_exceptions=True)

    answers = asyncio.run(crowd())
    assert answers.count(False) == 10 and sum(isinstance(a, PassphraseRefused) for a in answers) == 30


def test_two_devices_behind_one_address_are_answered_side_by_side_not_one_after_the_other():
    guard = SignInGuard(clock=FakeClock())
    both_checking = asyncio.Event()
    checking: list[int] = []

    async def check() -> bool:
        checking.append(1)
        if len(checking) == 2:
            both_checking.set()
        await asyncio.wait_for(both_checking.wait(), 5)
        return True

    async def two() -> list[bool]:
        return list(await asyncio.gather(guard.attempt(PHONE, ["cup"], check), guard.attempt(PHONE, ["cup"], check)))

    assert asyncio.run(two()) == [True, True]


def test_refused_tries_from_ever_new_addresses_keep_nothing_so_a_paused_event_costs_no_memory():
    guard = SignInGuard(clock=FakeClock())
    tries_answered(guard, "10.0.0.1", ["cup"], wrong, 5)
    for n in range(6):
        tries_answered(guard, f"10.1.{n}.1", ["cup"], wrong, 1)  # the event is paused now
    kept = len(guard.scopes)
    answers = [tries_answered(guard, f"2001:db8:{n:x}::1", ["cup"], wrong, 1)[0] for n in range(300)]
    assert all(answer.startswith("Too many wrong passphrases for this event") for answer in answers)
    assert len(guard.scopes) == kept


def test_a_right_passphrase_forgives_the_devices_own_failures_but_not_the_events():
    guard = SignInGuard(clock=FakeClock())
    tries_answered(guard, PHONE, ["cup"], wrong, 4)
    tries_answered(guard, PHONE, ["cup"], right, 1)
    assert tries_answered(guard, PHONE, ["cup"], wrong, 4) == ["checked"] * 4  # the device starts afresh
    assert guard.failed_tries("cup").count == 8
    answers = [tries_answered(guard, f"10.{n}.0.1", ["cup"], wrong, 1)[0] for n in range(3)]
    assert answers[:2] == ["checked"] * 2 and answers[2].startswith("Too many wrong passphrases for this event")


def test_failures_are_forgotten_after_a_quiet_hour():
    clock = FakeClock()
    guard = SignInGuard(clock=clock)
    tries_answered(guard, PHONE, ["cup"], wrong, 4)
    clock.now += 3601
