"""The X-card: anyone taps it, every screen shows it, nobody is named.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
