"""Dice in hand: a table that also meets around a kitchen table rolls its own dice and enters
the faces; the rules read them as they read the server's (``DiceMethod.read``), and the log
marks the entry "rolled by hand". A campaign allows it only while its GM has it on
(``TableTalk.dice_in_hand``)."""

from collections.abc import Sequence

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from fudgetable.rules import dice as dice_rules
from fudgetable.rules.dice import Face, get_method
from fudgetable.rules.dice_words import read_faces
from fudgetable.rules.errors import RulesError
from rolls.models import TableTalk


def allowed(campaign: Campaign) -> bool:
    return TableTalk.objects.filter(campaign=campaign, dice_in_hand=True).exists()


def hand_roll(campaign: Campaign, method_key: str, faces: Sequence[Face] | str) -> dice_rules.Roll:
    """The roll the faces make for ``method_key`` (as typed, or read already); refused where
    the campaign keeps the dice on the server, and for faces the method cannot show."""
    if not allowed(campaign):
        words = _("this table rolls its dice on the server: the GM can allow dice in hand")
        raise RulesError("faces", words)
    read = read_faces(method_key, faces) if isinstance(faces, str) else tuple(faces)
    return dice_rules.Roll(method_key, read, get_method(method_key).read(read))
