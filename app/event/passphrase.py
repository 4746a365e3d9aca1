"""The organizer passphrase: the rule a new one meets, and its salted scrypt hash.

An event keeps only the hash (:func:`hash_passphrase`), never the passphrase; a device
that gives the right one is signed in to the event (:mod:`app.event.access`), and wrong ones
are limited (:mod:`app.event.sign_in_guard`).
"""

from __future__ import annotations

from app.i18n import tr
import base64
import hashlib
import hmac
import os
import unicodedata
from typing import Final

from engine import InvalidInput

__all__ = [
    "MIN_PASSPHRASE", "PassphraseRefused", "passphrase_problem", "check_new_passphrase", "hash_passphrase",
    "meets_rule", "verify_passphrase", "b64_unpadded",
]

MIN_PASSPHRASE: Final = 8
"""A new passphrase's least length: with :data:`app.event.sign_in_guard.LIMITS` (about 10 tries an hour
per event) even 8 digits take centuries to guess; older events kept 4+ and are asked to set a new one."""
LEGACY_MIN_PASSPHRASE: Final = 4
"""The least length before the rule above: such stored passphrases still open their event."""
_RULE_MARK: Final = "rule8"
"""Ends a hash made of a passphrase that met :func:`passphrase_problem`'s rule (an older hash has no mark)."""

_SCRYPT_N: Final = 2**14
_SCRYPT_R: Final = 8
_SCRYPT_P: Final = 1


class PassphraseRefused(InvalidInput):
    """A passphrase that cannot be set, or that opens nothing."""


def _normal(passphrase: str) -> str:
    """The passphrase as compared: Unicode-normalised, outer spaces dropped (phones add them)."""
    return unicodedata.normalize("NFKC", str(passphrase)).strip()


def passphrase_problem(text: str) -> str | None:
    """Why ``text`` is too easy to guess as an organizer passphrase, or None.

    Too short (under :data:`MIN_PASSPHRASE` characters), or a run an attacker tries first:
    one character repeated or a straight sequence (``11111111``, ``12345678``, ``hgfedcba``).

    >>> passphrase_problem("harbour 9") is None, passphrase_problem("87654321") is not None
    (True, True)
    """
    text = _normal(text)
    if len(text) < MIN_PASSPHRASE:
        return tr("The organizer passphrase needs at least {least} characters (two words and a number will do); "
                  "{count} given.", least=MIN_PASSPHRASE, count=len(text))
    steps = {ord(b) - ord(a) for a, b in zip(text, text[1:])}
    if len(steps) == 1 and steps <= {-1, 0, 1}:
        return tr("The organizer passphrase is one character repeated or a straight run (like 12345678): choose "
                  "another.")
    return None


def check_new_passphrase(first: str, again: str) -> str:
    """The passphrase to set, when typed twice alike and hard enough to guess (:func:`passphrase_problem`).

    :raises PassphraseRefused: too easy, or the two differ (in words the organizer reads).
    """
    text = _normal(first)
    problem = passphrase_problem(text)
    if problem is not None:
        raise PassphraseRefused(problem)
    if _normal(again) != text:
        raise PassphraseRefused(tr("The two passphrases differ: type the same one twice."))
    return text


def b64_unpadded(data: bytes) -> str:
    """URL-safe base64 without its ``=`` padding: a hash's parts and a session token's signature."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_passphrase(passphrase: str, *, salt: bytes | None = None, n: int = _SCRYPT_N, r: int = _SCRYPT_R,
                    p: int = _SCRYPT_P) -> str:
    """A salted scrypt hash of the passphrase, with its parameters: ``scrypt$n$r$p$salt$digest``, then
    ``$rule8`` when the passphrase meets today's rule (so :func:`meets_rule` can tell without it).

    >>> stored = hash_passphrase("harbour 9", n=2**4)
    >>> verify_passphrase("harbour 9", stored), verify_passphrase("harbour 8", stored), "harbour" in stored
    (True, False, False)
    >>> meets_rule(stored), meets_rule(hash_passphrase("1234", n=2**4))
    (True, False)
    """
    text = _normal(passphrase)
    if len(text) < LEGACY_MIN_PASSPHRASE:
        raise PassphraseRefused(tr("The organizer passphrase needs at least {least} characters.", least=MIN_PASSPHRASE))
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(text.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024, dklen=32)
    mark = f"${_RULE_MARK}" if passphrase_problem(text) is None else ""
    return f"scrypt${n}${r}${p}${b64_unpadded(salt)}${b64_unpadded(digest)}{mark}"


def meets_rule(stored: str) -> bool:
    """Whether the stored hash was made of a passphrase meeting today's rule (older events' may be short)."""
    return stored.endswith(f"${_RULE_MARK}")


def verify_passphrase(passphrase: str, stored: str) -> bool:
    """Whether ``passphrase`` is the one ``stored`` was made from (False for no or a broken hash)."""
    try:
        scheme, n, r, p, salt, digest, *mark = stored.split("$")
        if scheme != "scrypt" or mark not in ([], [_RULE_MARK]):
            return False
        expected = _unb64(digest)
        given = hashlib.scrypt(_normal(passphrase).encode("utf-8"), salt=_unb64(salt), n=int(n), r=int(r),
                               p=int(p), maxmem=64 * 1024 * 1024, dklen=len(expected))
    except (ValueError, TypeError, AttributeError):
        return False
    return hmac.compare_digest(given, expected)
