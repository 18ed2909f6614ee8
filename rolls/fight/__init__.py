"""The fight: a melee exchange, a ranged shot, the manoeuvres after an All-Out Defense, and
healing, each proposed by the rules and confirmed by the GM.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
