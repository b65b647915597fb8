"""The support-head training data: the weak-label transforms of bench/make_support_pairs.py on
a small hand passage (exact outputs), and the validity of bench/data/support_pairs.jsonl."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from bench_modules import bench_module

ROOT = Path(__file__).resolve().parent.parent
HAND = ROOT / "bench" / "data" / "support_pairs.jsonl"
RAG_DEV = ROOT / "bench" / "data" / "rag_dev.jsonl"

POSITIVE = {"reworded", "merged", "summarised", "reordered", "inferred_trivially", "extractive"}
NEGATIVE = {"wrong_number", "wrong_date", "wrong_entity", "swapped_roles", "negation", "antonym",
            "unsupported_addition", "world_knowledge", "wrong_relation", "overgeneralised"}

PASSAGE = ("The Kariba Bridge was designed by Ralph Freeman and opened in 1905. "
           "The bridge is 198 metres long. Its main arch spans 250 metres. "
           "Ralph Freeman was praised by George Hobson for the design.")


@pytest.fixture(scope="module")
def maker():
    spec = importlib.util.spec_from_file_location("make_support_pairs",
                                                  ROOT / "bench" / "make_support_pairs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_support_pairs"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sentences(maker):
    from ragmeter.text import nlp

    doc = nlp.parse([PASSAGE])[0]
    return doc, list(doc.sents)


def one(text: str):
    from ragmeter.text import nlp

    return list(nlp.parse([text])[0].sents)[0]


def test_number_swap_takes_the_passage_number_and_changes_nothing_else(maker, sentences):
    doc, sents = sentences
    numbers = [t.text for t in maker._number_tokens(doc[:])]
    assert numbers == ["198", "250"]
    rng = random.Random(0)
    assert maker.swap_number(sents[1], numbers, rng) == "The bridge is 250 metres long."
    assert maker.swap_number(sents[2], numbers, rng) == "Its main arch spans 198 metres."
    assert maker.swap_number(sents[3], numbers, rng) is None  # no number to swap


def test_a_moved_number_keeps_its_form_and_changes_its_value(maker):
    for seed in range(20):
        rng = random.Random(seed)
        moved = maker.moved_number("72,000", rng)
        assert re.fullmatch(r"\d{1,3}(,\d{3})*", moved) and moved != "72,000"
        assert int(moved.replace(",", "")) > 0
        decimal = maker.moved_number("2.5", rng)
        assert re.fullmatch(r"\d+\.\d", decimal) and decimal != "2.5"
        word = maker.moved_number("Seven", rng)
        assert word != "Seven" and word[0].isupper() and word.lower() in maker._NUMBER_WORDS


def test_claim_sentences_leave_out_pronoun_openings_and_markup(maker):
    from ragmeter.text import nlp

    doc = nlp.parse(["The bridge is 198 metres long. It carries a railway across the gorge. "
                     "The bridge {'1': \", '2': \"} was built by engineers from Darlington."])[0]
    kept = [s.text.strip() for s in maker.claim_sentences(doc)]
    assert kept == ["The bridge is 198 metres long."]


def test_scale_words_and_years_are_not_numbers_to_swap(maker):
    sent = one("The bridge carried forty thousand people in 1950.")
    assert [t.text for t in maker._number_tokens(sent)] == ["forty"]


def test_entity_swap_uses_another_name_of_the_same_label_from_the_passage(maker, sentences):
    doc, sents = sentences
    entities = [(e.text, e.label) for e in maker._names(doc.ents)]
    assert ("George Hobson", "PERSON") in entities
    assert ("Kariba Bridge", "ORG") in entities  # the leading "the" stays in the sentence
    out = maker.swap_entity(sents[0], entities, random.Random(0))
    assert out == "The Kariba Bridge was designed by George Hobson and opened in 1905."
    # an abbreviation of a name is the same name
    assert maker._related("U.S.", "United States")
    assert maker._related("NHL", "National Hockey League")
    assert not maker._related("Ralph Freeman", "George Hobson")
    # both people of the last sentence are named already: no other PERSON to bring in
    assert maker.swap_entity(sents[3], entities, random.Random(0)) is None


def test_swapped_roles_trades_two_names_of_one_label(maker, sentences):
    _, sents = sentences
    assert (maker.swap_roles(sents[3], random.Random(0))
            == "George Hobson was praised by Ralph Freeman for the design.")
    assert maker.swap_roles(sents[1], random.Random(0)) is None
    # coordinated names say the same thing in either order: not a role swap
    assert maker.swap_roles(one("The film was written by Barry Conners and Philip Klein."),
                            random.Random(0)) is None


def test_date_swap_moves_the_year_only(maker, sentences):
    _, sents = sentences
    out = maker.swap_date(sents[0], random.Random(0))
    m = re.fullmatch(r"The Kariba Bridge was designed by Ralph Freeman and opened in (\d{4})\.",
                     out)
    assert m and m.group(1) != "1905" and 1 <= abs(int(m.group(1)) - 1905) <= 30
    assert maker.swap_date(sents[1], random.Random(0)) is None


@pytest.mark.parametrize("text, expected", [
    ("The bridge is 198 metres long.", "The bridge is not 198 metres long."),
    ("Engineers built the bridge in fourteen months.",
     "Engineers did not build the bridge in fourteen months."),
    ("The bridge has two railway tracks.", "The bridge does not have two railway tracks."),
    ("The bridge did not close in 1950.", "The bridge did close in 1950."),
    ("Fares at the bridge can't be paid in cash.", "Fares at the bridge can be paid in cash."),
    # the relative clause's verb is skipped: the main clause's verb is negated
    ("The company, which was founded in 1880, has built the bridge.",
     "The company, which was founded in 1880, has not built the bridge."),
])
def test_negation_flips_the_main_verb(maker, text, expected):
    assert maker.negate(one(text)) == expected


def test_antonym_swap_uses_the_support_list_in_the_same_form(maker):
    from ragmeter.judges.local.support import ANTONYM_PAIRS

    out = maker.swap_antonym(one("Traffic on the bridge increased sharply."), random.Random(0))
    opposites = {b for a, b in ANTONYM_PAIRS if a == "increase"}
    assert opposites == {"decrease", "reduce", "lower", "cut"}
    assert out in {f"Traffic on the bridge {maker.inflect(w, 'VBD')} sharply." for w in opposites}
    assert maker.inflect("rise", "VBD") == "rose"
    assert maker.inflect("stop", "VBG") == "stopping"
    assert maker.inflect("decrease", "VBZ") == "decreases"
    assert maker.inflect("victory", "NNS") == "victories"
    # a noun is swapped only for a noun: "end" -> "begin" would not be English
    assert maker.swap_antonym(one("The bridge was repaired at the end of the war."),
                              random.Random(0)) is None
    # a name is not an antonym site
    assert maker.swap_antonym(one("The ferry sails to North Carolina every week."),
                              random.Random(0)) is None


def test_clause_drop_keeps_what_the_sentence_states(maker):
    relative = one("The bridge, which was designed by George Hobson, opened in 1905.")
    assert maker.drop_clause(relative) == "The bridge opened in 1905."
    assert (maker.drop_clause(one("The bridge (198 metres long) opened in 1905."))
            == "The bridge opened in 1905.")
    assert (maker.drop_clause(one("In 1905, the bridge was opened by Ralph Freeman."))
            == "The bridge was opened by Ralph Freeman.")
    # a condition is not dropped (it would overstate the claim), nor a list after "which"
    assert maker.drop_clause(one("For longer trials, the employee claims an allowance.")) is None
    listed = one("Vitamin D helps the body absorb calcium, which keeps bones, teeth and muscles "
                 "healthy.")
    assert maker.drop_clause(listed) is None


def test_merge_joins_two_sentences(maker):
    assert maker.merge("The bridge is long.", "The arch spans 250 metres.", True) == \
        "The bridge is long, and the arch spans 250 metres."
    assert maker.merge("The bridge is long.", "Ralph Freeman designed it.", False) == \
        "The bridge is long, and Ralph Freeman designed it."


def test_rows_of_a_passage_are_labelled_balanced_and_deterministic(maker, sentences):
    doc, _ = sentences
    passage = maker.Passage("t1", PASSAGE)
    rows = maker.pairs_for(passage, doc, seed=0)
    again = maker.pairs_for(passage, doc, seed=0)
    assert rows == again
    stated = {s.text.strip() for s in doc.sents}
    labels = Counter(r.label for r in rows)
    assert labels[0] == labels[1] > 0
    for r in rows:
        assert r.premise == PASSAGE and r.source == "weak" and r.passage_id == "t1"
        if r.label == 1:
            assert r.kind in maker.POSITIVE_KINDS
            if r.kind == "extractive":
                assert r.claim in stated
        else:
            assert r.kind in maker.NEGATIVE_KINDS
            assert r.claim not in stated
    assert len({r.id for r in rows}) == len(rows)


def test_main_writes_deduplicated_rows_and_counts(maker, tmp_path, capsys):
    out = tmp_path / "weak.jsonl"
    assert maker.main(["--sources", "hand", "--limit", "2", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows and len({(r["premise"], r["claim"]) for r in rows}) == len(rows)
    assert {r["passage_id"] for r in rows} == {"sp001", "sp002"}
    assert set(rows[0]) == {"id", "premise", "claim", "label", "kind", "source", "passage_id"}
    printed = capsys.readouterr().out
    assert f"2 passages -> {len(rows)} rows" in printed
    for kind, n in Counter(r["kind"] for r in rows).items():
        assert re.search(rf"\b{kind}\s+{n}\b", printed)


# --- the hand-written pairs ----------------------------------------------------------------


def hand_rows() -> list[dict]:
    rows = []
    for n, line in enumerate(HAND.read_text(encoding="utf-8").splitlines(), 1):
        assert line.strip(), f"{HAND.name}: line {n} is blank"
        rows.append(json.loads(line))
    return rows


def test_hand_pairs_are_valid():
    rows = hand_rows()
    assert len(rows) >= 600
    ids = [r["id"] for r in rows]
    assert len(set(ids)) == len(ids)
    is_blind = bench_module("blind").is_blind
    blind_kinds = {1: {"paraphrase", "restated_figure", "summary", "inference", "denial_true", "comparison_true"},
                   0: {"wrong_role", "reversed_comparison", "wrong_figure", "negation", "denial_false",
                       "unsupported_addition", "overgeneralisation"}}
    for r in rows:
        where = f"{HAND.name}: {r.get('id')}"
        assert r["label"] in (0, 1), where
        if r.get("set"):  # the parts written blind: their own writers, their own kinds
            assert set(r) == {"id", "premise", "claim", "label", "kind", "source", "set"}, where
            assert (r["set"], r["source"]) in {("support-blind-1", "blind-support-1"),
                                               ("support-blind-2", "blind-support-2")}, where
            assert r["kind"] in blind_kinds[r["label"]], where
            continue
        assert not is_blind(HAND.name, r.get("set")), where
        assert set(r) == {"id", "premise", "claim", "label", "kind", "source"}, where
        assert r["source"] == "hand", where
        assert r["kind"] in (POSITIVE if r["label"] == 1 else NEGATIVE), where
        assert r["premise"].strip() and r["claim"].strip(), where
        assert r["claim"] not in r["premise"] or r["kind"] == "extractive", where
    assert len({(r["premise"], r["claim"]) for r in rows}) == len(rows)


def test_hand_pairs_are_balanced_and_alike_in_length():
    rows = hand_rows()
    labels = Counter(r["label"] for r in rows)
    assert labels[0] == labels[1]
    words = {label: [len(r["claim"].split()) for r in rows if r["label"] == label]
             for label in (0, 1)}
    means = {label: sum(w) / len(w) for label, w in words.items()}
    assert abs(means[1] - means[0]) < 1.0, means


def test_hand_pairs_share_no_text_with_the_rag_dev_set():
    dev = [json.loads(line) for line in RAG_DEV.read_text(encoding="utf-8").splitlines()
           if line.strip()]
    dev_text = " ".join(c for row in dev for c in row["contexts"]).lower()
    assert dev and hand_rows()
    for r in hand_rows():
        for sentence in re.split(r"(?<=[.!?])\s+", r["premise"]):
            if len(sentence.split()) < 4:
                continue  # a fragment the split cut at an abbreviation ("Mount St.")
            assert sentence.lower() not in dev_text, (r["id"], sentence)
