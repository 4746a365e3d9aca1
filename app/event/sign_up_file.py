"""A sign-up list picked as a file (a CSV or a text file, one player a line), read as text.

The engine reads the text itself (:meth:`engine.Tournament.preview_sign_ups`); this only
measures the file before anything reads it (at most :data:`LIST_LARGEST` bytes, as for a
pasted list) and finds the encoding a spreadsheet or an editor saved it in.
"""

from __future__ import annotations

from app.i18n import tr
from engine import InvalidInput
from engine.tournament.signups import LIST_LARGEST

__all__ = ["read_list_file"]


def read_list_file(data: bytes | None, name: str) -> str:
    """The text of a picked sign-up file (UTF-8, a spreadsheet's UTF-8 with BOM, or Windows-1252).

    :raises InvalidInput: nothing came, the file is larger than a list may be, or it is not text.
    """
    if data is None:
        raise InvalidInput(tr("{name} could not be read: pick it again.", name=name))
    if len(data) > LIST_LARGEST:
        raise InvalidInput(tr("{name} is {size:,} bytes: a sign-up file may be at most {limit:,} (1,000 lines of a "
                              "spreadsheet's export). Save only the name and number columns, or split the list.",
                              name=name, size=len(data), limit=LIST_LARGEST))
    if b"\x00" in data[:4096]:
        raise InvalidInput(tr("{name} is not a text or CSV file: save the list as CSV and pick it again.", name=name))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
