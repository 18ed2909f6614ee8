"""Table talk: the composer's lines (messages, whispers, emotes, rolls typed as words), dice
rolled by hand, and public entries sent on to a chat server's webhook.

A feature package of rolls (docs/architecture.md, "Feature packages")."""
