"""Countdowns (Fudge Lite): named boxes marked until what they count to happens.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
