"""The same quantity in another form (``ragmeter.text.quantities``), on hand-written pairs:
restatements a careful reader accepts are stated; a wrong number, another unit, another
kind, or a fraction beyond its tolerance is not. Then, through the verifier, a faithful
restated claim keeps its ``values`` signal and a wrong figure still breaks it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ragmeter.text.quantities import (Quantity, adverbial_first, opposed_bounds, quantities,
                                       referring_numbers, restated, states)

STATED = [
    # proportions: fraction words and phrases <-> percentages
    ("9", "Nine out of ten Icelandic homes are heated this way.",
     "About 90 percent of Icelandic homes are heated with geothermal water."),
    ("90", "90% of homes are heated this way.", "Nine in ten homes are heated."),
    ("90", "Ninety per cent of homes are heated this way.", "Nine out of ten homes are."),
    ("4", "One in four adults smokes.", "25 percent of adults smoke."),
    ("2", "Two thirds of voters agreed.", "67% of voters agreed."),
    ("3", "Three quarters of the land is forest.", "75 per cent of the land is forest."),
    ("3", "It killed somewhere between a third and half of Europe's people.",
     "It killed between 30 and 50 percent of Europe's population."),
    ("5", "Baikal holds a little over a fifth of the water, about 22 to 23 percent.",
     "It holds roughly 22 to 23 percent of the world's fresh surface water."),
    ("3", "About a third of the budget goes on salaries.", "Salaries take 30% of the budget."),
    # centuries and decades
    ("1500", "It was painted in the early 1500s.",
     "It was painted in the early sixteenth century."),
    ("16", "It was built in the 16th century.", "It was built in the 1500s."),
    ("16", "It was built in the 16th century.", "It was built in 1503."),
    ("1920", "The style spread in the 1920s.", "The style spread in 1925."),
    # units
    ("3.5", "It sits at an altitude of nearly 3.5 km.", "It sits at an altitude of 3,490 metres."),
    ("91", "Bamboo can grow 91 cm in a day.", "Bamboo can grow three feet in a day."),
    ("3", "Bamboo can grow three feet in a day.", "Bamboo can grow 91 centimetres in a day."),
    ("4", "It grows 4 centimetres an hour.", "It grows 96 cm a day."),
    ("2.2", "The bag weighs 2.2 pounds.", "The bag weighs 1 kg."),
    ("90", "The film runs 90 minutes.", "The film runs 1.5 hours."),
    ("2", "Repairs take two weeks.", "Repairs take 14 days."),
    ("68", "The room is kept at 68 F.", "The room is kept at 20 C."),
    ("73", "The wall was 73 miles long.", "The wall was 117 kilometres long."),
    # ranges with the same ends in another form
    ("2", "Repairs take two to three weeks.", "Repairs take 14 to 21 days."),
    ("7", "It must sit between 7 and 18 C.", "It can hold between 7 and 18 degrees Celsius."),
    # approximate restatement, bounds, differences, rank one
    ("1500", "About 1,500 people died.", "1,517 people died."),
    ("1500", "More than 1,500 people died.", "1,517 people died."),
    ("400", "The peak ended up about 400 m lower.",
     "The eruption reduced its height from 2,950 metres to 2,549 metres."),
    ("1", "On her first voyage she hit an iceberg.", "On her maiden voyage she hit an iceberg."),
]

NOT_STATED = [
    # a wrong number in the same form or unit
    ("3", "Three quarters of the electricity comes from it.", "Roughly a quarter comes from it."),
    ("9", "Nine out of ten homes are heated this way.", "80 percent of homes are heated."),
    ("1500", "1,500 people died.", "1,517 people died."),  # unhedged: exact or nothing
    ("1500", "About 1,500 people died.", "1,717 people died."),  # beyond 10%
    ("1500", "More than 1,500 people died.", "1,480 people died."),  # the wrong side
    ("3.5", "It sits at an altitude of nearly 3.5 km.", "It sits at 3,600 metres."),
    ("40", "The peak ended up about 40 m lower.",
     "The eruption reduced its height from 2,950 metres to 2,549 metres."),
    ("39", "The wall was 39 miles long.", "The wall was 117 kilometres long."),
    ("100", "It reached 100 F.", "It reached 40 C."),
    # proportions beyond the tolerance
    ("30", "Salaries take 30 percent of the budget.", "About a third goes on salaries."),
    ("30", "It killed between 30 and 50 percent.", "It killed between a third and half."),
    ("25", "About 25 percent of the budget goes on salaries.", "A third goes on salaries."),
    ("90", "About 90 percent of homes are heated.", "81 percent of homes are heated."),
    ("5", "Most aim for about 5 percent.", "Most aim for 2 percent."),
    ("80", "It killed about 80 percent of them.", "It killed between 30 and 50 percent."),
    # another unit or kind
    ("91", "Bamboo can grow 91 m in a day.", "Bamboo can grow 91 centimetres in a day."),
    ("4", "It grows 4 cm an hour.", "It grows 4 cm."),
    ("14", "The road is 14 km long.", "The ship sank on 14 April 1912."),
    ("1500", "About 1,500 people died.", "The town was founded in 1500."),
    ("1500", "The town was founded in 1500.", "About 1,500 people live there."),
    # range ends are facts
    ("5", "It must sit between 5 and 21 C.", "It can hold between 7 and 18 degrees Celsius."),
    ("2", "Repairs take two to three weeks.", "Repairs take 14 days."),
    # years: a span does not state a year, another span does not state it either
    ("1925", "The style spread in 1925.", "The style spread in the 1920s."),
    ("1500", "It was painted in the late 1500s.", "It was painted in 1503."),
    ("18", "It ruled from the 16th to the 18th century.", "Its decline began in the 16th century."),
    ("1", "On her first voyage she hit an iceberg.", "On her second voyage she hit an iceberg."),
    # a number the rules do not read as a quantity is left to the exact check
    ("7", "A magnitude 7 quake.", "A magnitude 6 quake."),
]


@pytest.mark.parametrize("value, claim, premise", STATED)
def test_restated_in_another_form(value, claim, premise):
    assert restated(value, claim, premise), (claim, quantities(claim), quantities(premise))


@pytest.mark.parametrize("value, claim, premise", NOT_STATED)
def test_not_restated(value, claim, premise):
    assert not restated(value, claim, premise), (claim, quantities(claim), quantities(premise))


def test_quantities_read_kind_value_range_and_hedge():
    [q] = quantities("It killed somewhere between a third and half of Europe's people.")
    assert (q.kind, q.low, q.high, q.is_range, q.hedge) == (
        "proportion", Fraction(100, 3), Fraction(50), True, "approx")
    assert q.sources == frozenset({"3"})
    [q] = quantities("an altitude of nearly 3.5 km")
    assert (q.kind, q.low, q.unit, q.hedge, q.precision) == (
        "length", Fraction(3500), "km", "at_most", Fraction(50))
    [q] = quantities("in the early 1500s")
    assert (q.kind, q.low, q.high, q.sources) == ("years", 1500, 1533, frozenset({"1500"}))
    [q] = quantities("in the late sixteenth century")
    assert (q.kind, q.low, q.high) == ("years", 1567, 1600)
    [q] = quantities("minus 89.2 C")
    assert (q.kind, q.low) == ("temperature", Fraction("273.15") - Fraction("89.2"))


def test_a_date_day_and_a_time_are_not_quantities():
    assert [(q.kind, q.low) for q in quantities("Late on 14 April 1912, at 23:40.")] == [
        ("years", 1912)]


def test_a_signed_figure_keeps_its_sign_as_a_source():
    # nlp reads "-89.2 C" as the number "-89.2" and "minus 89.2" as "89.2": both tie
    assert restated("-89.2", "It reached -89.2 C.", "It recorded minus 89.2 degrees Celsius.")
    assert restated("89.2", "It recorded minus 89.2 degrees Celsius.", "It reached -89.2 C.")
    assert not restated("-89.2", "It reached -89.2 C.", "It recorded 89.2 degrees Celsius.")


BINGHAM = ("Bingham was guided to the site by local farmers in 1911, and his articles in "
           "National Geographic in 1913 made it famous.")
HANSA = "It dominated Baltic and North Sea trade from the 13th to the 15th century."


@pytest.mark.parametrize("value, claim, premise, stated", [
    ("2", "He saw it in 1911, and his pieces two years later made it famous.", BINGHAM, True),
    ("3", "He saw it in 1911, and his pieces three years later made it famous.", BINGHAM, False),
    ("3", "It controlled Baltic commerce for about three centuries.", HANSA, True),
    ("5", "It controlled Baltic commerce for about five centuries.", HANSA, False),
    # years of two sentences are not paired
    ("4", "It was the tallest for about four decades.",
     "It was built in 1889. It was the tallest until 1930.", False),
])
def test_a_span_of_years_stated_by_two_years_of_one_sentence(value, claim, premise, stated):
    assert restated(value, claim, premise) is stated


@pytest.mark.parametrize("text, adverb", [
    ("They imprinted on it when they first reached the ocean.", True),
    ("Ships could first use it in mid-August 1914.", True),
    ("The first ships went through the canal.", False),   # a rank of a thing
    ("Bell's application was logged first.", False),      # an order
    ("It was first shown in 1 city.", False),             # a "1" written too
])
def test_adverbial_first(text, adverb):
    assert adverbial_first(text) is adverb


def test_time_and_a_half_is_one_and_a_half_times():
    pay = "Time worked on a call-out is paid at time and a half."
    assert [(q.kind, q.low) for q in quantities(pay)] == [("multiple", Fraction(3, 2))]
    assert restated("1.5", "Call-outs are paid at 1.5 times the rate.", pay)
    assert not restated("2", "Call-outs are paid at 2 times the rate.", pay)


def test_a_hyphen_between_number_and_unit_keeps_the_unit():
    assert [(q.kind, q.unit) for q in quantities("It takes 3.5-inch and 2.5-inch drives.")] == [
        ("length", "inch"), ("length", "inch")]
    assert [(q.kind, q.low) for q in quantities("A 10-minute walk.")] == [("duration", 600)]
    # a range stays a range
    assert [(q.kind, q.low, q.high) for q in quantities("From 5-10 km.")] == [
        ("length", 5000, 10000)]


@pytest.mark.parametrize("text, numbers", [
    ("When they line up, the two together give bigger spring tides.", {"2"}),
    ("The Sun and the Moon pull; when the two are aligned, tides are higher.", {"2"}),
    ("Gold, silver and bronze: all three were awarded.", {"3"}),
    # a numeral before its noun, or written as a figure too, is a figure
    ("The two bridges are aligned.", set()),
    ("It took the two hours.", set()),
    ("It has two ports; the two are fast.", set()),
])
def test_referring_numbers(text, numbers):
    assert referring_numbers(text) == numbers


def test_states_needs_the_same_kind():
    year = Quantity("years", Fraction(1500), Fraction(1500), "year", Fraction(0))
    count = Quantity("count", Fraction(1500), Fraction(1500), "", Fraction(1, 2))
    assert states(year, year) and states(count, count)
    assert not states(year, count) and not states(count, year)


@pytest.fixture(scope="module")
def verifier(minilm):
    from ragmeter.judges.local.verifier import AlignmentVerifier

    return AlignmentVerifier()


VOSTOK = ("Vostok Station is a Russian research base near the centre of the East Antarctic Ice "
          "Sheet. It sits at an altitude of about 3,490 metres.")
ICELAND = "About 90 percent of Icelandic homes are heated with geothermal hot water."
MONA = ("The Mona Lisa is a portrait painted by the Italian artist Leonardo da Vinci in the "
        "early sixteenth century.")
PLAGUE = ("The Black Death struck Europe between 1347 and 1351. It is estimated to have killed "
          "between 30 and 50 percent of Europe's population.")
COLD = ("On 21 July 1983 the station's thermometers recorded minus 89.2 degrees Celsius, the "
        "lowest air temperature ever measured directly at ground level.")
NAS = ("The N4 is a four-bay storage device. It accepts 3.5-inch and 2.5-inch SATA drives. "
       "Each bay supports drives of up to 22 TB.")
SALMON = ("In the open ocean, salmon navigate using the magnetic field, imprinting on the "
          "signature of the place where they entered the sea.")
TIDES = ("Tides are caused mainly by the pull of the Moon. When the Sun and Moon line up, "
         "their forces combine to produce larger spring tides.")
APOLLO = ("Apollo 11 was launched by a Saturn V rocket on 16 July 1969.\n"
          "On 20 July, Armstrong and Aldrin descended to the lunar surface in the module Eagle.")


@pytest.mark.parametrize("premise, claim", [
    (VOSTOK, "Vostok sits at an altitude of nearly 3.5 km."),
    (ICELAND, "Nine out of ten Icelandic homes get their heat from geothermal hot water."),
    (MONA, "The Mona Lisa was painted by Leonardo da Vinci in the early 1500s."),
    (PLAGUE, "The Black Death killed somewhere between a third and half of Europe's people."),
    (COLD, "In July 1983 the station recorded -89.2 C."),
    (APOLLO, "Armstrong and Aldrin landed the module Eagle on 20 July 1969."),
    (TIDES, "When the Sun and the Moon line up, the two together give larger spring tides."),
    (NAS, "It has four bays taking SATA drives of up to 22 TB each."),
    (SALMON, "Salmon navigate by the field they imprinted on when they first entered the sea."),
])
def test_verifier_keeps_a_faithful_restated_claim(verifier, premise, claim):
    [a] = verifier.align([(premise, claim)])
    assert a.values == 1.0


@pytest.mark.parametrize("premise, claim", [
    (VOSTOK, "Vostok sits at an altitude of nearly 4.5 km."),
    (ICELAND, "Three quarters of Icelandic homes get their heat from geothermal hot water."),
    (MONA, "The Mona Lisa was painted by Leonardo da Vinci in the late 1500s."),
    (PLAGUE, "The Black Death killed about 80 percent of Europe's people."),
    (COLD, "In July 1983 the station recorded -79.2 C."),
    (APOLLO, "Armstrong and Aldrin landed the module Eagle on 20 July 1970."),
    (APOLLO, "Armstrong and Aldrin landed the module Eagle on 21 July 1969."),
    (TIDES, "When the Sun and Moon line up, two forces combine to produce larger spring tides."),
])
def test_verifier_still_breaks_a_wrong_figure(verifier, premise, claim):
    [a] = verifier.align([(premise, claim)])
    assert a.values == 0.0


@pytest.mark.parametrize("claim, premise, opposed", [
    ("Register it more than 30 days after delivery.", "Register within 30 days of delivery.", ["30"]),
    ("Notify them no earlier than 72 hours after.", "Notify them within 72 hours.", ["72"]),
    ("An item of at least 40 cm.", "An item of up to 40 cm.", ["40"]),
    ("An item of up to 40 cm.", "An item of at least 40 cm.", ["40"]),
    # "no smaller than" is a floor, "no larger than" a ceiling
    ("Each disk is no smaller than 8 TB.", "Each bay takes disks of up to 8 TB.", ["8"]),
    ("Each disk is no larger than 8 TB.", "Each bay takes disks of at least 8 TB.", ["8"]),
    ("Each disk is no larger than 8 TB.", "Each bay takes disks of up to 8 TB.", []),
    # the same bound, another bound the premise also gives, or no bound: not opposed
    ("Register within 30 days of delivery.", "Register no later than 30 days after delivery.", []),
    ("More than 30 days.", "Within 30 days, or more than 30 days for a refund.", []),
    ("Register 30 days after delivery.", "Register within 30 days of delivery.", []),
    ("It is nearly 3.5 km.", "It is about 3,490 metres.", []),
])
def test_opposed_bounds(claim, premise, opposed):
    assert opposed_bounds(claim, premise) == opposed


@pytest.mark.parametrize("text, hedge", [
    ("Do not give more than 4 doses.", "at_most"),
    ("Do not give for more than 3 days.", "at_most"),
    ("It must not fall below 5 degrees.", "at_least"),
    ("VAT not included, for up to five people.", "at_most"),  # the "not" is in another clause
    ("Give more than 4 doses.", "at_least"),
])
def test_a_denied_bound_turns_round(text, hedge):
    assert quantities(text)[0].hedge == hedge


def test_a_denied_ceiling_is_not_opposed_by_a_ceiling():
    assert opposed_bounds("Give no more than four doses a day.", "Do not give more than 4 doses in a day.") == []
    assert opposed_bounds("Give at least four doses a day.", "Do not give more than 4 doses in a day.") == ["4"]


def test_a_day_without_a_year_takes_the_last_year_named_before_it():
    from ragmeter.judges.local.verifier import _with_years

    assert _with_years(["1969-07-16", "--07-20"]) == ["1969-07-16", "--07-20", "1969-07-20"]
    assert _with_years(["1930", "--08-01"]) == ["1930", "--08-01", "1930-08-01"]
    # no year before it: the day alone, as written
    assert _with_years(["--07-20", "1969-07-16"]) == ["--07-20", "1969-07-16"]
