"""Table-driven win detection with wild tiles (宝).

A hand is *complete* when its tiles plus ``wilds`` wild tiles form sets (sequences
within a suit, or triplets) and exactly one pair. A wild may stand for any tile,
even a fifth copy of a kind.

Each suit is judged on its own: the fewest wilds that make the suit into sets only,
and the extra wilds needed to put the pair there too. For the three numbered suits
those two numbers are read from a table over every possible suit (5**9 count
vectors, one byte each), shipped xz-compressed in this file (about 5 kB) and unpacked
on first use in about ten milliseconds; :func:`build_suit_table` regenerates it from
:func:`fewest_wilds`, the one per-suit search that :mod:`engine.patterns` shares.
A check then costs four slices, four dict look-ups and a little arithmetic.

>>> from engine.tiles import counts_of, parse_tiles
>>> is_complete(counts_of(parse_tiles("123m456p789s11z")), 0)
True
>>> is_complete(counts_of(parse_tiles("123m456p789s1z")), 1)
True
>>> is_complete(counts_of(parse_tiles("123m456p789s12z")), 0)
False

The command line reads ``<tiles> <wilds>`` lines and answers ``1`` or ``0`` for each one that
is not blank (blank lines are skipped, as ``python -m engine.score`` skips them)::

    $ echo "123m456p789s1z 1" | python -m engine.wincheck
    1
"""

from __future__ import annotations

import re
import sys
from base64 import b85decode
from collections.abc import Sequence
from functools import cache
from operator import add, itemgetter, sub

from engine.tiles import KIND_COUNT, TileError, counts_of, format_tiles, parse_tiles

__all__ = [
    "build_suit_table",
    "check_line",
    "check_text",
    "fewest_wilds",
    "is_complete",
    "is_complete_bytes",
    "main",
    "make_wincheck_input",
    "sets_only",
    "suit_costs",
]


# --- the per-suit search ------------------------------------------------------------------


@cache
def fewest_wilds(counts: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Fewest wilds turning one suit into sets, indexed ``2 * pair + seq``.

    ``counts`` holds nine ranks (万, 筒 or 条: sequences allowed) or seven (honors:
    triplets only). The four answers are: triplets only; sets with at least one
    sequence; triplets and one pair; sets, a pair and at least one sequence. So the
    fewest for sets is ``min(costs[0], costs[1])`` and with the pair
    ``min(costs[2], costs[3])``. Groups made only of wilds count, so every answer is
    finite (an honor "sequence" is three wilds). Counts may exceed four (the search
    does not care), but the table behind :func:`suit_costs` covers only 0-4 copies.

    >>> fewest_wilds((1, 1, 1, 0, 0, 0, 0, 0, 0))  # 123: as 111 222 333 it needs six wilds
    (6, 0, 5, 2)
    >>> fewest_wilds((2, 0, 0, 0, 0, 0, 0, 0, 0))  # 11: 111 with a wild, or the pair itself
    (1, 4, 0, 3)
    >>> fewest_wilds((0, 0, 0, 0, 0, 0, 1))  # one 白: 白白白 with two wilds, or 白白
    (2, 5, 1, 4)

    Only the lowest present rank is branched on: it must sit in some group. Taking
    every real tile a group can use is never worse than filling that slot with a
    wild (a wild can swap places with the real tile wherever it went), and a
    sequence through the lowest rank may as well start there (or at rank 7 near the
    top), so each kind of group is tried once and the cache stays small.
    """
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return (0, 3, 2, 5)  # nothing; three wilds make a sequence, two the pair
    c = counts[i]
    rest = list(counts)

    take = 3 if c >= 3 else c
    rest[i] = c - take
    s0, s1, s2, s3 = fewest_wilds(tuple(rest))
    wild = 3 - take
    b0, b1, b2, b3 = s0 + wild, s1 + wild, s2 + wild, s3 + wild

    take = 2 if c >= 2 else c
    rest[i] = c - take
    s0, s1, _, _ = fewest_wilds(tuple(rest))
    wild = 2 - take
    b2 = min(b2, s0 + wild)
    b3 = min(b3, s1 + wild)
    rest[i] = c

    if n == 9:
        lo = i if i <= 6 else 6
        wild = 3
        for r in range(lo, lo + 3):
            if rest[r] > 0:
                rest[r] -= 1
                wild -= 1
        s0, s1, s2, s3 = fewest_wilds(tuple(rest))
        b1 = min(b1, s0 + wild, s1 + wild)
        b3 = min(b3, s2 + wild, s3 + wild)
    return (b0, b1, b2, b3)


def build_suit_table() -> bytes:
    """Packed costs of every nine-rank suit with at most four copies a rank.

    Byte ``sum(counts[r] * 5**r)`` holds ``8 * sets + (1 if delta == -1 else 0)``
    (see :func:`suit_costs`). Filled bottom-up in index order with the recursion of
    :func:`fewest_wilds` (taking tiles only lowers the index), in about ten seconds;
    the xz-compressed result is the literal ``_SUIT_TABLE_XZ`` below.

    >>> table = build_suit_table()  # doctest: +SKIP
    >>> table == _suit_table()  # doctest: +SKIP
    True
    """
    size = 5**9
    p5 = [5**r for r in range(10)]
    t0 = [0] * size
    t1 = [0] * size
    t2 = [0] * size
    t3 = [0] * size
    t0[0], t1[0], t2[0], t3[0] = fewest_wilds((0,) * 9)
    out = bytearray(size)
    out[0] = 8 * t0[0] + (min(t2[0], t3[0]) - min(t0[0], t1[0]) == -1)
    for idx in range(1, size):
        i = 0
        x = idx
        while x % 5 == 0:
            x //= 5
            i += 1
        c = x % 5
        p = p5[i]
        take = 3 if c >= 3 else c
        j = idx - take * p
        wild = 3 - take
        b0, b1, b2, b3 = t0[j] + wild, t1[j] + wild, t2[j] + wild, t3[j] + wild
        take = 2 if c >= 2 else c
        j = idx - take * p
        wild = 2 - take
        b2 = min(b2, t0[j] + wild)
        b3 = min(b3, t1[j] + wild)
        lo = i if i <= 6 else 6
        j = idx
        wild = 3
        for r in range(lo, lo + 3):
            if idx // p5[r] % 5:
                j -= p5[r]
                wild -= 1
        b1 = min(b1, t0[j] + wild, t1[j] + wild)
        b3 = min(b3, t2[j] + wild, t3[j] + wild)
        t0[idx], t1[idx], t2[idx], t3[idx] = b0, b1, b2, b3
        sets = min(b0, b1)
        out[idx] = 8 * sets + (min(b2, b3) - sets == -1)
    return bytes(out)


_SUIT_TABLE_XZ = (
    b"{Wp48S^xk9=GL@E0stWa8~^|S5YJf5{mo<#=3M{)1j~`eAR=yf9a%@${m<1a^Fd(G>$lVv_eF4u`}D8wD_9KXbp_#Y?2"
    b"56N&7{v7L$}*ddSjEIKa^@##b!%?=*1DTcj{wqeETvuOc=<Ev!b2R|Mb*q&3NEChf;j3i-<2)NT>o=>?Y1$NK4nDF76F"
    b"jf}+?SELeD_acrnMcxu<(mX^}D#3f4=uP+DEdX6zyvyX{07^LqhZB!%pGA+hp;62u{xvOkj9#SY)JUOqL_wsBnK{7)pW"
    b"vYZXyiyzz<}-j_l{?VRI#isd`D5q~)xiaLwbI*C09!?-Hs*PwF+%><o$J|p>;myLK?%)KnLnu=G5w?)eED59VjBpP$Y}"
    b"I;D<~|TxZ9>5u}B<AMGC+ene;bSM!S1}$M9nRl|Upi5q1-zr)Z<&3L`sL?azKY@FeHBM_w}m8$?S6lL^VsA}oZQUGNQd"
    b"b)@S+lNm{6MVvyiA`+FpDky|b6`c9UC=dCmZ-KQE$ARFB=#^rlu8@w;Y-5tfV<h2Fhk#to&*rf#;Y<-Zyqg{qMY3Wq9Q"
    b"(2BoSj99*8o+lM7Ve8BO^zZEy3;Tg9{Wr&b{JmEDYaymJrJbAnU<&rUo6g%gVPBMo|_6Kbx|T(8wg0eZj{#RG&hy==V%"
    b">O&lm8Wy4Z$9E1*ERBl6j2f!?I9YqJC0k6WBrcL_qI%I*R^}jy6hl03{@RBP)a2;^Ed}p^lihAxTKfO=fFI}Urj+yq$W"
    b"${51B$Ib&?4t$bB(sio%C+JG7$^aml_N(Kr8W5~D>pvfveTP?v__^=7gmWEc=cT2^_L|kR((?`4|xF(l7q)n{BfR|G?`"
    b"Ow^ppFh6FFy`j*SD@8S_BTf*j+-4kaAndj$pCV|sjJ)5N`$EB;si6rXVa=(&lWkuQjd?0%bu_LcxDE&&LDan|Y^m}I*F"
    b"T;7u82>LV|C>?=wkPamwJ{4p^7VA!7UNe^AfONH$!cCwzn`?jGTP3Kk+4)#q5q0O!i3ztK2D9dia#G8kY+}sRuGQ?CcD"
    b"+r!8|HA1`xlZ)8HGUIAXI_;Amv#jiZQPLBA*Wn=VuW<2CvvFq2AqDr}|&_`qvmRUaLPBA7XWu&P7`BZeU1SP6;ox>(t-"
    b"uEDd1xaKd90LC3H@A@b7=9z_bV+Fr$2+f}#9=|gG!@um%pDMe3t8R`zoIO8@#3bX{FX4)44-=ACkzEv<8e_yfZO72PWF"
    b"^6(oh|{Ty)>N-kwXoZ}W)5}%ndsjTA0;C&zdy4v@=Hy0t_m~L3(;u|Pj+wXQ?r0rMs>1hu&r#4oZ5G*F^KmMn<BbUW$`"
    b"7KrY0fICbjhyQDJ6hyv8J1IPapu%Sh--$p|;E15}NHW~7l)DypAyQ@{~O9msBaz(*MLhuk2}Ab^e;tL6>cW_t|gY0}>}"
    b"!G5ygKBSxh44~19<~%bzcRG-wlZHD#a6+zzaG%7_=lZrr!>LsX4oll@MWBJ7pwQUa2c3~#(j}!xgC5AxMcMt6w1Cxpk@"
    b"8d)2)g}}4P>jl^KP^2o4_agY)<j^9cZNqc1BB2V7>^1qa%)MAu%6l=n=+U$|ujI(Q1p`zoYqER?B$<x2lvq97wO1eKvI"
    b"YxFDp<_hm~ER6v~zVbm!(yIZ3ryQ#^E<Qk`B*|P6B)pCf@nxi4~bjgsFI@kIM@@-ohp><#(^r`w}=|#AK)(#W(AXHqSX"
    b"$Oe|>gPAOQz@F$d|F@{nYmS(sH5AV+HCaHSscpe8T<Ne8uQn?cu^tAZeiEY7_rjD_$6bXcn+cYFu>JRRjwiTCiLdY^@@"
    b"fG-$+Na%$(E48-n_blJl7`Og^Y6_Jw3wibxOCJi9LT2X$D-GwmqM2<U-PEB%Oq;k_GWrm`5xyNj@kAs$wsi37dL^i~>t"
    b"h~xXS<18}E>#r0eUr_WN>S7=gOKwLO_pdc3*VZFLOkJqeV~79kXk>$FcJH}wuvz@N>^8g)Pi$CFp6nR<OL6Hso885YqN"
    b">>j8>-lohn#r)M_9c0BJqchf(umamg^e<zQI4+Cmy9<4oq40x7`rPKsxu*T$#VO5#4105Hs-`EDBv?vsYLw^I%&eYrG`"
    b"UBa#=`RDzSF(pCzszl^t!UMGQt30G<D;guUh^gx&H?G4<5GDs$r$h^BDCH@S?3Snfgv<>gnEG57t!a|aeBy6(J$UU+EC"
    b"OW@D5?xwgntFaIQAlqHS6(%&qElUPW4e?o&>E&>57v}uMF$$a7HbEeygPv6kc}Cu=!@$i;9Omf5MG<acZX2=1a-B(V0A"
    b"4X(ef+-gie>17GfI1LW{IP9vU72U1;o}rLwS5Zb>S;uBL}=s>={#)Di#jyPtulJ>N+(fcsC{5&R>y*XzX8yh`i-lZc6t"
    b"e{e0Iy}X&sG}f5R<3uc)gJR&A5KI<s$decTT`%%NQH$N0xVEi_avap4N`Vy^9hu!Q*blG&__W^j`A_Hc5_W>D?v`$8&m"
    b"T_#t+{G04h*Axfjf&wM0{&Ff>a=8rAhLAiW|Hkwz%TpS8HL2YQtya=@=IgQ$<H-%j*9fmCpy25#cOM5?9KbF^0;N+r{;"
    b"&XTCCy+Z0v6NVZajva<UJG~-XHXs-~|D9&;2Q=Eqi=1;u>bUG`Va&!bn=w2l*z1N50Xe?%p#J0|al{~97c$8I01c_mZQ"
    b"7f@JD*c4pwZb|yMQpZn3(x&3ukRtlhTNk;7XqVj(EtXhv@Y#nD2bYz>+7JW^tStIgI9ReQ~QR!$=$9Q?bZ0XVCj!0kec"
    b"D$q7*-Vy=Z3F)GRw$u~WEZu<l@+W<^l{4f4xC>@H=DbCgnfSGM?r6BNcSe#=ghg?mEqF6j)=(en233A04%Pw#{IjN%V<"
    b"Ns6hX&*qxxAw^^fc`b~nZ%sH1Uv8ihMV*Bq0JlwF9Y=P^TT`jB)8nWc<=_Q6+7)b-WH%L!4lx5x#ZxnO2Urwbeq&r@RS"
    b"5>}_gfqqz5clDPC7H*%wvBoJ=<!?4-{?FH-ta8`N@7G1ShBpOB!A_4hZFA!C1`ZTThUz8{ZB57N>QOW@n_4?!nYD?tWT"
    b"i_hzth6`!?>{evkpIr%$hl+bZupiENL=G8LfMd8RV_<yTiXki{-%)->))N_voW}7G?mdlb&2c(F*I5cpmC19ie?|ily?"
    b"=L0MLljS&6F6prz>^>%fkd;!K{JS*jNCv(QWXQ0OV4wEeYF@H&!CXEV6zHnlTaY9Cf14a-9tfuj$Nb#oE|p`{1?v(8Ug"
    b"DD#}X^K=mMhf-oz#t!}8vfygOcHoaRVE7QgnXBZaakcH>TBy)sP_Li-m`ta@*5iwnDLE1Mhq{g-=e2M#a382?F*sqzE("
    b"4EJ1VdF61|T&t%EuwzqD)$m;{&?6Z8?d-^#%ws1FHi(!8uOWqW686725!eG)RBZ$k{bwJ75+<nOg?NIGOKTul&V6B`PD"
    b"0{LR$pu-^~K}c!DhaQgu2mcE3yl~MWqFcJa@Xamv9N|E@@II6N9|JKHaT7kt3o@=o1=a?o{l_UqRNf@ssV9n<qKDQFYQ"
    b"2VS+~TXur1ni#eze?!CUaPtgbaJANyuslYp-da1Y1Ordr0nJl1$?K<d{muLdw=A#2t$77!F=&?hW=5rh93;blz0&+RDO"
    b"Jw+McgA@H|A<w>Uuq<gzFB_4wM%r`?%Z8!$V)WGavQ^?mRRHHqf{yPVjh-p+-DVyA_qj8ng|mY3Xl9s=I31uDHy_?xH$"
    b"52NVj@&WQ?Lbe5y2PvcsR?1yGR|xf6%X7kyE?0u&NbJy(#oP?)hV@=O&!4v~4z@bif9_<mTK<EpoyFi;@&b3hf0^G*l("
    b"LcCEWkr?@@Yj=v@<^fq`*@U@#vhQ>0W4PQFv2c7h9^KlSn~-JBLTuu8!4vOc;4f@q!eezw7zwb<1cq!~`YDP5WwO$&JX"
    b"+HW*kEug7wh23@>pVS1yR1Mn&PIAnUS971MvVqf_e1tc?~+frq&`MIq@|MzSLwHfu$Rvp5O<ce)e?1PH3a3)>?4@zLZV"
    b"8j*mAP0uaT^7WQAv@4Qr1L9wB9YLwlYTT(6<02aZW7Uq~o;Kc54s{u-2rsMR8uQd*STaC?D({>)m{wpxJF0JbENLycl0"
    b"_P(7ha0l_0Bs3icvbM77v&uWl3avwi+l!hTA#y5U+Uy&kIj&NVkU?DN_C`mi$UDh^1v9iXk)_D5QX}3!C<VSP`;~k-|T"
    b"+veweceE>MU&M+=&KveYlZ6MQTVA!iX#=P;sk2&G*H*o!^c#||e{xqw_05$%4_zGVI!j{Tq6vb_>GW_45f?P5qQyEiE)"
    b"qfj}>c&SJnZNpHKR>#3$m`^%NfScBy;uNB?cPTcASaVP$W{Pkvlldfv696a(9(KwY`d^&S3PjrFXVZ&u)~YB2DZo`2kp"
    b"|w#^1!Msxl#5bdG}pEDS5HWLZr9<E<_mZQNR+4Jw5k#b5>fnMj#7>bI&ZZZEXsi8qSM~?Yl8%UHC0t#YwBK*dmtkD5ud"
    b"pK8W)Lsf^H)+tNOQg*@d~o)zT0@UY>0XeK;F@FAd!TwGG134|Dtw=t~-Zc$rj3re8n97mZ=3bnd!qmN>3WzGHDox`7>h"
    b"weV4C74mf*I6TcuB2zG7r$Fs@c_N4!E6K#=5iGvjOm&SLjt=V5HT|@2+mp|Zqlh)@he{~2kGR;6PmpB7068k;0^P@*N~"
    b"G!L`kGlUo2xiA_C-Dr80<MtT|5anx})?aSg3~11w!}i}lP4js?cqaP)<K%-uI@{S7m0l;?D|xiXq{gfcR|?dzZDz<Jcy"
    b"AHbJx5{wQ2tZux*P`4O!iq4r*Ca+*cR4yFw?heA>;O}hP_QQ3XyN9>D<JzHLo>V|4ZrkPsO)}>zU;A_zVD0yL3IFS0WS"
    b"&tR9hDEK>5nd;r2T+Lw?6NZ&dQYXJRsIP2TS?@<#rID^WEW0&+>pgY(?mkkbJ-+SwKSgew0u-371!R#G<dK{}7i!&gCT"
    b"I&V3A%H{V`i7$@BIiO6>so>WruQ+uM1e5-PiyQ}!-BOrCo=*3X<2-ztjYq(WDi;&RRu0<YxIw0jkT3=o#GG|x3?beDaZ"
    b"I1Qq(>tekwzGX7ul{JR31Rf09W}YNLb=nw9x%6WB445=E0y_2`cB->a-J4|1Caut{YGVIsZCIkCn!-lsuO4b$cb%zp^("
    b"G;3;&1Y#K24A>~C+6S^IuwJ%DZcnO*ru`cCIk;*thd8J<L*;?m?s?xE$mnV6;;24ED9w;S*Q^H`23kpNg^JiDv@v2*<J"
    b"AwOdN2-k*pp_J?M!8XGx=dC&6e7W~&cF0pR^QMkrP)3iAK?qrs+cozZso=o-?C~ohrT_o{nZ*uxF%~^L00Dv^<(hW@7c"
    b"I9SvBYQl0ssI200dcD"
)
"""``build_suit_table()``, xz-compressed (preset 9e), base85; 1,953,125 bytes unpacked."""


@cache
def _suit_table() -> bytes | None:
    # Unpacked on first use, not at import: the bots import this module for is_complete
    # and mostly hit the dict caches. None (search instead) if lzma is missing.
    try:
        import lzma
    except ImportError:  # pragma: no cover - a Python built without liblzma
        return None
    table = lzma.decompress(b85decode(_SUIT_TABLE_XZ))
    return table if len(table) == 5**9 else None


def _digit_table(ranks: int, step: Sequence[Sequence[int]]) -> bytes:
    """Bytes over base-5 indexes of ``ranks`` counts, entry ``f(count vector)`` built as
    ``step[c][f(rest)]`` one rank at a time, with C-level ``translate`` (milliseconds)."""
    table = bytes([0])
    maps = [bytes(row) for row in step]
    for _ in range(ranks):
        table = b"".join([table.translate(row) for row in maps])
    return table


@cache
def _tile_counts() -> bytes:
    """Tiles in each nine-rank count vector by base-5 index; a digit text whose index
    disagrees with its length had a rank five times (a carry)."""
    return _digit_table(9, [[(v + c) & 255 for v in range(256)] for c in range(5)])


@cache
def _honor_table() -> bytes:
    """Packed costs (see :func:`_packed`) of every honor count vector by base-5 index."""
    # Honor kinds are independent: a kind with c copies needs (0, 2, 1, 0, 2)[c] wilds as
    # triplets, and any count not divisible by 3 can hold the pair one wild cheaper.
    sets = (0, 2, 1, 0, 2)
    return _digit_table(
        7,
        [[v + 8 * sets[c] + (c % 3 > 0 and not v & 1) & 255 for v in range(256)] for c in range(5)],
    )


_P5 = {str(r + 1): 5**r for r in range(9)}
"""Rank digit to its weight in a table index."""


def _pack(costs: tuple[int, int, int, int]) -> int:
    sets = min(costs[0], costs[1])
    return 8 * sets + (min(costs[2], costs[3]) - sets == -1)


def _unpack(packed: int) -> tuple[int, int]:
    return packed >> 3, -1 if packed & 1 else 2


_SUIT_COSTS: dict[bytes, tuple[int, int]] = {}
_HONOR_COSTS: dict[bytes, tuple[int, int]] = {}


def suit_costs(counts: bytes | Sequence[int], honors: bool = False) -> tuple[int, int]:
    """``(sets, delta)`` for one suit's counts: wilds for sets only, extra wilds for the pair.

    ``delta`` is always -1 or 2: a pair saves at most the wild that would have made
    it a triplet, and costs at most two wilds.

    >>> suit_costs([1, 1, 0, 0, 0, 0, 0, 0, 0])  # 12m: one wild for 123m, two for the pair
    (1, 2)
    >>> suit_costs([2, 0, 0, 0, 0, 0, 0, 0, 0])  # 11m: a wild for 111m, or the pair as is
    (1, -1)
    >>> suit_costs([0] * 7, honors=True)
    (0, 2)
    """
    key = bytes(counts)
    got = (_HONOR_COSTS if honors else _SUIT_COSTS).get(key)
    return got if got is not None else _build(key, honors)


def _build(key: bytes, honors: bool) -> tuple[int, int]:
    table = None if honors or max(key, default=0) > 4 else _suit_table()
    if table is not None:
        index = 0
        for r in range(8, -1, -1):
            index = 5 * index + key[r]
        got = _unpack(table[index])
    else:
        got = _unpack(_pack(fewest_wilds(tuple(key))))
    (_HONOR_COSTS if honors else _SUIT_COSTS)[key] = got
    return got


def is_complete(counts: Sequence[int], wilds: int) -> bool:
    """True if ``counts`` (34 kinds) plus ``wilds`` wild tiles make sets and exactly one pair.

    Totals that are not 3n+2 are never complete.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> is_complete(counts_of(parse_tiles("1m")), 1)
    True
    >>> is_complete(counts_of(parse_tiles("147m")), 2)
    False
    """
    # one conversion: slicing bytes is cheaper than slicing the list four times
    return is_complete_bytes(bytes(counts), wilds)


def is_complete_bytes(counts: bytes, wilds: int) -> bool:
    """:func:`is_complete` for counts already packed as 34 bytes.

    >>> is_complete_bytes(bytes([1, 1, 1] + [0] * 30 + [2]), 0)
    True
    """
    st = _SUIT_COSTS
    s0, d0 = st.get(k := counts[0:9]) or _build(k, False)
    s1, d1 = st.get(k := counts[9:18]) or _build(k, False)
    s2, d2 = st.get(k := counts[18:27]) or _build(k, False)
    s3, d3 = _HONOR_COSTS.get(k := counts[27:34]) or _build(k, True)
    # Every delta is 2 mod 3, so r % 3 == 0 also checks that the total is 3n+2.
    r = wilds - s0 - s1 - s2 - s3 - min(d0, d1, d2, d3)
    return r >= 0 and r % 3 == 0


def sets_only(counts: Sequence[int], wilds: int) -> bool:
    """True if ``counts`` plus ``wilds`` wild tiles make sets with no pair (totals 3n).

    >>> from engine.tiles import counts_of, parse_tiles
    >>> sets_only(counts_of(parse_tiles("13m555z")), 1)
    True
    >>> sets_only(counts_of(parse_tiles("13m55z")), 1)
    False
    """
    b = bytes(counts)
    st = _SUIT_COSTS
    s0 = (st.get(k := b[0:9]) or _build(k, False))[0]
    s1 = (st.get(k := b[9:18]) or _build(k, False))[0]
    s2 = (st.get(k := b[18:27]) or _build(k, False))[0]
    s3 = (_HONOR_COSTS.get(k := b[27:34]) or _build(k, True))[0]
    r = wilds - s0 - s1 - s2 - s3
    return r >= 0 and r % 3 == 0


# --- command line -------------------------------------------------------------------------

_CANONICAL = re.compile(r"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?(?:([1-7]+)z)?")
"""Suits in order, each at most once: the common case, read without building counts."""


def _packed(suit: int, digits: str) -> int:
    """``8 * sets + flag`` for one suit's digit text (-1: a rank has five copies).

    Packing works because a pair delta is -1 or 2: one bit says which. Summing four
    packed values adds the sets and counts the suits that could take the pair cheaply,
    with no carry (at most four flags).

    >>> _packed(0, "11"), _packed(0, "12"), _packed(3, "1"), _packed(0, "11111")
    (9, 8, 17, -1)
    """
    index: int = sum(map(_P5.__getitem__, digits))
    if index >= 5**9 or _tile_counts()[index] != len(digits):
        return -1
    if suit == 3:
        return _honor_table()[index]
    table = _suit_table()
    if table is None:  # pragma: no cover - no lzma: search instead
        counts = [0] * 9
        for ch in digits:
            counts[ord(ch) - 49] += 1
        return _pack(fewest_wilds(tuple(counts)))
    return table[index]


def _wins(key: int) -> bool:
    """Whether ``key = 8 * wilds - (sum of four packed costs)`` is a win."""
    spare = -(-key // 8)  # wilds left after the sets: key = 8 * spare - flags, 0 <= flags <= 4
    r = spare - (-1 if 8 * spare - key else 2)
    return r >= 0 and r % 3 == 0


def _slow_line(tiles: str, wilds: int) -> str:
    counts = counts_of(parse_tiles(tiles))
    for kind in range(KIND_COUNT):
        if counts[kind] > 4:
            raise TileError(f"{counts[kind]} copies of {format_tiles([kind])}; a kind has four")
    return "1" if is_complete(counts, wilds) else "0"


def check_line(line: str) -> str:
    """Answer one input line: ``"1"``, ``"0"`` or ``"error: <message>"``.

    >>> check_line("123m456p789s1z 1"), check_line("19m 0"), check_line("1x 0")
    ('1', '0', "error: unexpected 'x' in '1x': write tiles like '123m456p789s11z'")
    """
    tiles, _, k = line.strip().rpartition(" ")
    try:
        if not tiles:
            raise TileError(f"expected '<tiles> <wilds>', got {line.strip()!r}")
        if not (k.isdigit() and k.isascii()):
            raise TileError(f"wild count must be a whole number >= 0, got {k!r}")
        wilds = int(k)
        m = _CANONICAL.fullmatch(tiles)
        if m is None:
            return _slow_line(tiles, wilds)
        key = 8 * wilds
        for suit, digits in enumerate(m.groups()):
            got = _COLUMNS[suit][digits or ""]
            if got < 0:
                return _slow_line(tiles, wilds)  # reports the five copies
            key -= got
        return "1" if _wins(key) else "0"
    except TileError as exc:
        return f"error: {exc}"


_BULK = re.compile(
    r"^(?=[1-9])(?:([1-9]++)m)?(?:([1-9]++)p)?(?:([1-9]++)s)?(?:([1-7]++)z)? ([0-9]++)$",
    re.MULTILINE,
)
"""A canonical line. Possessive runs: a suit's digits never need to be given back (a
shorter run is followed by a digit, not the letter), and not retrying saves a third."""


class _Column(dict[str, int]):
    """Digit text of a suit to packed costs, filled on a miss during a C-level ``map``."""

    def __init__(self, suit: int) -> None:
        super().__init__({"": 0})
        self.suit = suit
        self.five = False  # set when some text had five copies of a rank

    def __missing__(self, digits: str) -> int:
        got = _packed(self.suit, digits)
        if got < 0:
            self.five = True  # not stored, so that every later look-up says so again
        else:
            self[digits] = got
        return got


class _Wilds(dict[str, int]):
    def __missing__(self, text: str) -> int:
        got = self[text] = 8 * int(text)
        return got


class _Answers(dict[int, str]):
    def __missing__(self, key: int) -> str:
        got = self[key] = "1" if _wins(key) else "0"
        return got


_SUITED = _Column(0)
_COLUMNS = [_SUITED, _SUITED, _SUITED, _Column(3)]
"""万, 筒 and 条 share one column: the same digit text costs the same in each suit."""
_WILD_COLUMN = _Wilds()
_ANSWERS = _Answers()


def check_text(data: str) -> str:
    """Answers for every non-blank line of ``data``, one per line, each ending in a newline.

    When every line is in the canonical form (suits in order, each at most once),
    all the work runs as C-level ``map`` calls over columns; otherwise each line
    goes through :func:`check_line`.

    >>> check_text("123m456p789s1z 1\\n\\n1m 0\\n")
    '1\\n0\\n'
    """
    if not data:
        return ""
    matches = _BULK.findall(data)
    # Only "\n" can end a matched line, so if every "\n"-line matched there is no other
    # line break that splitlines would have seen, and the counts agree.
    if len(matches) == data.count("\n") + (not data.endswith("\n")):
        answers = _bulk_answers(matches)
        if answers is not None:
            return "\n".join(answers) + "\n"
    # blank lines are skipped, as ``python -m engine.score`` does: one answer per hand
    return "".join([check_line(line) + "\n" for line in data.splitlines() if line.strip()])


def _bulk_answers(matches: list[tuple[str, str, str, str, str]]) -> list[str] | None:
    # One fused pipeline of C-level maps over the columns, no intermediate lists: per
    # line four look-ups, three additions, a subtraction and the answer look-up.
    # zip(*matches) would be slower for long inputs.
    c0, c1, c2, c3 = _COLUMNS
    for column in _COLUMNS:
        column.five = False
    total = map(
        add,
        map(
            add,
            map(c0.__getitem__, map(itemgetter(0), matches)),
            map(c1.__getitem__, map(itemgetter(1), matches)),
        ),
        map(
            add,
            map(c2.__getitem__, map(itemgetter(2), matches)),
            map(c3.__getitem__, map(itemgetter(3), matches)),
        ),
    )
    keys = map(sub, map(_WILD_COLUMN.__getitem__, map(itemgetter(4), matches)), total)
    answers = list(map(_ANSWERS.__getitem__, keys))
    if c0.five or c1.five or c2.five or c3.five:
        return None  # five copies of a kind: let check_line word the error
    return answers


def main() -> None:
    """Read all of stdin, write one answer per line."""
    sys.stdout.write(check_text(sys.stdin.read()))


def make_wincheck_input(n: int, seed: int = 0) -> list[str]:
    """``n`` benchmark lines ``<tiles> <wilds>``: about half built to win, 0–4 wilds each.

    Winning lines are four random sets and a pair with some tiles swapped for wilds;
    the others are random 14-tile draws, which rarely win. No kind exceeds four copies.

    >>> make_wincheck_input(2, seed=1) == make_wincheck_input(2, seed=1)
    True
    """
    import random  # here, not at the top: the CLI starts faster without it

    rng = random.Random(seed)
    lines: list[str] = []
    wall = [k for k in range(KIND_COUNT) for _ in range(4)]
    while len(lines) < n:
        wilds = rng.randint(0, 4)
        if rng.random() < 0.5:
            tiles = rng.sample(wall, 14)
        else:
            counts = [0] * KIND_COUNT
            tiles = []
            pair = rng.randrange(KIND_COUNT)
            groups = [[pair, pair]]
            for _ in range(4):
                start = rng.randrange(KIND_COUNT)
                if start < 27 and start % 9 <= 6 and rng.random() < 0.7:
                    groups.append([start, start + 1, start + 2])
                else:
                    groups.append([start] * 3)
            for g in groups:
                tiles.extend(g)
            for k in tiles:
                counts[k] += 1
            if max(counts) > 4:
                continue
        rng.shuffle(tiles)
        lines.append(f"{format_tiles(tiles[wilds:])} {wilds}")
    return lines


if __name__ == "__main__":
    main()
