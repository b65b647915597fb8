"""Who did what to whom (``ragmeter.local.roles``): frames read from spaCy's parse, and
the check that sets a claim's roles against the premise's."""

from __future__ import annotations

from ragmeter.local import syntax
from ragmeter.local.roles import AGREES, CONFLICTS, UNKNOWN, Argument, Frame, frames, role_agreement

LUBECK = ("Lubeck, founded in 1143, served as the League's leading city and hosted most of "
          "its assemblies, the Hanseatic Diets.")


def _frames(text: str) -> list[Frame]:
    [doc] = syntax.parse([text], entities=False)
    return frames(doc)


def test_a_coordinated_verb_with_an_object_of_its_own_keeps_the_shared_subject():
    host = [f for f in _frames(LUBECK) if f.verb == "host"]
    assert host == [Frame("host", Argument(("lubeck",), True), Argument(("most",), False))]


def test_passive_voice_is_undone():
    assert _frames("The polio vaccine was developed by Jonas Salk.") == [
        Frame("develop", Argument(("jonas", "salk"), True), Argument(("polio", "vaccine"), False))]


def test_another_name_in_the_role_conflicts_and_the_same_name_agrees():
    premise = _frames(LUBECK)
    assert role_agreement(_frames("Hamburg hosted most of the League's Diets."), premise) == CONFLICTS
    assert role_agreement(_frames("Lubeck hosted most of the League's Diets."), premise) == AGREES


def test_swapped_roles_conflict_and_another_event_is_unknown():
    premise = _frames("William defeated Harold at Hastings in 1066.")
    assert role_agreement(_frames("Harold defeated William at Hastings."), premise) == CONFLICTS
    assert role_agreement(_frames("Harold was crowned in January."), premise) == UNKNOWN
