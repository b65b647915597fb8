"""Which thing a figure belongs to: a claim that moves a premise's figure onto another thing.

"A household's first permit is 160 pounds and a second one 95 pounds" against "A first
permit per household costs 95 pounds a year and a second permit costs 160 pounds": every
word and every figure of the claim is in the premise, so coverage, the figure check and
the meaning reading all find it, but the figures have changed places. So have the
warranties of "the control panel ... seven years, the frame and motors two" against "The
frame and motors carry a 7-year warranty; the control panel ... 2 years", and the dates of
"lapses on 1 February and can be renewed from 31 March" against "expire on 31 March ...
Renewals open on 1 February". On the RAG development set these "swapped roles" variants
were scored as faithful as the true answers.

A figure's *anchors* are the content words next to it: the words of the claim (or of a
premise sentence) whose nearest figure it is, within ``REACH`` tokens. A claim figure is
*misbound* when the premise states it, and the claim's anchors of it are, in the premise,
anchors of another figure of its class (a year for a year, any other number for a number)
that the claim states too, and never of it: the claim has exchanged them. "first" and "permit" go with 95 in the premise, with 160 in the claim;
"renewed" with 31 in the claim, "Renewals" with 1 in the premise.

Words only, in order: no parse. A word that occurs twice in a sentence anchors nothing
there (which occurrence is meant is unknown), and nor does a word equally near two figures.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from ragmeter.local import caches
from ragmeter.local.nlp import number_value
from ragmeter.local.support import stem

REACH = 6
"""Tokens between a figure and a word that it can anchor. Beyond, the word belongs to the
clause, not the figure ("The Ethics Officer acknowledges every report within 7 days")."""

MIN_AGAINST = 1

MARGIN = 2
"""How much nearer a word must be to its figure than to another: "hold for three seconds to
start the 25-minute cycle" puts "start" 3 tokens from one figure and 2 from the other."""

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+(?:['’][^\W\d_]+)*|[,;:()]")
_BARRIERS = frozenset(", ; : ( ) but whereas while although though however".split())
"""Where a clause or a list item ends: "the frame carries 7 years; the panel 2", "seven
years for the frame, but the panel only two", "110 km in Eco, 70 km in Tour" (without the
comma, "Eco" was nearer 70 than 110). No word anchors a figure across one."""
_STOP = frozenset("""a an the and or but of in on at to for from by with within without per
as than then that this these those it its it's their there which who whom whose what when
where while is are was were be been being has have had do does did can could may might must
shall should will would not no nor only also up down over under about around some any each
every all both either neither more most less least other another such so very just if into
onto out off one ones after before during until since you your we our they them he she his
her him i me my""".split())
_MONTHS = frozenset("""january february march april may june july august september october
november december""".split())


@dataclass(frozen=True)
class _Figure:
    position: int
    value: str
    is_year: bool
    clause: int = 0
    group: frozenset[str] = frozenset()
    """The values written with it as one quantity: the ends of a range ("22 to 23
    percent", "between 0 and 40") or the same amount another way ("about 10 metres, or two
    rooms")."""


@dataclass(frozen=True)
class _Reading:
    """One sentence: its figures and, for each content word (by stem) that occurs once, its
    position and clause (``_BARRIERS``)."""

    figures: tuple[_Figure, ...]
    words: dict[str, tuple[int, int]]


def _figure(token: str, position: int, clause: int) -> _Figure | None:
    lower = token.casefold()
    if lower.endswith(("st", "nd", "rd", "th")) and not lower.isdigit():
        return None  # ordinals rank things ("the first permit"): they are not amounts
    value = number_value(lower)
    if value is None:
        return None
    is_year = value.isdigit() and len(value) == 4 and 1000 <= int(value) <= 2100
    return _Figure(position, value, is_year, clause)


@functools.lru_cache(maxsize=20_000)
def _read(text: str) -> _Reading:
    figures: list[_Figure] = []
    seen: dict[str, tuple[int, int]] = {}
    twice: set[str] = set()
    clause = 0
    lowered: list[str] = []
    for position, match in enumerate(_TOKEN.finditer(text)):
        token = match.group()
        lower = token.casefold()
        lowered.append(lower)
        if lower in _BARRIERS:
            clause += 1
            continue
        figure = _figure(token, position, clause)
        if figure is not None:
            figures.append(figure)
            continue
        lower = lower.removesuffix("'s").removesuffix("’s")
        if lower in _STOP or lower in _MONTHS or len(lower) < 3:
            continue
        if figures and figures[-1].position == position - 1:
            continue  # the figure's unit ("160 pounds", "31 March"): what it measures,
            # not what it belongs to; it would anchor every figure of that unit alike
        key = stem(lower)
        if key in seen:
            twice.add(key)
        seen[key] = (position, clause)
    return _Reading(_grouped(figures, lowered), {k: p for k, p in seen.items() if k not in twice})


_JOINERS = frozenset({"to", "and", "or"})
_GROUP_GAP = 4


def _grouped(figures: Sequence[_Figure], tokens: Sequence[str]) -> tuple[_Figure, ...]:
    """Figures with ``group`` set: neighbours at most ``_GROUP_GAP`` tokens apart with
    "to", "and" or "or" between them are one quantity (a comma may come between too:
    "10 metres, or two rooms")."""
    groups: list[list[_Figure]] = []
    for f in figures:
        last = groups[-1][-1] if groups else None
        if last is not None and f.position - last.position <= _GROUP_GAP and \
                _JOINERS & set(tokens[last.position + 1:f.position]):
            groups[-1].append(f)
        else:
            groups.append([f])
    return tuple(replace(f, group=frozenset(g.value for g in members))
                 for members in groups for f in members)


caches.register(_read.cache_clear)


_SUFFIXES = frozenset({"al", "s", "er", "ers", "ion", "ment", "ing", "ed", "e"})


def _same(a: str, b: str) -> bool:
    """Stems of one word: equal, or one the other with a suffix the stemmer left ("renew",
    "renewal"); not "desk" and "desktop"."""
    short, long = sorted((a, b), key=len)
    return a == b or (len(short) >= 4 and long.startswith(short)
                      and long[len(short):] in _SUFFIXES)


def _nearest(word: tuple[int, int], figures: Iterable[_Figure]) -> _Figure | None:
    """The figure nearest the word at (position, clause), in its clause and within
    ``REACH``, and nearer by ``MARGIN`` tokens than any figure of another quantity; else
    None (the word sits between two, and which it belongs to is a guess)."""
    position, clause = word
    ranked = sorted(((abs(f.position - position), f) for f in figures if f.clause == clause),
                    key=lambda t: t[0])
    if not ranked or ranked[0][0] > REACH:
        return None
    nearest = ranked[0][1]
    rival = next((d for d, f in ranked[1:] if f.value not in nearest.group), None)
    if rival is not None and rival - ranked[0][0] < MARGIN:
        return None
    return nearest


def anchors(reading: _Reading) -> dict[str, _Figure]:
    """Each content word of the sentence that a figure anchors, with that figure."""
    out: dict[str, _Figure] = {}
    for word, place in reading.words.items():
        figure = _nearest(place, reading.figures)
        if figure is not None:
            out[word] = figure
    return out


def misbound_figures(claim: str, premise_sentences: Sequence[str]) -> list[str]:
    """The claim's figures that the premise gives to other things (module docstring): the
    premise states the figure, at least one of the claim's anchors of it anchors another
    figure of the claim, of its class, in some premise sentence, and none anchors it in
    any. Another figure that the claim does not state does not count: a topic word
    ("permit") lies near many figures of a passage, and faithful claims were flagged."""
    mine = _read(claim)
    if not mine.figures:
        return []
    claimed = anchors(mine)
    readings = [_read(s) for s in premise_sentences]
    out: list[str] = []
    stated = list(dict.fromkeys(f.value for f in mine.figures))
    for figure in stated:
        together = frozenset().union(*(f.group for f in mine.figures if f.value == figure))
        words = [w for w, f in claimed.items() if figure in f.group]
        agree = against = 0
        if not any(f.value == figure for r in readings for f in r.figures):
            continue  # not stated at all: a wrong figure, which the figure check finds
        for reading in readings:
            same_class = [f for f in reading.figures if f.is_year == _is_year_value(figure)]
            for word in words:
                place = reading.words.get(word) or next(
                    (p for w, p in reading.words.items() if _same(w, word)), None)
                if place is None:
                    continue
                there = _nearest(place, same_class)
                if there is None:
                    continue
                if figure in there.group:
                    agree += 1
                elif there.value in stated and there.value not in together:
                    against += 1  # the claim gives this word's figure to something else
        if against >= MIN_AGAINST and not agree:
            out.append(figure)
    return out


def _is_year_value(value: str) -> bool:
    return value.isdigit() and len(value) == 4 and 1000 <= int(value) <= 2100
