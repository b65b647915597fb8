"""What a question asks for: the kind of answer it expects and the words naming its topic.

A passage can share every word of a question and still not answer it ("what county is
Ackley, Iowa in?" against a page about Hockley County, Texas; "what causes gall bladder
infections?" against a page on bladder infections). Two facts about the question tell
these apart, and neither needs a model beyond spaCy's tagger:

* **the expected answer** (``kind``): a person for "who", a date for "when", a place for
  "where" or "what county", an amount of money for "how much does it cost", a number for
  "how many", a definition for "what does X mean" / "X definition" / "what is X", a cause
  for "why" / "what causes", an instance of a named class for "what X" / "which X"
  ("what ethnicity", "which protein structure"), steps for "how to V" / "how do I V", the
  property named for "what is the N of X" (``attribute``: its symptoms, its boiling point),
  a stance for a yes/no question, and otherwise a description;
* **the focus** (``focus``): the question's content words minus the words that only say
  what kind of answer is wanted ("mean", "causes", "county", "how much"...): the thing the
  answer must be about.

``ragmeter.judges.local.chunk_relevance`` then asks whether a passage holds an instance of the
expected kind *in a sentence about the focus*, not merely the question's words.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ragmeter.text import caches
from ragmeter.text.nlp import load_nlp, normalise_text

DEFINITION_CUES = frozenset(
    "mean meaning meanings definition definitions define defined stand abbreviation acronym synonym".split())
REASON_CUES = frozenset("why cause causes caused reason reasons".split())
MONEY_CUES = frozenset("cost costs price prices pay paid salary salaries wage wages fee fees earn make "
                       "charge charges cash".split())
HOW_NUMBER = frozenset("many much long far old tall big large high deep often".split())
"""After "how": the question wants a number (these words then say nothing of the topic)."""
MEASURES = frozenset("population temperature average percentage rate snowfall rainfall size weight "
                     "distance height length age pressure".split())
"""Nouns naming a measured quantity: a number is wanted, and the noun stays in the focus."""
DIMENSIONS = {"long": "duration length", "tall": "length", "high": "length", "far": "length", "deep": "length",
              "temperature": "temperature", "height": "length", "distance": "length", "length": "length",
              "pressure": "pressure"}
"""What "how long/tall/..." and a measured noun ask for: a number with a unit of that kind
("how long": a duration or a length; "how long is a marathon" may want either)."""
PLACE_NOUNS = frozenset("county counties country countries state states city cities town province "
                        "region continent island capital".split())
YES_NO_OPENERS = frozenset("is are was were can could does do did will would should has have had may".split())
HOW_MODALS = frozenset("do does can could should would might must".split())
HOW_SUBJECTS = frozenset("i you we one someone people".split())
""""How do I ...", "how can you ...": the question asks for steps (a ``procedure``)."""
ATTRIBUTE_LINKS = frozenset("of for in at on".split())
WH_WORDS = frozenset("what which who whom whose when where why how".split())
GENERIC = frozenset("term type kind sort word name thing way".split())
LIGHT_VERBS = frozenset("be do have use need get make take go come give keep put let want happen mean say".split())
"""Verbs that carry little of what is asked ("what tyre pressure should I *use*", "how long
does it *take*"): an answer may leave them unsaid, so they are not the question's predicate."""
"""Nouns that only frame the question ("what *term*", "what *kind* of"): neither focus nor class."""


@dataclass(frozen=True)
class QuestionFocus:
    """``kind``: person, date, place, money, number, definition, reason, category, procedure
    (steps: "how to V", "how do I V"), attribute (a property of the focus: "what are the
    symptoms of X"), yesno or description; ``focus``: the content lemmas naming the topic,
    in order; ``head``: for ``category`` and ``place`` questions, the class noun the answer
    is an instance of ("county", "ethnicity"), for ``attribute`` the property ("symptom"),
    else ""; ``phrases``: the focus words that form one name, adjacent proper nouns
    ("great barrier reef", "world health organization"), each of two words or more, so a passage may name the whole by its head ("the reef") or its initials
    ("the WHO"); ``acronyms``: focus words the question writes in capitals ("UK"), which a
    passage may spell out ("United Kingdom"); ``nouns``: the focus words tagged as nouns or
    proper nouns, and the modifiers right before them (the things the question is about,
    not what it asks of them: "halley" and "comet", not "visible", in "When will Halley's
    Comet next be visible?"; "flying" and "buttress" in "What is a flying buttress?")."""

    question: str
    kind: str
    focus: tuple[str, ...]
    head: str = ""
    phrases: tuple[tuple[str, ...], ...] = ()
    acronyms: frozenset[str] = frozenset()
    nouns: frozenset[str] = frozenset()
    measure: str = ""
    """For ``number`` questions, what the number must count or measure: the noun after "how
    many" ("years" in "how many light years away..."), or a dimension (``DIMENSIONS``:
    "duration" for "how long", "length" for "how tall/far/deep/high", "temperature");
    "" when the question does not say."""
    predicate: str = ""
    """The question's main predicate: its first content verb as written ("found" in "When was
    the skeleton found?", "water" in "How often should I water tomato plants?", "pay" in
    "Does the company pay for ..."), "" when it has none beyond the light verbs
    (``LIGHT_VERBS``). A participle right before a noun modifies it ("the *arranged* overdraft",
    "the *warning* light") and is not the predicate."""


def _attribute_head(words: list[str], pos: list[str], wh: int) -> int:
    """Index of N in "what is/are the (ADJ) N of/for/in/at/on Y", else -1: such a question asks
    for a property of Y (its symptoms, its boiling point, its default timeout), so a passage
    saying what Y *is* ("Type 2 diabetes is caused by...") does not answer it."""
    if wh < 0 or words[wh] not in ("what", "which") or wh + 2 >= len(words):
        return -1
    if words[wh + 1] not in ("is", "are", "was", "were") or words[wh + 2] != "the":
        return -1
    j, head = wh + 3, -1
    while j < len(words) and pos[j] in ("ADJ", "NOUN", "VERB") and words[j] not in ATTRIBUTE_LINKS:
        if pos[j] == "NOUN":
            head = j
        j += 1
    return head if head >= 0 and j < len(words) and words[j] in ATTRIBUTE_LINKS else -1


def measure_of(words: list[str], pos: list[str]) -> str:
    """What a number question's number must count or measure (``QuestionFocus.measure``)."""
    for i, w in enumerate(words[:-1]):
        if w == "how" and words[i + 1] == "many":
            counted = ""
            for j in range(i + 2, len(words)):
                if pos[j] == "NOUN":
                    counted = words[j]
                elif pos[j] not in ("ADJ", "PROPN") or counted:
                    break
            return counted
        if w == "how" and words[i + 1] in DIMENSIONS:
            return DIMENSIONS[words[i + 1]]
    return next((DIMENSIONS[w] for w in words if w in MEASURES and w in DIMENSIONS), "")


def _classify(words: list[str], pos: list[str], lemmas: list[str]) -> tuple[str, str, set[int]]:
    """(kind, head, indices of the words that only say what kind of answer is wanted)."""
    cue: set[int] = set()
    first = words[0] if words else ""
    wh = next((i for i, w in enumerate(words) if w in WH_WORDS), -1)
    after = words[wh + 1] if 0 <= wh < len(words) - 1 else ""
    # the noun right after "what"/"which" (skipping "kind of", "type of"): the class asked for
    head_i = -1
    if wh >= 0 and words[wh] in ("what", "which"):
        j = wh + 1
        while j < len(words) and (words[j] in GENERIC or words[j] == "of"):
            cue.add(j)
            j += 1
        # the last noun of the compound: "which protein structure" asks for a structure
        while j < len(words) and pos[j] == "NOUN" and words[j] not in DEFINITION_CUES | REASON_CUES:
            head_i = j
            j += 1
        if head_i >= 0 and words[head_i] in GENERIC:
            head_i = -1
    if first in YES_NO_OPENERS:
        return "yesno", "", cue
    if wh >= 0 and words[wh] == "how" and (after == "to" or after in HOW_MODALS and wh + 2 < len(words)
                                           and words[wh + 2] in HOW_SUBJECTS):
        return "procedure", "", cue  # "how to V", "how do I V": steps to follow
    if wh >= 0 and words[wh:wh + 4] == ["what", "does", "it", "mean"] and words[wh + 4:wh + 5] in (["when"], ["if"]):
        # "what does it mean when my foot is hot": what the situation signals, a cause
        cue |= {wh + 3}
        return "reason", "", cue
    if any(lemmas[i] in DEFINITION_CUES or words[i] in DEFINITION_CUES for i in range(len(words))):
        cue |= {i for i, w in enumerate(words) if w in DEFINITION_CUES or lemmas[i] in DEFINITION_CUES}
        return "definition", "", cue
    if any(w in REASON_CUES for w in words):
        cue |= {i for i, w in enumerate(words) if w in REASON_CUES}
        return "reason", "", cue
    if first in ("who", "whom", "whose") and (after not in ("is", "was", "are", "were")
                                              or wh + 2 < len(words) and words[wh + 2] == "the"):
        # "who was the first woman to...": a person, not what someone is
        return "person", "", cue
    if (wh >= 0 and words[wh] == "when") or (head_i >= 0 and words[head_i] in ("year", "date", "day", "time", "month", "century")):
        if head_i >= 0:
            cue.add(head_i)
        return "date", "", cue
    if wh >= 0 and words[wh] == "where":
        return "place", "", cue
    if head_i >= 0 and words[head_i] in PLACE_NOUNS:
        cue.add(head_i)
        return "place", lemmas[head_i], cue
    money = [i for i, w in enumerate(words) if w in MONEY_CUES or lemmas[i] in MONEY_CUES]
    how_much = wh >= 0 and words[wh] == "how" and after == "much"
    if money and (how_much or pos[money[0]] == "NOUN") or how_much and wh + 2 < len(words) and pos[wh + 2] != "NOUN":
        cue |= set(money) | ({wh + 1} if how_much else set())
        return "money", "", cue
    if wh >= 0 and words[wh] == "how" and after in HOW_NUMBER:
        cue.add(wh + 1)
        return "number", "", cue
    if any(w in MEASURES for w in words):
        return "number", "", cue
    if head_i >= 0:
        cue.add(head_i)
        return "category", lemmas[head_i], cue
    attribute = _attribute_head(words, pos, wh)
    if attribute >= 0:
        return "attribute", lemmas[attribute], cue  # "what are the symptoms of X": the symptoms, not what X is
    if wh >= 0 and words[wh] in ("what", "who") and after in ("is", "are", "was", "were"):
        return "definition", "", cue  # "what is X?", "who is X?": what X is
    return "description", "", cue


DO_AUXILIARIES = frozenset("do does did".split())


def _verb_misread_as_noun(words: list[str], pos: list[str]) -> int:
    """Index of the last word of "WH do/does/did SUBJECT V?" when the tagger read V as a noun,
    else -1. After "do" the clause must end on a bare verb ("Why did the Titanic *sink*?",
    "When did the Berlin Wall *fall*?"), yet the small tagger, seeing a noun before it, reads
    it as a compound's head; then the question has no predicate and an answer saying "sank"
    is no answer at all, since a noun of such weight is a name that must be spelled."""
    wh = next((i for i, w in enumerate(words) if w in WH_WORDS), -1)
    if wh < 0 or wh + 3 >= len(words) or words[wh + 1] not in DO_AUXILIARIES:
        return -1
    last = len(words) - 1
    if {"VERB", "AUX"} & set(pos[wh + 2 : last]):
        return -1  # the clause has its verb: "Why do we have leap *years*?" ends on its object
    # the word before may be a name the tagger read as an adjective ("the Titanic")
    return last if pos[last] == "NOUN" and pos[last - 1] in ("NOUN", "PROPN", "ADJ") else -1


def _modifier_or_name(tokens, i: int) -> bool:
    """A word tagged as a verb that is no predicate: a participle right before a noun modifies
    it ("arranged overdraft", "melting sea ice"), and a word before a possessive is a name the
    tagger misread in a lowercased query ("darren criss' mom")."""
    t = tokens[i]
    if t.i + 1 >= len(t.doc):
        return False
    nxt = t.doc[t.i + 1]
    return nxt.tag_ == "POS" or tokens[i].tag_ in ("VBN", "VBG") and nxt.pos_ in ("NOUN", "PROPN")


@functools.lru_cache(maxsize=4096)
def question_focus(question: str) -> QuestionFocus:
    """The expected kind of answer and the focus of ``question`` (cached by text)."""
    doc = load_nlp()(question)
    tokens = [t for t in doc if not (t.is_punct or t.is_space)]
    words = [normalise_text(t.text) for t in tokens]
    lemmas = [normalise_text(t.lemma_ or t.text) for t in tokens]
    pos = [t.pos_ for t in tokens]
    kind, head, cue = _classify(words, pos, lemmas)
    focus = []
    kept: list[int] = []
    for i, t in enumerate(tokens):
        if i in cue or t.is_stop or words[i] in WH_WORDS or words[i] in GENERIC:
            continue
        if t.pos_ in ("NOUN", "PROPN", "ADJ", "VERB", "NUM", "X") or t.like_num:
            # the word as written, not its lemma: the tagger's lemmas of rare words are
            # unreliable ("pending" -> "pende") and passages are matched by prefix anyway
            if words[i] and lemmas[i] not in ("do", "be", "have"):
                focus.append(words[i])
                kept.append(i)
    phrases: list[tuple[str, ...]] = []
    run: list[int] = []
    for i in kept:
        if pos[i] == "PROPN" and run and run[-1] == i - 1:
            run.append(i)
            continue
        if len(run) > 1:
            phrases.append(tuple(words[j] for j in run))
        run = [i] if pos[i] == "PROPN" else []
    if len(run) > 1:
        phrases.append(tuple(words[j] for j in run))
    acronyms = frozenset(words[i] for i in kept if 2 <= len(tokens[i].text) <= 5 and tokens[i].text.isupper()
                         and tokens[i].text.isalpha())
    # only where a cause is asked, which explains that happening: for "When did the Mary Rose
    # sink?" the repaired verb, no longer a name, was credited to a date of its raising said in
    # other words, and a ctxrel-4 pair was lost
    misread = _verb_misread_as_noun(words, pos) if kind == "reason" else -1
    if misread >= 0:
        pos[misread] = "VERB"
        if pos[misread - 1] == "ADJ" and tokens[misread - 1].text[:1].isupper():
            pos[misread - 1] = "PROPN"  # "the Titanic": a name, which must be spelled
    # a modifier right before a noun belongs to the thing named ("pidgin language", "flying buttress")
    nouns = frozenset(words[i] for i in kept if pos[i] in ("NOUN", "PROPN")
                      or i + 1 < len(pos) and i + 1 in kept and pos[i + 1] in ("NOUN", "PROPN"))
    measure = measure_of(words, pos) if kind == "number" else ""
    # the repaired verb is no name (a passage may say it otherwise: "sank"), but it is not made
    # the predicate: the predicate gate wants it said in one word, and "went down" for "sink"
    # lost a ctxrel-3 pair ("When did the Titanic sink?") when it was
    predicate = next((words[i] for i in kept if pos[i] == "VERB" and lemmas[i] not in LIGHT_VERBS
                      and i != misread and not _modifier_or_name(tokens, i)), "")
    return QuestionFocus(question, kind, tuple(dict.fromkeys(focus)), head, tuple(phrases), acronyms, nouns, measure,
                         predicate)


caches.register(question_focus.cache_clear)
