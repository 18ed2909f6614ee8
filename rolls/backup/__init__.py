"""A campaign's backup: written (``write``), read and checked (``checks``, ``table_checks``),
restored (``restore``), and the pages that take and give the file (``views``). It gathers every
feature, so no package of rolls imports it.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
