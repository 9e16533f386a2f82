"""One source of truth: every Transfer the tables booked becomes a ``hand`` entry of the book."""

from django.db import migrations


def transfers_to_entries(apps, schema_editor):
    Transfer = apps.get_model("tables", "Transfer")
    Entry = apps.get_model("ledger", "Entry")
    rows = Transfer.objects.select_related("hand").order_by("hand_id", "id")
    Entry.objects.bulk_create(
        Entry(
            kind="hand",
            payer_id=t.payer_id,
            payee_id=t.payee_id,
            payer_seat=t.payer_seat,
            payee_seat=t.payee_seat,
            points=t.points,
            hand_id=t.hand_id,
            match_id=t.hand.match_id,
            room_id=t.hand.room_id,
            reason=t.reason,
            created_at=t.hand.ended_at or t.hand.started_at,
        )
        for t in rows
        # A payment to oneself or of nothing moves no points; the book has no such line.
        if t.points > 0 and t.payer_seat != t.payee_seat
    )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("tables", "0004_match"),
    ]

    # Entries are append-only, so there is nothing to move back: going back leaves the book.
    operations = [migrations.RunPython(transfers_to_entries, migrations.RunPython.noop)]
