"""How much a sheet or an NPC may hold. The services enforce these on every write and the JSON
import checks a file against them before anything is saved, so they sit below both."""

MAX_MOOKS = 20
MAX_XP = 100_000
MAX_FUDGE_POINTS = 99
MAX_BEHAVIOURS = 30
BEHAVIOUR_LENGTH = 200
NAME_LENGTH = 120
