"""The table's fragments, rendered once per audience and pushed or served as they are."""

from collections.abc import Sequence

from django.http import HttpRequest, QueryDict
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset, table_language
from fudgetable import live
from fudgetable.http import new_key
from fudgetable.live import Audience, ByAudience, by_audience
from fudgetable.rules import checks
from fudgetable.rules.rulesets import Ruleset
from rolls import dice_faces, selectors
from rolls.entry_words import entry_label, outcome_words
from rolls.forms import SessionEndForm
from rolls.ladder_words import in_ladder_words
from rolls.models import Roll, Whispered
from rolls.talk.messages import message_line

TEMPLATE = "rolls/table.html"
SECRET_TEXT = gettext_lazy("The GM rolled (secret)")

# The Fudge point uses that act on a roll already made (checks.fudge_point_result); the
# campaign's other uses are spent on the sheet. Button words, short enough for a phone.
ROLL_USES = {
    "reroll": gettext_lazy("Reroll"),
    "alter-by-one": "+1",
    "failure-to-success": gettext_lazy("Make it a success"),
    "auto-success": gettext_lazy("Succeed (Superb or easier)"),
    "plus-four": gettext_lazy("Take +4"),
}
# Uses that only a failed check may take; on a hidden difficulty only the GM sees they apply.
ON_A_FAILURE = ("failure-to-success", "auto-success")
# A Fudge point is spent on a check, or again on the check a spend made; and on an opposed
# roll (not a fight's exchange, whose wounds the GM confirms), with the uses that fit one.
SPENDABLE_KINDS = (Roll.Kind.CHECK, Roll.Kind.FUDGE_POINT, Roll.Kind.CONTEST)


def is_spendable(roll: Roll) -> bool:
    if roll.kind not in SPENDABLE_KINDS:
        return False
    s = roll.snapshot
    return roll.kind != Roll.Kind.CONTEST or not ("fight" in s or "confirms" in s)


Spend = Sequence[tuple[str, str]]


def allowed_uses(campaign: Campaign) -> tuple[str, ...]:
    """The campaign's Fudge point uses that can be spent on a roll."""
    return tuple(use for use in campaign_ruleset(campaign).fudge_point_uses if use in ROLL_USES)


def spendable(roll: Roll, allowed: Sequence[str], *, gm_view: bool) -> list[tuple[str, str]]:
    """The spend buttons a roll gets: a PC's check, and turning it into a success only when it
    failed. A player never gets those on a hidden difficulty: offering them would say whether
    the roll failed. Who may spend for the PC is the caller's question."""
    character = roll.character
    if not is_spendable(roll) or character is None or character.is_npc:
        return []
    uses = []
    for use in allowed:
        if roll.kind == Roll.Kind.CONTEST and use not in checks.OPPOSED_USES:
            continue
        if use in ON_A_FAILURE and (
            roll.succeeded is not False or (roll.hidden_difficulty and not gm_view)
        ):
            continue
        uses.append((use, str(ROLL_USES[use])))
    return uses


def roll_entry(
    roll: Roll,
    audience: Audience,
    *,
    oob: bool = False,
    request: HttpRequest | None = None,
    spend: Spend | None = None,
    allowed: Sequence[str] | None = None,
    plain: bool = False,
    next_url: str = "",
    controls: bool = True,
    append: bool = False,
    spend_url: str = "",
    spend_target: str = "#roll-outcome",
) -> str:
    """One log entry; ``oob`` makes it replace the entry already on the page (a GM's note).
    The snapshot holds the rules' ladder names, said in the campaign's words when drawn.

    The entry is pushed alike to every socket of its audience, so it carries only controls
    that every member of the audience may use: GMs annotate and spend for any PC. A player's
    own spend buttons come through ``spend``, on pages rendered for that player alone.
    ``request`` adds the CSRF token (the page without JavaScript posts the forms itself);
    ``plain`` drops the htmx attributes for pages without the roller (the log page),
    ``controls=False`` leaves every form out (the session recap), and ``append`` wraps it to
    be added at the bottom of the table's log on every screen (in the same render: one per
    roll). ``spend_url`` and ``spend_target``: where the spend buttons post and their answer
    goes, when not the roller's (the composer's own, rolls.talk)."""
    gm_view = audience == "gm"
    if not controls:
        spend = []
    elif spend is None:
        spend = []
        if gm_view:
            uses = allowed_uses(roll.campaign) if allowed is None else allowed
            spend = spendable(roll, uses, gm_view=True)
    context = {
        "roll": roll,
        "gm_view": gm_view,
        "oob": oob,
        "spend": spend,
        "spend_key": new_key() if spend else "",
        "spend_url": spend_url or (_entry_url(roll, "rolls:fudge_point") if spend else ""),
        "note_url": _entry_url(roll, "rolls:note") if gm_view and controls else "",
        "spend_target": spend_target,
        "plain": plain,
        "next_url": next_url,
        "controls": controls,
        "uid": new_key()[:8],  # the same roll may be on a page twice (the "You rolled" panel)
        "append": append,
        # A new roll is said once, in words, by the page's polite live region.
        "news": _news(roll, gm_view=gm_view) if append else "",
    }
    if roll.whispered and controls and not plain:
        # Everyone who reads a whisper is one of its people, so each may answer the others:
        # the page leaves itself out (talk.js), and the composer picks the rest.
        context["reply_to"] = " ".join(str(user_id) for user_id in whisper_people(roll))
    if "fight" in roll.snapshot:  # a proposed fight's body holds the GMs' confirm button
        context["body"] = render_to_string(f"{TEMPLATE}#entry-body", context, request=request)
    else:
        context["body"] = entry_body(roll, gm_view=gm_view)
    return render_to_string(f"{TEMPLATE}#entry", context, request=request)


def whisper_people(roll: Roll) -> list[int]:
    """A whisper's people (their user ids, its sender's among them), read once per entry:
    ``log_entries`` reads a page's at once, and a whisper just written knows its own."""
    people = vars(roll).get("whisper_people")
    if people is None:
        people = list(roll.whispered_to.values_list("user_id", flat=True))
        vars(roll)["whisper_people"] = people
    return sorted({roll.roller_id, *people} - {None})


def entry_body(roll: Roll, *, gm_view: bool) -> str:
    """What the entry says, without its controls. It is rendered once per audience that reads
    it differently (a secret roll, a hidden difficulty), and kept on the roll while it is in
    hand: a new roll's entry is rendered for the push to each audience and again for the
    roller's own answer, and that was most of a roll's template time."""
    gm_view = gm_view and (roll.secret or roll.hidden_difficulty)
    bodies = vars(roll).setdefault("_entry_bodies", {})
    # A GM's note is the one thing that changes on a roll; the push is drawn in the table's
    # language and the roller's own answer in theirs.
    key = (gm_view, roll.gm_note, translation.get_language())
    if key not in bodies:
        bodies[key] = render_to_string(f"{TEMPLATE}#entry-body", {"roll": roll, "gm_view": gm_view})
    return bodies[key]


def _entry_url(roll: Roll, name: str) -> str:
    """One of the entry's own addresses, found once for every copy of it drawn."""
    urls = vars(roll).setdefault("_urls", {})
    if name not in urls:
        urls[name] = reverse(name, args=[roll.campaign_id, roll.pk])
    return urls[name]


def _news(roll: Roll, *, gm_view: bool) -> str:
    """A new entry in words for the page's polite live region, said once per audience that
    reads it differently, as ``entry_body`` is drawn."""
    gm_view = gm_view and (roll.secret or roll.hidden_difficulty)
    said = vars(roll).setdefault("_news", {})
    key = (gm_view, translation.get_language())
    if key not in said:
        said[key] = roll_summary(roll, gm_view=gm_view, spoken=True)
    return said[key]


def roll_entries(roll: Roll) -> ByAudience:
    """The new entry as each audience sees it, wrapped to be added at the bottom of the log,
    in the table's language."""
    with table_language(roll.campaign):
        return by_audience(lambda audience: roll_entry(roll, audience, append=True))


def replaced_entries(roll: Roll) -> ByAudience:
    """The entry as each audience sees it, to replace the one already in the log (a GM's note,
    a confirmed fight), in the table's language."""
    with table_language(roll.campaign):
        return by_audience(lambda audience: roll_entry(roll, audience, oob=True))


def publish_changed_entry(roll: Roll, event: str, *, players: bool = True) -> None:
    """Pushes an entry that changed in place to the screens that show it (``players=False``:
    the GMs' alone), and writes down the numbers it went out with, so a screen that was away
    gets it again when it comes back (``table_state``)."""
    entries = replaced_entries(roll)
    seq = live.publish(
        roll.campaign_id, event, everyone=entries["everyone"] if players else None, gm=entries["gm"]
    )
    Roll.objects.filter(pk=roll.pk).update(
        gm_seq=seq["gm"], everyone_seq=seq.get("everyone", roll.everyone_seq)
    )


def session_end_form(
    campaign: Campaign, ruleset: Ruleset, data: QueryDict | None = None
) -> SessionEndForm:
    """The GM's form for ending the session, a row of counts per PC."""
    characters = selectors.player_characters(campaign)
    return SessionEndForm(data, characters=characters, ruleset=ruleset)


def session_status(campaign: Campaign, audience: Audience, *, oob: bool = True) -> str:
    gm_view = audience == "gm"
    return render_to_string(
        f"{TEMPLATE}#session",
        {
            "campaign": campaign,
            "session": selectors.latest_session(campaign),
            "gm_view": gm_view,
            "session_form": session_end_form(campaign, campaign_ruleset(campaign))
            if gm_view
            else None,
            "oob": oob,
        },
    )


def session_statuses(campaign: Campaign) -> ByAudience:
    with table_language(campaign):
        return by_audience(lambda audience: session_status(campaign, audience))


def presence(campaign: Campaign | int) -> str:
    """Who is at the table (``campaign`` or its id), pushed to it as a socket comes or goes."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    with table_language(campaign):
        return render_to_string(
            f"{TEMPLATE}#presence",
            {"present": selectors.present_usernames(campaign_id), "oob": True},
        )


def log_entries(
    campaign: Campaign,
    rolls: Sequence[Roll],
    audience: Audience,
    request: HttpRequest | None = None,
    *,
    oob: bool = False,
) -> list[str]:
    """The rolls' entries in the table's log, on the table page or sent to its socket; a roll a
    Fudge point was already spent on offers no more. ``oob``: each to replace the one already
    on the page. They are drawn in the table's language, whoever reads them, so that everyone
    at the table reads the same log (docs/architecture.md, "Languages")."""
    allowed = allowed_uses(campaign)
    for roll in rolls:
        roll.campaign = campaign  # read by each entry (its ladder's words): not once per entry
    whispers = {roll.pk: roll for roll in rolls if roll.whispered}
    if whispers:
        for roll in whispers.values():
            vars(roll)["whisper_people"] = []
        heard = Whispered.objects.filter(entry_id__in=whispers).values_list("entry_id", "user_id")
        for entry_id, user_id in heard:
            vars(whispers[entry_id])["whisper_people"].append(user_id)
    with table_language(campaign):
        return [
            roll_entry(
                roll,
                audience,
                request=request,
                allowed=allowed,
                spend=[] if getattr(roll, "spent_on", False) else None,
                oob=oob,
            )
            for roll in rolls
        ]


def roll_summary(roll: Roll, *, gm_view: bool = False, spoken: bool = False) -> str:
    """One line for the roller's own screen (the sheet), from the roll's snapshot, the result
    in ladder words first; a secret roll or a hidden difficulty shows only what its viewer may
    see. ``spoken``: the dice in words, for a screen reader."""
    if roll.secret and not gm_view:
        return str(SECRET_TEXT)
    s = in_ladder_words(roll)
    if roll.kind == Roll.Kind.ANNOUNCEMENT:
        return entry_label(roll)
    if roll.kind == Roll.Kind.MESSAGE:
        return message_line(s)
    if "confirms" in s:  # a fight's wounds marked (rolls/fight/exchange.py): the label says which
        return entry_label(roll)
    if roll.kind == Roll.Kind.CONTEST:
        versus = " " + gettext("vs") + " "
        sides = versus.join(f"{side['name']} {side['result_name']}" for side in s["sides"])
        line = gettext("%(label)s: %(sides)s: %(outcome)s by %(degree)s") % {
            "label": entry_label(roll),
            "sides": sides,
            "outcome": outcome_words(s["outcome"], in_a_sentence=True),
            "degree": f"{s['relative_degree']:+d}",
        }
        for wound in s.get("fight", {}).get("wounds", []):
            level = wound["level_name"] or gettext("no wound")
            line += f"; {wound['name']}: {level}"
        return line
    dice = dice_faces.spoken(s["shown"], s.get("roll")) if spoken else " ".join(s["shown"])
    line = f"{entry_label(roll)}: {s['result_name']} ({dice})"
    if s.get("sheet_lines"):
        taken = ", ".join(f"{taken['name']} {taken['amount']:+d}" for taken in s["sheet_lines"])
        line += f" ({taken})"
    if s.get("reaction"):
        line += f" ({s['reaction']})"
    if s.get("helper"):
        line += " " + gettext("(helped by %(trait)s %(bonus)s)") % {
            "trait": s["helper"]["trait"],
            "bonus": f"{s['helper']['bonus']:+d}",
        }
    if s.get("by_hand"):
        line += " " + gettext("(rolled by hand)")
    if "difficulty_name" in s and (gm_view or not roll.hidden_difficulty):
        line += " " + gettext("vs %(difficulty)s: %(outcome)s, margin %(margin)s") % {
            "difficulty": s["difficulty_name"],
            "outcome": outcome_words(s["outcome"], in_a_sentence=True),
            "margin": f"{s['margin']:+d}",
        }
        if s.get("degree"):
            line += f" ({s['degree']})"
        row = s.get("critical_row") if s.get("critical") else None
        if row:  # as the log shows it: only where the difficulty shows (a critical says much)
            line += "; " + gettext("critical table %(total)s: %(text)s") % {
                "total": row["total"],
                "text": row["text"] or gettext("the GM decides"),
            }
    return line
