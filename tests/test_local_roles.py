"""Who did what to whom (``ragmeter.judges.local.roles``): frames read from spaCy's parse, and
the check that sets a claim's roles against the premise's."""

from __future__ import annotations

from ragmeter.text import syntax
from ragmeter.judges.local.roles import AGREES, CONFLICTS, UNKNOWN, Argument, Frame, frames, role_agreement

LUBECK = ("Lubeck, founded in 1143, served as the League's leading city and hosted most of "
          "its assemblies, the Hanseatic Diets.")


def _frames(text: str) -> list[Frame]:
    [doc] = syntax.parse([text], entities=False)
    return frames(doc)


def test_a_coordinated_verb_with_an_object_of_its_own_keeps_the_shared_subject():
    host = [f for f in _frames(LUBECK) if f.verb == "host"]
    # "most of its assemblies, the Hanseatic Diets": the partitive's noun and its apposition
    assert host == [Frame("host", Argument(("lubeck",), True),
                          Argument(("most", "hanseatic", "diets", "assemblies"), True))]


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


def test_a_to_clause_takes_the_subject_or_the_object_of_its_controller():
    assert [f for f in _frames("The supervisory authority has to alert the controller.")
            if f.verb == "alert"] == [Frame("alert", Argument(("supervisory", "authority"), False),
                                            Argument(("controller",), False))]
    assert [f for f in _frames("The wind storms pushed farmers to plough up the grass.")
            if f.verb == "plough"] == [Frame("plough", Argument(("farmers",), False),
                                             Argument(("grass",), False))]


def test_a_controlled_verb_whose_roles_are_swapped_conflicts():
    premise = _frames("A controller must notify the competent supervisory authority of a breach.")
    claim = _frames("The supervisory authority has to alert the controller of a breach.")
    assert role_agreement(claim, premise) == CONFLICTS


def test_a_participle_modifier_gives_its_noun_a_role():
    assert [f for f in _frames("The fire began in a bakery owned by Thomas Farriner.")
            if f.verb == "own"] == [Frame("own", Argument(("thomas", "farriner"), True),
                                          Argument(("bakery",), False))]


def test_an_apposition_names_the_role_filler():
    premise = _frames("In 1953 her colleague Maurice Wilkins showed the photograph to James Watson.")
    assert role_agreement(_frames("Gosling showed the photograph to Watson."), premise) == CONFLICTS
    assert role_agreement(_frames("Wilkins showed the photograph to Watson."), premise) == AGREES


def test_a_partitive_is_read_as_what_it_measures_out():
    premise = _frames("The historian Hiram Bingham was guided to the site by local farmers.")
    claim = _frames("Hiram Bingham led a group of local farmers up to the ruins.")
    assert role_agreement(claim, premise) == CONFLICTS


def test_coordinated_names_are_each_a_filler():
    premise = _frames("Neil Armstrong and Buzz Aldrin flew the lunar module to the surface.")
    assert role_agreement(_frames("Armstrong and Michael Collins flew the lunar module."),
                          premise) == CONFLICTS
    assert role_agreement(_frames("Aldrin and Armstrong flew the lunar module."),
                          premise) == AGREES


def test_the_same_verb_with_one_argument_moved_to_the_other_role_conflicts():
    premise = _frames("Each ring bends the light from the lamp into a narrow beam.")
    assert role_agreement(_frames("The lens uses the rays to bend the rings into a beam."),
                          premise) == CONFLICTS
    assert role_agreement(_frames("The rings bend the lamp's light into a beam."),
                          premise) == AGREES


def test_a_with_or_to_filler_named_otherwise_conflicts():
    premise = _frames("Marie Curie shared the 1903 Nobel Prize in Physics with her husband "
                      "Pierre Curie.")
    assert role_agreement(_frames("Marie Curie shared the prize with Frederic Joliot."),
                          premise) == CONFLICTS
    assert role_agreement(_frames("Marie Curie shared the prize with Pierre Curie."),
                          premise) == AGREES


def test_the_reader_is_an_argument_and_who_acts_against_whom_is_checked():
    premise = _frames("You can bring a claim against the landlord at the tribunal.")
    assert role_agreement(_frames("The landlord can bring a claim against you."),
                          premise) == CONFLICTS
    assert role_agreement(_frames("You can bring a claim against the landlord."),
                          premise) == AGREES
    premise = _frames("The tribunal can order the landlord to pay you three times the deposit.")
    assert role_agreement(_frames("The tribunal can order you to pay the landlord three times "
                                  "the deposit."), premise) == CONFLICTS


def test_the_reader_with_the_same_object_under_another_verb_does_not_agree():
    premise = _frames("If you go over your storage quota, you can still read and download your "
                      "files, but you cannot upload new ones or receive email.")
    assert role_agreement(_frames("You can still upload new files."), premise) == CONFLICTS


def test_a_plural_name_meets_its_singular():
    premise = _frames("The brothers Joseph-Michel and Jacques-Etienne Montgolfier built the first "
                      "practical hot-air balloons.")
    assert role_agreement(_frames("The Montgolfiers built the balloon."), premise) != CONFLICTS
