"""The spotlight: who the GM is looking at, the hands raised for it, and how long each held it.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
