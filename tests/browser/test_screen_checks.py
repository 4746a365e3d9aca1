"""The picture checks of the every-screen survey (tests/browser/test_browser_every_screen.py) on
drawn pictures: they find what they are for, and nothing else."""

from __future__ import annotations

from PIL import Image, ImageDraw

from tests.browser.test_browser_every_screen import content_rows, grey_error_box, longest_blank_band

PAGE = (246, 251, 244)
"""The app's light background."""
ERROR_BOX = (195, 196, 195)
"""Flutter's release error box (0xF0C0C0C0) as drawn over that background."""


def page_with(*boxes: tuple[tuple[int, int, int, int], tuple[int, int, int]]) -> Image.Image:
    picture = Image.new("RGB", (390, 764), PAGE)
    draw = ImageDraw.Draw(picture)
    for box, colour in boxes:
        draw.rectangle(box, fill=colour)
    return picture


def test_a_patch_of_flutters_error_grey_is_found_where_it_is() -> None:
    found = grey_error_box(page_with(((20, 300, 370, 700), ERROR_BOX)))
    assert found is not None and 20 <= found[0] <= 36 and 300 <= found[1] <= 316


def test_grey_text_a_thin_grey_line_and_other_colours_are_not_taken_for_an_error_box() -> None:
    assert grey_error_box(page_with(((20, 300, 370, 312), ERROR_BOX))) is None  # a 13 px rule
    assert grey_error_box(page_with(((20, 300, 370, 700), (224, 224, 224)))) is None  # a dim die's grey
    assert grey_error_box(page_with(((20, 300, 370, 700), (195, 210, 195)))) is None  # a tint, not grey


def test_a_blank_band_between_contents_is_measured_from_its_first_empty_row() -> None:
    rows = dict(enumerate(content_rows(page_with(((0, 0, 389, 99), (0, 0, 0)), ((0, 600, 389, 650), (0, 0, 0))),
                                       PAGE)))
    assert longest_blank_band(rows, scrolls=True) == (100, 500)


def test_the_unused_end_of_a_page_that_fits_its_screen_is_no_blank_band() -> None:
    rows = dict(enumerate(content_rows(page_with(((0, 0, 389, 99), (0, 0, 0))), PAGE)))
    assert longest_blank_band(rows, scrolls=False) == (0, 0)
    assert longest_blank_band(rows, scrolls=True) == (100, 664)  # a page scrolling on into nothing
