"""Pattern analysis (§6), one idea over 400 lines: every scorable reading of 14 tiles.

Each reading comes out as a :class:`Candidate`; the shapes (平胡, 碰碰胡, 七对, 十三烂, 九幺) share
the one per-宝-status configuration search below, so they stay in one module.

Every 宝 may be read as any tile or as itself. Instead of enumerating readings,
each 宝 status is one *configuration* of natural counts plus free wilds:

* 无宝: all 宝 read as themselves (the plain counts, no wilds);
* 有宝: every 宝 is a free wild;
* 宝吊: the 13 tiles before the draw minus one lone 宝 must be complete sets with the
  other 宝 wild, and the drawn tile pairs the lone 宝.

Within a configuration a property such as 清一色 or 九幺 holds for some reading exactly
when the natural tiles have it, because wilds (even fifth copies) can always be read
inside the wanted tile subset. The shape test is a memoised per-suit minimum-wilds search.

>>> from engine.tiles import counts_of, parse_tiles
>>> cands, pats = candidates(counts_of(parse_tiles("111m555p999s222z77z")), [], [], 33, 3,
...                          WinContext(), Rules())
>>> sorted(pats), [c.row for c in cands]
(['pengpenghu'], ['碰碰胡'])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import compress, pairwise, product

from engine.judging.memo import remembered
from engine.judging.scoring import Candidate, WinContext
from engine.judging.shape import fewest_wilds, is_complete_bytes, sets_only
from engine.melds import Meld
from engine.rules import Rules
from engine.tiles import KIND_COUNT, TERMINAL_OR_HONOR

__all__ = ["INF", "candidates", "may_form_pattern"]

INF = 5
"""Wild counts from here on are "impossible": a hand holds at most four 宝. Capping every
minimum at INF keeps the memo tables of :func:`_combine` small."""


# ---------------------------------------------------------------- shape search


@remembered
@lru_cache(maxsize=1 << 15)
def _suit_min(counts: bytes) -> tuple[int, int, int, int]:
    """Minimum wilds to turn one suit's counts into sets, indexed ``pair*2 + seq``
    (with/without the pair, with/without at least one sequence), capped at INF.

    The search is :func:`engine.judging.shape.fewest_wilds`, shared with the win check; it
    lets groups of wilds alone sit in the suit, which :func:`_combine` would add anyway.
    Seven counts are honors (no sequences).

    >>> _suit_min(bytes([1, 1, 1, 0, 0, 0, 0, 0, 0]))[1]  # 123: a sequence, no wilds
    0
    """
    a, b, c, d = fewest_wilds(tuple(counts))
    return (min(a, INF), min(b, INF), min(c, INF), min(d, INF))


def _standard_costs(nat: Sequence[int]) -> tuple[int, int, int, int]:
    """Minimum wilds for the whole concealed part, indexed ``pair*2 + seq``; a pair may be
    two wilds and a sequence three wilds."""
    b = bytes(nat)  # cheaper keys than tuples of list slices
    s0 = _suit_min(b[0:9])
    s1 = _suit_min(b[9:18])
    s2 = _suit_min(b[18:27])
    h = _suit_min(bytes(sorted(b[27:34])))  # honors: the order of kinds does not matter
    honors = (h[0], h[2])
    # cheap bound: most random hands are hopeless in some suit, skip the combination
    if min(s0) + min(s1) + min(s2) + min(honors) >= INF:
        return _HOPELESS
    return _combine(s0, s1, s2, honors)


_HOPELESS = (INF, INF, INF, INF)


@remembered
@lru_cache(maxsize=1 << 16)
def _combine(
    s0: tuple[int, int, int, int],
    s1: tuple[int, int, int, int],
    s2: tuple[int, int, int, int],
    honors: tuple[int, int],
) -> tuple[int, int, int, int]:
    # memoised: the per-suit minima take few distinct values, so this rarely runs
    dp = [0, INF, INF, INF]
    for sm in (s0, s1, s2):
        new = [INF, INF, INF, INF]
        for a in range(4):
            if dp[a] >= INF:
                continue
            for b in range(4):
                if sm[b] >= INF or (a >= 2 and b >= 2):
                    continue
                idx = (2 if a >= 2 or b >= 2 else 0) + (1 if a & 1 or b & 1 else 0)
                new[idx] = min(new[idx], dp[a] + sm[b])
        dp = new
    h0, h1 = honors
    out = [INF, INF, INF, INF]
    for a in range(4):
        if dp[a] >= INF:
            continue
        if h0 < INF:
            out[a] = min(out[a], dp[a] + h0)
        if a < 2 and h1 < INF:
            out[a + 2] = min(out[a + 2], dp[a] + h1)
    # free wilds may form the pair (2) or a sequence (3)
    res = list(out)
    for a in range(4):
        if out[a] >= INF:
            continue
        pair, seq = a >> 1, a & 1
        res[2 + seq] = min(res[2 + seq], out[a] + (0 if pair else 2))
        res[pair * 2 + 1] = min(res[pair * 2 + 1], out[a] + (0 if seq else 3))
        res[3] = min(res[3], out[a] + (0 if pair else 2) + (0 if seq else 3))
    return (min(res[0], INF), min(res[1], INF), min(res[2], INF), min(res[3], INF))


def _pong_cost(nat: Sequence[int], with_pair: bool, present: Sequence[int]) -> int:
    """Minimum wilds for 刻子 only (碰碰胡), with or without the pair among them.

    Counts are at most four: a kind with 1 or 4 needs two wilds, with 2 one, with 3 none;
    any of the first three could be the pair for one wild less, else two wilds make it.

    >>> _pong_cost([1, 2, 3, 4] + [0] * 30, True, [0, 1, 2, 3])
    4
    """
    b = bytes(nat)
    ones = b.count(1) + b.count(4)
    twos = b.count(2)
    base = 2 * ones + twos
    if not with_pair:
        return base
    return base - 1 if ones or twos else base + 2


_THIRTEEN_CAP: dict[int, int] = remembered({}, limit=1 << 9)  # one per set of the 9 ranks


def _rotten_capacity(mask: int) -> int:
    """Extra ranks a valid 十三烂 rank set (bit mask of ranks 0–8) can take, or -1 if the
    set itself breaks the at-least-3-apart rule."""
    if mask in _THIRTEEN_CAP:
        return _THIRTEEN_CAP[mask]
    ranks = [r for r in range(9) if mask >> r & 1]
    if any(b - a < 3 for a, b in pairwise(ranks)):
        _THIRTEEN_CAP[mask] = -1
        return -1
    best = 0
    for r in range(9):
        if not mask >> r & 1 and all(abs(r - q) >= 3 for q in ranks):
            best = max(best, 1 + _rotten_capacity(mask | 1 << r))
    _THIRTEEN_CAP[mask] = best
    return best


# ---------------------------------------------------------------- configurations


def _natural_flags(tiles: Sequence[int]) -> tuple[bool, bool, bool]:
    """(all one suit 万/筒/条, all honors, all 1/9/honor) of the natural tiles given."""
    lo, hi = min(tiles), max(tiles)
    one_suit = hi < 27 and lo // 9 == hi // 9
    return one_suit, lo >= 27, _JIUYAO_KINDS.issuperset(tiles)


_JIUYAO_KINDS = frozenset(k for k in range(KIND_COUNT) if TERMINAL_OR_HONOR[k])


def _qidui_haohua(nat: Sequence[int], wilds: int, present: Sequence[int]) -> int:
    """Most groups of four a seven-pairs reading can hold; -1 if no seven pairs.
    ``present``: the kinds with a non-zero count."""
    odd = 0
    for k in present:
        odd += nat[k] & 1
    if odd > wilds:
        return -1
    rest = (wilds - odd) // 2  # spare wild pairs
    quads = 0
    twos = 0
    for k in present:
        c = nat[k]
        c2 = c + (c & 1)
        quads += c2 // 4
        if c2 % 4 == 2:
            twos += 1
    upgrade = min(rest, twos)
    return quads + upgrade + (rest - upgrade) // 2


def _standard_rows(one_suit: bool, all_honor: bool, jiuyao: bool, pong: bool) -> str:
    if not pong:
        return "清一色平胡" if one_suit else "平胡"
    if jiuyao:
        return "九幺碰碰胡字一色" if all_honor else "九幺碰碰胡"
    return "清一色碰碰胡" if one_suit else "碰碰胡"


def _config_candidates(
    nat: list[int],
    wilds: int,
    pair_kind: int | None,
    meld_tiles: list[int],
    melds: Sequence[Meld],
    status: str,
    out: list[Candidate],
    patterns: set[str] | None,
) -> None:
    """Add every pattern this configuration reaches. ``pair_kind`` is ``None`` when the pair
    is among the concealed tiles, -1 for a wild pair (宝吊 on a drawn 宝), else the kind of
    the 宝吊 pair (its natural half is the drawn tile)."""
    present = list(compress(_KINDS, nat))  # ascending
    if meld_tiles or (pair_kind is not None and pair_kind >= 0):
        natural = present + meld_tiles
        if pair_kind is not None and pair_kind >= 0:
            natural.append(pair_kind)
        one_suit, all_honor, jiuyao = _natural_flags(natural)
    elif present:  # the common case: the flags straight from the sorted kinds
        lo, hi = present[0], present[-1]
        one_suit, all_honor = hi < 27 and lo // 9 == hi // 9, lo >= 27
        jiuyao = _JIUYAO_KINDS.issuperset(present)
    else:
        one_suit, all_honor, jiuyao = _natural_flags(present)
    has_chi = bool(melds) and any(m.kind == "chi" for m in melds)
    # 平胡 / 碰碰胡
    costs = _standard_costs(nat)
    if pair_kind is None:
        ok_any, ok_seq = min(costs[2], costs[3]) <= wilds, costs[3] <= wilds
    else:
        ok_any, ok_seq = min(costs[0], costs[1]) <= wilds, costs[1] <= wilds
    if ok_seq or (ok_any and has_chi):
        out.append(
            Candidate(
                "pinghu", _standard_rows(one_suit, False, False, False), status, one_suit=one_suit
            )
        )
        if patterns is not None:
            patterns.add("pinghu")
    if ok_any and not has_chi and _pong_cost(nat, pair_kind is None, present) <= wilds:
        row = _standard_rows(one_suit, all_honor, jiuyao, True)
        out.append(Candidate("pengpenghu", row, status, one_suit=one_suit or all_honor))
        if patterns is not None:
            patterns.add("pengpenghu")
    if melds:
        if jiuyao and pair_kind is None:
            _jiuyao(nat, wilds, meld_tiles, status, out, patterns)
        return
    # 七对
    q_nat = nat
    q_wilds = wilds
    if pair_kind is None:
        # more odd counts than wilds to pair them (counts are at most four): no 七对
        haohua = -1 if nat.count(1) + nat.count(3) > wilds else _qidui_haohua(nat, wilds, present)
    elif nat.count(1) + nat.count(3) > wilds:
        # 宝吊: the 12 tiles beside the lone 宝 must already be six pairs; the drawn tile
        # and the lone 宝 make the seventh together, never two half-pairs (§6, seed 002)
        haohua = -1
    else:
        q_nat = list(nat)
        if pair_kind >= 0:
            q_nat[pair_kind] += 2
        else:
            q_wilds += 2  # a pair of 宝, read as one kind: a spare pair
        q_present = present if pair_kind < 0 or nat[pair_kind] else [*present, pair_kind]
        haohua = _qidui_haohua(q_nat, q_wilds, q_present)
    if haohua >= 0:
        if jiuyao and all_honor:
            if max(q_nat) <= 2:  # seven distinct honor pairs can be read: 七星
                out.append(Candidate("qidui", "九幺七对字一色", status, 0, True, one_suit=True))
            out.append(Candidate("qidui", "九幺七对字一色", status, haohua, one_suit=True))
        elif jiuyao:
            out.append(Candidate("qidui", "九幺七对", status, haohua))
        else:
            row = "清一色七对" if one_suit else "七对"
            out.append(Candidate("qidui", row, status, haohua, one_suit=one_suit))
        if patterns is not None:
            patterns.add("qidui")
    if pair_kind is not None:
        return  # 十三烂 and 九幺 have no 宝吊 column
    if jiuyao:
        _jiuyao(nat, wilds, meld_tiles, status, out, patterns)
    # 十三烂
    if len(present) + wilds == 14 and max(nat) <= 1:
        capacity = 7 - sum(nat[27:])
        missing_honors = capacity
        for s in range(3):
            mask = sum(1 << r for r in range(9) if nat[9 * s + r])
            cap = _rotten_capacity(mask)
            if cap < 0:
                capacity = -1
                break
            capacity += cap
        if capacity >= wilds:
            qixing = missing_honors <= wilds
            out.append(
                Candidate("shisanlan", "七星十三烂" if qixing else "十三烂", status, qixing=qixing)
            )
            if patterns is not None:
                patterns.add("shisanlan")


def _jiuyao(
    nat: list[int],
    wilds: int,
    meld_tiles: Sequence[int],
    status: str,
    out: list[Candidate],
    patterns: set[str] | None,
) -> None:
    """九幺: every natural tile is already a 1, 9 or honor; wilds are read as such.

    七星 is judged on all 14 tiles: an honor in a declared meld is present too (§6).
    """
    missing = sum(1 for k in range(27, 34) if nat[k] == 0 and k not in meld_tiles)
    qixing = missing <= wilds
    spare = wilds - missing if qixing else wilds
    quad = not meld_tiles and any(
        TERMINAL_OR_HONOR[k]
        and nat[k] + spare + (1 if qixing and k >= 27 and nat[k] == 0 else 0) >= 4
        for k in range(KIND_COUNT)
    )
    out.append(
        Candidate("jiuyao", "七星九幺" if qixing else "九幺", status, qixing=qixing, quad=quad)
    )
    if patterns is not None:
        patterns.add("jiuyao")


_NO_PATTERNS: frozenset[str] = frozenset()
_KINDS = range(KIND_COUNT)


def may_form_pattern(nat: list[int], wilds: int, meld_tiles: Sequence[int]) -> bool:
    """False when no reading with the ``wilds`` free can form any pattern (most random
    hands): a cheap filter in front of :func:`candidates`, which finds nothing then.

    Each pattern needs something checked here, cheapest first: 七对 no more odd counts
    than wilds, 十三烂 single tiles three ranks apart in each suit, 九幺 only 1, 9 and
    honors, 平胡/碰碰胡 a standard shape. A reading with the 宝 wild reaches every pattern
    another reading does. ``nat``: 34 counts of at most four, the 宝 taken out.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> may_form_pattern(counts_of(parse_tiles("1358m2469p1357s22z")), 0, [])
    False
    >>> may_form_pattern(counts_of(parse_tiles("1358m2469p1357s2z")), 1, [])  # 13 and 35 too close
    False
    >>> may_form_pattern(counts_of(parse_tiles("147m258p369s1234z")), 1, [])  # 十三烂
    True
    """
    b = bytes(nat)  # one conversion, then only C-level bytes operations
    if not meld_tiles:
        # 七对: at most one wild per odd count (counts are at most four here)
        if b.count(1) + b.count(3) <= wilds:
            return True
        # 十三烂: no pair, and the ranks of each suit at least three apart
        if max(b) <= 1 and b[0:9] in _ROTTEN and b[9:18] in _ROTTEN and b[18:27] in _ROTTEN:
            return True
    elif not all(map(TERMINAL_OR_HONOR.__getitem__, meld_tiles)):
        return is_complete_bytes(b, wilds)
    # 九幺 (no 2-8 at all), else 平胡/碰碰胡
    return (b[1:8] == b[10:17] == b[19:26] == _NO_MIDDLE) or is_complete_bytes(b, wilds)


_NO_MIDDLE = bytes(7)
_ROTTEN = frozenset(
    bytes(v)
    for v in product((0, 1), repeat=9)
    if all(b - a >= 3 for a, b in pairwise(r for r in range(9) if v[r]))
)
"""One suit of a 十三烂 hand: single tiles at least three ranks apart."""
_ODD = (1).__and__


def candidates(
    counts: list[int],
    meld_tiles: list[int],
    melds: Sequence[Meld],
    winning_tile: int,
    bao: int,
    context: WinContext,
    rules: Rules,
) -> tuple[list[Candidate], frozenset[str]]:
    """Every scorable reading of the hand and the set of patterns some reading forms."""
    out: list[Candidate] = []
    patterns: set[str] = set()
    wilds = counts[bao]
    nat = list(counts)
    nat[bao] = 0
    if not may_form_pattern(nat, wilds, meld_tiles):
        return out, _NO_PATTERNS
    if wilds == 0:
        # under strict_no_bao a 宝 in a declared meld (a claimed flown 宝, or one from hand in
        # a 吃) is among the 14 tiles too, so the hand is not 无宝 (§6, seed 001)
        strict = rules.strict_no_bao and bao in meld_tiles
        status = "youbao" if strict else "wubao"
        _config_candidates(nat, 0, None, meld_tiles, melds, status, out, patterns)
        return out, frozenset(patterns)
    _config_candidates(nat, wilds, None, meld_tiles, melds, "youbao", out, patterns)
    if not out:
        # every 无宝 or 宝吊 reading is also a reading with the 宝 wild: nothing to find
        return out, frozenset(patterns)
    if not rules.strict_no_bao and may_form_pattern(plain := list(counts), 0, meld_tiles):
        _config_candidates(plain, 0, None, meld_tiles, melds, "wubao", out, None)
    if context.win_by == "self_draw" and context.drawn_held:
        # 宝吊: the 13 tiles before the draw less one lone 宝 are complete sets
        rest = list(counts)
        rest[winning_tile] -= 1
        if rest[bao] >= 1:
            rest[bao] -= 1
            rest_wilds = rest[bao]
            rest[bao] = 0
            pair = -1 if winning_tile == bao else winning_tile
            diao: list[Candidate] = []
            # cheap filter: 宝吊 readings are standard shapes or 七对 (the pair keeps parity)
            if sets_only(rest, rest_wilds) or (
                not melds and rest.count(1) + rest.count(3) <= rest_wilds
            ):
                _config_candidates(rest, rest_wilds, pair, meld_tiles, melds, "baodiao", diao, None)
            out.extend(diao)
            families = {c.family for c in diao}
            out[:] = [
                c._replace(huanyuan=True) if c.status == "wubao" and c.family in families else c
                for c in out
            ]
    return out, frozenset(patterns)
