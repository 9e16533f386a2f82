from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps

from engine.replay import main as replay_main
from tables.models import Hand, Room
from tables.play.proof import deal_proof, hand_log_line, hand_log_record, seed_commitment
from tests.tables.factories import play_out, played_hand, start_with_bots


def test_the_commitment_is_the_seeds_sha256() -> None:
    assert seed_commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_every_deal_stores_its_commitment_at_once(user: Any) -> None:
    room = start_with_bots(user)
    hand = Hand.objects.get(room=room, number=1)
    assert len(hand.seed_hash) == 64
    assert hand.seed_hash == seed_commitment(hand.seed)


def test_the_log_line_replays_identically_with_the_cli(user: Any, tmp_path: Path) -> None:
    hand = played_hand(user)
    path = tmp_path / "hand.jsonl"
    path.write_text(hand_log_line(hand), encoding="utf-8")
    assert hand_log_line(hand).count("\n") == 1
    assert replay_main([str(path)]) == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["seed"] == hand.seed and record["seed_sha256"] == hand.seed_hash
    assert record["result"] == hand.result and record["actions"] == hand.actions


def test_a_log_with_another_seed_does_not_replay(user: Any, tmp_path: Path) -> None:
    hand = played_hand(user)
    record = hand_log_record(hand)
    record["seed"] = record["seed"] + "x"
    path = tmp_path / "forged.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert replay_main([str(path)]) == 1


def test_a_hand_in_play_gives_out_no_seed(user: Any) -> None:
    room = start_with_bots(user, seed="in-play")
    hand = Hand.objects.get(room=room, number=1)
    proof = deal_proof(hand)
    assert proof.seed is None and proof.log_line is None and not proof.seed_matches
    assert proof.commitment == seed_commitment("in-play")
    with pytest.raises(ValueError, match="ended"):
        hand_log_record(hand)


def test_after_the_end_the_seed_matches_the_commitment_shown_at_the_deal(user: Any) -> None:
    room = start_with_bots(user, hands=1, tuoguan=True, seed="ledger-hand")
    shown_at_deal = Hand.objects.get(room=room, number=1).seed_hash
    play_out(room)
    hand = Hand.objects.get(room=room, number=1)
    proof = deal_proof(hand)
    assert proof.seed == hand.seed and proof.commitment == shown_at_deal and proof.seed_matches


def test_each_hand_has_its_own_fresh_seed(user: Any) -> None:
    """No hand's seed comes from the match's or another hand's: revealing one tells nothing."""
    rooms = [start_with_bots(user, hands=2, tuoguan=True) for _ in range(2)]
    seeds = [Hand.objects.get(room=r, number=1).seed for r in rooms]
    match_seeds = [str((r.state or {})["match"]["seed"]) for r in rooms]
    assert len(set(seeds)) == 2 and all(len(s) == 32 for s in seeds)
    assert not any(m in s or s in m for m in match_seeds for s in seeds)


def test_a_known_first_deal_does_not_fix_the_next_hands(user: Any) -> None:
    room = start_with_bots(user, hands=2, tuoguan=True, seed="known-deal")
    play_out(room)
    first, second = Hand.objects.filter(room=room).order_by("number")
    assert first.seed == "known-deal"
    assert len(second.seed) == 32 and int(second.seed, 16) >= 0


def test_the_migration_fills_the_commitment_of_hands_dealt_before(room: Room) -> None:
    hand = Hand.objects.create(room=room, number=1, dealer=0, seed="old-seed", rules={})
    assert hand.seed_hash == ""
    migration = importlib.import_module(
        next(
            f"tables.migrations.{p.stem}"
            for p in (Path(__file__).parents[3] / "tables" / "migrations").glob("*.py")
            if "seed_hash" in p.stem
        )
    )
    migration.fill_seed_hashes(apps, None)
    hand.refresh_from_db()
    assert hand.seed_hash == seed_commitment("old-seed")
