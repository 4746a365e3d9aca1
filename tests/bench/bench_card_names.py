"""A table card's QR code with names as people give them (report, never assert on time): four
40-character names carried as the scoreboard's short forms (what a card holds) beside the same
names carried whole, as the bare code and as the join link the seating page prints; and the time
to work out a table's short forms (eight 40-character names, first and cached).

    .venv/bin/python -m pytest -s tests/bench/bench_card_names.py
"""

from __future__ import annotations

import dataclasses
import time

from app.qr import qr_image
from app.table.tournament_table import join_link, link_qr_text
from engine import Tournament, encode_setup
from engine.codec import SeatedPlayer
from engine.names import short_forms

FOUR_OF_FORTY = ("Bartholomew Featherstonehaugh-Smythe III", "Bartholomew Fitzwilliam-Cholmondeley Jnr",
                 "Aleksandra Featherstonehaugh-Cholmondele", "Maximiliana Wolfeschlegelsteinhausen Snr")
EIGHT_OF_FORTY = tuple(f"{given} García-Márquez de la Peña y Ruiz {n}"[:40].ljust(40, "x")
                       for n, given in enumerate(("Aleksandra", "Bartholomew", "Maximiliana", "Cassiopeia",
                                                  "Hieronymus", "Gwendolyn", "Evangeline", "Ferdinand")))
VENUES = {"venue address": "http://192.168.1.20:8550", "site in a folder": "http://farkle-table.local:8550/apps/farkle/#",
          "no address": ""}


def card_qr(code: str, venue: str) -> tuple[int, int]:
    """(QR version at level M, characters) of the card as the seating page draws it."""
    text = link_qr_text(join_link(code, venue)) if venue else code
    return qr_image(text).version, len(text)


def test_bench_a_card_of_four_40_character_names() -> None:
    t = Tournament("Open", event_id="MAYOR-26", secret=b"mayor-house-2026")
    for name in FOUR_OF_FORTY:
        t.check_in(t.sign_up(name))
    t.draw_seats(seed=3)
    for label, venue in VENUES.items():
        setup = t.setup(1, venue)
        whole = dataclasses.replace(setup, players=tuple(SeatedPlayer(p.number, t.player(p.number).name)
                                                         for p in setup.players))
        (short_version, short_chars), (whole_version, whole_chars) = (card_qr(encode_setup(setup), venue),
                                                                      card_qr(encode_setup(whole), venue))
        print(f"\n{label}: short forms {setup.names} version {short_version} ({short_chars} characters); "
              f"whole names version {whole_version} ({whole_chars} characters)")


def test_bench_the_short_forms_of_a_table_of_eight_40_character_names() -> None:
    start = time.perf_counter()
    forms = short_forms(EIGHT_OF_FORTY)
    first = time.perf_counter() - start
    batches = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(1000):
            short_forms(EIGHT_OF_FORTY)
        batches.append(time.perf_counter() - start)
    again = min(batches) / 1000
    print(f"\nshort forms of eight 40-character names: {forms}; first {first * 1000:.2f} ms, "
          f"then {again * 1e6:.1f} µs a redraw")
