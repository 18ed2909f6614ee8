from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"

    def ready(self) -> None:
        from rolls import scenes

        scenes.connect()
