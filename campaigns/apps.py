from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self) -> None:
        from campaigns import campaign_changes
        from campaigns.accounts import language, sign_in_changes

        sign_in_changes.connect()
        campaign_changes.connect()
        language.connect()
