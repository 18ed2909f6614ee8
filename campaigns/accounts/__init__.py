"""The account: signing up and in, a new password or e-mail address by a link sent by e-mail,
the dashboard, and the sockets told when an account changes. A package of campaigns, as
rolls' feature packages are (docs/architecture.md, "Feature packages")."""
