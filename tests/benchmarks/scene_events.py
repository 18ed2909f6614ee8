"""The live-table benchmark's scene load (``live_table --scene``): a figure moved and a card
shown, in turn, from the GM's page.

Each table gets a PC per player and a scene shown to it: four areas, every PC standing in the
first, and cards kept for the GMs, one for each reveal the run will make. The GM sends, in
turn, a move (the next PC to its next area, as the two taps send it: the figure, the area and
where the page showed it) and a reveal (the next card, to everyone). Every socket of the table
then gets the two area boxes the move changed, or the card list with the new card in it; the
fragment's own ids say which event it is, so nothing is added for the benchmark.
"""

import re

import httpx

from tests.benchmarks.load import Samples, Table
from tests.benchmarks.table_events import post_as_gm

AREAS = 4
SEED = """
from characters.services import character_create
from rolls.scene import cards as scene_cards, services as scenes
from rolls.scene.ids import shown_id
from campaigns.models import Campaign

for row in tables:
    campaign = Campaign.objects.get(pk=row["campaign"])
    people = list(Membership.objects.select_related("campaign", "user").filter(campaign=campaign))
    gm = next(m for m in people if m.user_id == campaign.owner_id)
    pcs = [
        character_create(campaign=campaign, owner=m.user, name=f"PC{{campaign.pk}}-{{n}}")
        for n, m in enumerate(m for m in people if m is not gm)
    ]
    scene = scenes.scene_create(campaign=campaign, title="Bench hall")
    areas = [scenes.area_create(scene=scene, name=f"Area {{n}}") for n in range({areas})]
    figures = [shown_id(scenes.figure_add(scene=scene, character=pc, area=areas[0])) for pc in pcs]
    cards = [
        shown_id(scene_cards.card_create(
            membership=gm, scene=scene, title=f"Bench card {{n}}",
            text="Pillars, shadow and an overturned bench: cover for one.",
        ))
        for n in range({cards})
    ]
    scenes.scene_switch(campaign=campaign, scene=scene)
    # By the ids pages show them by (rolls.scene.ids), as the commands name them and frames do.
    row["scene"] = {{"areas": [shown_id(a) for a in areas], "figures": figures, "cards": cards}}
"""
BOX = re.compile(r'^([\w-]{22})"')
FIGURE = re.compile(r'id="figure-([\w-]{22})"')
ADDED = re.compile(r'([\w-]{22})"')
CARD = re.compile(r'id="card-([\w-]{22})"')


def seed(cards: int) -> str:
    return SEED.format(areas=AREAS, cards=cards)


def _move(table: Table, number: int) -> tuple[str, str, str]:
    """Move ``number`` (from 0): the figure, where it stands, and where it goes."""
    figures = table.scene["figures"]
    figure = figures[number % len(figures)]
    step = number // len(figures)
    areas = table.scene["areas"]
    return figure, areas[step % AREAS], areas[(step + 1) % AREAS]


def words(table: Table, number: int) -> str:
    """What event ``number`` brings: even ones a figure to an area, odd ones a card."""
    if number % 2 == 0:
        figure, _, to = _move(table, number // 2)
        return f"{figure}>{to}"
    return f"card {table.scene['cards'][number // 2]}"


def command(table: Table, number: int) -> tuple[str, dict[str, str]]:
    base = f"/campaigns/{table.campaign}/table/scene"
    if number % 2 == 0:
        figure, now, to = _move(table, number // 2)
        form = {"figure": str(figure), "area": str(to), "seen_in": str(now), "key": "move"}
        return f"{base}/move/", form
    return f"{base}/cards/{table.scene['cards'][number // 2]}/show/", {"shown": "everyone"}


def note(table: Table, number: int, start: float) -> None:
    table.posted[number] = start
    table.awaiting.setdefault(words(table, number), []).append(number)


async def post(
    http: httpx.AsyncClient, table: Table, number: int, csrf: str, samples: Samples
) -> None:
    # Answered with nothing to swap: every screen hears of it.
    await post_as_gm(http, table, number, csrf, samples, command=command, note=note, ok=204)


def match(table: Table, index: int, frame: str, now: float) -> None:
    """Notes the events this frame brings to socket ``index``: each figure in each area box,
    and each card in the list."""
    said = []
    for box in frame.split('<li id="area-')[1:]:  # each area's box, up to the next one's
        area = BOX.match(box)
        said += [f"{figure}>{area[1]}" for figure in FIGURE.findall(box)] if area else []
    # A move alone: the figure added to the box it entered (rolls.scene.fragments.publish_move).
    for added in frame.split('hx-swap-oob="beforeend:#figures-')[1:]:
        area = ADDED.match(added)
        said += [f"{figure}>{area[1]}" for figure in FIGURE.findall(added)] if area else []
    said += [f"card {card}" for card in CARD.findall(frame)]
    for words_said in said:
        waiting = table.awaiting.get(words_said, [])
        number = next((n for n in waiting if (index, n) not in table.arrived), None)
        if number is not None:
            table.arrived[(index, number)] = now
            table.frame_bytes.append(len(frame))
