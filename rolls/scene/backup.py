"""The scenes' part of a campaign backup: its pictures (base64, as kept) and its scenes with
their areas, ranges, figures and cards, written with the backup's refs (characters by theirs,
people by username) and put back by ``restore``.

A backup is the GMs' (``backup_views``): it holds every card and hidden area, as the GMs see
them. Nothing here is shown to a player."""

import base64
import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User

from campaigns.models import Campaign
from fudgetable.rules import areas as area_rules
from rolls.scene.models import Area, Card, Figure, Picture, Scene

Json = dict[str, Any]


def moment(value: datetime | None) -> str | None:
    """A time as the backup writes every time (``rolls.backup.write`` imports this)."""
    return None if value is None else value.astimezone(UTC).isoformat()


def pictures_to_json(campaign: Campaign) -> tuple[list[Json], dict[int, int]]:
    """The campaign's pictures, and each one's ref by its id."""
    rows = list(Picture.objects.defer(None).filter(campaign=campaign).order_by("created_at", "pk"))
    refs = {picture.pk: ref for ref, picture in enumerate(rows, start=1)}
    return [
        {
            "ref": refs[picture.pk],
            "content_type": picture.content_type,
            "width": picture.width,
            "height": picture.height,
            "data": base64.b64encode(bytes(picture.data)).decode("ascii"),
            "created_at": moment(picture.created_at),
        }
        for picture in rows
    ], refs


def scenes_to_json(
    campaign: Campaign, character_ref: Mapping[int, int], picture_ref: Mapping[int, int]
) -> list[Json]:
    scenes = Scene.objects.filter(campaign=campaign).order_by("created_at", "pk")
    return [_scene(scene, character_ref, picture_ref) for scene in scenes]


def _scene(scene: Scene, character_ref: Mapping[int, int], picture_ref: Mapping[int, int]) -> Json:
    areas = list(scene.areas.all())
    area_ref = {area.pk: ref for ref, area in enumerate(areas, start=1)}
    cards = list(scene.cards.select_related("author").order_by("created_at", "pk"))
    card_ref = {card.pk: ref for ref, card in enumerate(cards, start=1)}
    people = dict(
        User.objects.filter(pk__in={pk for card in cards for pk in card.people}).values_list(
            "pk", "username"
        )
    )
    # In the order of the file's own refs, never of the rows' ids: a restore gives new ids
    # (in the text of "9-10" against "10-11" they sort differently), and the backup of a
    # restored campaign is the same document.
    ranges = []
    for pair, key in scene.ranges.items():
        first, second = (int(pk) for pk in pair.split("-"))
        if first in area_ref and second in area_ref:
            ranges.append({"areas": sorted((area_ref[first], area_ref[second])), "range": key})
    ranges.sort(key=lambda row: row["areas"])
    figures = [
        {
            "character": character_ref[figure.character_id],
            "area": area_ref.get(figure.area_id or 0),
            "moved": figure.moved,
        }
        for figure in sorted(scene.figures.all(), key=lambda f: character_ref[f.character_id])
    ]
    rolled = sorted(
        (character_ref[int(pk)], count)
        for pk, count in scene.rolled.items()
        if int(pk) in character_ref
    )
    return {
        "title": scene.title,
        "description": scene.description,
        "backdrop": picture_ref.get(scene.backdrop_id or 0),
        "current": scene.current,
        "shown_at": moment(scene.shown_at),
        "player_cards": scene.player_cards,
        "round": scene.round,
        "phase": scene.phase,
        "rolled": {str(ref): count for ref, count in rolled},
        "handout": card_ref.get(scene.handout_id or 0),
        "handout_at": moment(scene.handout_at),
        "start_area": area_ref.get(scene.start_area_id or 0),
        "created_at": moment(scene.created_at),
        "areas": [
            {
                "ref": area_ref[area.pk],
                **{key: getattr(area, key) for key in AREA_FIELDS},
            }
            for area in areas
        ],
        "ranges": ranges,
        "figures": figures,
        "cards": [
            {
                "ref": card_ref[card.pk],
                "title": card.title,
                "text": card.text,
                "picture": picture_ref.get(card.picture_id or 0),
                "area": area_ref.get(card.area_id or 0),
                "shown": card.shown,
                "people": sorted(people[pk] for pk in card.people if pk in people),
                "author": card.author.get_username() if card.author else None,
                "revealed_at": moment(card.revealed_at),
                "created_at": moment(card.created_at),
            }
            for card in cards
        ],
    }


AREA_FIELDS = ("name", "notes", "light", "cover", "hidden", "column", "row", "width", "height")


def restore_scenes(
    campaign: Campaign,
    pictures: list[Json],
    scenes: list[Json],
    character_ids: Mapping[int, int],
    people: Mapping[str, User],
) -> None:
    """Puts back the checked pictures and scenes (``backup_checks``). The people a card
    was shown to keep it where an account of their name is here (``people``: the restore's
    own, the one restoring among them)."""
    names = {name for entry in scenes for card in entry["cards"] for name in card["people"]}
    names |= {card["author"] for entry in scenes for card in entry["cards"] if card["author"]}
    found = User.objects.filter(username__in=names - set(people))
    people = {**{user.get_username(): user for user in found}, **people}
    picture_ids = {}
    for entry in pictures:
        data = entry["data"]
        made = Picture.objects.create(
            campaign=campaign,
            data=data,
            content_type=entry["content_type"],
            width=entry["width"],
            height=entry["height"],
            size=len(data),
            digest=hashlib.sha256(data).hexdigest(),
            created_at=entry["created_at"],
        )
        picture_ids[entry["ref"]] = made.pk
    for entry in scenes:
        _restore_scene(campaign, entry, picture_ids, character_ids, people)


def _restore_scene(
    campaign: Campaign,
    entry: Json,
    picture_ids: Mapping[int, int],
    character_ids: Mapping[int, int],
    people: Mapping[str, User],
) -> None:
    scene = Scene.objects.create(
        campaign=campaign,
        title=entry["title"],
        description=entry["description"],
        backdrop_id=picture_ids.get(entry["backdrop"]),
        current=entry["current"],
        shown_at=entry["shown_at"],
        player_cards=entry["player_cards"],
        round=entry["round"],
        phase=entry["phase"],
        rolled={str(character_ids[int(ref)]): count for ref, count in entry["rolled"].items()},
        handout_at=entry["handout_at"],
        created_at=entry["created_at"],
    )
    area_ids = {}
    for row in entry["areas"]:
        fields = {key: row[key] for key in AREA_FIELDS}
        area = Area.objects.create(scene=scene, position=row["ref"], **fields)
        area_ids[row["ref"]] = area.pk
    scene.ranges = {
        area_rules.pair_key(*(area_ids[ref] for ref in row["areas"])): row["range"]
        for row in entry["ranges"]
    }
    Figure.objects.bulk_create(
        Figure(
            scene=scene,
            character_id=character_ids[row["character"]],
            area_id=area_ids.get(row["area"]),
            moved=row["moved"],
        )
        for row in entry["figures"]
    )
    card_ids = {}
    for row in entry["cards"]:
        card = Card.objects.create(
            scene=scene,
            title=row["title"],
            text=row["text"],
            picture_id=picture_ids.get(row["picture"]),
            area_id=area_ids.get(row["area"]),
            shown=row["shown"],
            people=sorted(people[name].pk for name in row["people"] if name in people),
            author=people.get(row["author"] or ""),
            revealed_at=row["revealed_at"],
            created_at=row["created_at"],
        )
        card_ids[row["ref"]] = card.pk
    scene.handout_id = card_ids.get(entry["handout"])
    # A file written before scenes had a starting area has none.
    scene.start_area_id = area_ids.get(entry.get("start_area"))
    scene.save(update_fields=["ranges", "handout", "start_area"])
