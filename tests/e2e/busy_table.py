"""A busy table to look at and to test the layout on: the demo's EZFudge table in a running
session with 60 log entries (``busy_table(entries)``: as many as asked), three countdowns, a
challenge, an open call and a fight exchange waiting for the GM's confirmation. Run on a server
with the demo data (``AppServer.python``); it prints the campaign's id. Running it again adds
nothing."""

from fudgetable.management.commands._demo_tables import EAST_MARCH


def busy_table(entries: int = 60) -> str:
    return _CODE.replace("ENTRIES", str(entries - 1))  # the fight exchange is one


_CODE = f"""
from campaigns.models import Campaign, Membership
from characters.models import Character
from rolls.models import Countdown, Roll
from rolls.challenges import challenge_create
from rolls.countdowns import countdown_create, countdown_mark
from rolls.calls import call_create
from rolls.fight import fight_exchange
from rolls.services import roll_check
from rolls.sessions import session_start
from rolls.models import PlaySession

campaign = Campaign.objects.get(name={EAST_MARCH.name!r})
gm = Membership.objects.select_related("campaign").get(campaign=campaign, user=campaign.owner)
players = {{
    m.user.username: m
    for m in Membership.objects.select_related("campaign", "user").filter(
        campaign=campaign, role="player"
    )
}}
if not PlaySession.objects.filter(campaign=campaign, ended_at__isnull=True).exists():
    session_start(campaign=campaign)
if not Countdown.objects.filter(campaign=campaign).exists():
    for name, boxes, marks in (("Reinforcements", 6, 2), ("The bridge burns", 4, 1),
                               ("Dawn", 8, 5)):
        countdown = countdown_create(campaign=campaign, name=name, boxes=boxes,
                                     outcome=name + " arrives.")
        countdown_mark(countdown=countdown, count=marks)
    challenge_create(campaign=campaign, preset="word-on-the-street")
pcs = list(Character.objects.filter(campaign=campaign, kind="pc").prefetch_related("traits"))
npcs = list(Character.objects.filter(campaign=campaign, kind="npc").prefetch_related("traits"))
made = Roll.objects.filter(campaign=campaign).count()
for n in range(made, ENTRIES):
    pc = pcs[n % len(pcs)]
    trait = list(pc.traits.all())[n % 5]
    membership = players.get(pc.owner.username, gm)
    roll_check(membership=membership, key=f"busy-{{n}}", level=trait.level,
               trait_name=trait.name, character=pc, difficulty=1)
if not Roll.objects.filter(campaign=campaign, snapshot__has_key="fight").exists():
    jason = next(pc for pc in pcs if pc.owner.username == "alice")
    bandit = next(npc for npc in npcs if npc.name == "Road bandit")
    fight_exchange(membership=gm, attacker=jason, attacker_trait=jason.traits.get(name="Body"),
                   weapon=jason.gear.filter(kind="weapon").first(), defender=bandit,
                   defender_trait=bandit.traits.first(), key="busy-fight")
    call_create(membership=gm, characters=pcs, trait="Agility", difficulty=1, label="Jump")
print(campaign.pk)
"""

BUSY_TABLE = busy_table()
