"""Which thing a figure belongs to (``ragmeter.local.binding``): claims that exchange the
premise's figures are caught; restated, reordered and ranged figures are not."""

from __future__ import annotations

import pytest

from ragmeter.local.binding import misbound_figures

PERMITS = ["A first permit per household costs 95 pounds a year and a second permit costs "
           "160 pounds.",
           "Renewals open on 1 February, and the council emails a reminder.",
           "Resident parking permits are valid for 12 months and all expire on 31 March each year."]
DESKS = ["The frame and motors of both desks carry a 7-year warranty; the control panel and "
         "the desktop are covered for 2 years."]
BIKE = ["Range depends on the assist mode: up to 110 km in Eco, about 70 km in Tour and about "
        "40 km in Turbo, measured with a 75 kg rider on flat roads."]
MESH = ["Place each additional node no more than two rooms, or about 10 metres, from an "
        "existing node."]


@pytest.mark.parametrize("claim, premise, misbound", [
    ("A household's first permit is 160 pounds annually and a second one 95 pounds.",
     PERMITS, ["160", "95"]),
    ("Every permit lapses on 1 February and can be renewed from 31 March.", PERMITS, ["31"]),
    ("The frame and motors are guaranteed for two years, but the control panel and desktop "
     "for seven.", DESKS, ["2", "7"]),
])
def test_exchanged_figures_are_misbound(claim, premise, misbound):
    assert misbound_figures(claim, premise) == misbound


@pytest.mark.parametrize("claim, premise", [
    ("A household's first permit is 95 pounds annually and a second one 160 pounds.", PERMITS),
    ("Every permit lapses on 31 March and can be renewed from 1 February.", PERMITS),
    ("The frame and motors are guaranteed for seven years, but the control panel and desktop "
     "only for two.", DESKS),
    # reordered list items: each label stays with its figure across the commas
    ("Depending on the mode, it covers about 40 km in Turbo, roughly 70 km in Tour and up to "
     "110 km in Eco.", BIKE),
    # one amount written two ways is one quantity
    ("Keep each new node within about 10 metres, or two rooms, of one already set up.", MESH),
    # a figure the premise never states is the figure check's business, not this one's
    ("A household's first permit is 120 pounds annually.", PERMITS),
])
def test_kept_figures_are_not_misbound(claim, premise):
    assert misbound_figures(claim, premise) == []
