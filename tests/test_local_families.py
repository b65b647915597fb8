"""The rule families of the local judge can each be switched off (``judges.local.families``).

Why these tests: ``bench/ablation.py`` reads what each family adds by switching it off alone.
That figure means something only if the switch really removes the family's effect (a switch
that removed nothing would report "adds nothing" and get a working rule deleted), and if
switching back gives the very scores of before (caches included). So each family gets one
hand-made judgement it exists for, with its exact value on, off and on again.
"""

from __future__ import annotations

import pytest

from ragmeter.judges.local.families import ENV, FAMILIES, disabled, enabled, families_off, from_environment

# (family, premise, claim, support with every family on, support with this family off)
SUPPORT = [
    # the learned head reads the role check; the hand formula does not
    ("support_head", "William defeated Harold at the Battle of Hastings in 1066.",
     "Harold defeated William at the Battle of Hastings in 1066.", 0.1066, 0.8808),
    ("meaning", "Autumn leaves change colour because trees stop producing chlorophyll as the days shorten.",
     "Trees cease making chlorophyll in autumn.", 0.7066, 0.1463),
    ("antonyms", "The central bank decided to raise interest rates in March to fight inflation.",
     "The central bank decided to cut interest rates in March to fight inflation.", 0.1147, 0.6937),
    ("roles", "William defeated Harold at the Battle of Hastings in 1066.",
     "Harold defeated William at the Battle of Hastings in 1066.", 0.1066, 0.6643),
    ("negation", "Mitochondria have their own DNA, separate from the nucleus.",
     "Mitochondria do not have their own DNA.", 0.0125, 0.1569),
    ("quantities", "The Eiffel Tower was completed in 1889 for the World's Fair.",
     "The Eiffel Tower was completed in 1901 for the World's Fair.", 0.2046, 0.7554),
    ("comparisons", "Hinder is an American rock band formed in 2001 in Oklahoma City. Alice in Chains is an "
     "American rock band formed in Seattle in 1987.", "Hinder was formed earlier than Alice in Chains.", 0.1243, 0.6300),
]


@pytest.fixture(scope="module")
def encoder(minilm):
    from ragmeter.judges.local.verifier import default_encoder

    return default_encoder()


@pytest.fixture(scope="module")
def verifier(minilm):
    from ragmeter.judges.local.verifier import get_verifier

    return get_verifier("alignment")


def _support(verifier, premise: str, claim: str) -> float:
    return verifier.support([(premise, claim)])[0]


def test_every_family_is_documented_and_every_switch_is_tested():
    assert 8 <= len(FAMILIES) <= 16
    for name, what in FAMILIES.items():
        assert name == name.strip().lower() and " " not in name
        # what it does, which judgement it serves, where its switch sits ("module.function")
        assert ":" in what and "(" in what and "." in what.rsplit("(", 1)[1], name
    tested = {f for f, *_ in SUPPORT} | {"claim_pronouns", "hedges", "noncommittal", "question_parts",
                                          "question_focus", "chunk_cosine", "lexical_overlap"}
    assert tested == set(FAMILIES)


def test_everything_is_on_by_default():
    assert disabled() == frozenset()
    assert all(enabled(name) for name in FAMILIES)


@pytest.mark.parametrize("family, premise, claim, on, off", SUPPORT, ids=[s[0] for s in SUPPORT])
def test_switching_a_support_family_off_removes_its_effect_and_back_on_restores_it(
        verifier, family, premise, claim, on, off):
    before = _support(verifier, premise, claim)
    with families_off(family) as now_off:
        assert now_off == {family} and not enabled(family)
        without = _support(verifier, premise, claim)
    after = _support(verifier, premise, claim)
    assert (round(before, 4), round(without, 4)) == (on, off)
    assert after == before


def test_comparisons_off_leaves_a_bare_comparative_as_it_is(minilm):
    from ragmeter.judges.local.claims import extract_claims

    question = "Which band was formed earlier, Hinder or Alice in Chains?"
    assert extract_claims(["Hinder was formed earlier."], [question]) == [["Hinder was formed earlier than Alice in Chains."]]
    with families_off("comparisons"):
        assert extract_claims(["Hinder was formed earlier."], [question]) == [["Hinder was formed earlier."]]


def test_claim_pronouns_hedges_and_noncommittal(minilm):
    from ragmeter.judges.local.claims import extract_claims

    texts = ["Marie Curie was born in Warsaw. She won two Nobel Prizes.",
             "I'm not sure, but I think it is Paris. Hope this helps!"]
    questions = ["Who was Marie Curie?", "What is the capital of France?"]
    on = [["Marie Curie was born in Warsaw.", "Marie Curie won two Nobel Prizes."], ["I think it is Paris."]]
    assert extract_claims(texts, questions) == on
    with families_off("claim_pronouns"):
        assert extract_claims(texts, questions)[0] == ["Marie Curie was born in Warsaw.", "She won two Nobel Prizes."]
    with families_off("hedges"):
        assert extract_claims(texts, questions)[1] == ["I'm not sure.", "I think it is Paris.", "Hope this helps."]
    # a text that is a refusal as a whole has no claims; its clause is a hedge besides, so it
    # takes both families off for the refusal to become a claim
    refusal = ["I don't know when Einstein was born."]
    assert extract_claims(refusal) == [[]]
    with families_off("noncommittal", "hedges"):
        assert extract_claims(refusal) == [["I don't know when Einstein was born."]]
    assert extract_claims(texts, questions) == on


def test_noncommittal_and_question_parts_in_answer_addressing(encoder):
    from ragmeter.judges.local.coverage import question_coverage

    questions = ["When was Einstein born?", "When was Einstein born? Where did he die?",
                 "When was Einstein born? Where did he die?"]
    answers = ["I don't know when Einstein was born.", "Einstein was born in 1879 and died in Princeton.",
               "Einstein was born in 1879."]

    def scores() -> list[float]:
        return [c.score for c in question_coverage(questions, answers, encoder)]

    on = scores()
    assert on == [0.0, 0.9633, 0.559]
    with families_off("noncommittal"):
        assert scores()[0] == 0.35  # a refusal that repeats the question now addresses it
    with families_off("question_parts"):
        # one part, the whole question: the answer to half of it scores far more
        assert scores()[1:] == [0.8868, 0.7722]
    assert scores() == on


def test_chunk_relevance_families(encoder):
    from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer

    scorer = ChunkRelevanceScorer(encoder=encoder)
    question = "what causes gall bladder infections"
    chunks = ["Gallbladder infections are usually caused by gallstones blocking the bile duct, which lets "
              "bacteria grow.",
              "Bladder infections are common in women. Drinking water and cranberry juice may help bladder health."]

    def scores() -> list[float]:
        return [round(j.relevance, 4) for j in scorer.relevance(question, chunks)]

    on = scores()
    assert on == [0.9809, 0.0]
    expected = {"question_focus": [0.9925, 0.6462],  # the same-topic chunk is no longer told apart
                "chunk_cosine": [0.9317, 0.0], "lexical_overlap": [0.9441, 0.0]}
    for family, off in expected.items():
        with families_off(family):
            assert scores() == off, family
    assert scores() == on
    # the finer values move too where rounding hides them
    fine = scorer.relevance(question, chunks)[1].relevance
    with families_off("chunk_cosine"):
        assert scorer.relevance(question, chunks)[1].relevance != pytest.approx(fine, abs=1e-9)


def test_switches_nest_and_unknown_names_are_refused():
    with families_off("roles"):
        with families_off("negation"):
            assert disabled() == {"roles", "negation"}
        assert disabled() == {"roles"}
    assert disabled() == frozenset()
    with pytest.raises(ValueError, match="unknown rule family nope; known: support_head, meaning"):
        with families_off("nope"):
            pass
    assert disabled() == frozenset()


def test_the_environment_variable_is_read_when_the_judge_is_built(verifier, monkeypatch):
    from ragmeter.judges.local import LocalJudge

    premise, claim = SUPPORT[3][1:3]  # roles
    before = _support(verifier, premise, claim)
    monkeypatch.setenv(ENV, "roles")
    try:
        LocalJudge()
        assert disabled() == {"roles"}
        assert round(_support(verifier, premise, claim), 4) == SUPPORT[3][4]
        monkeypatch.setenv(ENV, " roles, quantities ")
        LocalJudge()
        assert disabled() == {"roles", "quantities"}
        monkeypatch.setenv(ENV, "roles,typo")
        with pytest.raises(ValueError, match="unknown rule family typo; known: "):
            LocalJudge()
    finally:
        monkeypatch.delenv(ENV)
        assert from_environment() == frozenset()
    assert disabled() == frozenset()
    assert _support(verifier, premise, claim) == before


def test_the_ablation_benchmark_knows_what_every_family_touches():
    from bench_modules import bench_module

    assert set(bench_module("ablation").TOUCHES) == set(FAMILIES)
