"""The browser tests' servers' settings: scripts/run's (fudgetable.settings, production mode)
with a fast password hasher, as the rest of the suite has (tests/conftest.py). PBKDF2's
1,500,000 rounds cost 0.4 s of CPU at each log-in and at each demo login made, and the browser
tests log in some eighty times on the two cores they share."""

from fudgetable.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
