"""Settlements clear debts, and the running totals start from the book as it stands.

Before this, a confirmed "A paid B n" was booked A -> B, as if A had lost a hand to B, so it
doubled A's debt instead of clearing it. An entry now means the same for every kind (its payee
is owed ``points`` more by its payer), and a settlement runs from the one who received the
money to the one who paid it. The book is append-only, so no entry written before is changed:
each old settlement gets two new entries at its own moment, a correction that cancels it
(B -> A n) and the settlement booked the right way (B -> A n). Its net is then B -> A n, which
is what the payment meant, and every balance, chart and running total is right from that moment
on; both people see in their history what happened and why.

Then: who sat where in each booked hand (from its entries, or the match's previous hand for
a hand that booked nothing), every running total folded from the raw rows, and the triggers
again (SQLite rebuilt the claims table to add its constraint, dropping its triggers).
"""

from collections import defaultdict

from django.db import migrations

from ledger import tallies, triggers, verify

NOTE = (
    "更正：第 {id} 条结账记录把付款方向记反了，此条将它冲销，随后按正确方向重记。"
    " (Cancels settlement #{id}, booked the wrong way round; it is booked again right after.)"
)


def settlements_clear_debts(apps, schema_editor):
    Entry = apps.get_model("ledger", "Entry")
    fixes = []
    for e in Entry.objects.filter(kind="settlement").order_by("created_at", "pk"):
        common = {"payer_id": e.payee_id, "payee_id": e.payer_id, "points": e.points}
        fixes.append(Entry(kind="correction", note=NOTE.format(id=e.pk), created_at=e.created_at, **common))
        fixes.append(
            Entry(
                kind="settlement",
                note=e.note,
                recorded_by_id=e.recorded_by_id,
                created_at=e.created_at,
                **common,
            )
        )
    Entry.objects.bulk_create(fixes)


def sittings(apps, schema_editor):
    Entry = apps.get_model("ledger", "Entry")
    Hand = apps.get_model("tables", "Hand")
    Sitting = apps.get_model("ledger", "Sitting")
    seats = defaultdict(dict)
    booked = Entry.objects.filter(kind="hand").values_list(
        "hand_id", "payer_seat", "payer_id", "payee_seat", "payee_id"
    )
    for hand, a_seat, a, b_seat, b in booked.iterator(2000):
        for seat, user in ((a_seat, a), (b_seat, b)):
            if user is not None and seat is not None:
                seats[hand][seat] = user
    rows, last = [], {}
    hands = Hand.objects.filter(result__isnull=False).order_by("match_id", "number")
    for pk, match in hands.values_list("pk", "match_id").iterator(2000):
        # A seat nobody paid or was paid from in this hand kept the match's last known player.
        known = {**(last.get(match, {}) if match is not None else {}), **seats.get(pk, {})}
        last[match] = known
        rows.extend(Sitting(hand_id=pk, seat=s, user_id=u) for s, u in known.items())
    Sitting.objects.bulk_create(rows, batch_size=2000)


def running_totals(apps, schema_editor):
    fold = verify.expected(
        apps.get_model("ledger", "Entry"),
        apps.get_model("ledger", "Sitting"),
        apps.get_model("tables", "Hand"),
    )
    tallies.write(fold)


def add_triggers(apps, schema_editor):
    triggers.install(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0003_running_totals")]

    # Entries are append-only: going back leaves them (and the totals are dropped with 0003).
    operations = [
        migrations.RunPython(add_triggers, migrations.RunPython.noop),
        migrations.RunPython(settlements_clear_debts, migrations.RunPython.noop),
        migrations.RunPython(sittings, migrations.RunPython.noop),
        migrations.RunPython(running_totals, migrations.RunPython.noop),
    ]
