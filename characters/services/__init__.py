"""Every write to character sheets, NPCs and their campaign-wide settings.

Each command is small and runs in one transaction that first locks the character's row, so two
devices tapping one sheet queue up instead of overwriting each other. The rules module supplies
every number; a command it refuses raises ``RulesError`` and changes nothing.
"""

from characters.limits import (
    BEHAVIOUR_LENGTH,
    MAX_BEHAVIOURS,
    MAX_FUDGE_POINTS,
    MAX_MOOKS,
    MAX_XP,
    NAME_LENGTH,
)
from characters.services._common import StaleEdit
from characters.services.copying import character_copy, roster_copy
from characters.services.extras import (
    PACKAGE_KINDS,
    ability_marks_delete,
    ability_marks_set,
    people_package_changes,
    people_package_delete,
    people_package_save,
)
from characters.services.importing import character_from_sheet, character_import
from characters.services.roster import (
    npc_create,
    npc_duplicate,
    npc_set_revealed,
    npc_update,
)
from characters.services.sheet_parts import (
    character_delete,
    character_finish,
    character_reopen,
    detail_add,
    detail_remove,
    exception_approve,
    feature_add,
    feature_remove,
    fudge_points_change,
    gear_add,
    gear_remove,
    item_add,
    item_move,
    item_remove,
    points_trade,
    profile_update,
    track_ease,
    track_heal,
    track_set_box,
    track_take_wound,
    xp_award,
)
from characters.services.sheets import (
    ability_allocate,
    build_trade,
    build_untrade,
    character_create,
    trait_add,
    trait_advance,
    trait_remove,
    trait_set_level,
)

__all__ = [
    "BEHAVIOUR_LENGTH",
    "MAX_BEHAVIOURS",
    "MAX_FUDGE_POINTS",
    "MAX_MOOKS",
    "MAX_XP",
    "NAME_LENGTH",
    "PACKAGE_KINDS",
    "StaleEdit",
    "ability_allocate",
    "ability_marks_delete",
    "ability_marks_set",
    "build_trade",
    "build_untrade",
    "character_copy",
    "character_create",
    "character_delete",
    "character_finish",
    "character_from_sheet",
    "character_import",
    "character_reopen",
    "detail_add",
    "detail_remove",
    "exception_approve",
    "feature_add",
    "feature_remove",
    "fudge_points_change",
    "gear_add",
    "gear_remove",
    "item_add",
    "item_move",
    "item_remove",
    "npc_create",
    "npc_duplicate",
    "npc_set_revealed",
    "npc_update",
    "people_package_changes",
    "people_package_delete",
    "people_package_save",
    "points_trade",
    "profile_update",
    "roster_copy",
    "track_ease",
    "track_heal",
    "track_set_box",
    "track_take_wound",
    "trait_add",
    "trait_advance",
    "trait_remove",
    "trait_set_level",
    "xp_award",
]
