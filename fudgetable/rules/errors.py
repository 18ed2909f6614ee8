"""The one error the rules module raises for bad input."""


class RulesError(ValueError):
    """A value the rules cannot accept.

    ``setting`` names the offending setting or argument (e.g. ``"default_difficulty"`` or
    ``"injury_track.boxes"``) so that a form can show the message next to the right field.
    """

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(f"{setting}: {message}")
        self.setting = setting
        self.message = message
