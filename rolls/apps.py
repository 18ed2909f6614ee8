from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"

    def ready(self) -> None:
        from rolls.fight import pushes as fight_pushes
        from rolls.fight import sheet_wounds
        from rolls.scene import services as scenes

        scenes.connect()
        fight_pushes.connect()
        sheet_wounds.connect()
