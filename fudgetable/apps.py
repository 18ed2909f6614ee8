from django.apps import AppConfig


class FudgetableConfig(AppConfig):
    name = "fudgetable"

    def ready(self) -> None:
        # Registers the <id:...> path converter before any URLconf is read.
        from fudgetable import converters  # noqa: F401
