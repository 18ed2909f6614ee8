import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character
from characters.selectors import rules_sheet, sheet_queryset
from fudgetable.management.commands.demo import demo_logins_locked
from fudgetable.rules.rulesets import PRESETS
from fudgetable.rules.sheet import build_check, derived

pytestmark = pytest.mark.django_db


def every_row() -> dict[str, list[dict]]:
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in apps.get_models()
    }


@pytest.fixture
def demo(capsys) -> str:
    call_command("demo")
    return capsys.readouterr().out


def demo_campaigns() -> list[Campaign]:
    return list(Campaign.objects.filter(owner__username="gm").order_by("pk"))


def test_a_second_run_changes_no_row_of_any_table(demo, capsys):
    before = every_row()
    call_command("demo")
    assert "fudge-demo" in capsys.readouterr().out
    assert every_row() == before


def test_demo_prints_the_logins_and_they_work(demo):
    assert "fudge-demo" in demo
    for line in ("GM:      gm", "player:  alice", "player:  bob"):
        assert line in demo
    for username in ("gm", "alice", "bob"):
        assert get_user_model().objects.get(username=username).check_password("fudge-demo")


def test_there_is_one_demo_campaign_per_ruleset_with_alice_and_bob_playing(demo):
    campaigns = demo_campaigns()
    assert sorted(c.ruleset for c in campaigns) == sorted(PRESETS)
    assert "Demo: The Drowned Lighthouse" in [c.name for c in campaigns]
    for campaign in campaigns:
        roles = campaign.memberships.values_list("user__username", "role").order_by(
            "user__username"
        )
        assert list(roles) == [
            ("alice", Membership.Role.PLAYER),
            ("bob", Membership.Role.PLAYER),
            ("gm", Membership.Role.GM),
        ]
        assert campaign.name in demo


def test_every_demo_pc_is_finished_and_passes_its_build_check(demo):
    for campaign in demo_campaigns():
        ruleset = campaign_ruleset(campaign)
        pcs = sheet_queryset(campaign).filter(kind=Character.Kind.PC)
        assert sorted(pc.owner.username for pc in pcs) == ["alice", "bob"]
        for pc in pcs:
            check = build_check(ruleset, rules_sheet(pc))
            assert check.ok, (campaign.ruleset, pc.name, check.broken)
            assert pc.stage == Character.Stage.FINISHED
            assert not pc.exception_note
            assert pc.items.exists()


def test_every_demo_campaign_has_two_or_three_npcs(demo):
    for campaign in demo_campaigns():
        npcs = campaign.characters.filter(kind=Character.Kind.NPC)
        assert 2 <= npcs.count() <= 3, campaign.ruleset
        assert all(npc.owner is None and npc.npc_boxes for npc in npcs)
        assert all(npc.traits.exists() for npc in npcs)


def test_jason_free_is_the_ezfudge_seeds_worked_example(demo):
    campaign = Campaign.objects.get(owner__username="gm", ruleset="ezfudge")
    jason = sheet_queryset(campaign).get(name="Jason Free", owner__username="alice")
    ruleset = campaign_ruleset(campaign)
    assert build_check(ruleset, rules_sheet(jason)).left == ("30 / 30 build points",)
    assert dict(derived(ruleset, rules_sheet(jason))) == {
        "Resilience": "+2",
        "Reflexes": "+2",
        "CPD": "4",
        "INJ · Quarterstaff": "5",
        "INJ · Knife": "4",
    }
    assert jason.fudge_points == 3
    assert jason.features.count() == 2 and jason.gear.count() == 3


def test_the_peupfudge_pcs_spend_their_50_starting_xp_as_the_seed_does(demo):
    campaign = Campaign.objects.get(owner__username="gm", ruleset="peupfudge")
    obazana = sheet_queryset(campaign).get(name="Obazana")
    assert dict(derived(campaign_ruleset(campaign), rules_sheet(obazana))) == {
        "Muscle": "4 (+6/16)",
        "Charisma": "3 (+6/8)",
        "Perception": "3",
        "Knowledge": "3 (+2/8)",
    }
    assert obazana.xp == 0
    assert obazana.details.filter(kind="status", name="Energy", value="Tired").exists()
    pouch = obazana.items.get(name="Pouch")
    assert pouch.parent.name == "Pack"
    assert pouch.contents.get().name == "Rare jewels"


def test_an_older_demo_campaign_gets_its_characters_without_being_made_twice(capsys):
    # The first demo made only the Fudge Lite campaign; running the new one fills it in.
    call_command("demo")
    lighthouse = Campaign.objects.get(name="Demo: The Drowned Lighthouse")
    lighthouse.characters.all().delete()
    call_command("demo")
    assert Campaign.objects.filter(name="Demo: The Drowned Lighthouse").count() == 1
    assert lighthouse.characters.filter(kind=Character.Kind.PC).count() == 2


def test_no_demo_logins_on_a_server_other_machines_reach(settings, capsys):
    """Behind a proxy, listening beyond loopback or answering to a name of the world, the
    README's password must open nothing: the demo refuses, and the logins an earlier loopback
    run made are locked."""
    call_command("demo")
    settings.LOOPBACK_ONLY = False
    with pytest.raises(CommandError, match="only on a server this machine alone reaches"):
        call_command("demo")
    assert demo_logins_locked() == ["alice", "bob", "gm"]
    for username in ("gm", "alice", "bob"):
        user = get_user_model().objects.get(username=username)
        assert not user.has_usable_password()
    assert demo_logins_locked() == []  # nothing left to lock


def test_the_readme_password_is_printed_only_for_the_logins_it_still_opens(demo, capsys):
    """A run after someone changed a demo password, or deactivated or locked a login, does not
    tell them the README's password opens it."""
    users = get_user_model().objects
    alice = users.get(username="alice")
    alice.set_password("a-new-long-phrase")
    alice.save()
    users.filter(username="bob").update(is_active=False)
    call_command("demo")
    said = capsys.readouterr().out
    assert "password for each" not in said
    assert "gm  (password: fudge-demo)" in said
    assert "alice  (its password was changed)" in said
    assert "bob  (deactivated)" in said
    gm = users.get(username="gm")
    gm.set_unusable_password()
    gm.save()
    call_command("demo")
    said = capsys.readouterr().out
    assert "fudge-demo" not in said
    assert "gm  (locked: `manage.py reset_link gm` gives it a password)" in said


def test_a_fresh_demo_prints_the_password_once_for_every_login(demo):
    assert "Demo logins (password for each: fudge-demo):" in demo
    assert "(password:" not in demo and "changed" not in demo
