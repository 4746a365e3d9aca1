"""What the organizer-access tests share: a phone's address, cheap passphrase hashes, a clock
the test moves, and tries through a sign-in guard answered one by one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.event.passphrase import PassphraseRefused, hash_passphrase
from app.event.sign_in_guard import SignInGuard

__all__ = ["PHONE", "FAST", "cheap_hash", "FakeClock", "wrong", "right", "tries_answered"]

PHONE = "192.168.1.50"
FAST = {"n": 2**4}  # cheap scrypt parameters for tests; the stored hash carries its own


def cheap_hash(passphrase: str) -> str:
    return hash_passphrase(passphrase, **FAST)


@dataclass
class FakeClock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def wrong() -> bool:
    return False


async def right() -> bool:
    return True


def tries_answered(guard: SignInGuard, address: str, events: list[str], check: Callable[[], Awaitable[bool]],
                   times: int) -> list[str]:
    """Each try's answer: "checked" (the passphrase was checked) or the refusal's words."""

    async def run() -> list[str]:
        answers = []
        for _ in range(times):
            try:
                await guard.attempt(address, events, check)
                answers.append("checked")
            except PassphraseRefused as refused:
                answers.append(str(refused))
        return answers

    return asyncio.run(run())
