"""The roll forms share their fields between instances (rolls.forms.fields_shared) and still
keep each roll's data, errors and cleaned values to itself."""

from rolls.forms import RollForm, SheetRollForm


def test_two_rolls_at_once_keep_their_own_errors_and_values():
    wrong = RollForm({"kind": "check", "key": "k" * 8, "difficulty": "99", "modifiers": "x"})
    right = RollForm({"kind": "check", "key": "k" * 8, "trait": "7", "modifiers": "+1 -2"})
    assert wrong.fields is right.fields  # one set of fields, not a copy each
    assert not wrong.is_valid()
    assert set(wrong.errors) == {"difficulty", "modifiers", "trait"}
    assert right.is_valid(), right.errors
    assert right.cleaned_data["modifiers"] == (1, -2) and right.cleaned_data["trait"] == "7"
    assert not wrong.is_valid() and "trait" not in right.errors  # neither reached the other


def test_a_sheet_roll_reads_its_trait():
    form = SheetRollForm({"trait": "12", "key": "k" * 8})
    assert form.is_valid() and form.cleaned_data["trait"] == 12
    assert not SheetRollForm({"trait": "twelve", "key": "k" * 8}).is_valid()
