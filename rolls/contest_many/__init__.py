"""A contest among many: several characters roll at once, ranked by the rules.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
