"""A coincidence: a player's Fudge point asked for a lucky break, allowed by the GM.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
