"""A crowded sheet, written through the services the sheet page uses, for the query-count
test and the sheet page benchmark."""

from characters import services
from characters.models import Character, Detail, Feature, Gear, Item

# (traits added, gifts and faults, weapons, items, details): a bare sheet and a crowded one
# with 30+ items nested in containers.
SIZES = {"small": (1, 1, 1, 2, 1), "large": (30, 12, 10, 36, 15)}


def full_sheet(character: Character, size: str = "large") -> Character:
    traits, features, weapons, items, details = SIZES[size]
    for n in range(traits):
        services.trait_add(character=character, name=f"Trait {n}", level=0)
    for n in range(features):
        kind = Feature.Kind.GIFT if n % 2 else Feature.Kind.FAULT
        services.feature_add(character=character, kind=kind, name=f"Feature {n}")
    services.gear_add(character=character, kind=Gear.Kind.ARMOR, name="Leather", armor_bonus=1)
    for n in range(weapons):
        services.gear_add(
            character=character, kind=Gear.Kind.WEAPON, name=f"Weapon {n}", damage_factor=1
        )
    parent: Item | None = None
    for n in range(items):
        # Every third item opens a container inside the last one: pack > pouch > purse ...
        item = services.item_add(character=character, name=f"Item {n}", inside=parent)
        parent = item if n % 3 == 0 else parent
    for n in range(details):
        services.detail_add(
            character=character, kind=Detail.Kind.CHARACTERISTIC, name=f"Detail {n}", value="x"
        )
    return character
