"""The GM's call for a roll: which PCs roll what, their answers gathered on the GM's card.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
