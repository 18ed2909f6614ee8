import factory
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    """A campaign made the way the app makes one: with its GM membership and session zero."""

    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    owner = factory.SubFactory(UserFactory)
    ruleset = "fudge-lite"

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return campaign_create(**kwargs)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.PLAYER
