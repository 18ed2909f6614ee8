"""The log: its page, filters, exports and session recaps (``views``, ``export``), and the table's
log pane with the entries a page lacks (``pane``).

A feature package of rolls (docs/architecture.md, "Feature packages")."""
