"""The scene at the table, a feature package of its own (issue #38): its models (re-exported by
``rolls.models``, where Django looks), services, selectors, views, fragments and pictures. What
the rest of ``rolls`` may take from it is written down in pyproject.toml's import contracts."""
