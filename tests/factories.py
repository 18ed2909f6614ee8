import factory
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Membership

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Campaign {n}")
    owner = factory.SubFactory(UserFactory)

    @factory.post_generation
    def gm_membership(obj, create, extracted, **kwargs):
        if create:
            Membership.objects.get_or_create(
                campaign=obj, user=obj.owner, defaults={"role": Membership.Role.GM}
            )


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.PLAYER
