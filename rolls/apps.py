from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"

    def ready(self) -> None:
        from rolls.fight import defend, sheet_wounds
        from rolls.fight import pushes as fight_pushes
        from rolls.scene import services as scenes

        scenes.connect()
        fight_pushes.connect()
        sheet_wounds.connect()
        defend.connect()
