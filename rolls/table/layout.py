"""Where each part of the table page sits, by the person's role: the tools' tabs beside the
centre on a desktop, and the views a phone's tab bar switches between. The page's markup is
the same for both (and, without JavaScript, one long page); this says which tab or view each
part belongs to, and the CSS and ``static/js/table.js`` do the rest (docs/architecture.md)."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from campaigns.models import Membership
from fudgetable.rules.rulesets import Ruleset

PLAY, TABLE, TOOLS, LOG = "play", "table", "tools", "log"
SCENE = "scene"


@dataclass(frozen=True)
class Tab:
    key: str
    label: str | Promise


def tools(membership: Membership, ruleset: Ruleset) -> list[Tab]:
    """The tools' tabs, in the order they sit: what this person may use at this table."""
    gm = membership.is_gm
    plays = membership.role != Membership.Role.OBSERVER
    shown = [
        (plays, Tab("roll", _("Roll"))),
        (gm, Tab("call", _("Call"))),
        (True, Tab("countdowns", _("Countdowns"))),
        (True, Tab("challenges", _("Challenges"))),
        # The fight exchange needs a wound track to mark (EZFudge's, or one set in Settings).
        (gm and ruleset.wound_track is not None, Tab("fight", _("Fight"))),
        (plays, Tab("contest", _("Contest"))),
        (gm, Tab("scenes", _("Scenes"))),
        (gm, Tab("npcs", _("NPCs"))),
        (gm, Tab("moves", _("GM moves"))),
    ]
    return [tab for show, tab in shown if show]


def views(membership: Membership) -> list[Tab]:
    """A phone's views, the first one shown first: a player's own rolls and the call; the
    scene, a screen of its own (a figure's move is two taps in it, and a fight goes back and
    forth between it and the rolls); what the whole table shows; a GM's tools; the log."""
    scene = Tab(SCENE, _("Scene"))
    if membership.is_gm:
        return [Tab(TABLE, _("Table")), scene, Tab(TOOLS, _("Tools")), Tab(LOG, _("Log"))]
    if membership.role == Membership.Role.OBSERVER:
        return [Tab(TABLE, _("Table")), scene, Tab(LOG, _("Log"))]
    return [Tab(PLAY, _("Play")), scene, Tab(TABLE, _("Table")), Tab(LOG, _("Log"))]


def places(membership: Membership) -> dict[str, str]:
    """The phone view each part of the page belongs to. The log is in its own view, and its
    newest entry shows in the first one too, so nobody taps to read it."""
    first = views(membership)[0].key
    if membership.is_gm:
        parts = {
            tool: TOOLS
            for tool in (
                *("roll", "call", "countdowns", "challenges", "fight", "contest"),
                *("scenes", "npcs"),
            )
        }
        parts["moves"] = TOOLS
    else:
        # A player's rolls are at hand in Play; what the table keeps count of is in Table.
        parts = {"roll": PLAY, "contest": PLAY, "countdowns": TABLE, "challenges": TABLE}
    return {
        **parts,
        "session": TABLE,
        "calls": first,
        "spotlight": first,
        "scene": SCENE,
        "party": TABLE,
        "presence": TABLE,
        "log": f"{LOG} {first}",
    }
