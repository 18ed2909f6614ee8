"""The table: its page, the parts' places on a phone and a desktop (``layout``), the socket and the
commands it takes, who is here, and what a (re)connecting socket is sent (``state``). It gathers
every feature, so no package of rolls imports it.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
