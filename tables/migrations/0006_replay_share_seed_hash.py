"""Replays and the verifiable deal: ``Hand.seed_hash`` (filled for the hands already dealt) and
``ReplayShare``."""

import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill_seed_hashes(apps, schema_editor):
    # The commitment of a hand dealt before this migration is computed now, not at its deal;
    # it still lets anyone check the seed and the log against each other.
    Hand = apps.get_model("tables", "Hand")
    for hand in Hand.objects.filter(seed_hash="").only("pk", "seed").iterator():
        hand.seed_hash = hashlib.sha256(hand.seed.encode("utf-8")).hexdigest()
        hand.save(update_fields=["seed_hash"])


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0005_delete_transfer'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='hand',
            name='seed_hash',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.CreateModel(
            name='ReplayShare',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='replay_shares', to=settings.AUTH_USER_MODEL)),
                ('hand', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='shares', to='tables.hand')),
            ],
            options={
                'ordering': ('hand', 'created_at'),
            },
        ),
        migrations.RunPython(fill_seed_hashes, migrations.RunPython.noop),
    ]
