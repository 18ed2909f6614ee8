"""A roll typed as words in the composer ("/r Athletics vs Good"), made by the same services
as the roll forms: a trait of the roller's own character is a check with the sheet's lines,
dice alone are a roll read from Fair (against a difficulty, a check of Fair)."""

from django.utils.translation import gettext as _

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Trait
from fudgetable.rules import checks
from fudgetable.rules.dice_words import DiceRoll
from fudgetable.rules.errors import RulesError
from rolls import services
from rolls.models import Roll


def roll_typed(
    membership: Membership, typed: DiceRoll, key: str, speaking_as: Character | None
) -> Roll:
    """Makes the roll; raises ``RulesError`` in words for one this person may not make."""
    services.refuse_observers(membership)
    if typed.secret and not membership.is_gm:
        raise RulesError("secret", _("only a GM rolls in secret; /r rolls for the table"))
    ruleset = campaign_ruleset(membership.campaign)
    if typed.trait is None:
        assert typed.method is not None
        hand = typed.hand
        if typed.difficulty is None:
            return services.roll_reading(
                membership=membership,
                key=key,
                reaction=False,
                label=typed.words(),
                modifiers=typed.modifiers,
                secret=typed.secret,
                method=typed.method,
                faces=hand,
            )
        return services.roll_check(
            membership=membership,
            key=key,
            level=checks.FAIR_ON_THE_STANDARD_LADDER,
            trait_name=typed.method,
            modifiers=typed.modifiers,
            difficulty=typed.difficulty,
            secret=typed.secret,
            method=typed.method,
            faces=hand,
        )
    trait = _trait(membership, typed.trait, speaking_as)
    return services.roll_check(
        membership=membership,
        key=key,
        level=trait.level + trait.modifier,
        trait_name=trait.name,
        character=trait.character,
        modifiers=typed.modifiers,
        difficulty=typed.difficulty,
        secret=typed.secret,
        # A check with the table's dice: its faces are read for them (advantage dice aside).
        faces=typed.hand,
        method=checks.dice_for(ruleset) if typed.hand is not None else None,
    )


def _trait(membership: Membership, name: str, speaking_as: Character | None) -> Trait:
    """The trait a typed roll names: of the character the composer speaks as, or else of the
    one character this person rolls for that has it."""
    traits = Trait.objects.filter(name__iexact=name).select_related("character")
    if speaking_as is not None:
        found = traits.filter(character=speaking_as).first()
        if found is None:
            raise RulesError(
                "trait",
                _("%(who)s has no trait called %(name)s") % {"who": speaking_as.name, "name": name},
            )
        return found
    mine = Character.objects.filter(campaign_id=membership.campaign_id)
    if not membership.is_gm:
        mine = mine.filter(owner_id=membership.user_id, kind=Character.Kind.PC)
    found_all = list(traits.filter(character__in=mine)[:2])
    if not found_all:
        words = _("none of your characters has a trait called %(name)s")
        raise RulesError("trait", words % {"name": name})
    if len(found_all) > 1:
        raise RulesError(
            "trait",
            _("more than one character has %(name)s: pick whom you speak as first")
            % {"name": name},
        )
    return found_all[0]
