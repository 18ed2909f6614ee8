"""A campaign's backup and its restore: everything played comes back as a new campaign, the
people by invitation, and a file with any problem saves nothing."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import Campaign, Invite, Membership
from campaigns.services import invite_accept, membership_set_role
from characters.models import Character, Trait
from characters.services import character_create, people_package_save, xp_award
from fudgetable.rules.advancement import SessionCounts
from rolls import fudge_points, services
from rolls.backup.restore import campaign_restore
from rolls.backup.write import campaign_to_json
from rolls.challenges.services import challenge_check, challenge_create
from rolls.countdowns import services as countdowns
from rolls.entry_words import entry_label
from rolls.fight.exchange import fight_confirm, fight_exchange
from rolls.models import Challenge, Countdown, PlaySession, Roll, SpotlightSpan
from rolls.sessions import services as sessions
from rolls.spotlight import services as spotlight
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.conftest import fresh_key, set_rules
from tests.rolls.fight_setup import brute, dice, ez, jason, role, weapon  # noqa: F401

pytestmark = pytest.mark.django_db

TABLES = (Campaign, Membership, Character, Trait, PlaySession, SpotlightSpan, Roll)
TABLES += (Countdown, Challenge, Invite)


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in TABLES}


def as_file(data: object) -> dict:
    return {"file": SimpleUploadedFile("backup.json", json.dumps(data).encode())}


def without_time(backup: dict) -> dict:
    return {key: value for key, value in backup.items() if key != "exported_at"}


def backed_up(campaign: Campaign) -> dict:
    """The backup as a browser receives it: through JSON text and back."""
    return json.loads(json.dumps(campaign_to_json(campaign)))


def propose_fight(gm: Membership, attacker: Character, defender: Character) -> Roll:
    """Jason's quarterstaff against the brute's club, rolled and logged, nothing marked."""
    return fight_exchange(
        membership=gm,
        attacker=attacker,
        attacker_trait=role(attacker, "Quarterstaff for Hire"),
        weapon=weapon(attacker),
        defender=defender,
        defender_trait=role(defender, "Fighter"),
        key=fresh_key(),
    )


@pytest.fixture
def played(ez, owner, member, jason, brute, dice):  # noqa: F811
    """Two sessions of EZFudge: rolls public, secret and against a hidden difficulty, a Fudge
    point's reroll, a GM's note, a fight proposed and one confirmed, the spotlight, a skill
    challenge that completed, a hidden countdown, a challenge ladder, a people package, XP."""
    set_rules(ez, fudge_point_uses=["reroll"])
    co_gm = UserFactory(username="co-gm")
    MembershipFactory(campaign=ez, user=co_gm, role=Membership.Role.GM)
    second = UserFactory(username="second-player")
    MembershipFactory(campaign=ez, user=second)
    marla = character_create(campaign=ez, owner=second, name="Marla")
    watcher = UserFactory(username="watcher")
    MembershipFactory(campaign=ez, user=watcher, role=Membership.Role.OBSERVER)
    people_package_save(
        campaign=ez, name="Hill folk", description="", points=1, changes_text="gift Sure-footed"
    )
    gm = Membership.objects.get(campaign=ez, user=owner)
    player = Membership.objects.get(campaign=ez, user=member)
    staff = role(jason, "Quarterstaff for Hire")

    first = sessions.session_start(campaign=ez)
    spotlight.spotlight_move(campaign=ez, character=jason)
    dice(1, 0, -1, 0, 1, 1, 0, 0, -1, -1, 0, 0, 0, 1, 0, -1)
    check = services.roll_check(
        membership=player, key=fresh_key(), level=3, trait_name=staff.name, character=jason
    )
    fudge_points.roll_fudge_point(membership=player, key=fresh_key(), roll=check, use="reroll")
    secret = services.roll_check(
        membership=gm, key=fresh_key(), level=2, trait_name="Fighter", character=brute, secret=True
    )
    services.roll_note(roll=secret, note="He is bluffing")
    services.roll_check(
        membership=gm,
        key=fresh_key(),
        level=3,
        trait_name=staff.name,
        character=jason,
        difficulty=4,
        hidden_difficulty=True,
    )
    dice(1, 1, 1, 0, -1, -1, -1, 0)
    fought = propose_fight(gm, jason, brute)
    fight_confirm(membership=gm, roll=fought)
    pair = countdowns.countdown_create(
        campaign=ez, name="Pick the lock", boxes=2, outcome="It opens", failure_boxes=3
    )
    countdowns.countdown_mark(countdown=pair)
    countdowns.countdown_mark(countdown=pair)  # completes, and the log announces it
    hidden = countdowns.countdown_create(
        campaign=ez, name="The tide", boxes=6, visibility=Countdown.Visibility.HIDDEN_PROGRESS
    )
    countdowns.countdown_mark(countdown=hidden)
    ladder = challenge_create(campaign=ez, name="Word on the street", preset="word-on-the-street")
    challenge_check(challenge=ladder, margin=2)
    spotlight.spotlight_move(campaign=ez, character=marla)
    xp_award(character=jason, amount=2)
    sessions.session_end(session=first, counts={jason.pk: SessionCounts(extra_xp=1)})

    sessions.session_start(campaign=ez)
    dice(1, 1, 0, 0, -1, -1, 0, 0)
    propose_fight(gm, jason, brute)  # not confirmed: its wound waits for the GM
    services.roll_reading(membership=gm, key=fresh_key(), reaction=True, label="", secret=True)
    return ez


def join_everyone(restored: Campaign, backup: dict) -> None:
    """The people of the backup take the restore's invite links, and co-GMs are made GM."""
    owner = Membership.objects.get(campaign=restored, user=restored.owner)
    links = {invite.role: invite.token for invite in restored.invites.all()}
    for person in backup["members"]:
        user = UserFactory._meta.model.objects.get(username=person["username"])
        if user == restored.owner:
            continue
        role = Membership.Role.OBSERVER if person["role"] == "observer" else "player"
        joined = invite_accept(token=links[role], user=user)
        if person["role"] == Membership.Role.GM:
            membership_set_role(actor=owner, membership=joined, role=Membership.Role.GM)


# --- the round trip -------------------------------------------------------------------------


def test_a_restored_campaign_backs_up_as_the_same_document(played, owner):
    backup = backed_up(played)
    assert {len(backup[part]) for part in ("sessions", "countdowns", "challenges")} >= {2, 3, 1}
    assert len(backup["log"]) >= 9
    done = campaign_restore(owner=owner, data=backup)
    join_everyone(done.campaign, backup)
    again = backed_up(done.campaign)
    assert done.campaign.pk != played.pk
    assert without_time(again) == without_time(backup)


def test_the_restored_log_is_the_same_log_in_the_same_order(played, owner, client_for):
    backup = backed_up(played)
    restored = campaign_restore(owner=owner, data=backup).campaign
    old, new = (
        list(Roll.objects.filter(campaign=c).order_by("created_at")) for c in (played, restored)
    )
    assert [(r.created_at, r.label, r.kind, r.visibility) for r in new] == [
        (r.created_at, r.label, r.kind, r.visibility) for r in old
    ]
    # What each entry says (its snapshot's ``said``) came back with it, and draws the same.
    assert any("said" in r.snapshot for r in new)
    assert [entry_label(r) for r in new] == [entry_label(r) for r in old]
    reroll = next(r for r in new if r.kind == Roll.Kind.FUDGE_POINT)
    assert reroll.follows.label == new[0].label and reroll.follows.campaign == restored
    # The log page and its exports read the restored entries like any others.
    for name in ("rolls:log", "rolls:log_json", "rolls:log_markdown"):
        assert client_for(owner).get(reverse(name, args=[restored.pk])).status_code == 200


def test_a_fight_proposed_before_the_backup_marks_the_restored_fighters(played, owner):
    restored = campaign_restore(owner=owner, data=backed_up(played)).campaign
    proposal = Roll.objects.filter(campaign=restored, snapshot__has_key="fight").latest(
        "created_at"
    )
    sides = {side["character"] for side in proposal.snapshot["sides"]}
    fighters = Character.objects.filter(campaign=restored, name__in=["Jason Free", "Brute"])
    assert sides == set(fighters.values_list("pk", flat=True))
    gm = Membership.objects.get(campaign=restored, user=owner)
    confirmation = fight_confirm(membership=gm, roll=proposal)
    assert confirmation.snapshot["confirms"] == proposal.pk
    marked = {m["character"] for m in confirmation.snapshot["marked"] if "character" in m}
    assert marked <= sides and marked


def test_sessions_spotlight_countdowns_and_challenges_come_back(played, owner, client_for):
    restored = campaign_restore(owner=owner, data=backed_up(played)).campaign
    first, second = PlaySession.objects.filter(campaign=restored).order_by("number")
    assert first.ended_at is not None and second.running
    assert first.xp_awarded == {"Jason Free": 1, "Marla": 0}
    assert [s.character.name for s in first.spotlight_spans.all()] == ["Jason Free", "Marla"]
    lock = Countdown.objects.get(campaign=restored, name="Pick the lock")
    assert lock.completed_at is not None and lock.failure.boxes == 3
    assert Countdown.objects.get(campaign=restored, name="The tide").marked == 1
    ladder = Challenge.objects.get(campaign=restored)
    assert ladder.state == Challenge.objects.get(campaign=played).state
    recap = reverse("rolls:recap", args=[restored.pk, first.number])
    assert client_for(owner).get(recap).status_code == 200
    assert client_for(owner).get(reverse("rolls:table", args=[restored.pk])).status_code == 200


# --- people ---------------------------------------------------------------------------------


def test_nobody_joins_by_a_restore_but_everyone_is_invited(played, owner, member):
    done = campaign_restore(owner=owner, data=backed_up(played))
    restored = done.campaign
    assert list(restored.memberships.values_list("user__username", "role")) == [("gm-owner", "gm")]
    assert sorted(done.to_invite) == ["co-gm", "player-member", "second-player", "watcher"]
    assert done.co_gms == ["co-gm"]
    assert {(i.role, i.max_uses) for i in restored.invites.all()} == {
        ("player", 3),
        ("observer", 1),
    }
    pc = Character.objects.get(campaign=restored, name="Jason Free")
    assert pc.owner == member and pc.stage == Character.Stage.DRAFT  # as it was
    invite_accept(token=restored.invites.get(role="player").token, user=member)
    assert Character.objects.filter(campaign=restored, owner=member).get() == pc


def test_a_player_with_no_account_here_leaves_the_pc_to_the_gm(played, owner):
    backup = backed_up(played)
    for part in (backup["members"], backup["characters"]):
        for entry in part:
            for key in ("username", "player"):
                if entry.get(key) == "player-member":
                    entry[key] = "nobody-here"
    done = campaign_restore(owner=owner, data=backup)
    assert done.unplayed == ["Jason Free"]
    assert Character.objects.get(campaign=done.campaign, name="Jason Free").owner is None
    assert "nobody-here" in done.to_invite


def test_whoever_restores_owns_the_new_campaign(played, outsider):
    """A file names people; restoring one as someone else gives them nothing of the people's
    (the PCs keep their players) and adds nobody to any table."""
    done = campaign_restore(owner=outsider, data=backed_up(played))
    assert done.campaign.owner == outsider
    assert list(done.campaign.memberships.values_list("user__username", flat=True)) == [
        outsider.username
    ]
    assert "gm-owner" in done.co_gms  # the old owner is a co-GM to invite back
    assert Membership.objects.filter(campaign=played).count() == 5  # untouched


# --- the pages ------------------------------------------------------------------------------


def test_the_gm_restores_from_the_dashboard(played, owner, client_for):
    client = client_for(owner)
    assert reverse("campaign_restore") in client.get(reverse("dashboard")).content.decode()
    response = client.post(reverse("campaign_restore"), as_file(backed_up(played)), follow=True)
    restored = Campaign.objects.exclude(pk=played.pk).get(name=played.name)
    assert response.redirect_chain[-1][0] == reverse("campaigns:invites", args=[restored.pk])
    page = response.content.decode()
    assert "is restored: 3 characters, 2 sessions and" in page
    assert "make co-gm GM again once they have joined" in page
    assert restored.invites.get(role="player").token in page


def test_a_member_and_an_outsider_restore_as_their_own(played, member, outsider, client_for):
    for person in (member, outsider):
        response = client_for(person).post(reverse("campaign_restore"), as_file(backed_up(played)))
        assert response.status_code == 302
        assert Campaign.objects.filter(owner=person, name=played.name).exists()


def test_signed_out_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("campaign_restore"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_every_problem_is_listed_and_nothing_is_saved(played, owner, client_for):
    backup = backed_up(played)
    backup["name"] = ""
    backup["members"][0]["role"] = "king"
    backup["characters"][0]["sheet"]["traits"][0]["level"] = 99
    backup["sessions"].append(dict(backup["sessions"][0]))
    backup["countdowns"][0]["marked"] = 50
    backup["log"][1]["follows"] = 999
    backup["log"][2]["time"] = "yesterday"
    before = row_counts()
    response = client_for(owner).post(reverse("campaign_restore"), as_file(backup))
    assert response.status_code == 400
    problems = [p.strip() for p in response.context["problems"]]
    assert problems[:2] == [
        "name: must not be empty",
        "members[0].role: must be one of gm, player, observer",
    ]
    assert "characters[0].sheet.traits[0].level:" in " ".join(problems)
    assert "sessions: two sessions are number 1" not in problems  # said where it is:
    assert "sessions[2].number: two sessions are number 1" in problems
    assert "countdowns[0].marked: must be between 0 and 3" in problems
    assert "log[1].follows: names no earlier log entry of this backup" in problems
    assert any(p.startswith("log[2].time: must be a time with its offset") for p in problems)
    assert "Nothing was restored. Fix these" in response.content.decode()
    assert row_counts() == before


def test_a_log_entry_the_table_could_not_show_is_refused(played, owner):
    backup = backed_up(played)
    check = next(i for i, e in enumerate(backup["log"]) if e["kind"] == "check")
    del backup["log"][check]["snapshot"]["shown"]
    backup["log"][check + 1]["snapshot"] = {"fight": "not a fight"}
    before = row_counts()
    with pytest.raises(ValidationError) as refused:
        campaign_restore(owner=owner, data=backup)
    assert f"log[{check}].snapshot: is not an entry this table can show" in refused.value.messages
    assert row_counts() == before


def test_a_backup_must_say_what_it_is(owner):
    for data, problem in (
        ([], "the file must hold one JSON object: a campaign backup"),
        ({"name": "x"}, 'schema: a campaign backup says "schema": "fudgetable.campaign/2"'),
        ({"schema": "fudgetable.campaign/9"}, "schema: this FudgeTable reads"),
        ({"schema": "fudgetable.character/1"}, "schema: this is one character;"),
    ):
        with pytest.raises(ValidationError) as refused:
            campaign_restore(owner=owner, data=data)
        assert refused.value.messages[0].startswith(problem)


def test_a_first_version_backup_restores_its_settings_and_sheets(played, owner):
    """Backups made before the log was in them (``fudgetable.campaign/1``)."""
    backup = backed_up(played)
    old = {key: backup[key] for key in backup if key not in {"sessions", "countdowns", "log"}}
    del old["challenges"], old["gm_moves"]
    old["schema"] = "fudgetable.campaign/1"
    for entry in old["characters"]:
        del entry["ref"]
    done = campaign_restore(owner=owner, data=old)
    assert done.characters == 3 and done.entries == 0
    assert done.campaign.ruleset == "ezfudge"
    assert done.campaign.people_packages.get().name == "Hill folk"


def test_unreadable_uploads_are_answered_in_words(owner, client_for):
    client = client_for(owner)
    url = reverse("campaign_restore")
    for body, message in (
        (b"\xff\xfe not text", "That file is not UTF-8 text"),
        (b"{", "That is not JSON: Expecting property name"),
        (b"[" * 100_000, "That is not JSON a campaign"),
    ):
        upload = {"file": SimpleUploadedFile("backup.json", body)}
        response = client.post(url, upload)
        assert response.status_code == 400
        assert message in response.content.decode()
    response = client.post(url, {})
    assert "Choose the backup file to restore." in response.content.decode()


# --- the download ---------------------------------------------------------------------------


def test_only_gms_download_the_backup(played, owner, member, outsider, client_for):
    url = reverse("campaign_export", args=[played.pk])
    response = client_for(owner).get(url)
    assert response.status_code == 200
    assert response.json()["schema"] == "fudgetable.campaign/2"
    assert client_for(member).get(url).status_code == 403
    assert client_for(outsider).get(url).status_code == 404


def test_the_backup_names_people_and_refs_never_rows(played, owner, client_for):
    backup = client_for(owner).get(reverse("campaign_export", args=[played.pk])).json()
    refs = {entry["sheet"]["name"]: entry["ref"] for entry in backup["characters"]}
    assert sorted(refs.values()) == [1, 2, 3]
    fights = [entry for entry in backup["log"] if "fight" in entry["snapshot"]]
    for entry in fights:
        assert [side["character"] for side in entry["snapshot"]["sides"]] == [
            refs["Jason Free"],
            refs["Brute"],
        ]
    confirmation = next(entry for entry in backup["log"] if "confirms" in entry["snapshot"])
    assert confirmation["snapshot"]["confirms"] == confirmation["follows"] == fights[0]["ref"]
    assert {entry["roller"] for entry in backup["log"]} == {"gm-owner", "player-member", None}
    assert all(entry["time"].endswith("+00:00") for entry in backup["log"])
