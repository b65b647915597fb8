"""The same quantity written in another form: "nine out of ten" is "90 percent", "3.5 km" is
"3,490 metres", "the early 1500s" is "the early sixteenth century".

Why: the claim verifier checks a claim's numbers and dates against the premise's by their
canonical strings (``nlp.number_value``, ``nlp.dates``), and a faithful paraphrasing answer
restates figures in other forms. On the project's RAG development set a third of the
faithful claims whose numbers the check broke said what the passage says in another form
("between a third and half" for "between 30 and 50 percent", "nearly 3.5 km" for "about
3,490 metres"). This module reads the quantities of a text by rules (a number, its unit, its
hedge, a range, a century) and decides whether a premise quantity states a claim quantity.

What is read (``quantities``), each as a ``Quantity`` of one *kind*, in that kind's base unit:

* **proportions** in percent: "90%", "ninety per cent", "a third", "two thirds", "three
  quarters", "half", "one in four", "nine out of ten";
* **years**: a bare year (1000-2099, as ``nlp.dates`` reads one), a decade ("the 1920s"),
  a century ("the 1500s", "the 16th century", "the sixteenth century", BC too), each
  narrowed to its first, middle or last third by "early", "mid" or "late";
* **measures** with a unit: length, area, volume, mass, duration, calendar time (months,
  years), temperature, speed and other rates, data size, energy and power, money by
  currency, multiples ("32 times"); each unit is converted exactly to its kind's base;
* **counts**: a number with no unit ("about 1,500 people");
* **rank one**: "first" and the words that say it ("maiden", "inaugural", "original").

A range ("between 30 and 50 percent", "22 to 23 percent", "two to three weeks") is one
quantity with two ends; a hedge before it ("about", "nearly", "more than", ...) or after it
("or so", "or more") is kept with it. A number that is part of a date ("14 April") or a
time of day ("23:40") is not a quantity: the date check handles it.

Whether a premise quantity states a claim quantity (``states``): the kinds must be equal
(a year is never a count, 14 April never 14 km), and the premise's value must fall inside
the claim's *interval*, the claim's value widened by what its wording allows:

* **unhedged, same unit**: nothing (the plain string check already decides it);
* **unhedged, another unit or form**: rounding to the claim's precision, half a unit of its
  last significant digit ("3.5 km" is 3,450-3,550 m; "3 feet" is 2.5-3.5 ft, so 91 cm), a
  trailing zero of an integer counting as rounding up to 5% of the value ("400 m" is
  380-420 m). Proportions and temperatures round to a whole unit: "a third" is 33 or 33.3
  percent, never 30; "100 F" is 99.5-100.5 F;
* **hedged**: 10% of the claim's value, the "about" of everyday writing; for proportions
  10% of the nearer distance to 0 or 100 percent (about 90% is about 10% left out), at
  least 2 points (never more than half the value), so "about a third" takes 30 percent and
  "about 90 percent" does not take 81; 2.5 degrees for a temperature (a scale with an
  arbitrary zero has no relative error; "about" rounds to the nearest 5); at most 10 years
  for a year. "More than", "over", "at least" widen upwards only; "nearly", "almost",
  "up to", "under" downwards only;
* **centuries and decades**: one year of slack at each end, since "the sixteenth century"
  is 1501-1600 to some writers and 1500-1599 to others.

A year span is stated by years inside it; a claim range by a premise range whose ends
each match the claim's ends; a single claim value when its interval meets the premise's
value or range (a premise range "22 to 23 percent" makes "a little over a fifth" true).
A claim measure followed by a comparative ("400 m lower") or after "by" is also stated
by the difference of two premise measures of its kind in one sentence ("from 2,950
metres to 2,549 metres"). A span of years ("two years later", "for about three centuries")
is also stated by the time between two years of one premise sentence ("in 1911 ... in
1913", "from the 13th to the 15th century").

Limits, on purpose: no arithmetic beyond conversion and one difference (no products, no
"32 times" from two magnitudes); counts are not told apart by what they count; ambiguous
units are left out ("ton", "gallon" in the UK, "in" for inches, a bare "t").
"""

from __future__ import annotations

import functools
import re
import unicodedata
import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Sequence

from ragmeter.text import caches
from ragmeter.text.nlp import number_value

# --- words -------------------------------------------------------------------------------

_SMALL = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 10 ** 9,
           "trillion": 10 ** 12}
_ORDINAL_WORDS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
    .split())}
_ORDINAL_WORDS["twenty-first"] = 21
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
                 "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
                 "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9,
                 "ninths": 9, "tenth": 10, "tenths": 10}
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split())
_RANK_ONE = frozenset("first 1st maiden inaugural debut earliest initial original".split())
"""Words that say "first": a "maiden voyage" is a first voyage, an "original purchaser" the
first owner; a paraphrase writes "first" for them, and ``nlp`` reads "first" as the number 1."""

_APPROX = ("about", "around", "roughly", "approximately", "approx", "some", "circa", "c",
           "close to", "somewhere", "an estimated", "estimated", "~")
_AT_LEAST = ("over", "more than", "at least", "above", "upwards of", "in excess of",
             "exceeding", "just over", "a little over", "slightly over", "slightly more than",
             "a little more than", "just above", "well over", "no fewer than", "no less than",
             "no earlier than", "no sooner than", "not before", "no smaller than",
             "no lower than", "no shorter than", "no lighter than", "no younger than")
_AT_MOST = ("under", "less than", "fewer than", "below", "up to", "as much as", "as many as",
            "at most", "no more than", "nearly", "almost", "just under", "a little under",
            "slightly under", "slightly less than", "a little less than", "just below",
            "not quite", "close on", "within", "no later than", "not after", "no larger than",
            "no bigger than", "no greater than", "no higher than", "no longer than",
            "no heavier than", "no older than")
_HEDGES = sorted([(h.split(), "approx") for h in _APPROX]
                 + [(h.split(), "at_least") for h in _AT_LEAST]
                 + [(h.split(), "at_most") for h in _AT_MOST], key=lambda x: -len(x[0]))
_COMPARATIVES = frozenset(
    "lower higher shorter longer taller smaller larger bigger greater heavier lighter deeper "
    "shallower faster slower warmer colder cooler hotter wider narrower more less fewer "
    "further farther".split())

# --- units -------------------------------------------------------------------------------

_F = Fraction


def _unit_table() -> dict[tuple[str, ...], tuple[str, Fraction, Fraction]]:
    """Unit words (as token tuples) -> (kind, factor to the kind's base, offset).

    Exact factors (the international yard and pound, 1959), so a conversion adds no error
    of its own; the offset is for temperatures only (base: kelvin).
    """
    table: dict[tuple[str, ...], tuple[str, Fraction, Fraction]] = {}

    def add(kind: str, factor: Fraction, *names: str, offset: Fraction = _F(0)) -> None:
        for name in names:
            table[tuple(name.split())] = (kind, factor, offset)

    lengths = {
        ("mm", "millimetre", "millimetres", "millimeter", "millimeters"): _F(1, 1000),
        ("cm", "centimetre", "centimetres", "centimeter", "centimeters"): _F(1, 100),
        ("m", "metre", "metres", "meter", "meters"): _F(1),
        ("km", "kilometre", "kilometres", "kilometer", "kilometers"): _F(1000),
        ("inch", "inches"): _F(254, 10000),
        ("ft", "foot", "feet"): _F(3048, 10000),
        ("yd", "yard", "yards"): _F(9144, 10000),
        ("mi", "mile", "miles"): _F(1609344, 1000),
        ("nautical mile", "nautical miles"): _F(1852),
    }
    for names, factor in lengths.items():
        add("length", factor, *names)
        for n in names:
            if " " in n:
                continue
            add("area", factor ** 2, f"square {n}", f"sq {n}", f"{n} 2", f"{n} ²")
            add("volume", factor ** 3 * 1000, f"cubic {n}", f"{n} 3", f"{n} ³")
    add("area", _F(10000), "hectare", "hectares", "ha")
    add("area", _F(40468564224, 10 ** 7), "acre", "acres")
    add("volume", _F(1, 1000), "ml", "millilitre", "millilitres", "milliliter", "milliliters",
        "cc")
    add("volume", _F(1, 100), "cl", "centilitre", "centilitres")
    add("volume", _F(1), "l", "litre", "litres", "liter", "liters")
    add("mass", _F(1, 10 ** 6), "mg", "milligram", "milligrams")
    add("mass", _F(1, 1000), "g", "gram", "grams", "gramme", "grammes")
    add("mass", _F(1), "kg", "kilogram", "kilograms", "kilo", "kilos")
    add("mass", _F(1000), "tonne", "tonnes", "metric ton", "metric tons")
    add("mass", _F(45359237, 10 ** 8), "lb", "lbs", "pound", "pounds")
    add("mass", _F(28349523125, 10 ** 12), "oz", "ounce", "ounces")
    add("duration", _F(1, 1000), "ms", "millisecond", "milliseconds")
    add("duration", _F(1), "s", "sec", "secs", "second", "seconds")
    add("duration", _F(60), "min", "mins", "minute", "minutes")
    add("duration", _F(3600), "h", "hr", "hrs", "hour", "hours")
    add("duration", _F(86400), "day", "days")
    add("duration", _F(604800), "week", "weeks")
    add("duration", _F(1209600), "fortnight", "fortnights")
    # months and years are not a whole number of days: their own kind, exact among themselves
    add("calendar", _F(1), "month", "months")
    add("calendar", _F(12), "year", "years", "yr", "yrs")
    add("calendar", _F(120), "decade", "decades")
    add("calendar", _F(1200), "century", "centuries")
    add("temperature", _F(1), "°c", "° c", "degrees celsius", "degree celsius", "celsius",
        "degrees centigrade", "centigrade", "degrees c", offset=_F(27315, 100))
    add("temperature", _F(5, 9), "°f", "° f", "degrees fahrenheit", "degree fahrenheit",
        "fahrenheit", "degrees f", offset=_F(27315, 100) - _F(160, 9))
    add("temperature", _F(1), "kelvin", "kelvins", offset=_F(0))
    add("angle_or_degrees", _F(1), "degrees", "degree", "°")
    add("speed", _F(1000, 3600), "kph", "km/h", "kmh")
    add("speed", _F(1609344, 3600000), "mph")
    add("speed", _F(1852, 3600), "knot", "knots")
    prefixes = {"": _F(1), "k": _F(10 ** 3), "m": _F(10 ** 6), "g": _F(10 ** 9),
                "t": _F(10 ** 12)}
    for prefix, factor in prefixes.items():
        add("data", factor, f"{prefix}b" if prefix else "bytes")
        add("power", factor, f"{prefix}w")
        add("energy", factor * 3600, f"{prefix}wh")
    add("data", _F(1), "byte")
    add("power", _F(1), "watt", "watts")
    add("power", _F(1000), "kilowatt", "kilowatts")
    add("power", _F(10 ** 6), "megawatt", "megawatts")
    add("power", _F(10 ** 9), "gigawatt", "gigawatts")
    add("energy", _F(3600 * 1000), "kilowatt hour", "kilowatt hours", "kilowatt-hour",
        "kilowatt-hours")
    add("energy", _F(1), "j", "joule", "joules")
    add("energy", _F(1000), "kj", "kilojoule", "kilojoules")
    add("energy", _F(4184), "kcal", "kilocalorie", "kilocalories")
    add("money:usd", _F(1), "dollar", "dollars", "usd", "$")
    add("money:eur", _F(1), "euro", "euros", "eur", "€")
    add("money:gbp", _F(1), "£", "gbp")
    add("multiple", _F(1), "times", "fold")
    add("proportion", _F(1), "%", "percent", "per cent", "pct", "percentage points",
        "percentage point")
    return table


_UNITS = _unit_table()
_LONGEST_UNIT = max(len(k) for k in _UNITS)
_TIME_UNITS = {k[0]: v[1] for k, v in _UNITS.items() if v[0] == "duration" and len(k) == 1}
_CASED = {"c": "°c", "f": "°f", "k": "kelvin"}
"""One-letter units that count only in capitals after a number ("89.2 C"): in lower case
"c" and "f" are too often something else."""
_CURRENCY_SYMBOLS = {"$": "money:usd", "€": "money:eur", "£": "money:gbp"}


# --- quantities --------------------------------------------------------------------------


@dataclass(frozen=True)
class Quantity:
    """One quantity of a text, in its kind's base unit.

    ``low``/``high``: the value (equal) or the ends of a range or span; ``is_range``: a
    range or span, matched by containment; ``hedge``: "", "approx", "at_least" or
    "at_most"; ``unit``: the unit as written (normalised), to tell a conversion from a
    copy; ``precision``: half a unit of the last significant digit, in base units;
    ``scale``: base units per written unit; ``sources``: the canonical number and year
    strings written in it (as ``nlp`` reads them), which tie it to a claim's numbers;
    ``difference``: stated as a difference ("400 m lower"); ``sentence``: its sentence.
    """

    kind: str
    low: Fraction
    high: Fraction
    unit: str
    precision: Fraction
    scale: Fraction = Fraction(1)
    is_range: bool = False
    hedge: str = ""
    sources: frozenset[str] = frozenset()
    difference: bool = False
    sentence: int = 0


@dataclass(frozen=True)
class _Token:
    text: str
    lower: str
    start: int
    end: int


_TOKEN = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?|\.\d+|[^\W\d_]+(?:[-'’][^\W\d_]+)*"
                    r"|[%°~$€£²³/:\-\u2013\u2014]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|\n+")


def _tokens(text: str) -> list[_Token]:
    return [_Token(m.group(), m.group().casefold(), m.start(), m.end())
            for m in _TOKEN.finditer(text)]


def _canonical(value: Fraction) -> str:
    """The canonical string ``nlp.number_value`` gives the same value."""
    if value.denominator == 1:
        return str(value.numerator)
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return number_value(text) or text


def _half_place(digits: str, loose_zeros: bool) -> Fraction:
    """Half a unit of the last significant digit of a written number: "3.5" -> 0.05;
    "3490" -> 5 and "400" -> 50 when trailing zeros count as rounding, else 0.5."""
    digits = digits.replace(",", "")
    if "." in digits:
        return Fraction(1, 2 * 10 ** len(digits.split(".")[1]))
    if loose_zeros and digits.strip("0"):
        zeros = len(digits) - len(digits.rstrip("0"))
        return Fraction(10 ** zeros, 2)
    return Fraction(1, 2)


@dataclass
class _Number:
    value: Fraction
    start: int  # token index of its first token
    end: int  # token index after it
    precision: Fraction  # half the place of the last significant digit (trailing zeros loose)
    exact_precision: Fraction  # the same with trailing zeros significant
    sources: set[str]
    ordinal: bool = False
    decade: bool = False
    digits: bool = False
    proportion: bool = False  # read by ``fraction``: a value in percent


class _Reader:
    """Reads the quantities of one sentence, token by token."""

    def __init__(self, text: str, sentence: int) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.sentence = sentence

    def lower(self, i: int) -> str:
        return self.toks[i].lower if 0 <= i < len(self.toks) else ""

    def glued(self, i: int) -> bool:
        """Token ``i`` follows token ``i - 1`` with no space."""
        return 0 < i < len(self.toks) and self.toks[i].start == self.toks[i - 1].end

    # numbers

    def number(self, i: int) -> _Number | None:
        """The number starting at token ``i``: digits or words, times a scale word."""
        if i >= len(self.toks):
            return None
        tok = self.toks[i]
        if tok.text[0].isdigit() or tok.text[0] == ".":
            digits = tok.text.replace(",", "")
            try:
                exact = Fraction(Decimal(digits))
            except ArithmeticError:
                return None
            out = _Number(exact, i, i + 1, _half_place(tok.text, True),
                          _half_place(tok.text, False), {s for s in [number_value(tok.text)]
                                                         if s}, digits=True)
            nxt = self.lower(i + 1)
            if self.glued(i + 1) and nxt in ("st", "nd", "rd", "th"):
                out.ordinal, out.end = True, i + 2
                return out
            if self.glued(i + 1) and nxt in ("s", "'s", "’s"):
                out.decade, out.end = True, i + 2
                return out
            return self._scaled(out)
        word = tok.lower
        if word in _SMALL or word in _TENS or "-" in word:
            parts = word.split("-")
            precision = Fraction(1, 2)
            if len(parts) == 2 and parts[0] in _TENS and parts[1] in _SMALL:
                value = _TENS[parts[0]] + _SMALL[parts[1]]
            elif word in _SMALL:
                value = _SMALL[word]
            elif word in _TENS:
                value, precision = _TENS[word], Fraction(5)
            else:
                return None
            sources = {s for s in [number_value(word)] if s}
            return self._scaled(_Number(Fraction(value), i, i + 1, precision,
                                        Fraction(1, 2), sources))
        if word in _ORDINAL_WORDS:
            return _Number(Fraction(_ORDINAL_WORDS[word]), i, i + 1, Fraction(1, 2),
                           Fraction(1, 2), {s for s in [number_value(word)] if s},
                           ordinal=True)
        if word in ("a", "an") and self.lower(i + 1) in _SCALES | {"dozen": 12}:
            return self._scaled(_Number(Fraction(1), i, i + 1, Fraction(1, 2), Fraction(1, 2),
                                        set()))
        if word == "dozen":
            return _Number(Fraction(12), i, i + 1, Fraction(1, 2), Fraction(1, 2), set())
        return None

    def _scaled(self, n: _Number) -> _Number:
        """"3 million", "two hundred", "a dozen": the scale word multiplies."""
        while self.lower(n.end) in _SCALES or self.lower(n.end) == "dozen":
            word = self.lower(n.end)
            scale = 12 if word == "dozen" else _SCALES[word]
            n.value *= scale
            n.precision *= scale
            n.exact_precision *= scale
            n.end += 1
            src = number_value(word)
            if src and word != "dozen":
                n.sources.add(src)
        n.sources.add(_canonical(n.value))
        return n

    # hedges

    def hedge_before(self, i: int) -> str:
        """The hedge ending right before token ``i`` ("about", "a little over", ...)."""
        words = [self.lower(k) for k in range(max(0, i - 4), i)]
        for phrase, kind in _HEDGES:
            if words[len(words) - len(phrase):] == phrase and len(words) >= len(phrase):
                before = i - len(phrase)
                if kind != "approx" and self.denied(before):
                    # "do not give (for) more than 4 doses", "not more than 4": at most 4
                    return "at_most" if kind == "at_least" else "at_least"
                return kind
        return ""

    def denied(self, i: int) -> bool:
        """A "not" (or "never", "don't") up to three tokens before token ``i``, in its
        clause: "do not give (for) more than 4 doses" bounds from above; "VAT not included,
        for up to five people" does not turn "up to" round."""
        for k in range(max(0, i - 3), i):
            if _denies(self.lower(k)) and not any(
                    c in self.text[self.toks[k].end:self.toks[i].start] for c in ",;:"):
                return True
        return False

    def hedge_after(self, j: int) -> str:
        pair = (self.lower(j), self.lower(j + 1))
        if pair == ("or", "so"):
            return "approx"
        if pair in (("or", "more"), ("and", "up"), ("or", "above")):
            return "at_least"
        if pair in (("or", "less"), ("or", "fewer"), ("or", "below")):
            return "at_most"
        return ""

    # units

    def unit(self, j: int) -> tuple[tuple[str, Fraction, Fraction], str, int] | None:
        """The unit starting at token ``j``: ((kind, factor, offset), its name, end).

        A hyphen joining the number to its unit ("3.5-inch drives", "a 10-minute walk",
        "a 30-day window") is passed over: read as no unit, "3.5-inch" was a count, and a
        claim's count ("four bays") was held to be contradicted by it."""
        if (self.lower(j) == "-" and self.glued(j) and self.glued(j + 1)
                and not self.lower(j + 1)[:1].isdigit()):
            j += 1
        for size in range(_LONGEST_UNIT, 0, -1):
            words = tuple(self.lower(k) for k in range(j, j + size))
            if "" in words:
                continue
            if size == 1 and self.toks[j].text in ("C", "F", "K"):
                name = _CASED[words[0]]
                return _UNITS[(name,)], name, j + 1
            if words in _UNITS and not (size == 1 and words[0] in ("c", "f", "k")):
                unit = _UNITS[words]
                end = j + size
                # a rate: "4 centimetres an hour", "90 km per hour", "km/h"
                per = self.lower(end)
                if per in ("per", "an", "a", "/", "each", "every") and \
                        self.lower(end + 1) in _TIME_UNITS and unit[0] not in (
                            "duration", "proportion", "temperature", "multiple"):
                    time = _TIME_UNITS[self.lower(end + 1)]
                    kind = "speed" if unit[0] == "length" else f"{unit[0]}/time"
                    return ((kind, unit[1] / time, Fraction(0)),
                            " ".join(words) + "/" + self.lower(end + 1), end + 2)
                return unit, " ".join(words), end
        return None

    # the reading

    def read(self) -> list[Quantity]:
        out: list[Quantity] = []
        i = 0
        while i < len(self.toks):
            found, i = self.quantity_at(i)
            out.extend(found)
        return out

    def quantity_at(self, i: int) -> tuple[list[Quantity], int]:
        """Quantities starting at token ``i`` and the index after them."""
        word = self.lower(i)
        if word in _RANK_ONE and not self._number_before(i):
            sources = frozenset({"1"}) if word == "first" else frozenset()
            return [self._make("rank", 1, 1, "rank", Fraction(0), sources=sources)], i + 1
        if word in ("early", "mid", "middle", "late"):
            return [], i + 1  # read with the span after it
        if [self.lower(k) for k in range(i, i + 4)] == ["time", "and", "a", "half"]:
            # pay "at time and a half" is 1.5 times the rate, not half of something
            return [self._make("multiple", Fraction(3, 2), Fraction(3, 2), "times",
                               Fraction(0), sources=frozenset({"1.5"}))], i + 4
        span = self.years(i)
        if span is not None:
            return span
        fraction = self.fraction(i)
        if fraction is not None:
            return self.with_range(fraction, i)
        currency = _CURRENCY_SYMBOLS.get(word)
        if currency:
            n = self.number(i + 1)
            if n is None:
                return [], i + 1
            q = self._measure(n, (currency, Fraction(1), Fraction(0)), word, 1)
            return [q], n.end
        n = self.number(i)
        if n is None:
            if word in ("a", "an", "half") and self.unit(i + 1) is not None \
                    and self.lower(i + 1) not in ("m", "s", "h", "l", "g"):
                value = Fraction(1, 2) if word == "half" else Fraction(1)
                n = _Number(value, i, i + 1, Fraction(1, 2), Fraction(1, 2), set())
                if word == "half" and self.lower(i + 1) in ("a", "an"):
                    n.end = i + 2
            elif word == "half" and self.lower(i + 1) in ("a", "an") and \
                    self.unit(i + 2) is not None:
                n = _Number(Fraction(1, 2), i, i + 2, Fraction(1, 4), Fraction(1, 4), set())
            else:
                return [], i + 1
            unit = self.unit(n.end)
            assert unit is not None
            return [self._measure(n, unit[0], unit[1], 1, end=unit[2])], unit[2]
        if self._in_date_or_time(n):
            return [], n.end
        if n.ordinal and n.value == 1 and n.digits:  # "1st"
            return [self._make("rank", 1, 1, "rank", Fraction(0),
                               sources=frozenset(n.sources))], n.end
        if n.ordinal:
            return [], n.end
        return self.with_range(n, i)

    def _number_before(self, i: int) -> bool:
        """A number right before token ``i`` ("the 21st-century first")."""
        return i > 0 and self.number(i - 1) is not None

    def _in_date_or_time(self, n: _Number) -> bool:
        """A day of a date ("14 April", "April 14") or a part of a time ("23:40")."""
        before, after = self.lower(n.start - 1), self.lower(n.end)
        if after == "of":
            after = self.lower(n.end + 1)
        if before in _MONTHS or after in _MONTHS:
            return not (1000 <= n.value <= 2099 and before in _MONTHS)
        return before == ":" or after == ":"

    def _year_like(self, n: _Number) -> bool:
        token = self.toks[n.start].text
        return (n.digits and n.end == n.start + 1 and re.fullmatch(r"1\d{3}|20\d{2}", token)
                is not None)

    # proportions

    def fraction(self, i: int) -> _Number | None:
        """"a third", "two thirds", "half", "three-quarters", "nine out of ten", "1 in 4":
        a proportion in percent."""
        word = self.lower(i)
        parts = word.split("-")
        if len(parts) == 2 and parts[1] in _DENOMINATORS and (parts[0] in _SMALL
                                                              or parts[0] in ("a", "an")):
            num = 1 if parts[0] in ("a", "an") else _SMALL[parts[0]]
            return self._proportion(num, _DENOMINATORS[parts[1]], i, i + 1,
                                    {s for s in (number_value(parts[0]),) if s})
        if word in ("half",):
            if self.lower(i + 1) in ("a", "an") or self.unit(i + 1) is not None:
                return None  # "half an hour": a measure
            return self._proportion(1, 2, i, i + 1, set())
        if word in ("a", "an", "one") or word in _SMALL:
            nxt = self.lower(i + 1)
            if nxt in _DENOMINATORS:
                num = 1 if word in ("a", "an", "one") else _SMALL[word]
                singular = not nxt.endswith("s") or nxt == "halves"
                if (num == 1) != singular and nxt != "halves":
                    return None
                sources = {s for s in (number_value(word), number_value(nxt)) if s}
                return self._proportion(num, _DENOMINATORS[nxt], i, i + 2, sources)
        n = self.number(i)
        if n is None or n.ordinal or n.decade:
            return None
        j = n.end
        if self.lower(j) == "in":
            j += 1
        elif (self.lower(j), self.lower(j + 1)) == ("out", "of"):
            j += 2
        elif (self.lower(j), self.lower(j + 1)) == ("of", "every"):
            j += 2
        else:
            return None
        m = self.number(j)
        if m is None or m.ordinal or m.decade or not (n.value < m.value <= 1000):
            return None
        if self._year_like(m) or self.unit(m.end) is not None:
            return None
        return self._proportion(n.value, m.value, i, m.end, n.sources | m.sources)

    def _proportion(self, num: Fraction | int, den: Fraction | int, start: int, end: int,
                    sources: set[str]) -> _Number:
        value = Fraction(num) * 100 / Fraction(den)
        return _Number(value, start, end, Fraction(1, 2), Fraction(1, 2), sources,
                       proportion=True)

    # years

    def years(self, i: int) -> tuple[list[Quantity], int] | None:
        """A year, decade or century at token ``i`` (with "early"/"mid"/"late" before it)."""
        n = self.number(i)
        if n is None:
            return None
        third = self._third(i)
        if n.ordinal and n.value <= 21:
            # "16th century", "sixteenth-century", "13th and 15th centuries"
            ords = [n]
            k = n.end
            while self.lower(k) in ("-",):
                k += 1
            if self.lower(k) in ("and", "to", "or", "-", "\u2013"):
                k2 = k + 1 + (self.lower(k + 1) == "the")
                m = self.number(k2)
                if m is not None and m.ordinal and m.value <= 21:
                    ords.append(m)
                    k = m.end
            while self.lower(k) == "-":
                k += 1
            if self.lower(k) not in ("century", "centuries"):
                return None
            end = k + 1
            bc = self.lower(end) in ("bc", "bce")
            end += self.lower(end) in ("bc", "bce", "ad", "ce")
            out = []
            for o in ords:
                c = int(o.value)
                lo, hi = (-(100 * c), -(100 * (c - 1) + 1)) if bc else (100 * (c - 1) + 1,
                                                                     100 * c)
                lo, hi = _narrow(lo, hi, third if o is ords[0] else "")
                out.append(self._make("years", lo, hi, "century", Fraction(0), is_range=True,
                                      sources=frozenset(o.sources)))
            return out, end
        if not self._year_like(n) and not (n.decade and n.digits):
            return None
        if not n.decade and (self.unit(n.end) is not None or self.lower(n.end) == "%"):
            return None
        token = self.toks[n.start].text
        if not n.decade and self.lower(n.start - 1) in ("$", "€", "£"):
            return None
        y = int(n.value)
        if n.decade:
            if not re.fullmatch(r"1\d{3}|20\d{2}", token) or y % 10:
                return None
            hi = y + 99 if y % 100 == 0 else y + 9
            lo, hi = _narrow(y, hi, third)
            return [self._make("years", lo, hi, "decade", Fraction(0), is_range=True,
                               sources=frozenset({f"{y:04d}"}))], n.end
        hedge = self.hedge_before(n.start)
        precision = min(Fraction(10), _half_place(token, True)) if hedge else Fraction(0)
        return [self._make("years", y, y, "year", precision, hedge=hedge,
                           sources=frozenset({f"{y:04d}"}))], n.end

    def _third(self, i: int) -> str:
        """"early", "mid" or "late" right before token ``i`` (or ""), "mid-" included."""
        k = i - 1
        if self.lower(k) == "-":
            k -= 1
        word = self.lower(k)
        return {"early": "early", "mid": "mid", "middle": "mid", "late": "late"}.get(word, "")

    # measures, counts, ranges

    def with_range(self, a: _Number, i: int) -> tuple[list[Quantity], int]:
        """The quantity of number ``a`` (a proportion when ``a`` came from ``fraction``),
        as the first end of a range when one follows: "between 30 and 50 percent",
        "22 to 23 percent", "5-10 km", "two or three weeks"."""
        is_fraction = a.proportion
        if not is_fraction and self._year_like(a):
            return [], a.end
        unit_a = None if is_fraction else self.unit(a.end)
        after_a = unit_a[2] if unit_a else a.end
        joiner = self.lower(after_a)
        opener = self.lower(a.start - 1)
        b: _Number | None = None
        if (joiner in ("to", "-", "\u2013", "\u2014", "or")
                or (joiner == "and" and opener == "between")):
            k = after_a + 1
            b = self.fraction(k) if is_fraction else None
            if b is None and not is_fraction:
                b = self.number(k)
                if b is not None and (b.ordinal or b.decade or self._year_like(b)):
                    b = None
            if b is None and is_fraction:
                b = self.fraction(k)
        hedge_start = a.start - 1 if opener in ("between", "from") else a.start
        hedge = self.hedge_before(hedge_start)
        if b is not None:
            unit_b = None if is_fraction else self.unit(b.end)
            unit = unit_b or unit_a
            same_kind = (unit_a is None or unit_b is None or unit_a[0][0] == unit_b[0][0])
            if same_kind and b.value >= a.value and (unit is not None or is_fraction
                                                     or joiner != "or"):
                end = unit_b[2] if unit_b else b.end
                hedge = hedge or self.hedge_after(end)
                if is_fraction:
                    q = self._make("proportion", a.value, b.value, "fraction", Fraction(1, 2),
                                   is_range=True, hedge=hedge,
                                   sources=frozenset(a.sources | b.sources))
                    return [q], end
                if unit is None:
                    q = self._make("count", a.value, b.value, "", a.precision, is_range=True,
                                   hedge=hedge, sources=frozenset(a.sources | b.sources))
                    return [q], end
                low = self._measure(a, unit[0], unit[1], 1, hedge=hedge)
                high = self._measure(b, unit[0], unit[1], 1, hedge=hedge)
                q = Quantity(low.kind, low.low, high.high, low.unit,
                             max(low.precision, high.precision), low.scale, True, hedge,
                             frozenset(a.sources | b.sources), False, self.sentence)
                return [q], end
        end = unit_a[2] if unit_a else a.end
        hedge = hedge or self.hedge_after(end)
        if is_fraction:
            return [self._make("proportion", a.value, a.value, "fraction", Fraction(1, 2),
                               hedge=hedge, sources=frozenset(a.sources))], end
        sign = -1 if self._negative(a) else 1
        if sign < 0:
            # "-89.2 C" is the number "-89.2" to ``nlp``, which ties a claim's figure to
            # this quantity; "minus 89.2 degrees" is "89.2" there: both strings are kept
            a.sources.add(_canonical(-a.value))
        if unit_a is None:
            value = sign * a.value
            return [self._make("count", value, value, "", a.exact_precision, hedge=hedge,
                               sources=frozenset(a.sources),
                               difference=self._is_difference(a.start, end))], end
        return [self._measure(a, unit_a[0], unit_a[1], sign, hedge=hedge,
                              end=end)], end

    def _negative(self, n: _Number) -> bool:
        before = self.lower(n.start - 1)
        if before == "minus":
            return True
        return (before in ("-", "\u2212") and self.glued(n.start)
                and self.number(n.start - 2) is None)

    def _is_difference(self, start: int, end: int) -> bool:
        return self.lower(end) in _COMPARATIVES or self.lower(start - 1) == "by"

    def _measure(self, n: _Number, unit: tuple[str, Fraction, Fraction], name: str, sign: int,
                 hedge: str | None = None, end: int | None = None) -> Quantity:
        """Number ``n`` in ``unit``, in the kind's base unit; ``end``: the token after the
        unit, given when a comparative after it may make it a difference."""
        kind, factor, offset = unit
        value = sign * n.value * factor + offset
        if kind in ("proportion", "temperature"):
            # a percentage rounds to its units, not its tens; so does a temperature, whose
            # zero is arbitrary ("100 F" is not 50-150 F)
            precision = n.exact_precision * factor
        else:
            # trailing zeros are rounding, up to 5% of the value: "400 m" is 380-420 m,
            # "2 km" still 1.5-2.5 km (its last digit), "3,490 m" 3,485-3,495 m
            loose = min(n.precision, abs(n.value) / 20)
            precision = max(n.exact_precision, loose) * factor
        if hedge is None:
            hedge = self.hedge_before(n.start)
        stop = end if end is not None else n.end
        return self._make(kind, value, value, name, precision, scale=factor, hedge=hedge,
                          sources=frozenset(n.sources),
                          difference=end is not None and self._is_difference(n.start, stop))

    def _make(self, kind: str, low: Fraction | int, high: Fraction | int, unit: str,
              precision: Fraction, scale: Fraction = Fraction(1), is_range: bool = False,
              hedge: str = "", sources: frozenset[str] = frozenset(),
              difference: bool = False) -> Quantity:
        return Quantity(kind, Fraction(low), Fraction(high), unit, precision, scale, is_range,
                        hedge, sources, difference, self.sentence)


def _narrow(lo: int, hi: int, third: str) -> tuple[int, int]:
    """The first, middle or last third of the years ``lo``..``hi`` ("early 1500s" is
    1500-1533, "late 1920s" 1926-1929)."""
    part = (hi - lo + 1) // 3
    if third == "early":
        return lo, lo + part
    if third == "mid":
        return lo + part, hi - part
    if third == "late":
        return hi - part, hi
    return lo, hi


@functools.lru_cache(maxsize=4096)
def quantities(text: str) -> tuple[Quantity, ...]:
    """The quantities of ``text``, sentence by sentence, in order (see the module doc)."""
    text = unicodedata.normalize("NFKC", text)
    out: list[Quantity] = []
    for index, sentence in enumerate(s for s in _SENTENCE_END.split(text) if s.strip()):
        out.extend(_Reader(sentence, index).read())
    return tuple(out)


caches.register(quantities.cache_clear)


# --- comparison --------------------------------------------------------------------------


def hedge_tolerance(q: Quantity, value: Fraction) -> Fraction:
    """How far from ``value`` (one end of ``q``) the truth may be under a hedge.

    10% of the value ("about 1,500" takes 1,350-1,650); for a proportion 10% of its
    distance to the nearer of 0 and 100 percent, at least 2 points but at most half the
    value (about 90% is about 10% not, so 88-92; about a third takes 30-36.7); 2.5 degrees
    of the written unit for a temperature; the year's own rounding, at most 10, for a year.
    """
    if q.kind == "proportion":
        return max(min(Fraction(2), value / 2), min(value, 100 - value) / 10)
    if q.kind == "temperature":
        return Fraction(5, 2) * q.scale
    if q.kind == "years":
        return q.precision
    return abs(value) / 10


def interval(claim: Quantity, premise: Quantity, value: Fraction) -> tuple[Fraction, Fraction]:
    """The values that ``value`` (one end of the claim quantity) allows when checked
    against ``premise``'s form.

    Rounding applies only when the premise writes the quantity another way (another unit,
    a fraction for a percentage): a claim that copies the unit could copy the digits.
    A hedge widens the end (``hedge_tolerance``), upward only for "more than"/"over",
    downward only for "nearly"/"up to"; a century or decade gets one year either side.
    """
    rounding = claim.precision if claim.unit != premise.unit else Fraction(0)
    if claim.kind == "years":
        rounding = Fraction(1) if claim.is_range else claim.precision
    low_slack = high_slack = rounding
    if claim.hedge in ("approx", "at_most"):
        low_slack = max(low_slack, hedge_tolerance(claim, value))
    if claim.hedge in ("approx", "at_least"):
        high_slack = max(high_slack, hedge_tolerance(claim, value))
    return value - low_slack, value + high_slack


def states(premise: Quantity, claim: Quantity) -> bool:
    """Does the premise quantity state the claim quantity (in any form)?

    Same kind, and:

    * a year span ("the early 1500s", "the 16th century") or year: the premise's years all
      inside it (a year inside "the 1920s" states it; "the 1920s" does not state 1925);
    * a range ("between 30 and 50 percent"): a premise range whose ends each fall in the
      interval of the claim's end (``interval``). End to end, not containment: the ends of
      a range are facts ("between 7 and 18 C" is not stated by "between 5 and 21 C", nor
      the other way round);
    * a single value: its interval meets the premise's value or range ("a little over a
      fifth" is what "22 to 23 percent" says).
    """
    if premise.kind != claim.kind:
        return False
    if claim.kind == "years":
        low = interval(claim, premise, claim.low)[0]
        high = interval(claim, premise, claim.high)[1]
        return low <= premise.low and premise.high <= high
    if claim.is_range:
        if not premise.is_range:
            return False
        low_a, low_b = interval(claim, premise, claim.low)
        high_a, high_b = interval(claim, premise, claim.high)
        return low_a <= premise.low <= low_b and high_a <= premise.high <= high_b
    low, high = interval(claim, premise, claim.low)
    return premise.high >= low and premise.low <= high


def _states_as_difference(claim: Quantity, premise: Sequence[Quantity]) -> bool:
    """A claim difference ("400 m lower") stated by two premise values of its kind in one
    sentence ("from 2,950 metres to 2,549 metres"): their difference in its interval."""
    if not claim.difference or claim.kind in ("years", "rank", "proportion"):
        return False
    singles = [q for q in premise if q.kind == claim.kind and not q.is_range]
    for a in singles:
        for b in singles:
            if a.sentence == b.sentence and a.low > b.low:
                gap = Quantity(claim.kind, a.low - b.low, a.low - b.low, a.unit, Fraction(0),
                               a.scale)
                if states(gap, claim):
                    return True
    return False


_YEARS_UNITS = frozenset({"year", "years", "yr", "yrs", "decade", "decades", "century",
                          "centuries"})


def _states_as_elapsed(claim: Quantity, premise: Sequence[Quantity]) -> bool:
    """A claim's span of years ("two years later", "for about three centuries") stated by
    the time between two years one premise sentence gives ("in 1911 ... in 1913"; "from
    the 13th to the 15th century", 1201-1500: three centuries), within the claim's
    rounding and hedge (``states``).

    A paraphrase turns two dates into the time between them; only years of one sentence
    are paired, so two unrelated years of a passage do not state a span.
    """
    if claim.kind != "calendar" or claim.unit not in _YEARS_UNITS or claim.is_range:
        return False
    years = [q for q in premise if q.kind == "years"]
    for a in years:
        for b in years:
            if a.sentence != b.sentence or b.low <= a.high:
                continue
            gaps = {b.low - a.low}
            if a.is_range or b.is_range:
                gaps.add(b.high - a.low + 1)  # whole periods, first to last
            for gap in gaps:
                months = gap * 12
                if states(Quantity("calendar", months, months, "years", Fraction(0)), claim):
                    return True
    return False


def _denies(word: str) -> bool:
    return word in ("not", "never", "cannot") or word.endswith(("n't", "n’t"))


_OPPOSITE = {"at_least": "at_most", "at_most": "at_least"}


def opposed_bounds(claim: str, premise: str) -> list[str]:
    """The claim's figures bounded the other way from the premise's: a claim quantity with
    a floor ("at least 10 metres", "more than 30 days after", "no earlier than 72 hours")
    where the premise puts a ceiling on the same amount ("no more than 10 metres", "within
    30 days", "within 72 hours"), or the other way round; unless the premise also bounds it
    the claim's way. Returns the figures (``Quantity.sources``) in claim order.

    The same number with the bound reversed is the antonym a paraphrase check misses: every
    word but one is shared, and "within" and "more than" are not antonyms of each other as
    words.
    """
    bounded = [q for q in quantities(claim) if q.hedge in _OPPOSITE]
    if not bounded:
        return []  # most claims: the premise is not read (it is long, and cached only so far)
    theirs = quantities(premise)
    out: list[str] = []
    for q in bounded:
        other = _OPPOSITE[q.hedge]
        plain = dataclasses.replace(q, hedge="")
        # the same amount both ways: "one litre" is not "1.5 litres", though one rounds
        # to the other
        same = [p for p in theirs if states(dataclasses.replace(p, hedge=""), plain)
                and states(plain, dataclasses.replace(p, hedge=""))]
        if any(p.hedge == other for p in same) and not any(p.hedge == q.hedge for p in same):
            out.extend(sorted(q.sources))
    return list(dict.fromkeys(out))


def restated(value: str, claim: str, premise: str) -> bool:
    """True when every quantity of ``claim`` that writes ``value`` (a canonical number or
    year string, as ``nlp`` reads it: "3", "1500", "3490") is stated by some quantity of
    ``premise``, in any form (``states``), and there is at least one such quantity.

    Every, not any: "3 km ... 3 hours" needs both restated. A value the rules do not read
    as part of a quantity is not restated: the caller's exact check stands.
    """
    mine = [q for q in quantities(claim) if value in q.sources]
    if not mine:
        return False
    theirs = quantities(premise)
    return all(any(states(p, q) for p in theirs) or _states_as_difference(q, theirs)
               or _states_as_elapsed(q, theirs) for q in mine)


_REFERRING = re.compile(
    r"\b(?:the|these|those|all|both of the)\s+(two|three|four|five|six|seven|eight|nine|ten)"
    r"(?=\s+(?:together|combined|alone|are|were|is|was|have|had|can|could|will|would|do|did|"
    r"of\s+(?:them|us|you|these|those)|each|also|still|then)\b|\s*[,.;:!?)]|\s*$)",
    re.IGNORECASE)


def referring_numbers(text: str) -> frozenset[str]:
    """Numbers of ``text`` (canonical strings) written only as a numeral standing for
    things already named: "the two together give bigger tides", "all three were", "the
    two of them" (a determiner, the numeral, then no noun: a verb, "together", "of them",
    or the end of the clause).

    Such a numeral counts the things the sentence or the passage has just named ("the Sun
    ... the Moon ... the two"); it is not a figure a premise states, and read as one it
    broke faithful claims ("when the two are aligned" against a passage that never writes
    "two"). A number the text also writes as a figure anywhere else is not returned.
    """
    found = {str(_SMALL.get(m.group(1).casefold()) or _TENS.get(m.group(1).casefold()))
             for m in _REFERRING.finditer(text)}
    if not found:
        return frozenset()
    others = [n for m in (q.sources for q in quantities(_REFERRING.sub("", text))) for n in m]
    return frozenset(found - set(others))


_FIRST = re.compile(r"\bfirst\b", re.IGNORECASE)
_ADVERBIAL_FIRST = re.compile(
    r"\b(?:i|you|he|she|it|we|they|who|which|that|was|were|is|are|be|been|had|has|have|can|"
    r"could|would|will|did|do|does)\s+first\s+[a-z]+", re.IGNORECASE)


def adverbial_first(text: str) -> bool:
    """Whether every "first" of ``text`` is the adverb of a verb after a subject pronoun or
    an auxiliary ("when they first reached the ocean", "ships could first use it", "it was
    first shown"): the first time something happened, not a rank.

    Read as rank one, the figure "1" had to be stated by the premise, and a faithful claim
    whose passage says "where they entered the sea" failed its value check. "The first
    ships", "the first person" (a rank of a thing) and "was logged first" (an order) stay
    figures.
    """
    found = _FIRST.findall(text)
    return bool(found) and len(found) == len(_ADVERBIAL_FIRST.findall(text)) and not re.search(
        r"\b1st\b|(?<![\d.])1(?![\d.,])", text)
