"""What the scene tells the packages above it (they hear it by ``connect``, as the scene
hears ``characters.signals``): the scene cannot import them, so it says so here."""

from django.dispatch import Signal

# The scene shown, or the round or phase of its fight, changed (sent in the change's
# transaction, with ``campaign``): what waited on the phase it was in has lapsed.
round_moved = Signal()
