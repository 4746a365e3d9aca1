import pytest

from engine import InvalidInput, parse_dice


@pytest.mark.parametrize(
    "entered, faces",
    [
        ("1 2 3 3 3 5", (1, 2, 3, 3, 3, 5)),
        ("123335", (1, 2, 3, 3, 3, 5)),
        ("1,2,3", (1, 2, 3)),
        (" 5-1 ", (1, 5)),
        ([6, 1, 1], (1, 1, 6)),
        ((4,), (4,)),
    ],
)
def test_dice_are_read_in_every_way_people_type_them(entered, faces):
    assert parse_dice(entered) == faces


@pytest.mark.parametrize(
    "entered, message",
    [
        ("", "No dice entered in ''"),
        ([], r"No dice entered in \[\]"),
        ("1 2 7", r"7 in '1 2 7' is not a die face"),
        ("0 9", r"0, 9 in '0 9' are not die faces"),
        ("1111111", "7 dice: a throw has at most 6"),
        ("one two", r"'one two' is not a list of dice"),
        ([1, "2"], r"'2' in \[1, '2'\] is not a die face"),
        ([True], r"True in \[True\] is not a die face"),
        ("١٢٣", "is not a list of dice"),
    ],
)
def test_anything_but_one_to_six_faces_is_refused_quoting_the_entry(entered, message):
    with pytest.raises(InvalidInput, match=message):
        parse_dice(entered)
