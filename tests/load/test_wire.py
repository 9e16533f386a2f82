from __future__ import annotations

import asyncio
import json
import random
import time
from unittest import mock

import pytest

from tests.load.client import Player, TableRun, choose
from tests.load.wire import Frame, htmx_message, parse_frame

BOARD = """
<section class="table" data-hand="2" data-step="14" data-version="31" data-phase="claim">
  <div id="actions" class="actions" hx-vals='{"step": 14}'>
    <button type="button" ws-send name="action" value="peng" hx-vals='{"tile": "5m"}'>碰</button>
    <button type="button" ws-send name="action" value="pass" hx-vals='{}'>过</button>
  </div>
  <img src="x.png">
  <div id="my-hand" hx-vals='{"step": 14, "action": "discard"}'>
    <button type="button" ws-send name="tile" value="1m" class="tile">1m</button>
    <button type="button" ws-send name="tile" value="9s" class="tile tile--drawn">9s</button>
  </div>
</section>
"""


def test_reads_the_frame_header():
    f = parse_frame(BOARD)
    assert (f.hand, f.step, f.version, f.phase) == (2, 14, 31, "claim")
    assert f.size == len(BOARD.encode())
    assert not f.error and not f.finished


def test_controls_carry_inherited_hx_vals_nearest_first():
    messages = [c.message for c in parse_frame(BOARD).controls]
    assert messages == [
        {"step": 14, "tile": "5m", "action": "peng"},
        {"step": 14, "action": "pass"},
        {"step": 14, "action": "discard", "tile": "1m"},
        {"step": 14, "action": "discard", "tile": "9s"},
    ]
    assert [c.drawn for c in parse_frame(BOARD).controls] == [False, False, False, True]


def test_message_is_what_htmx_sends():
    control = parse_frame(BOARD).controls[1]
    sent = json.loads(htmx_message(control, page_url="http://h/r/123456/"))
    assert sent["action"] == "pass" and sent["step"] == 14
    assert sent["HEADERS"]["HX-Request"] == "true"
    assert sent["HEADERS"]["HX-Current-URL"] == "http://h/r/123456/"


def test_error_line_and_summary_are_recognised():
    assert parse_frame('<div id="table-error" hx-swap-oob="morph">x</div>').error
    assert parse_frame('<section data-version="1"><section id="match-summary">').finished


def test_choose_prefers_a_win_then_passes_or_discards():
    rng = random.Random(3)
    claim = choose(parse_frame(BOARD), rng)
    assert claim is not None and claim.action in ("peng", "pass")
    win = choose(parse_frame(BOARD.replace('value="peng"', 'value="hu"')), rng)
    assert win is not None and win.action == "hu"
    assert choose(Frame(size=0), rng) is None


def test_latency_is_taken_when_the_fourth_screen_has_the_move():
    run = TableRun("123456", hands_wanted=1)
    run.sent(version=5, seat=2, action="discard")
    now = time.perf_counter()
    run.received(0, Frame(size=10, version=5), at=now)  # not the move yet
    for seat in range(3):
        run.received(seat, Frame(size=10, version=6), at=now + seat)
    assert run.latencies == []
    run.received(3, Frame(size=10, version=7), at=now + 9.0)
    assert len(run.latencies) == 1
    assert 9.0 <= run.latencies[0] < 10.0
    assert run.by_action == {"discard": run.latencies}  # the report's p99 by action


PUBLIC_PUSH = (
    '<div id="table-public" class="table-public phase-turn" data-hand="3" data-step="9" '
    'data-version="12" data-phase="turn" hx-swap-oob="morph"><span data-tile="5m"></span></div>'
    '<i id="table-clock" hidden data-now="1" hx-swap-oob="morph"></i>'
)


def test_a_push_without_controls_is_read_from_its_root_alone():
    from tests.load import wire

    f = parse_frame(PUBLIC_PUSH)
    assert (f.hand, f.step, f.version, f.phase, f.controls, f.private) == (
        3,
        9,
        12,
        "turn",
        [],
        False,
    )
    assert f == wire._parse(PUBLIC_PUSH)


WINDOW_BUTTONS = (
    '<div id="table-private" class="table-private" hx-swap-oob="morph">'
    '<div id="actions" hx-vals=\'{"step": 15}\'>'
    '<button type="button" ws-send name="action" value="pass">过</button></div></div>'
)


ANSWER_TAKEN = (
    '<div id="table-private" class="table-private" hx-swap-oob="morph"><div class="my-controls">'
    '<button type="button" ws-send name="action" value="tuoguan" hx-vals=\'{"on": "1"}\'>'
    "托管</button></div></div>"
)


def test_an_answer_only_its_own_screen_shows_is_timed_there():
    """In a window asking two seats, the first answer changes only that seat's part (its
    buttons go) until the other answers: no other screen may show a window is open. Counting
    to the fourth screen timed the other player's thinking, up to 3 s, not the server."""
    run = TableRun("123456", hands_wanted=1)
    run.sent(version=12, seat=1)  # seat 1 passes
    now = time.perf_counter()
    run.received(2, parse_frame(WINDOW_BUTTONS), at=now + 0.01)  # seat 2's buttons
    assert run.latencies == [] and run.in_flight == 1  # are not seat 1's answer
    run.received(1, parse_frame(ANSWER_TAKEN), at=now + 0.02)  # seat 1's buttons went
    assert run.in_flight == 0 and 0.02 <= run.latencies[0] < 1.0
    run.sent(version=12, seat=2)  # seat 2 passes too: the window closes, the table moves on
    for seat in range(4):
        run.received(seat, Frame(size=10, version=13), at=now + 0.05)
    assert run.in_flight == 0 and len(run.latencies) == 2


def test_a_refused_press_is_timed_to_its_refusal():
    """A refused press moves nothing, so no other screen will show it: timed to the table's
    next change, it measured another player's thinking (0.4-1.2 s) instead of the server."""
    run = TableRun("123456", hands_wanted=1)
    run.sent(version=12, seat=2, action="pass")
    now = time.perf_counter()
    run.received(2, parse_frame('<div id="table-error">look again</div>'), at=now + 0.01)
    assert run.in_flight == 0 and 0.01 <= run.by_action["pass"][0] < 1.0
    assert run.errors == 1


def seat_one(*, think: float, seated: asyncio.Event | None = None) -> Player:
    """Seat 1's client at a table of its own, on a socket that goes nowhere."""
    return Player(
        table=TableRun("123456", hands_wanted=1),
        seat=1,
        url="ws://x/",
        page_url="http://x/r/123456/",
        headers={},
        think=think,
        rng=random.Random(1),
        seated=seated,
    )


def test_a_client_presses_the_buttons_shown_last_even_in_a_push_without_a_public_part():
    """A push may bring new buttons without a public part (until 2026-12-06, another seat's
    answer in a claim window moved the asked seats' steps on): a client that kept pressing
    the buttons it first saw was refused for a stale step, then waited for a push that never
    came, and its table stalled."""
    player = seat_one(think=2.0)
    whole = f'<div id="live" hx-swap-oob="morph">{BOARD}</div>'  # the page's first push
    assert player.shows(parse_frame(whole))  # the window opens: its buttons carry step 14
    assert not player.shows(parse_frame(PUBLIC_PUSH))  # the buttons are as they were
    assert player.shows(parse_frame(WINDOW_BUTTONS))  # another seat passed: new buttons
    text = player.press()
    assert text is not None and json.loads(text)["step"] == 15
    assert player.table.moves == 1
    assert player.shows(parse_frame('<div id="table-error">牌局已经往前走了</div>'))  # again


def test_a_push_with_the_seats_own_part_parses_only_that_part_as_html():
    from tests.load import wire

    public, clock = PUBLIC_PUSH.split("<i id=")
    push = f"{public}{WINDOW_BUTTONS}<i id={clock}"
    with mock.patch.object(wire, "_read_private", wraps=wire._read_private) as read_private:
        f = parse_frame(push)
    (((_, fed), _),) = read_private.call_args_list
    assert fed.startswith('<div id="table-private"')  # the public part was only peeked at
    assert f == wire._parse(push)  # and read the same as a whole parse reads it
    assert (f.size, f.version, f.private, [c.message for c in f.controls]) == (
        len(push.encode()),
        12,
        True,
        [{"step": 15, "action": "pass"}],
    )


def test_moves_sent_after_the_window_closes_are_not_measured():
    run = TableRun("123456", hands_wanted=1)
    run.sent(6, seat=0)
    run.measuring = False  # the window closed: the move in flight still lands
    run.sent(7, seat=0)
    assert (run.moves, run.in_flight) == (1, 1)
    for seat in range(4):
        run.received(seat, Frame(size=10, version=8), at=time.perf_counter())
    assert (len(run.latencies), run.in_flight) == (1, 0)


async def test_nobody_presses_before_every_socket_is_open() -> None:
    """The tables that connected first used to play while the last sockets opened: two
    loaded processes then took over daphne's 5 s to accept them, and the run failed."""
    seated = asyncio.Event()
    player = seat_one(think=0.0, seated=seated)
    assert player.shows(parse_frame(f'<div id="live" hx-swap-oob="morph">{BOARD}</div>'))
    sent: list[str] = []
    socket = mock.Mock(send=mock.AsyncMock(side_effect=sent.append))
    pressing = asyncio.create_task(player._press(socket, again=False))
    await asyncio.sleep(0.05)
    assert sent == [] and not pressing.done()
    seated.set()
    await asyncio.wait_for(pressing, 1)
    assert len(sent) == 1 and json.loads(sent[0])["action"] in ("peng", "pass")


def test_the_tokenizer_reads_markup_as_html_parser_does():
    html = (
        "<!-- <button ws-send name='action' value='hu'> -->"
        '<DIV ID="table-private" HX-VALS="{&quot;step&quot;: 4}">'
        '<svg><use href="#t-5m"/></svg><br>'
        "<span title='a > b' data-x=plain>"
        '<button ws-send name=action value="discard" hx-vals=\'{"tile": "5m"}\'>5m</button>'
        "</span>"
        "<script>if (a < b) { x = '<button ws-send value=\"hu\">'; }</script>"
        "</div>"
        '<button ws-send name="action" value="pass">过</button>'
    )
    f = parse_frame(html)
    assert f.private
    assert [c.message for c in f.controls] == [
        {"step": 4, "tile": "5m", "action": "discard"},
        {"action": "pass"},  # outside the closed div: its hx-vals no longer apply
    ]


@pytest.mark.parametrize(
    "part",
    [
        # hx-vals on nested elements of one tag name, the nearest winning
        '<div id="table-private"><div hx-vals=\'{"step": 3, "a": 1}\'><div class="x">'
        '<div hx-vals=\'{"a": 2}\'><button ws-send name="tile" value="5m">5m</button></div>'
        '<button ws-send name="action" value="pass">过</button></div></div></div>',
        # a sibling's hx-vals closed before the control, a void element with hx-vals
        '<div id="table-private"><div hx-vals=\'{"a": 1}\'><span></span></div>'
        '<input hx-vals=\'{"b": 2}\'><span><button ws-send name="x" value="y">y</button>'
        '</span><div hx-vals=\'{"c": 3}\'><svg><use href="#t-1m"/></svg>'
        '<button ws-send class="tile tile--drawn" id="d" value="1m" name="tile">1m</button>'
        "</div></div>",
        # upper case, entities, a scope left open, a comment, a script
        '<DIV id="table-private" HX-VALS="{&quot;step&quot;: 4}"><BUTTON WS-SEND name=a>'
        "a</BUTTON><div hx-vals='{\"z\": 1}'><button ws-send name=b value=c>",
        '<div id="table-private"><!-- <button ws-send name="no"> --><div hx-vals=\'{"a": 1}\'>'
        '<script>x = "<button ws-send>"</script><button ws-send name="yes"></button></div></div>',
        # hx-vals that do not parse, or are not an object; a control in the attribute text
        '<div id="table-private" hx-vals="{oops"><div hx-vals="[1]" title="ws-send">'
        '<button ws-send name="n" value="v" hx-vals="{&quot;k&quot;: 1}">v</button></div></div>',
    ],
)
def test_a_seats_own_part_reads_as_the_tag_walk_reads_it(part: str) -> None:
    """:func:`tests.load.wire._read_private` finds only the tags it needs: the same controls
    as walking every tag, on markup that tries its shortcuts."""
    from tests.load import wire

    walked, read = wire.Frame(size=0), wire.Frame(size=0)
    wire._parse_into(walked, part)
    wire._read_private(read, part)
    assert read == walked
    assert read.controls


def test_a_push_of_the_seats_own_part_alone_is_read_by_the_shortcut():
    """An answer in a window changes only the answering seat's part: its push starts with
    that part, and is read from the tags that carry controls like any other."""
    from tests.load import wire

    with mock.patch.object(wire, "_read_private", wraps=wire._read_private) as read_private:
        f = parse_frame(WINDOW_BUTTONS)
    assert read_private.call_count == 1
    assert f == wire._parse(WINDOW_BUTTONS)
    assert f.private and [c.message for c in f.controls] == [{"step": 15, "action": "pass"}]
