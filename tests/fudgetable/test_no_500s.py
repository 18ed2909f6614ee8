"""Bad input is answered, never a 500: Hypothesis throws generated form data and query strings
at every view (every sheet command too), as the campaign's GM, who may reach them all.

The examples are few per view and derandomized, so CI runs the same ones on both back-ends
within its time; a failure prints the example that broke."""

import re

import pytest
from django import forms
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.services import invite_create
from characters import services as characters
from characters.commands import COMMANDS
from characters.models import AbilityMarks, PeoplePackage
from fudgetable import entry_ids
from fudgetable.shown_ids import ATTACK
from rolls import services
from rolls.calls import services as calls
from rolls.challenges import services as challenges
from rolls.countdowns import services as countdowns
from rolls.fight.models import DeclaredAttack
from rolls.scene import cards as scene_cards
from rolls.scene import pictures
from rolls.scene import services as scenes
from rolls.scene.ids import shown_id
from rolls.sessions import services as sessions
from tests.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.rolls.scene_setup import picture_bytes

pytestmark = pytest.mark.django_db

# The admin is Django's own; logging out and the account's deletion end the test's session.
SKIPPED = {"logout", "account_delete", "password_change"}


def _routes():
    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if "admin" not in str(pattern.pattern):
                    yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and pattern.name not in SKIPPED:
                yield prefix + str(pattern.pattern), pattern.default_args

    for route, defaults in walk(get_resolver().url_patterns):
        if "<slug:command>" in route:
            for command in COMMANDS:
                yield route.replace("<slug:command>", command), {}
        else:
            yield route, defaults


ROUTES = sorted({route for route, _ in _routes()})


def _field_names() -> list[str]:
    """Every field name any of the app's forms reads (the URLconf has imported them all)."""
    names: set[str] = set()
    pending = list(forms.Form.__subclasses__()) + list(forms.ModelForm.__subclasses__())
    while pending:
        form = pending.pop()
        pending.extend(form.__subclasses__())
        if form.__module__.split(".")[0] in {"campaigns", "characters", "rolls"}:
            names.update(getattr(form, "base_fields", {}))
    return sorted(names)


FIELDS = _field_names()
VALUES = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(
        ["", "on", "0", "-1", "1.5", "1e9", "None", "[]", "{}", "gm", "a\x00b", "9" * 30]
    ),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
)
FORMS = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8)


@pytest.fixture
def table(db):
    """A campaign with one of everything a URL can name, and its GM's logged-in client."""
    gm = UserFactory(username="fuzz-gm")
    campaign = CampaignFactory(owner=gm, name="Fuzz")
    player = UserFactory(username="fuzz-player")
    membership = MembershipFactory(campaign=campaign, user=player)
    hero = characters.character_create(campaign=campaign, owner=player, name="Louie")
    npc = characters.npc_create(campaign=campaign, name="Quell")
    session = sessions.session_start(campaign=campaign)
    gm_membership = campaign.memberships.get(user=gm)
    trait = hero.traits.first()
    roll = services.roll_check(
        membership=gm_membership,
        key="fuzz-key-0001",
        level=trait.level,
        trait_name=trait.name,
        character=hero,
    )
    countdown = countdowns.countdown_create(campaign=campaign, name="Tide", boxes=4)
    challenge = challenges.challenge_create(
        campaign=campaign,
        name="Climb",
        preset="static",
        rungs=[],
        fragility="equivalent",
        notes="",
        visibility="public",
    )
    invite = invite_create(campaign=campaign, created_by=gm)
    call = calls.call_create(
        membership=gm_membership, characters=[hero], trait=trait.name, difficulty=1
    )
    package = PeoplePackage.objects.create(campaign=campaign, name="Dwarf", changes=[])
    marks = AbilityMarks.objects.create(
        campaign=campaign, ability="Strength", poor=1, decent=3, great=5
    )
    scene = scenes.scene_create(campaign=campaign, title="Fuzz scene")
    card = scene_cards.card_create(membership=gm_membership, scene=scene, title="Fuzz card")
    picture = pictures.picture_create(campaign=campaign, uploaded_by_id=gm.pk, data=picture_bytes())
    figure = scenes.figure_add(scene=scene, character=npc)
    attack = DeclaredAttack.objects.create(
        campaign=campaign,
        scene=scene,
        declared_by=gm,
        attacker=npc,
        defender=hero,
        kind=DeclaredAttack.Kind.MELEE,
        key="fuzz-attack-0001",
    )
    ids = {
        "attack_id": ATTACK.encode(attack.pk),
        "scene_id": shown_id(scene),
        "card_id": shown_id(card),
        "picture_id": picture.pk,
        "figure_id": shown_id(figure),
        "campaign_id": campaign.pk,
        "character_id": hero.pk,
        "npc_id": npc.pk,
        "roll_id": entry_ids.encode(roll.pk),
        "countdown_id": countdown.pk,
        "challenge_id": challenge.pk,
        "call_id": call.pk,
        "invite_id": invite.pk,
        "membership_id": membership.pk,
        "number": session.number,
        "package_id": package.pk,
        "marks_id": marks.pk,
        # The picture's route names a token too: an invite's names no picture there (a 404).
        "token": invite.token,
    }
    return gm, ids


def url_of(route: str, ids: dict[str, object]) -> str:
    return "/" + re.sub(r"<\w+:(\w+)>", lambda found: str(ids[found[1]]), route)


@pytest.mark.parametrize("route", ROUTES)
def test_no_generated_form_or_query_is_a_500(table, route):
    gm, ids = table
    url = url_of(route, ids)

    @settings(
        max_examples=12,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=FORMS, method=st.sampled_from(["get", "post"]), htmx=st.booleans())
    def send(data: dict[str, str], method: str, htmx: bool) -> None:
        client = Client(raise_request_exception=False)
        client.force_login(User.objects.get(pk=gm.pk))
        headers = {"HX-Request": "true"} if htmx else {}
        response = getattr(client, method)(url, data, headers=headers)
        assert response.status_code < 500, (method, url, data, response.status_code)

    send()


def test_head_is_answered_wherever_get_is(table):
    """Uptime monitors and link checkers ask with HEAD: every page a GET reaches answers HEAD
    the same, without a body, and what answers GET with 405 answers HEAD so too."""
    gm, ids = table
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.get(pk=gm.pk))
    differ = []
    for route in ROUTES:
        url = url_of(route, ids)
        got, head = client.get(url), client.head(url)
        if (head.status_code, head.content) != (got.status_code, b""):
            differ.append((url, got.status_code, head.status_code))
    assert differ == []
