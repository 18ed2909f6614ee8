"""What a change in ``characters`` tells the apps above it, which ``characters`` may not import
(``rolls`` draws the table): each app connects its receiver when it is ready."""

from django.dispatch import Signal

# An NPC the players now see, or no longer see (``npc``: the Character, saved). Sent inside
# the change's transaction, so that what the table pushes for it takes its number there and
# leaves only if the change commits.
npc_shown_changed = Signal()

# What a fight at the table may pick changed: a sheet's traits or weapons, or the sheets
# themselves (``character``: the Character changed or made). Sent inside the change's
# transaction; the table draws its pickers once the change commits.
fighters_changed = Signal()

# Boxes marked on a sheet's track by a person's command (a box tapped, a condition taken):
# ``by`` (their Membership), ``character`` (saved), ``track`` (the track's name) and ``taken``
# (``sheet_tracks.taken``, never empty). The table writes it in its log. Sent inside the
# change's transaction, so the line and the mark commit together or not at all.
track_marked = Signal()

# A sheet's vitals may have changed (its tracks, Fudge points: ``live_sheets.sheet_changed``):
# what the table draws of the character elsewhere (a figure's token) is drawn again. Sent
# inside the change's transaction; a receiver draws once it commits.
sheet_changed = Signal()
