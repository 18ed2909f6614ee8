"""Play sessions: started and ended by the GM, with the XP the end gives each PC.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
