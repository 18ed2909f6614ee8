"""Challenge ladders (Fate): a ladder's rungs marked by rolls made against it.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
