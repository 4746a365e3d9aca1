"""The SharedMap a tournament's states share: it reads as the dict it stands for, and a change
gives a new map, leaving the one it came from as it was."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.shared_map import SharedMap

CHANGES = st.lists(st.tuples(st.integers(-300, 300), st.one_of(st.none(), st.text(max_size=3))), max_size=200)
"""(key, value) to set, or (key, None) to take out."""


@given(CHANGES)
def test_a_shared_map_reads_like_the_dict_of_its_changes_in_key_order(changes: list[tuple[int, str | None]]) -> None:
    shared: SharedMap[int, str] = SharedMap()
    model: dict[int, str] = {}
    for key, value in changes:
        if value is None and key in model:
            shared, _ = shared.without(key), model.pop(key)
        elif value is not None:
            shared, model[key] = shared.set(key, value), value
    assert shared == model and len(shared) == len(model)
    assert list(shared) == sorted(model) and list(shared.items()) == sorted(model.items())
    assert all(shared[key] == value and key in shared for key, value in model.items())
    assert shared.get(1_000) is None and shared.get(1_000, "none") == "none" and 1_000 not in shared


@given(CHANGES, st.integers(-300, 300), st.text(max_size=3))
def test_a_change_leaves_the_map_it_came_from_as_it_was(
        changes: list[tuple[int, str | None]], key: int, value: str) -> None:
    shared: SharedMap[int, str] = SharedMap()
    for changed_key, changed_value in changes:
        if changed_value is not None:
            shared = shared.set(changed_key, changed_value)
    before = dict(shared.items())
    shared.set(key, value)
    if key in shared:
        shared.without(key)
    assert shared == before and dict(shared.view()) == before
