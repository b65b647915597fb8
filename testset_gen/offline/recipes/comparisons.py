"""reasoning: two things' values of one property compared ("Which is heavier: the Trailhead 2
or the Ember Stove?"), the two facts and the comparison as the ground truth.

The facts come from tables and sentences (``tables.Fact``, ``quantities``): the same
property ("weight", "price", "warranty") of two different things, each a number with a unit
of the same dimension, converted to one unit before they are compared (1.8 kg against 310
g). Equal values are not asked. The answer is computed, never stated: the page says each
value, the reader must compare them.
"""

from __future__ import annotations

import re
from itertools import combinations

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.recipes.tables import Fact

UNITS: dict[str, tuple[str, float]] = {
    "mg": ("mass", 0.001), "g": ("mass", 1.0), "gram": ("mass", 1.0), "kg": ("mass", 1000.0),
    "kilogram": ("mass", 1000.0), "lb": ("mass", 453.6), "pound": ("mass", 453.6), "oz": ("mass", 28.35),
    "mm": ("length", 0.001), "cm": ("length", 0.01), "m": ("length", 1.0), "metre": ("length", 1.0),
    "meter": ("length", 1.0), "km": ("length", 1000.0),
    "ml": ("volume", 0.001), "l": ("volume", 1.0), "litre": ("volume", 1.0), "liter": ("volume", 1.0),
    "second": ("time", 1 / 60), "minute": ("time", 1.0), "hour": ("time", 60.0), "day": ("time", 1440.0),
    "week": ("time", 10080.0), "month": ("time", 43800.0), "year": ("time", 525600.0),
    "euro": ("money:eur", 1.0), "eur": ("money:eur", 1.0), "€": ("money:eur", 1.0),
    "dollar": ("money:usd", 1.0), "usd": ("money:usd", 1.0), "$": ("money:usd", 1.0),
    "pound sterling": ("money:gbp", 1.0), "£": ("money:gbp", 1.0),
    "%": ("share", 1.0), "percent": ("share", 1.0),
}
_VALUE = re.compile(r"^(?:about |around |approximately |up to )?(?P<pre>[$€£])?\s?(?P<n>\d+(?:[.,]\d+)?)\s?"
                    r"(?P<unit>[A-Za-z€$£%]+)?\.?$")
ADJECTIVES = {"mass": ("heavier", "lighter"), "money": ("more expensive", "cheaper"),
              "length": ("longer", "shorter"), "volume": ("larger", "smaller"), "time": ("longer", "shorter")}


def measure(value: str) -> tuple[str, float] | None:
    """``(dimension, amount in its base unit)`` of "1.8 kg", "310 g", "59 euros", "5 years"."""
    m = _VALUE.match(value.strip())
    if not m:
        return None
    unit = (m.group("pre") or m.group("unit") or "").lower()
    unit = unit if unit in UNITS else unit.rstrip("s") if unit.rstrip("s") in UNITS else ""
    if not unit:
        return None
    dimension, scale = UNITS[unit]
    return dimension, float(m.group("n").replace(",", ".")) * scale


def _ask(prop: str, dimension: str, a: str, b: str, inverse: bool = False) -> tuple[str, str]:
    """The question and the comparative for ``prop`` ("weight" -> "Which is heavier: ...";
    ``inverse``: "Which is lighter: ...")."""
    kind = dimension.split(":")[0]
    if prop == "weight" or kind == "mass":
        said = "is lighter" if inverse else "is heavier"
    elif prop == "price" or kind == "money":
        said = "costs less" if inverse else "costs more"
    elif kind == "time":
        said = f"has the {'shorter' if inverse else 'longer'} {prop}"
    else:
        said = f"has the {'smaller' if inverse else 'larger'} {prop}"
    verb, rest = said.split(" ", 1)
    return (f"Which {verb} {rest}: {a} or {b}?" if verb == "is"
            else f"Which {said}: {a} or {b}?"), said


def comparison_questions(facts: list[Fact]) -> list[Candidate]:
    out = []
    groups: dict[tuple[str, str], list[tuple[Fact, float]]] = {}
    for f in facts:
        got = measure(f.value)
        if got is not None:
            groups.setdefault((f.prop.lower(), got[0]), []).append((f, got[1]))
    for (prop, dimension), members in sorted(groups.items()):
        seen: set[str] = set()
        kept = []
        for f, v in members:  # one value per thing (a table and a sentence may both say it)
            if f.thing.lower() not in seen:
                seen.add(f.thing.lower())
                kept.append((f, v))
        for (fa, va), (fb, vb) in combinations(kept, 2):
            if va == vb:
                continue
            question, comparative = _ask(prop, dimension, fa.thing, fb.thing)
            winner = fa.thing if va > vb else fb.thing
            said = [s[:1].upper() + s[1:] for s in (fa.sentence, fb.sentence)]
            truth = f"{said[0]} {said[1]} So {winner} {comparative}."
            chunks = tuple(dict.fromkeys((fa.chunk, fb.chunk)))
            pair = "|".join([prop] + sorted((fa.thing.lower(), fb.thing.lower())))
            meta = (("wh", "which"), ("constructed", True), ("pair", pair), ("answer", winner), ("compared", prop),
                    ("source_sentences", [fa.source, fb.source]))
            out.append(Candidate("reasoning", question, truth, chunks,
                                 (("template", "structure:comparison"),) + meta,
                                 derived="compare", structural=True))
            if fa.document_id != fb.document_id:
                # two pages: also a multi_context question, asked the other way round, so
                # that a folder without shared entities still has questions over two pages
                question, comparative = _ask(prop, dimension, fb.thing, fa.thing, inverse=True)
                loser = fb.thing if va > vb else fa.thing
                truth = f"{said[1]} {said[0]} So {loser} {comparative}."
                out.append(Candidate("multi_context", question, truth, chunks[::-1],
                                     (("template", "structure:two_page_comparison"), ("wh", "which"), ("constructed", True),
                                      ("pair", pair),
                                      ("answer", loser), ("compared", prop),
                                      ("source_sentences", [fb.source, fa.source])),
                                     derived="compare", structural=True))
    return out
