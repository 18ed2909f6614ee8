"""A character file with any part of it replaced by generated JSON is imported or refused with
its problems listed: never another error, and a refused file saves nothing."""

import copy

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters import services
from tests.characters.test_exchange import exported, full_sheet, row_counts

pytestmark = pytest.mark.django_db

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=60),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)

# Values a careless or hostile file holds, which random JSON seldom spells: drawn half the time.
EDGES = st.sampled_from(["", " ", "Zan\x00zibar", "\x1b[31m", "9" * 30, "-1", "1.5", "Good"])


@pytest.fixture
def export(campaign, member):
    return exported(full_sheet(campaign, member))


def _paths(document: object, path: tuple = ()) -> list[tuple]:
    """Every place in the document a value sits, to replace one of them."""
    places = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            places += _paths(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            places += _paths(value, (*path, index))
    return places


def _replaced(document: dict, path: tuple, value: object) -> object:
    if not path:
        return value
    changed = copy.deepcopy(document)
    holder = changed
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return changed


@settings(
    max_examples=200,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_mangled_file_is_imported_or_refused_with_nothing_saved(campaign, member, export, data):
    path = data.draw(st.sampled_from(_paths(export)), label="place")
    value = data.draw(st.one_of(EDGES, JSON), label="value")
    before = row_counts()
    try:
        services.character_import(
            campaign=campaign, owner=member, data=_replaced(export, path, value)
        )
    except ValidationError as refusal:
        assert refusal.messages, "a refusal names its problems"
        assert row_counts() == before
