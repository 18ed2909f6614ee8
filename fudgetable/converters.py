"""The path converters for a row's id in every URL. Django's ``int`` takes any number of
digits, and SQLite raises OverflowError on one past 64 bits: a mistyped or hostile link was a
500. Rows whose count is not the viewer's to read go by enciphered ids (``shown_ids``), one
converter per kind: ``<entry:...>``, ``<scene:...>``, ``<area:...>``, ``<figure:...>``,
``<card:...>``, ``<attack:...>``."""

from django.urls import register_converter

from fudgetable.shown_ids import KINDS


class IdConverter:
    """1 to 18 digits, always below 2**63, so a longer id is a 404 like any id naming no row."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
for kind in KINDS:
    register_converter(kind.converter(), kind.name)
