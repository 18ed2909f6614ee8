"""Demo logins and one demo table per ruleset, so a fresh install has something to play with.

The logins share one password, printed in the README, so they are made only on a server this
machine alone reaches (``settings.LOOPBACK_ONLY``); on any other, ``demo_logins_locked`` takes
that password from the ones made before (scripts/run's ``prepare`` calls it at every start).

Every table has the demo players' finished characters, built to its ruleset's build rules
through the same services the sheet uses (so the build check has passed), and a few NPCs.
Running it again changes nothing: users, campaigns and characters are looked up by name first.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_ruleset
from campaigns.services import campaign_create, membership_add
from characters import services
from characters.models import Character, Item, Trait
from fudgetable.management.commands._demo_tables import TABLES
from fudgetable.management.commands._demo_tables import Item as DemoItem
from fudgetable.management.commands._demo_tables import Sheet as DemoSheet
from fudgetable.management.commands._demo_tables import Table as DemoTable
from fudgetable.rules.sheet import SCHEME_KINDS

DEMO_PASSWORD = "fudge-demo"
DEMO_GM = "gm"
DEMO_PLAYERS = ("alice", "bob")
DEMO_CAMPAIGN = TABLES[0].name


class Command(BaseCommand):
    help = "Creates the demo GM, demo players and a demo campaign per ruleset (idempotent)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.LOOPBACK_ONLY:
            raise CommandError(
                _(
                    "The demo logins share a password anyone can read in the README, so they "
                    "are made only on a server this machine alone reaches (HOST on loopback, "
                    "no proxy in front, no other name in SITE_URL or ALLOWED_HOSTS)."
                )
            )
        user_model = get_user_model()
        users = {}
        for username in (DEMO_GM, *DEMO_PLAYERS):
            user, created = user_model.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[username] = user

        for table in TABLES:
            _set_table(table, users)

        # The README's password is printed only for the logins it still opens: someone may
        # have changed one, or deactivated it, since the run that made it.
        changed = {
            name: _demo_login_state(user)
            for name, user in users.items()
            if not (user.is_active and user.check_password(DEMO_PASSWORD))
        }
        if not changed:
            self.stdout.write(_("Demo logins (password for each: %s):") % DEMO_PASSWORD)
        else:
            self.stdout.write(_("Demo logins:"))
        for role, username in (("GM:     ", DEMO_GM), *(("player: ", p) for p in DEMO_PLAYERS)):
            state = (
                f"  ({changed[username]})"
                if username in changed
                else (_("  (password: %s)") % DEMO_PASSWORD if changed else "")
            )
            self.stdout.write(f"  {role} {username}{state}")
        self.stdout.write("Demo campaigns, one per ruleset:")
        for table in TABLES:
            self.stdout.write(f"  {table.name} ({table.ruleset})")


def _demo_login_state(user: User) -> str:
    if not user.is_active:
        return _("deactivated")
    if not user.has_usable_password():
        return _("locked: `manage.py reset_link %(name)s` gives it a password") % {
            "name": user.get_username()
        }
    return _("its password was changed")


def demo_logins_locked() -> list[str]:
    """The demo logins that still opened with the README's password, which no longer opens
    them (``manage.py reset_link`` gives one a password again)."""
    locked = []
    demo_users = get_user_model().objects.filter(username__in=(DEMO_GM, *DEMO_PLAYERS))
    for user in demo_users.order_by("username"):
        if user.check_password(DEMO_PASSWORD):
            user.set_unusable_password()
            user.save(update_fields=["password"])
            locked.append(user.get_username())
    return locked


def _set_table(table: DemoTable, users: dict[str, User]) -> None:
    gm = users[DEMO_GM]
    campaign = Campaign.objects.filter(owner=gm, name=table.name).first()
    if campaign is None:
        campaign = campaign_create(
            owner=gm,
            name=table.name,
            ruleset=table.ruleset,
            pitch=table.pitch,
            overrides=dict(table.overrides),
        )
    for username in DEMO_PLAYERS:
        membership_add(campaign=campaign, user=users[username], role=Membership.Role.PLAYER)
    characters = Character.objects.filter(campaign=campaign)
    for username, sheet in table.pcs.items():
        if not characters.filter(name=sheet.name, owner=users[username]).exists():
            pc = services.character_create(
                campaign=campaign, owner=users[username], name=sheet.name
            )
            _fill(pc, sheet)
            services.character_finish(character=pc)  # refuses a build that breaks the rules
    for sheet in table.npcs:
        if not characters.filter(name=sheet.name, kind=Character.Kind.NPC).exists():
            npc = services.character_create(
                campaign=campaign,
                owner=None,
                name=sheet.name,
                kind=Character.Kind.NPC,
                npc_boxes=sheet.npc_boxes,
            )
            _fill(npc, sheet)


def _fill(character: Character, sheet: DemoSheet) -> None:
    services.profile_update(
        character=character,
        version=character.version,
        name=sheet.name,
        description=sheet.description,
        notes=sheet.notes,
    )
    _set_traits(character, sheet)
    for feature in sheet.features:
        services.feature_add(
            character=character,
            kind=feature.kind,
            name=feature.name,
            target=feature.target,
            amount=feature.amount,
            situation=feature.situation,
        )
    for gear in sheet.gear:
        services.gear_add(character=character, **gear)
    _add_items(character, sheet.items, inside=None)
    for kind, name, value, modifier in sheet.details:
        services.detail_add(
            character=character, kind=kind, name=name, value=value, modifier=modifier
        )


def _set_traits(character: Character, sheet: DemoSheet) -> None:
    """Levels for the sheet's traits, adding those the campaign's list lacks; Peupfudge PCs
    put their starting XP toward abilities instead. An NPC keeps only the traits it lists."""
    kind = SCHEME_KINDS[campaign_ruleset(character.campaign).trait_scheme][0]
    levels = dict(sheet.traits)
    on_sheet = {trait.name: trait for trait in character.traits.all()}
    if character.is_npc:
        for name, trait in on_sheet.items():
            if name not in levels and trait.kind != Trait.Kind.ATTRIBUTE:
                services.trait_remove(character=character, trait=trait)
    for name, level in sheet.traits:
        if name in on_sheet:
            services.trait_set_level(character=character, trait=on_sheet[name], level=level)
        else:
            services.trait_add(
                character=character,
                name=name,
                level=level,
                kind=kind,
                specialty=sheet.specialties.get(name, ""),
            )
    for name, xp in sheet.allocate:
        services.ability_allocate(character=character, trait=on_sheet[name], xp=xp)


def _add_items(character: Character, items: tuple[DemoItem, ...], inside: Item | None) -> None:
    for item in items:
        added = services.item_add(
            character=character,
            name=item.name,
            quantity=item.quantity,
            note=item.note,
            inside=inside,
        )
        _add_items(character, item.contents, inside=added)
