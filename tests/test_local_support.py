"""Semantic support (``ragmeter.judges.local.support`` inside the alignment verifier), on
hand-written pairs: a paraphrase keeps support; a wrong number, a wrong entity, a negation,
an antonym or an unsupported addition breaks it."""

from __future__ import annotations

import pytest

from ragmeter.judges.local.support import ANTONYMS, content_positions, credit, opposed, stem
from ragmeter.judges.local.verifier import AlignmentVerifier

LEAVES = ("As days shorten in autumn, deciduous trees stop producing chlorophyll, the green "
          "pigment that captures light for photosynthesis. The chlorophyll already in the leaf "
          "breaks down.\nCarotenoids, which are yellow and orange, are present in the leaf all "
          "summer but hidden by the green chlorophyll.")
TREATY = ("The Treaty of Versailles was signed on 28 June 1919, formally ending the First World "
          "War.\nThe German army was limited to 100,000 men and the country was forbidden to "
          "have an air force.")
BANKS = ("To bring inflation down, central banks usually raise interest rates. Higher rates "
         "make borrowing more expensive, which slows spending and eases pressure on prices.")
CELLS = ("Mitochondria generate most of the cell's supply of adenosine triphosphate (ATP), "
         "which is used as a source of chemical energy. Mitochondria have their own DNA, "
         "which is inherited only from the mother in humans.")
PAINTING = ("The Mona Lisa is a portrait painted by the Italian artist Leonardo da Vinci. It has "
            "been on permanent display at the Louvre in Paris since 1797.")


@pytest.fixture(scope="module")
def verifier(minilm):
    return AlignmentVerifier()


@pytest.mark.parametrize("claim, evidence, contrast", [
    ("the sun contributes a weaker pull", ["the sun exerts a strong force"], True),
    # "less ... strong" says weaker: no contrast
    ("the sun contributes a weaker pull", ["its pull is less than half as strong"], False),
    ("banks respond by increasing rates", ["banks cut rates"], True),
    # the claim's side said in other words ("raise") beside an antonym elsewhere
    ("banks respond by increasing rates", ["reducing its power", "banks raise rates"], False),
    # "westward" is "west", "easterly" is "east"; "afterwards" is not "after"
    ("pushed west by an easterly wind", ["an east wind drove it westward"], False),
    ("the wind pushed it east", ["the wind drove it westward"], True),
    ("afterwards rinse the tank", ["run a rinse cycle before making coffee"], False),
    # pairs of the widened list: shape, sharpness, direction of light
    ("the beaks grew shallower", ["the average beak depth increased and beaks grew deeper"], True),
    ("the pictures came out sharp", ["its images were blurred"], True),
    ("cells lower down absorb light", ["iridophores reflect light"], True),
    ("cells lower down reflect light", ["iridophores reflect light"], False),
])
def test_opposed_words(claim, evidence, contrast):
    assert opposed(claim.split(), [e.split() for e in evidence]) is contrast


def test_stem_and_credit_are_the_documented_functions():
    assert stem("producing") == stem("produce") == "produc"
    assert stem("cutting") == "cut"
    assert stem("raises") == stem("raised") == stem("raise") == "rais"
    assert credit(0.40) == 0.0 and credit(0.70) == 1.0
    assert credit(0.55) == pytest.approx(0.5)
    assert ("rais", "cut") in ANTONYMS and ("cut", "rais") in ANTONYMS
    assert content_positions(["the", "trees", "stop", "making", "100", "two"]) == [1, 2, 3]


def test_paraphrases_keep_support(verifier):
    pairs = [
        (LEAVES, "Trees cease making chlorophyll when the days get shorter."),
        (LEAVES, "Yellow and orange pigments are present in the leaves all summer, masked by "
                 "the green chlorophyll."),
        (TREATY, "Germany had to shrink its army to 100,000 soldiers, with no air force."),
        (CELLS, "Mitochondria produce most of the ATP that cells use for energy."),
    ]
    probs = verifier.support(pairs)
    assert all(p >= 0.5 for p in probs), probs
    # the lexical verifier alone does not see these paraphrases
    from ragmeter.judges.local.verifier import get_verifier

    lexical = get_verifier("lexical").support(pairs)
    assert sum(p >= 0.5 for p in lexical) < len(pairs), lexical


def test_restated_denials_and_bounds_keep_support(verifier):
    premise = ("Do not give more than 4 doses in any 24 hours. The warranty does not cover "
               "damage caused by airlines. Viruses cannot reproduce without infecting a host cell.")
    claims = ["Give no more than four doses in a day.",          # bound, not denial
              "Damage by airlines is excluded.",                 # the claim's own denial
              "Viruses can only replicate inside a host cell."]  # a requirement
    alignments = verifier.align([(premise, c) for c in claims])
    assert [a.negation for a in alignments] == [1.0, 1.0, 1.0]
    [denied] = verifier.align([(premise, "The warranty covers damage caused by airlines.")])
    assert denied.negation == 0.0


def test_a_figure_stated_elsewhere_for_something_else_breaks_support(verifier):
    premise = ("Marie Curie shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri "
               "Becquerel. She then won the 1911 Nobel Prize in Chemistry alone.\n"
               "The Central Library is open Monday to Friday from 9 am to 8 pm. On Saturdays "
               "the library opens from 10 am to 5 pm.")
    wrong_year, right_year, wrong_hour, merged = verifier.align([
        (premise, "Marie Curie shared the 1911 Nobel Prize in Physics."),   # 1911 is chemistry's
        (premise, "Marie Curie shared the 1903 Nobel Prize in Physics."),
        (premise, "On Saturdays the library opens from 10 am to 8 pm."),     # 8 pm is weekdays'
        (premise, "Marie Curie won Nobel Prizes in 1903 and 1911.")])        # two sentences, merged
    assert (wrong_year.values, right_year.values, wrong_hour.values, merged.values) == (0.0, 1.0, 0.0, 1.0)


def test_only_a_figure_of_the_same_kind_gives_a_claim_figure_the_lie(verifier):
    from ragmeter.judges.local.verifier import value_kinds

    assert value_kinds("117", "It ran for some 117 km.") == {"length"}
    assert value_kinds("122", "It was begun in AD 122.") == {"count"}
    assert value_kinds("1", "The first ships went through.") == {"rank"}
    assert value_kinds("15", "on 15 August 1914", {"15", "8", "1914"}) == {"date"}
    # the evidence (most words in common) gives a year and a duration, the claim a length
    # and a rank: nothing of their kinds is given otherwise
    premise = ("Hadrian's Wall was built across northern Britain from AD 122. It ran from "
               "Wallsend to Bowness.\nThe wall was 73 miles, or about 117 kilometres, long.")
    [length] = verifier.align([(premise, "It ran for some 117 km across northern Britain.")])
    [wrong] = verifier.align([(premise, "It ran for some 117 km across northern Britain, "
                                        "built from AD 125.")])
    assert (length.values, wrong.values) == (1.0, 0.0)


@pytest.mark.parametrize("premise, claim", [
    (TREATY, "The German army was limited to 300,000 soldiers."),            # number
    (TREATY, "The Treaty of Versailles was signed on 28 June 1920."),        # date
    (PAINTING, "The Mona Lisa was painted by Michelangelo."),                # entity
    (PAINTING, "The Mona Lisa has been displayed at the Uffizi since 1797."),  # entity
    (CELLS, "Mitochondria do not have their own DNA."),                      # negation
    (CELLS, "Mitochondrial DNA is inherited only from the father in humans."),  # antonym
    (BANKS, "To bring inflation down, central banks usually cut interest rates."),  # antonym
    (LEAVES, "Trees stop producing chlorophyll after the first frost, which is triggered by "
             "volcanic dust."),                                               # addition
])
def test_broken_support(verifier, premise, claim):
    [p] = verifier.support([(premise, claim)])
    assert p < 0.5, (claim, p, verifier.align([(premise, claim)]))


def test_the_hand_formula_skips_the_encoder_when_words_are_found_together():
    hand = AlignmentVerifier(learned=False)
    [a] = hand.align([(PAINTING, "The Mona Lisa is a portrait painted by the Italian artist Leonardo da Vinci.")])
    assert hand.head is None and a.semantic is None and hand.probability(a) > 0.9


def test_the_head_reads_by_meaning_what_the_words_alone_do_not_settle(verifier):
    together, reworded, far = verifier.align([
        (PAINTING, "The Mona Lisa is a portrait painted by the Italian artist Leonardo da Vinci."),
        (LEAVES, "Trees cease making chlorophyll as the days get shorter."),
        (PAINTING, "Photosynthesis releases oxygen.")])
    assert verifier.head is not None
    # every word found together: nothing left to read by meaning (the encoder is not run)
    assert together.found_together and together.semantic is None
    assert verifier.probability(together) > 0.5
    assert reworded.semantic is not None and reworded.semantic.coverage > reworded.coverage
    assert far.coverage < AlignmentVerifier.MIN_COVERAGE and far.semantic is None
    assert verifier.probability(far) < 0.1


def test_symbolic_break_is_not_repaired_by_meaning(verifier):
    [a] = verifier.align([(TREATY, "The army was limited to 300,000 men.")])
    assert a.values == 0.0 and verifier.probability(a) < 0.5
    hand = AlignmentVerifier(learned=False)
    [h] = hand.align([(TREATY, "The army was limited to 300,000 men.")])
    assert h.semantic is None and hand.probability(h) < 0.5

