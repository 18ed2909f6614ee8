from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self) -> None:
        from campaigns.accounts import language, sign_in_changes

        sign_in_changes.connect()
        language.connect()
