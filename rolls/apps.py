from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"
