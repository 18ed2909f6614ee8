"""Times the scene's commands in process, beside a roll: a figure's move and a card shown, as
the table page sends them over its socket.

    .venv/bin/python -m tests.benchmarks.scene_post [--requests 40] [--profile move|reveal|roll]

A table of a GM and seven players, each with a PC standing in a scene of four areas with
twenty cards (half shown to everyone). The GM moves the PCs round the areas, shows a card to
everyone and keeps it for the GMs again, in turn; a player rolls a trait. The figures are the
server's time for the command (the access check, the service, each audience's fragments for
the push) without a network or sockets. Production mode on a throwaway SQLite database. Not
collected by pytest; docs/performance.md has its figures.
"""

import argparse
import itertools
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.benchmarks.inprocess import (
    mode,
    poster,
    print_profile,
    start_django,
    table_of_players,
    time_each,
)

PLAYERS, AREAS, CARDS = 7, 4, 20


def _setup() -> dict[str, Callable[[], None]]:
    from campaigns.models import Membership
    from rolls.scene import cards as scene_cards
    from rolls.scene import services as scenes
    from rolls.scene.ids import shown_id

    gm, campaign, pcs = table_of_players(PLAYERS)
    gm_membership = Membership.objects.select_related("campaign").get(user=gm)
    scene = scenes.scene_create(campaign=campaign, title="Bench hall")
    areas = [scenes.area_create(scene=scene, name=f"Area {n}") for n in range(AREAS)]
    figures = [scenes.figure_add(scene=scene, character=pc, area=areas[0]) for pc in pcs]
    cards = [
        scene_cards.card_create(
            membership=gm_membership,
            scene=scene,
            title=f"Bench card {n}",
            text="Pillars, shadow and an overturned bench: cover for one.",
            shown="everyone" if n % 2 else "gm",
        )
        for n in range(CARDS)
    ]
    scenes.scene_switch(campaign=campaign, scene=scene)
    gm_post = poster(gm, over="socket")
    player_post = poster(pcs[0].owner, over="socket")
    base = f"/campaigns/{campaign.pk}/table"
    at = {figure.pk: 0 for figure in figures}
    moving = itertools.cycle(figures)
    shown = itertools.cycle(["everyone", "gm"])
    card = cards[0]
    trait = pcs[0].traits.first()
    keys = itertools.count()

    def move() -> None:
        figure = next(moving)
        now = at[figure.pk]
        at[figure.pk] = (now + 1) % AREAS
        to, seen_in = shown_id(areas[at[figure.pk]]), shown_id(areas[now])
        data = {"figure": shown_id(figure), "area": to, "seen_in": seen_in}
        gm_post(f"{base}/scene/move/", {**data, "key": "move"})

    def reveal() -> None:
        gm_post(f"{base}/scene/cards/{shown_id(card)}/show/", {"shown": next(shown)})

    def roll() -> None:
        data = {"kind": "check", "trait": trait.pk, "key": f"bench-{next(keys)}"}
        player_post(f"{base}/roll/", {**data, "modifiers": ""})

    return {"move": move, "reveal": reveal, "roll": roll}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40, help="timed commands of each kind")
    parser.add_argument("--profile", choices=["move", "reveal", "roll"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fudgetable-bench-") as workdir:
        start_django(Path(workdir), debug=False)
        commands = _setup()
        print(f"the scene's commands over the socket, {args.requests} of each, {mode(False)}")
        time_each(commands, args.requests, "command")
        if args.profile:
            print_profile(commands[args.profile], 50)


if __name__ == "__main__":
    main()
