"""What a change in ``characters`` tells the apps above it, which ``characters`` may not import
(``rolls`` draws the table): each app connects its receiver when it is ready."""

from django.dispatch import Signal

# An NPC the players now see, or no longer see (``npc``: the Character, saved). Sent inside
# the change's transaction, so that what the table pushes for it takes its number there and
# leaves only if the change commits.
npc_shown_changed = Signal()

# A sheet's vitals may have changed (its tracks, Fudge points: ``live_sheets.sheet_changed``):
# what the table draws of the character elsewhere (a figure's token) is drawn again. Sent
# inside the change's transaction; a receiver draws once it commits.
sheet_changed = Signal()
