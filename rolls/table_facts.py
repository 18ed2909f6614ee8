"""What a new log entry needs to know of its table's features, in one statement: the running
session it is filed under, whether the campaign sends its log on to a webhook, and whether a
fight round runs in the scene shown. Each was a query of its own on every roll (2.2 ms of a
13.5 ms socket roll, docs/performance.md), and the last two almost always found nothing: now
a feature that is off costs a roll nothing but its part of this one statement."""

from dataclasses import dataclass

from django.db import connection

from rolls.models import PlaySession, Scene, TableTalk


@dataclass(frozen=True)
class TableFacts:
    session_id: int | None
    webhook: bool  # a webhook address is set (rolls.talk.webhooks)
    fighting: bool  # the scene shown has a round running (rolls.scene.moves.note_roll)


def table_facts(campaign_id: int) -> TableFacts:
    # Raw SQL, as live.next_seq's: the ORM would spend longer building three subqueries than
    # the database spends answering them.
    sessions, talk, scenes = (m._meta.db_table for m in (PlaySession, TableTalk, Scene))
    sql = (
        f"SELECT (SELECT id FROM {sessions} WHERE campaign_id = %s AND ended_at IS NULL"
        " LIMIT 1),"
        f" EXISTS (SELECT 1 FROM {talk} WHERE campaign_id = %s AND webhook_url <> ''),"
        f" EXISTS (SELECT 1 FROM {scenes} WHERE campaign_id = %s AND current AND round > 0)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [campaign_id] * 3)
        session_id, webhook, fighting = cursor.fetchone()
    return TableFacts(session_id=session_id, webhook=bool(webhook), fighting=bool(fighting))
