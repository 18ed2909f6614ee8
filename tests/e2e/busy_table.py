"""A busy table to look at and to test the layout on: the demo's EZFudge table in a running
session with 60 log entries (``busy_table(entries)``: as many as asked), three countdowns, a
challenge, an open call, a fight exchange waiting for the GM's confirmation, and a scene shown
to the table (the toll bridge: a backdrop, five areas, one hidden, the PCs and two NPCs, one
of them hidden, and three cards: one shown to all, one to bob alone, one kept for the GMs).
Run on a server with the demo data (``AppServer.python``); it prints the campaign's id.
Running it again adds nothing."""

from fudgetable.management.commands._demo_tables import EAST_MARCH


def busy_table(entries: int = 60) -> str:
    return _CODE.replace("ENTRIES", str(entries - 1))  # the fight exchange is one


_CODE = f"""
from campaigns.models import Campaign, Membership
from characters.models import Character
from rolls.models import Countdown, Roll
from rolls.challenges.services import challenge_create
from rolls.countdowns.services import countdown_create, countdown_mark
from rolls.calls.services import call_create
from rolls.fight.exchange import fight_exchange
from rolls.services import roll_check
from rolls.sessions.services import session_start
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
if not campaign.scenes.exists():
    import io
    from PIL import Image, ImageDraw
    from rolls.scene import cards as scene_cards, pictures, services as scenes
    picture = Image.new("RGB", (1200, 600), (120, 150, 90))
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 260, 1200, 360), fill=(70, 110, 160))  # the river
    draw.rectangle((520, 230, 680, 390), fill=(140, 110, 80))  # the bridge
    data = io.BytesIO()
    picture.save(data, "PNG")
    backdrop = pictures.picture_create(campaign=campaign, uploaded_by_id=gm.user_id,
                                       data=data.getvalue())
    scene = scenes.scene_create(campaign=campaign, title="The toll bridge", backdrop=backdrop,
                                description="Rain on the river; the bandits want a silver each.")
    spots = {{}}
    for name, light, cover, hidden, place in (
        ("Road", "good", "none", False, (1, 1, 4, 2)),
        ("Bridge", "good", "partial", False, (5, 1, 4, 2)),
        ("Far bank", "dim", "heavy", False, (9, 1, 4, 2)),
        ("Ford", "dim", "none", False, (1, 3, 6, 2)),
        ("Toll house", "dark", "heavy", True, (7, 3, 6, 2)),
    ):
        spots[name] = scenes.area_create(scene=scene, name=name, light=light, cover=cover,
                                        hidden=hidden, place=place,
                                        notes="Mud to the knee" if name == "Ford" else "")
    scenes.ranges_set(scene=scene, ranges={{(spots["Road"].pk, spots["Bridge"].pk): "S",
                                           (spots["Road"].pk, spots["Far bank"].pk): "L"}})
    bandit = next(npc for npc in npcs if npc.name == "Road bandit")
    bandit.revealed = True
    bandit.save(update_fields=["revealed"])
    sergeant = next(npc for npc in npcs if npc.name == "Sergeant Brannoc")
    for character, where in ((pcs[0], "Road"), (pcs[1], "Bridge"), (bandit, "Bridge"),
                             (sergeant, "Toll house")):
        scenes.figure_add(scene=scene, character=character, area=spots[where])
    scenes.scene_switch(campaign=campaign, scene=scene)
    notice = scene_cards.card_create(membership=gm, scene=scene, title="Toll notice",
                                     text="One silver a head, by order of the Baron.",
                                     area=spots["Bridge"], shown="everyone")
    orders = scene_cards.card_create(membership=gm, scene=scene, title="Brannoc's orders",
                                     text="Let nobody cross before the Baron's rider.")
    secret = scene_cards.card_create(membership=gm, scene=scene, title="A loose plank",
                                     text="The third plank from the far end is rotten.")
    bob = players["bob"].user_id
    scene_cards.card_reveal(membership=gm, card=secret, shown="some", people=[bob])
print(campaign.pk)
"""

BUSY_TABLE = busy_table()
