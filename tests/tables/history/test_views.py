from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.replay import main as replay_main
from tables.history.replays import replay_steps
from tables.models import Hand, ReplayShare
from tests.tables.booked_hands import QIDUI_BAODIAO, STRICT_CHI_BAO, BookedHand, store_booked
from tests.tables.factories import played_hand, start_with_bots

HX = {"HX-Request": "true"}


@pytest.fixture
def hand(user: Any) -> Hand:
    return played_hand(user)


@pytest.fixture
def player(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def _link(html: str, action: str) -> str:
    match = re.search(rf'data-action="{action}" href="([^"]+)"', html)
    assert match
    return match.group(1).replace("&amp;", "&")


def test_a_player_steps_forward_to_the_settlement_and_back(player: Client, hand: Hand) -> None:
    url = reverse("hand_replay", args=[hand.pk])
    page = player.get(url)
    assert page.status_code == 200 and "replay.js" in page.content.decode()
    steps = replay_steps(hand)
    forward = [player.get(url, {"step": 0}, headers=HX).content.decode()]
    while len(forward) <= steps:
        forward.append(player.get(_link(forward[-1], "replay-next"), headers=HX).content.decode())
    assert f'data-step="{steps}"' in forward[-1] and 'id="settlement"' in forward[-1]
    assert "<html" not in forward[-1]
    back = [forward[-1]]
    while len(back) <= steps:
        back.append(player.get(_link(back[-1], "replay-previous"), headers=HX).content.decode())
    assert back[::-1] == forward
    assert _link(forward[3], "replay-last") == f"{url}?step={steps}"
    assert _link(forward[3], "replay-first") == f"{url}?step=0"


def test_a_step_is_linkable(player: Client, hand: Hand) -> None:
    url = reverse("hand_replay", args=[hand.pk])
    page = player.get(url, {"step": 5}).content.decode()
    assert 'id="replay-frame"' in page and 'data-step="5"' in page
    restore = {**HX, "HX-History-Restore-Request": "true"}
    assert "<html" in player.get(url, {"step": 5}, headers=restore).content.decode()
    assert 'data-step="0"' in player.get(url, {"step": "nonsense"}).content.decode()


def test_strangers_get_a_friendly_404_and_a_share_link_lets_them_in(
    client: Client, hand: Hand, user: Any, make_user: Any
) -> None:
    url = reverse("hand_replay", args=[hand.pk])
    client.force_login(make_user("mallory"))
    missing = client.get(url)
    assert missing.status_code == 404 and 'id="replay-missing"' in missing.content.decode()
    assert client.get(reverse("hand_log", args=[hand.pk])).status_code == 404
    client.logout()

    client.force_login(user)
    response = client.post(reverse("share_new", args=[hand.pk]))
    assert response.status_code == 302
    share = ReplayShare.objects.get(hand=hand)
    record = client.get(reverse("hand_detail", args=[hand.pk])).content.decode()
    shared_url = reverse("shared_replay", args=[share.token])
    assert shared_url in record
    client.logout()

    page = client.get(shared_url, {"step": replay_steps(hand)})
    assert page.status_code == 200 and 'id="settlement"' in page.content.decode()
    assert _link(page.content.decode(), "replay-first") == f"{shared_url}?step=0"

    client.force_login(user)
    client.post(reverse("share_revoke", args=[hand.pk, share.pk]))
    client.logout()
    assert client.get(shared_url).status_code == 404


def test_only_the_owner_can_share(client: Client, hand: Hand, make_user: Any) -> None:
    bob = make_user("bob")
    client.force_login(bob)
    # bob never sat at the table: the hand is not there for him at all.
    assert client.post(reverse("share_new", args=[hand.pk])).status_code == 404
    assert not ReplayShare.objects.exists()


def test_a_hand_in_play_has_no_replay_no_log_and_no_seed(client: Client, user: Any) -> None:
    room = start_with_bots(user, seed="in-play-seed")
    hand = Hand.objects.get(room=room, number=1)
    client.force_login(user)
    for name in ("hand_replay", "hand_log"):
        assert client.get(reverse(name, args=[hand.pk])).status_code == 404
    assert client.post(reverse("share_new", args=[hand.pk])).status_code == 404
    record = client.get(reverse("hand_detail", args=[hand.pk])).content.decode()
    table = client.get(reverse("room", args=[room.number])).content.decode()
    for html in (record, table):
        assert hand.seed_hash in html and "in-play-seed" not in html


def test_the_log_download_replays_with_the_cli(player: Client, hand: Hand, tmp_path: Any) -> None:
    response = player.get(reverse("hand_log", args=[hand.pk]))
    assert response.status_code == 200
    assert f'filename="hand-{hand.pk}.jsonl"' in response["Content-Disposition"]
    path = tmp_path / f"hand-{hand.pk}.jsonl"
    path.write_bytes(response.content)
    assert replay_main([str(path)]) == 0


def test_the_settlement_links_to_the_record(player: Client, hand: Hand) -> None:
    table = player.get(reverse("room", args=[hand.room.number])).content.decode()
    assert 'id="settlement"' in table
    assert reverse("hand_detail", args=[hand.pk]) in table


def _totals(html: str) -> list[str]:
    block = html[html.index('class="hand-totals"') :]
    block = block[: block.index("</ul>")]
    return re.findall(r'<span class="points[^"]*">([^<]+)</span>', block)


EARLIER = "这一局是按较早的规则解读判定的；当时记入的分数不变。"


@pytest.mark.parametrize(
    ("booked", "pattern", "totals"),
    [
        # 七对宝吊 12 from each of the three others, as booked (today 有宝七对 8).
        (QIDUI_BAODIAO, "七对宝吊", ["-12", "+36", "-12", "-12"]),
        # 平胡 4 from each, as booked; today's engine refuses the 胡 (strict 无宝, 宝 in a 吃).
        (STRICT_CHI_BAO, "平胡", ["-4", "-4", "-4", "+12"]),
    ],
)
def test_a_hand_booked_under_an_earlier_reading_replays_to_its_booked_points(
    client: Client, user: Any, booked: BookedHand, pattern: str, totals: list[str]
) -> None:
    hand = store_booked(user, booked)
    client.force_login(user)
    url = reverse("hand_replay", args=[hand.pk])
    steps = len(booked.actions)
    for step in range(steps):
        page = client.get(url, {"step": step}, headers=HX)
        assert page.status_code == 200 and EARLIER not in page.content.decode()
    end = client.get(url, {"step": steps})
    html = end.content.decode()
    assert end.status_code == 200 and f'data-step="{steps}"' in html
    assert EARLIER in html and f'<span class="pattern-name">{pattern}</span>' in html
    assert _totals(html) == totals

    client.post(reverse("share_new", args=[hand.pk]))
    token = ReplayShare.objects.get(hand=hand).token
    client.logout()
    shared = client.get(reverse("shared_replay", args=[token]), {"step": steps})
    assert shared.status_code == 200 and _totals(shared.content.decode()) == totals
