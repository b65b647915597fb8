"""The parts of a question: what it asks, with the answer type each part expects.

``question_parts`` cuts a question into the things it asks (several "?", conjoined
wh-clauses, items of a noun list), resolves pronouns that point to an earlier part ("Where
is France and what is *its* capital?" -> "What is France's capital?"), and gives each part
its expected answer type ("when" -> date, "how many" -> number), key terms and entities.
Question coverage matches answers against these parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ragmeter.text import nlp as _nlp
from ragmeter.judges.local.families import enabled
from ragmeter.judges.local.claims import Piece, can_refer, entities_of, is_head_entity, mention_text, render, trim
from ragmeter.text.nlp import VALUE_LABELS, parse
from ragmeter.text.words import STOPWORDS, WH_WORDS, YES_NO_OPENERS

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Token

__all__ = ["QuestionPart", "question_parts"]

_DATE_NOUNS = frozenset("year date day month century decade time era period age".split())
_NUMBER_NOUNS = frozenset("""number percentage percent amount population size height length
age price cost temperature distance speed weight area rate score count total sum depth width
value budget salary revenue""".split())
_PLACE_NOUNS = frozenset("""country city state continent place town region river mountain
island ocean sea lake location capital province county nation village street building
area""".split())
_PERSON_NOUNS = frozenset("""person man woman author writer scientist president king queen
emperor actor actress singer player inventor composer painter artist leader founder director
ceo poet philosopher explorer physicist chemist mathematician company organization
organisation team band group party university manufacturer owner creator""".split())
_HOW_NUMBER = frozenset("""many much old long far tall big large high deep wide often heavy fast
hot cold""".split())
_QUESTION_NOISE = frozenset("""name tell explain describe list give mention define please main
kind type example thing way know like""".split())
_PART_MAX = 8


@dataclass(frozen=True)
class QuestionPart:
    """One thing the question asks: its text (pronouns resolved), the answer type it expects
    ("date", "number", "person", "place" or ``None``), its key terms and its entities."""

    text: str
    expected: str | None
    terms: tuple[str, ...]
    entities: tuple[str, ...]
    numbers: tuple[str, ...]
    head: str = ""
    """The class noun a "what/which N" part asks for an instance of ("river" in "What river
    runs through Paris?"), "" otherwise."""


def _is_wh(t: "Token") -> bool:
    """A question word ("that" is tagged WDT too, as a relative pronoun: not one)."""
    return t.lower_ in WH_WORDS


def _class_noun(toks: "Sequence[Token]") -> str:
    """The noun right after "what"/"which" ("what *river*", "which *city*"), as a lemma, else ""."""
    for k, t in enumerate(toks):
        if _is_wh(t):
            nxt = toks[k + 1] if k + 1 < len(toks) else None
            if t.lower_ in ("what", "which") and nxt is not None and nxt.pos_ == "NOUN":
                return nxt.lemma_.lower()
            return ""
    return ""


def _expected(toks: "Sequence[Token]") -> str | None:
    """Answer type cue of the first wh-word ("when" -> date, "how many" -> number...)."""
    for k, t in enumerate(toks):
        if not _is_wh(t):
            continue
        w = t.lower_
        nxt = list(toks[k + 1: k + 5])
        if w == "when":
            return "date"
        if w in ("who", "whom", "whose"):
            return "person"
        if w == "where":
            return "place"
        if w == "how":
            if nxt and nxt[0].lower_ in _HOW_NUMBER:
                return "number"
            return None
        if w in ("what", "which"):
            # "what year", "which baseball player", "what is the population of": the type
            # noun right after the wh-word, or after a copula and a determiner
            run: list[str] = []
            rest = list(toks[k + 1: k + 8])
            if rest and rest[0].lemma_.lower() == "be":
                rest = rest[1:]
            for x in rest:
                if x.pos_ == "NOUN":
                    run.append(x.lemma_.lower())
                elif run or not (x.pos_ in ("ADJ", "DET", "PROPN") or x.tag_ in ("POS", "PRP$")):
                    break
            if run:
                n = run[-1]
                if n in _DATE_NOUNS and n != "age":
                    return "date"
                if n in _NUMBER_NOUNS:
                    return "number"
                if n in _PLACE_NOUNS:
                    return "place"
                if n in _PERSON_NOUNS:
                    return "person"
            return None
        return None
    return None


def _split_wh(toks: "list[Token]") -> "list[list[Token]]":
    """Split at "and"/","/";"/"or" followed by a new wh-question or an auxiliary-led one."""
    parts: "list[list[Token]]" = []
    start = 0
    for i in range(1, len(toks) - 1):
        t, nxt = toks[i], toks[i + 1]
        if t.lower_ not in ("and", ",", ";", "or") and not (t.text == "," and nxt.lower_ == "and"):
            continue
        j = i + 1
        if nxt.lower_ == "and":
            j = i + 2
        if j >= len(toks):
            continue
        opener = toks[j]
        if opener.pos_ == "ADP" and j + 1 < len(toks) and _is_wh(toks[j + 1]):
            opener = toks[j + 1]  # "and in which year", "and for how long"
        new_q = _is_wh(opener) or (opener.lower_ in YES_NO_OPENERS and j + 1 < len(toks)
                                   and toks[j + 1].pos_ in ("PRON", "PROPN", "DET", "NOUN"))
        left = toks[start:i]
        if not new_q or len([x for x in left if not x.is_punct]) < 2:
            continue
        parts.append(left)
        start = j
    parts.append(toks[start:])
    parts = [p for p in parts if any(x.is_alpha for x in p)]
    for k in range(1, len(parts)):
        words = [x for x in parts[k] if not x.is_punct]
        prev = parts[k - 1]
        if words and not any(x.pos_ in ("VERB", "AUX") for x in words) and prev and _is_wh(prev[0]):
            # a fragment borrows the verb phrase of the part before it: "Who discovered
            # penicillin and when?" -> "when discovered penicillin"
            parts[k] = [*words, *prev[1:]]
    return parts


def _expand_list(toks: "list[Token]") -> "list[list[Token]]":
    """"What are the population, area and capital of France?" -> one part per item."""
    n = len(toks)
    for a in range(1, n - 1):
        if toks[a].lower_ != "and" or toks[a - 1].pos_ not in ("NOUN", "PROPN"):
            continue
        # the last item: a noun phrase after "and"
        e = a + 1
        while e < n and (toks[e].pos_ in ("DET", "ADJ", "NOUN", "PROPN") or toks[e].tag_ == "PRP$"):
            e += 1
        last = toks[a + 1:e]
        if not last or last[-1].pos_ not in ("NOUN", "PROPN") or len(last) > 4:
            continue
        items = [last]
        b = a  # walk back over "X, Y," items
        while True:
            s = b - 1
            while s >= 0 and (toks[s].pos_ in ("DET", "ADJ", "NOUN", "PROPN") or toks[s].tag_ == "PRP$") \
                    and b - s <= 4:
                s -= 1
            item = toks[s + 1:b]
            if not item or item[-1].pos_ not in ("NOUN", "PROPN"):
                break
            items.insert(0, item)
            if s >= 0 and toks[s].text == "," and s - 1 >= 0:
                b = s
                continue
            break
        if len(items) < 2:
            continue
        first = items[0][0].i
        before = [t for t in toks if t.i < first]
        after = [t for t in toks if t.i >= last[-1].i + 1]
        if before and before[-1].lower_ in ("between", "both", "among", "either"):
            continue
        ents = [e for e in toks[0].doc.ents if e.start < toks[a].i < e.end - 1 or
                (e.start <= toks[a - 1].i and toks[a + 1].i < e.end)]
        if ents:
            continue  # "Pride and Prejudice"
        if len(items) > 5:
            continue
        return [before + item + after for item in items]
    return [toks]


def _part_of(piece: "Piece", toks: "list[Token]") -> QuestionPart:
    text = render(piece) if piece.tokens else ""
    terms: list[str] = []
    numbers: list[str] = []
    replaced = set(piece.replace)
    for k, t in enumerate(toks):
        if k in replaced or t.is_punct or _is_wh(t):
            continue
        if t.like_num:
            v = _nlp.number_value(t.text)
            if v is not None:
                numbers.append(v)
            continue
        if t.is_stop or t.pos_ not in ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "X"):
            continue
        lemma = _nlp.normalise_text(t.lemma_ or t.text)
        if not lemma or lemma in ("be", "have", "do") or lemma in _QUESTION_NOISE:
            continue
        if lemma in _DATE_NOUNS or lemma in ("number", "percentage", "amount"):
            continue  # the answer type, not a term the answer must repeat ("what year")
        terms.extend(lemma.split())
    entities = [_nlp.normalise_entity(name) for name, label in piece.referents if label]
    for name, label in piece.referents:
        if not label:  # a common noun phrase: its words are key terms
            terms.extend(w for w in _nlp.normalise_text(name).split() if w not in STOPWORDS)
    for first, last, label in entities_of(toks):
        if label not in VALUE_LABELS:
            entities.append(_nlp.normalise_entity(first.doc[first.i: last.i + 1].text))
    for e in entities:
        terms.extend(w for w in e.split() if w not in STOPWORDS)
    return QuestionPart(
        text=text,
        expected=_expected(toks),
        terms=tuple(dict.fromkeys(w for w in terms if w)),
        entities=tuple(dict.fromkeys(e for e in entities if e)),
        numbers=tuple(dict.fromkeys(numbers)),
        head=_class_noun(toks),
    )


def _question_parts(doc: "Doc") -> list[QuestionPart]:
    if not enabled("question_parts"):  # the whole question, one part
        whole = trim([t for t in doc if not t.is_space and not (t.is_punct and t.text in "?.!")])
        return [_part_of(Piece(list(whole), 0, question=True), list(whole))] if whole else []
    units: "list[list[Token]]" = []
    for sent in doc.sents:
        run: "list[Token]" = []
        for tok in sent:
            if tok.is_space:
                if "\n" in tok.text and run:
                    units.append(run)
                    run = []
                continue
            run.append(tok)
            if tok.text == "?":
                units.append(run)
                run = []
        if run:
            units.append(run)
    asked = [u for u in units if u and u[-1].text == "?"]
    earlier: list[list[_Antecedent]] = []  # per earlier part, what a pronoun may point to
    parts: list[QuestionPart] = []
    for unit in units:
        is_question = unit in asked or not asked
        toks = [t for t in unit if not (t.is_punct and t.text in "?.!")]
        if not any(t.is_alpha or t.like_num for t in toks):
            continue
        for wh_part in _split_wh(toks):
            for item in _expand_list(wh_part):
                item = trim(item)
                if not item:
                    continue
                piece = Piece(list(item), 0, question=True)
                _resolve_in_question(piece, earlier)
                if is_question:
                    parts.append(_part_of(piece, piece.tokens))
                earlier.append(_antecedents(piece.tokens))
    return parts[:_PART_MAX]


_GENDER = {"his": "m", "her": "f", "its": "n", "their": "p", "he": "m", "she": "f", "it": "n",
           "they": "p", "him": "m", "them": "p"}
_PLACES = frozenset({"GPE", "LOC", "FAC"})


@dataclass(frozen=True)
class _Antecedent:
    """Something a later part of the question may point back to."""

    text: str
    label: str  # spaCy label, or "" for a common noun phrase
    plural: bool
    head: bool  # not inside a prepositional phrase: what the part is about


def _antecedents(toks: "Sequence[Token]") -> list[_Antecedent]:
    """Named entities and head common-noun phrases of a question part, in order."""
    out: list[tuple[int, _Antecedent]] = []
    taken: set[int] = set()
    for first, last, label in entities_of(toks):
        if label in VALUE_LABELS:
            continue
        taken.update(range(first.i, last.i + 1))
        out.append((first.i, _Antecedent(mention_text(first, last, toks), label,
                                         last.tag_ == "NNPS", is_head_entity(first, toks))))
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.pos_ != "NOUN" or t.i in taken:
            k += 1
            continue
        end = k
        while end + 1 < len(toks) and toks[end + 1].pos_ == "NOUN" and toks[end + 1].i not in taken:
            end += 1
        start = k
        while start > 0 and toks[start - 1].pos_ in ("ADJ", "DET") and not _is_wh(toks[start - 1]) \
                and toks[start - 1].lower_ not in _HOW_NUMBER | {"few", "several", "more", "most"}:
            start -= 1
        before = toks[start - 1] if start > 0 else None
        words = [x.text for x in toks[start:end + 1]]
        if before is not None and _is_wh(before) and before.tag_ == "WDT":
            words = ["the", *words]  # "which planet" -> "the planet"
        head = before is None or before.pos_ != "ADP"
        out.append((toks[start].i, _Antecedent(" ".join(words), "", toks[end].tag_ == "NNS", head)))
        k = end + 1
    return [a for _, a in sorted(out, key=lambda x: x[0])]


def _pick(gender: str, earlier: list[list[_Antecedent]], possessive: bool) -> _Antecedent | None:
    """The antecedent of a pronoun in a later part (see ``_resolve_in_question``)."""
    def fits(a: _Antecedent) -> bool:
        if a.label == "":
            return gender in ("n", "p") and a.plural == (gender == "p")
        return can_refer(gender, a.label, a.plural)

    if gender in ("m", "f"):
        for part in reversed(earlier):
            for a in reversed(part):
                if a.label == "PERSON":
                    return a
        return None
    if possessive:
        for part in reversed(earlier):
            for a in reversed(part):
                if a.label and fits(a):
                    return a
    for part in reversed(earlier):
        for a in part:
            if a.head and fits(a):
                return a
    return None


def _resolve_in_question(piece: "Piece", earlier: list[list[_Antecedent]]) -> None:
    """Pronouns of a question part point back to an earlier part.

    * he/she/his/her: the most recent PERSON;
    * it/they: what the part before is about, its first head noun phrase or name not inside
      a prepositional phrase ("What is the longest river in Africa and which countries does
      *it* flow through?" -> the river, not Africa; "What causes tides and how often do *they*
      occur?" -> tides);
    * its/their: the most recent compatible name first ("What language is spoken in Brazil
      and what is *its* currency?" -> Brazil's), else as it/they;
    * there: the most recent place ("... how many people live *there*" -> "in France").

    A part that names a compatible entity before the pronoun keeps it.
    """
    toks = piece.tokens
    for at, t in enumerate(toks):
        low = t.lower_
        possessive = low in ("his", "her", "its", "their") and t.tag_ == "PRP$"
        personal = low in _GENDER and t.tag_ == "PRP"
        there = low == "there" and t.tag_ == "RB"
        if not (possessive or personal or there):
            continue
        before = [(label, last.tag_ == "NNPS") for _, last, label in entities_of(toks[:at])]
        if there:
            ref = next((a for part in reversed(earlier) for a in reversed(part)
                        if a.label in _PLACES), None)
            if ref is None or any(label in _PLACES for label, _ in before):
                continue
            piece.replace[at] = "in " + ref.text
        else:
            gender = _GENDER[low]
            if any(can_refer(gender, label, plural) for label, plural in before):
                continue
            ref = _pick(gender, earlier, possessive)
            if ref is None:
                continue
            text = ref.text
            if possessive:
                text += "'" if text.endswith("s") else "'s"
            piece.replace[at] = text
        if ref.label:
            piece.referents.append((ref.text, ref.label))
        else:
            piece.referents.append((ref.text, ""))


def question_parts(questions: Sequence[str]) -> list[list[QuestionPart]]:
    """The parts of each question (one spaCy pass for all, cached).

    Parts are: the questions of a text with several "?"; conjoined wh-clauses ("Where is
    France and what is its capital?" -> "Where is France?", "What is France's capital?");
    items of a noun list ("the population, area and capital of France" -> three parts). A
    text with no "?" is one or more imperative parts ("Name the capital of France."); a
    statement before a question ("I am going to Paris. What should I see?") only lends its
    entities to pronouns. At most 8 parts.
    """
    docs = parse([q or "" for q in questions])
    return [_question_parts(d) if q and q.strip() else [] for q, d in zip(questions, docs)]

