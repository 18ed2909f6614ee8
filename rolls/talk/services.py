"""Table talk: what a person sends from the composer under the table's log. A line is read by
the rules (``fudgetable.rules.dice_words``) into a message, a whisper, a roll typed as words
or a call for help; a message is written to the log as an entry of its own, a roll is made
by the same services as the roll forms. Whatever is wrong is said in words and nothing is
written.

Who reads what: a message said to the table reaches everyone's screen, numbered like a roll.
A whisper reaches its people alone: the one who sends it, the people it names and, when it
names "the GMs", every GM; a GM is not told of whispers between players. Each of its people
gets it with a number of their own (``live.next_person_seqs``), so a page back from a drop
gets the whispers it missed, while nobody else's number moves."""

from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ladder, table_language
from characters.models import Character
from fudgetable import live
from fudgetable.row_lock import hold
from fudgetable.rules import dice_words
from fudgetable.rules.dice_words import DiceRoll, Help, Say, Whisper
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import refusal_words, sentence
from rolls import fragments
from rolls.models import Roll, Whispered
from rolls.selectors import running_session_id
from rolls.services import existing_roll, record_entry
from rolls.talk import markup as message_markup
from rolls.talk import messages, typed_rolls

GMS = "gms"  # the composer's word for every GM of the table, among the people it names
MAX_PEOPLE = dice_words.MAX_PEOPLE


class Refused(Exception):
    """What the composer says back, in words, when it writes nothing."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Sent:
    """What a line of the composer made: an entry of the log, or words for its sender."""

    entry: Roll | None = None
    help: bool = False


def speakers(membership: Membership) -> QuerySet[Character]:
    """The characters this person may speak as: a player, their PCs; a GM, every character."""
    characters = Character.objects.filter(campaign_id=membership.campaign_id)
    if not membership.is_gm:
        characters = characters.filter(owner_id=membership.user_id, kind=Character.Kind.PC)
    return characters.order_by("kind", "name", "pk")


@dataclass(frozen=True)
class Listener:
    """Someone a whisper may be picked for, named as the table knows them: the person, and
    their PCs ("alice (Louie)"), so a picker says who is who at this table."""

    user_id: int
    name: str
    role: str


def listeners(membership: Membership) -> list[Listener]:
    """Everyone at the table but this person, GMs first, each with their PCs' names (two
    queries, whatever the table's size)."""
    others = Membership.objects.filter(campaign_id=membership.campaign_id).exclude(
        user_id=membership.user_id
    )
    others = others.order_by("role", "user__username")
    rows = list(others.values_list("user_id", "user__username", "role"))
    pcs: dict[int, list[str]] = {}
    owned = Character.objects.filter(
        campaign_id=membership.campaign_id,
        kind=Character.Kind.PC,
        owner_id__in=[user_id for user_id, _name, _role in rows],
    )
    for owner_id, name in owned.order_by("name", "pk").values_list("owner_id", "name"):
        pcs.setdefault(owner_id, []).append(name)
    return [
        Listener(user_id, f"{name} ({', '.join(pcs[user_id])})" if user_id in pcs else name, role)
        for user_id, name, role in rows
    ]


def composer_send(
    *,
    membership: Membership,
    line: str,
    key: str,
    speaking_as: Character | None = None,
    to: tuple[str, ...] = (),
) -> Sent:
    """Does what a line of the composer says. ``speaking_as``: the character chosen in the
    composer (None: as themselves, out of character); ``to``: the people ticked in it
    (user ids as text, or ``GMS``; none: the whole table). Raises ``Refused``."""
    try:
        command = dice_words.read_line(line, campaign_ladder(membership.campaign))
    except dice_words.WordsError as error:
        raise Refused(sentence(error.said(_))) from None
    if isinstance(command, Help):
        return Sent(help=True)
    if isinstance(command, DiceRoll):
        if to:  # someone who ticked people believes they whisper: the table would see the roll
            raise Refused(_("A roll is not whispered: untick the people to roll for the table."))
        try:
            return Sent(typed_rolls.roll_typed(membership, command, key, speaking_as))
        except dice_words.WordsError as error:  # faces by hand, read for the table's dice
            raise Refused(sentence(error.said(_))) from None
        except RulesError as error:
            raise Refused(refusal_words(error)) from None
    if isinstance(command, Whisper):
        to = command.to
    return Sent(_say(membership, command, key, speaking_as, to))


def _say(
    membership: Membership,
    command: Say | Whisper,
    key: str,
    speaking_as: Character | None,
    to: tuple[str, ...],
) -> Roll:
    # The count and the write in one transaction, the person's row held between them (one
    # process or several): 32 lines at once wrote 14-21 when the limit was 8.
    with transaction.atomic():
        hold(membership)
        _within_the_limit(membership)
        return _said(membership, command, key, speaking_as, to)


def _said(
    membership: Membership,
    command: Say | Whisper,
    key: str,
    speaking_as: Character | None,
    to: tuple[str, ...],
) -> Roll:
    # The same line sent again (a retry over HTTP) is caught when it is written, as a roll is.
    style = command.style if isinstance(command, Say) else "say"
    if style == "ooc":
        speaking_as = None
    speaker = speaking_as.name if speaking_as else membership.user.get_username()
    if speaking_as is None and style == "say":
        style = "ooc"
    # The table's people are looked up only when they are needed: a whisper, or an "@".
    members = _people(membership.campaign_id) if to or "@" in command.text else []
    people = {person.name: person.user_id for person in members}
    mentions = message_markup.mentioned(command.text, people)
    if not to:
        snapshot = messages.message_snapshot(
            text=command.text, style=style, speaker=speaker, people=mentions
        )
        # In a block of its own, as the roll services are: a resent line rolls it back.
        with transaction.atomic():
            entry, _created = record_entry(
                membership=membership,
                kind=Roll.Kind.MESSAGE,
                label=messages.message_label(snapshot),
                snapshot=snapshot,
                succeeded=None,
                key=key,
                character=speaking_as,
            )
        return entry
    heard, names = _whispered_to(membership, members, to)
    snapshot = messages.message_snapshot(
        text=command.text, style=style, speaker=speaker, to=names, people=mentions
    )
    return _whisper(membership, snapshot, key, speaking_as, heard)


def _within_the_limit(membership: Membership) -> None:
    """A person sends at most ``MESSAGE_LIMIT`` messages in ``MESSAGE_LIMIT_SECONDS`` to one
    table: enough to talk, too few to flood everyone's log."""
    window = timedelta(seconds=settings.MESSAGE_LIMIT_SECONDS)
    since = timezone.now() - window
    recent = list(
        Roll.objects.filter(
            campaign_id=membership.campaign_id,
            roller_id=membership.user_id,
            kind=Roll.Kind.MESSAGE,
            created_at__gte=since,
        )
        .order_by("-created_at")
        .values_list("created_at", flat=True)[: settings.MESSAGE_LIMIT]
    )
    if len(recent) < settings.MESSAGE_LIMIT:
        return
    wait = max(1, round((recent[-1] + window - timezone.now()).total_seconds() + 0.5))
    raise Refused(
        ngettext(
            "You are sending messages faster than the table can read them: wait %(wait)d "
            "second and send it again.",
            "You are sending messages faster than the table can read them: wait %(wait)d "
            "seconds and send it again.",
            wait,
        )
        % {"wait": wait}
    )


class Person(NamedTuple):
    user_id: int
    name: str
    role: str


def _people(campaign_id: int) -> list[Person]:
    """Who is at the table: one light query, no rows made into models (every message with
    an "@" asks)."""
    rows = Membership.objects.filter(campaign_id=campaign_id)
    return [Person(*row) for row in rows.values_list("user_id", "user__username", "role")]


def _whispered_to(
    membership: Membership, members: list[Person], to: tuple[str, ...]
) -> tuple[list[int], list[str]]:
    """A whisper's people (their ids, the sender's among them) and how the log names them.
    ``to`` holds user ids or names, and ``GMS`` (or "gm") for every GM."""
    by_name = {person.name.lower(): person for person in members}
    by_id = {str(person.user_id): person for person in members}
    named: dict[int, Person] = {}
    names: list[str] = []
    for word in to:
        if word.lower() in (GMS, "gm"):
            gms = [person for person in members if person.role == Membership.Role.GM]
            named.update({person.user_id: person for person in gms})
            names.append(_("the GMs"))
            continue
        found = by_id.get(word) or by_name.get(word.lower())
        if found is None:
            raise Refused(_("Nobody called %(name)s is at this table.") % {"name": word[:40]})
        named[found.user_id] = found
        names.append(found.name)
    if set(named) <= {membership.user_id}:
        raise Refused(_("Whisper to someone other than yourself."))
    return sorted({*named, membership.user_id}), list(dict.fromkeys(names))


def _whisper(
    membership: Membership,
    snapshot: dict[str, object],
    key: str,
    speaking_as: Character | None,
    heard: list[int],
) -> Roll:
    """Writes a whisper and sends it to its people's sockets alone, each numbered in their own
    count, once the transaction commits."""
    campaign_id = membership.campaign_id
    try:
        with transaction.atomic():
            seqs = live.next_person_seqs(campaign_id, heard)
            entry = Roll.objects.create(
                campaign_id=campaign_id,
                session_id=running_session_id(campaign_id),
                roller_id=membership.user_id,
                character=speaking_as,
                kind=Roll.Kind.MESSAGE,
                visibility=Roll.Visibility.WHISPER,
                label=messages.message_label(snapshot),
                snapshot=snapshot,
                succeeded=None,
                idempotency_key=key,
            )
            Whispered.objects.bulk_create(
                Whispered(entry=entry, user_id=user_id, seq=seqs[user_id]) for user_id in heard
            )
    except IntegrityError:
        done = existing_roll(membership.campaign, membership, key)
        if done is None:
            raise
        return done
    vars(entry)["whisper_people"] = heard  # for its Reply: no query
    with table_language(membership.campaign):
        html = fragments.roll_entry(entry, "everyone", append=True)
    live.publish_whisper(campaign_id, "message.whispered", html=html, seqs=seqs)
    return entry
