from django.urls import path

from fudgetable.offline import offline_copy
from rolls import sheet_views, views
from rolls.calls import views as call_views
from rolls.challenges import views as challenge_views
from rolls.coincidence import views as coincidence_views
from rolls.contest_many import views as contest_many_views
from rolls.countdowns import views as countdown_views
from rolls.fight import attack_views, defend_views, healing_views
from rolls.fight import views as fight_views
from rolls.log import views as log_views
from rolls.scene import prep_views as scene_prep_views
from rolls.scene import views as scene_views
from rolls.sessions import views as session_views
from rolls.spotlight import views as spotlight_views
from rolls.table import views as table_page
from rolls.talk import views as talk_views
from rolls.x_card import views as x_card_views

app_name = "rolls"
urlpatterns = [
    path("", offline_copy(table_page.table), name="table"),
    # The scene: prepared on pages of its own, shown and played at the table.
    path("scenes/", scene_prep_views.scene_list, name="scenes"),
    path("scenes/<scene:scene_id>/", scene_prep_views.scene_edit, name="scene_edit"),
    path("scene/show/", scene_views.scene_switch, name="scene_switch"),
    path("scene/move/", scene_views.figure_move, name="figure_move"),
    path("scene/round/", scene_views.scene_round, name="scene_round"),
    path("scene/ping/", scene_views.scene_ping, name="scene_ping"),
    path("scene/figures/", scene_views.figure_add, name="figure_add"),
    path("scene/everyone-here/", scene_views.party_here, name="party_here"),
    path(
        "scene/figures/<figure:figure_id>/reveal/", scene_views.figure_reveal, name="figure_reveal"
    ),
    path("scene/player-cards/", scene_views.player_cards, name="scene_player_cards"),
    path("scene/cards/", scene_views.card_create, name="card_create"),
    path("scene/cards/<card:card_id>/show/", scene_views.card_reveal, name="card_reveal"),
    path("scene/cards/<card:card_id>/remove/", scene_views.card_delete, name="card_delete"),
    path("scene/cards/<card:card_id>/handout/", scene_views.handout_show, name="handout_show"),
    path("scene/handout/away/", scene_views.handout_hide, name="handout_hide"),
    path("pictures/<slug:token>/", scene_views.picture, name="picture"),
    path("roll/", views.roll, name="roll"),
    path("odds/", views.odds, name="odds"),
    path("say/", talk_views.say, name="say"),
    path("say/<entry:roll_id>/fudge-point/", talk_views.fudge_point, name="talk_fudge_point"),
    path("talk/", talk_views.talk_settings, name="talk_settings"),
    path("calls/", call_views.call_create, name="call_create"),
    path("coincidences/", coincidence_views.ask, name="coincidence_ask"),
    path(
        "coincidences/<entry:roll_id>/allow/",
        coincidence_views.allow,
        name="coincidence_allow",
    ),
    path("calls/<id:call_id>/roll/", call_views.call_answer, name="call_answer"),
    path(
        "calls/<id:call_id>/close/",
        call_views.call_command,
        {"command": "close"},
        name="call_cancel",
    ),
    path(
        "calls/<id:call_id>/dismiss/",
        call_views.call_command,
        {"command": "dismiss"},
        name="call_dismiss",
    ),
    path("rolls/<entry:roll_id>/fudge-point/", views.fudge_point, name="fudge_point"),
    path("rolls/<entry:roll_id>/note/", views.note, name="note"),
    path("sheets/<id:character_id>/roll/", sheet_views.sheet_roll, name="sheet_roll"),
    # Healing from a sheet, written in the log: its buttons, and EZFudge's medical care roll.
    path("sheets/<id:character_id>/heal/", healing_views.heal, name="sheet_heal"),
    path("sheets/<id:character_id>/medical-care/", healing_views.medical_care, name="medical_care"),
    path(
        "sheets/<id:character_id>/medical-care/new-week/",
        healing_views.new_week,
        name="care_new_week",
    ),
    path("session/start/", session_views.session_start, name="session_start"),
    path("session/end/", session_views.session_end, name="session_end"),
    path("log/", log_views.log, name="log"),
    path("log/earlier/", log_views.earlier, name="log_earlier"),
    path("log.md", log_views.export, {"fmt": "md"}, name="log_markdown"),
    path("log.json", log_views.export, {"fmt": "json"}, name="log_json"),
    path("sessions/<id:number>/", log_views.recap, name="recap"),
    path("fight/", fight_views.fight, name="fight"),
    path("fight/<entry:roll_id>/confirm/", fight_views.confirm, name="fight_confirm"),
    path("fight/ranged/", fight_views.shoot, name="fight_ranged"),
    path("fight/attack/", attack_views.attack, name="fight_attack"),
    path("fight/attacks/<attack:attack_id>/defend/", defend_views.defend, name="fight_defend"),
    path(
        "fight/attacks/<attack:attack_id>/withdraw/", defend_views.withdraw, name="fight_withdraw"
    ),
    path("fight/<entry:roll_id>/manoeuvre/", fight_views.manoeuvre, name="fight_manoeuvre"),
    path("spotlight/", spotlight_views.spotlight_section, name="spotlight"),
    path("spotlight/move/", spotlight_views.spotlight_move, name="spotlight_move"),
    path("hand/raise/", spotlight_views.hand_raise, name="hand_raise"),
    path("hand/lower/", spotlight_views.hand_lower, name="hand_lower"),
    path("x-card/", x_card_views.x_card_tap, name="x_card"),
    # Countdowns and challenge ladders at the table: GM commands (everyone reads the table).
    path("countdowns/", countdown_views.countdown_create, name="countdown_create"),
    path("challenges/", challenge_views.challenge_create, name="challenge_create"),
    path("challenges/time/", challenge_views.challenge_time, name="challenge_time"),
    path("contests/many/", contest_many_views.contest_many_roll, name="contest_many"),
    *(
        path(
            f"countdowns/<id:countdown_id>/{command}/",
            countdown_views.countdown_command,
            {"command": command},
            name=f"countdown_{command}",
        )
        for command in countdown_views.COUNTDOWN_COMMANDS
    ),
    *(
        path(
            f"challenges/<id:challenge_id>/{command}/",
            challenge_views.challenge_command,
            {"command": command},
            name=f"challenge_{command}",
        )
        for command in challenge_views.CHALLENGE_COMMANDS
    ),
]
