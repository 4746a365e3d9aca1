"""A sign-up list picked as a file (a CSV or a text file, one player a line), read as text.

The engine reads the text itself (:meth:`engine.Tournament.preview_sign_ups`); this only
finds the encoding a spreadsheet or an editor saved it in.
"""

from __future__ import annotations

from app.i18n import tr
from engine import InvalidInput

__all__ = ["read_list_file"]


def read_list_file(data: bytes | None, name: str) -> str:
    """The text of a picked sign-up file (UTF-8, a spreadsheet's UTF-8 with BOM, or Windows-1252)."""
    if data is None:
        raise InvalidInput(tr("{name} could not be read: pick it again.", name=name))
    if b"\x00" in data[:4096]:
        raise InvalidInput(tr("{name} is not a text or CSV file: save the list as CSV and pick it again.", name=name))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
