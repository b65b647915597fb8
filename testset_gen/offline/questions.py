"""Statements into questions, by rules over spaCy's dependency parse (no LLM).

The offline generator writes its questions here. A statement such as "The Eiffel Tower was
completed in 1889." has a subject, a verb with its auxiliaries, and constituents hanging
from the verb; a question asks for one constituent, and English says so in a fixed way:

* **Subject asked**: the wh-word takes the subject's place, the rest stays ("Marie Curie
  discovered polonium." -> "Who discovered polonium?"). A count in the subject becomes "How
  many" ("About seven million people visit the Eiffel Tower every year." -> "How many people
  visit the Eiffel Tower every year?").
* **Anything else asked**: the constituent is removed, the wh-phrase goes first, and the
  first auxiliary moves before the subject ("When was the Eiffel Tower completed?"); a copula
  moves itself ("Where is the museum?"); with neither, "do" is supplied in the verb's tense
  and the verb becomes its lemma ("What did Marie Curie discover?", "How many Nobel Prizes
  did Marie Curie win?").

The wh-word follows the answer's entity label and the preposition that introduces it:
PERSON -> who (an agent "by" -> "By whom"); an ORG subject -> which organisation; DATE after in/on/at/during -> when; a place
(GPE/LOC/FAC) after in/at/near/on/to/into -> where; a CARDINAL counting a plural noun ->
how many; a QUANTITY measuring an adjective -> how + adjective; other objects -> what.

Documentation prose names its subjects with words no entity tagger knows: a word the
statement's document writes capitalised inside a prose sentence (``document_names``) counts
as a name where it opens one ("Kaleido requires Chrome or Chromium to generate images." ->
"What does Kaleido require to generate images?"). A verb that takes its preposition with
it keeps it at the end ("FastAPI depends on Pydantic and Starlette." -> "What does FastAPI
depend on?"), and a described thing whose value is a name or a figure is asked for it ("The
primary API for interacting with OpenAI models is the Responses API." -> "What is the
primary API for interacting with OpenAI models?"). A subject whose head is a common noun
that a name only modifies ("X.509 API requests") is asked nothing else: it is one of many.

A statement is skipped (never forced) when the result would not be a clean, standalone
question: no single finite main verb, an expletive or pronoun subject, a negation, a
fronted clause the rules cannot move, a constituent that is not a contiguous subtree, a
question that would name no name (so it would need the chunk to make sense: "How tall is
the tower?"), or one that gives its own answer away. Fewer questions, all grammatical, is
the intended trade.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ragmeter.text.nlp import normalise_entity

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Span, Token

WHEN_PREPS = frozenset({"in", "on", "at", "during"})
WHERE_PREPS = frozenset({"in", "at", "near", "on", "to", "into", "inside", "outside"})
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
THING_LABELS = frozenset({"ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW",
                          "LANGUAGE"})
NAME_LABELS = THING_LABELS | {"PERSON", "NORP"}
_DO = {"VBD": "did", "VBZ": "does", "VBP": "do"}
_PRONOUNS = frozenset("i you he she it we they him her them his its their hers theirs this "
                      "these those".split())
_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)
_ORG_WORDS = re.compile(
    r"\b(?:Center|Centre|Hospital|University|College|School|Academy|Company|Corporation|Corp|"
    r"Inc|Ltd|LLC|Group|Association|Society|Party|Club|Council|Committee|Agency|Department|"
    r"Bank|Institute|Foundation|Records|Airlines?|Organi[sz]ation|Union|League|Army|Navy|"
    r"Force|Church|Museum|FC|Network|Studios?|Entertainment|Press|Magazine|Federation|Board|"
    r"Service|Office|Ministry|Court|Commission|Authority|Trust|Orchestra|Band)\b")
"""Words that make an ORG entity an organisation a reader recognises as one."""
_DESCRIPTOR_NOUNS = {"PERSON": "the person", "GPE": "the place", "LOC": "the place",
                     "FAC": "the structure", "ORG": "the organisation", "WORK_OF_ART": "the work",
                     "EVENT": "the event", "PRODUCT": "the product", "LAW": "the law",
                     "LANGUAGE": "the language"}


@dataclass(frozen=True)
class Question:
    """A question made from one statement, with what is needed to combine it with others.

    ``text``: the question; ``answer``: the span it asks for, as written; ``statement``: the
    sentence that states the answer (the ground truth); ``wh``: the wh-phrase, lowercased
    ("who", "what", "which organisation", "when", "where", "how many", "how tall"); ``role``: "subject" (the
    wh-word replaced the subject) or "object" (a constituent after the verb was asked);
    ``label``: the answer's entity label ("" for a plain noun phrase); ``answer_norm``: the
    answer's ``normalise_entity`` form; ``topic``: for "object" questions, the subject as it
    appears in the question ("the Eiffel Tower"), with ``topic_norm`` and ``topic_label``
    when it is a named entity; ``predicate``: for
    "subject" questions, the words after the wh-word ("discovered polonium"), which make a
    relative clause ("the person who discovered polonium"); ``remainder``: the statement
    without the asked constituent, as a clause ("Marie Curie moved to Paris"), for
    time-difference questions; ``inverted``: the question without its wh-phrase and "?"
    ("did Marie Curie move to Paris"); ``declarative``: the whole statement as a clause to
    embed in a sentence, a fronted phrase moved to the end ("Marie Curie shared the Nobel
    Prize in 1903").
    """

    text: str
    answer: str
    statement: str
    wh: str
    role: str
    label: str
    answer_norm: str
    topic: str = ""
    topic_norm: str = ""
    topic_label: str = ""
    predicate: str = ""
    remainder: str = ""
    inverted: str = ""
    declarative: str = ""
    span_years: int | None = None
    """For "For how many years ...?" (a "from 1965 to 2001" span): the years between the two
    dates, computed, never stated; such a question is a reasoning question."""
    kind: str = ""
    """For a definition ("What is Crimson Peak?"): the defining noun ("film")."""
    made_year: int | None = None
    """For a definition: the one year written before the defining noun ("a 2015 film")."""
    passive: str = ""
    """"was founded", "was born": the passive verb of a dated object question with nothing
    but prepositional phrases after it, so that two such statements about like things can
    be compared ("Which was founded first: X or Y?")."""
    active: bool = False
    """The agent of a passive asked as the active verb's subject ("Who proposed X?"): the
    verb keeps its object, so the object-gap check does not apply."""

    @property
    def year(self) -> int | None:
        """The year of a "when" answer that states one (for time differences)."""
        if self.wh != "when":
            return None
        found = re.findall(r"\b(1\d{3}|20\d{2})\b", self.answer)
        return int(found[0]) if len(found) == 1 else None


def descriptor(label: str, predicate: str) -> str | None:
    """"the person who discovered polonium": an entity described by what it did."""
    noun = _DESCRIPTOR_NOUNS.get(label)
    if noun is None or not predicate:
        return None
    copula = re.match(r"(?:is|was) (the .+)$", predicate)
    if copula and " and " not in copula.group(1):
        return copula.group(1)  # "is the capital of Poland" -> "the capital of Poland"
    return f"{noun} {'who' if label == 'PERSON' else 'that'} {predicate}"


# --- rendering -------------------------------------------------------------------------


def render(toks: "Sequence[Token]") -> str:
    """Tokens as text: original spacing inside runs of neighbours, one space between runs,
    no space before closing punctuation or a possessive."""
    parts: list[str] = []
    for k, t in enumerate(toks):
        if k:
            prev = toks[k - 1]
            if t.i == prev.i + 1 and t.doc is prev.doc:
                parts.append(prev.whitespace_ or "")
            elif not (t.is_punct and t.text in ",.;:!?)%") and t.tag_ != "POS":
                parts.append(" ")
        parts.append(t.text)
    return "".join(parts).strip()


def _join(*pieces: str) -> str:
    text = " ".join(p for p in pieces if p)
    text = re.sub(r"\s+([,;:])", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def _finish(text: str) -> str:
    text = text.strip().rstrip(",;:").strip()
    return text[:1].upper() + text[1:] + "?"


def _lower_first(toks: "Sequence[Token]", text: str, names: frozenset[str] = frozenset()) -> str:
    """Lowercase a sentence-initial word moved inside the question ("The tower" -> "the
    tower", "In 1903" -> "in 1903"), but not a name or "I" ("The" of "The Eiffel Tower" is
    lowercased all the same)."""
    if not toks or toks[0].i != toks[0].sent.start:
        return text
    first = toks[0]
    titled = len(toks) > 1 and toks[1].is_title  # "Too Many Requests": a name
    if first.lower_ == "the" or (first.pos_ != "PROPN" and not first.ent_type_
                                 and first.text != "I" and not titled
                                 and not _known_name(first, names)):
        return text[:1].lower() + text[1:]
    return text


# --- encyclopaedic prose: dates, titles, the agent as subject -------------------------


def date_preposition(date: str) -> str:
    """The preposition English puts before a date: "on" for a day ("September 28, 1937",
    "23 May 1965", "Monday"), "in" for a month, a year or a decade ("April 1983", "1937",
    "the 1970s")."""
    day = re.search(r"\b\d{1,2}(?:st|nd|rd|th)?\b", date) and _MONTH.search(date)
    weekday = re.search(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", date, re.I)
    return "on" if day or weekday else "in"


def bare_dates(c: "_Clause") -> "dict[int, str]":
    """Dates hanging from the verb without a preposition ("were presented April 11, 1983",
    "dedicated September 28, 1937"): first token -> the preposition a question needs. News
    style drops it; a question without it reads as broken ("By whom was Timberline Lodge
    dedicated September 28, 1937?")."""
    out: dict[int, str] = {}
    for ch in c.root.children:
        if ch.dep_ != "npadvmod":
            continue
        part = _subtree(ch)
        ent = _entity_of(ch)
        if part is None or ent is None or not _is_date(ent) or ent.start != part[0].i:
            continue
        out[part[0].i] = date_preposition(ent.text)
    return out


def render_dated(toks: "Sequence[Token]", dates: "dict[int, str]") -> str:
    """``render``, with the preposition of ``bare_dates`` put before each bare date."""
    if not any(t.i in dates for t in toks):
        return render(toks)
    pieces: list[str] = []
    run: list[Token] = []
    for t in toks:
        if t.i in dates:
            if run:
                pieces.append(render(run))
            run = []
            pieces.append(dates[t.i])
        run.append(t)
    if run:
        pieces.append(render(run))
    return _join(*pieces)


TITLE_HEADS = frozenset("Act Acts Treaty Agreement Accord Accords Convention Declaration "
                        "Amendment Bill Resolution Charter Protocol Doctrine".split())
"""Last words of a title that takes "the" in running text though its source may drop it
("Hong Kong Human Rights and Democracy Act is proposed by ..." -> "the Hong Kong Human
Rights and Democracy Act")."""


def without_orphan_comma(c: "_Clause", rest: "list[Token]", drop: "set[int]") -> "list[Token]":
    """``rest`` without a comma left straight after the verb once the phrase that closed
    the aside was asked away: "established, by the OAS, on 23 May 1965, after ..." asked for
    the date read "When was the Inter-American Peace Force established, by the OAS after
    ...?" (rated a miss)."""
    if (drop and len(rest) > 1 and rest[0].text == "," and rest[0].i == c.root.i + 1
            and not any(t.text == "," for t in rest[1:])):
        return rest[1:]
    return rest


def with_title_article(c: "_Clause", subject_text: str) -> str:
    """The subject as a question shows it: "the" before a bare title of ``TITLE_HEADS``."""
    if c.subject[0].lower_ in ("the", "a", "an") or c.subject[-1].text not in TITLE_HEADS:
        return subject_text
    return "the " + subject_text


IRREGULAR_PAST = {
    "written": "wrote", "drawn": "drew", "sung": "sang", "given": "gave", "taken": "took",
    "shown": "showed", "known": "knew", "begun": "began", "chosen": "chose", "driven": "drove",
    "done": "did", "seen": "saw", "spoken": "spoke", "thrown": "threw", "won": "won",
    "built": "built", "made": "made", "held": "held", "bought": "bought", "sold": "sold",
    "taught": "taught", "brought": "brought", "fought": "fought", "paid": "paid", "sent":
    "sent", "spent": "spent", "set": "set", "put": "put", "run": "ran", "beaten": "beat",
    "broken": "broke", "grown": "grew", "ridden": "rode", "found": "found", "told": "told",
    "read": "read", "shot": "shot", "struck": "struck", "understood": "understood",
    "felt": "felt", "kept": "kept", "left": "left", "lost": "lost",
    "meant": "meant", "met": "met", "hit": "hit", "cast": "cast", "split": "split",
    "overseen": "oversaw", "undertaken": "undertook", "forgotten": "forgot", "frozen": "froze",
    "hidden": "hid", "stolen": "stole", "woven": "wove", "withdrawn": "withdrew"}
"""Past participles whose past tense differs or cannot be told from their spelling; a
participle neither here nor ending in "-ed" is not turned active (the question is skipped
rather than guessed)."""

STATIVE_AGENT_VERBS = frozenset("own operate manage run maintain publish sponsor host govern "
                                "administer fund distribute broadcast organize organise "
                                "license employ list recognise recognize classify rank "
                                "protect serve".split())
"""Verbs whose present passive states a lasting relation ("is owned by", "is published
by"): asked in the present ("Who owns Bal Harbour Shops?"). Any other present passive of
encyclopaedic prose reports a done act ("is proposed by", "is directed by") and is asked in
the past ("Who proposed the ... Act?")."""


def _third_person(lemma: str) -> str:
    if re.search(r"(?:s|sh|ch|x|z)$", lemma):
        return lemma + "es"
    if re.search(r"[^aeiou]y$", lemma):
        return lemma[:-1] + "ies"
    return lemma + "s"


def active_agent_question(c: "_Clause", agent: "Sequence[Token]") -> str | None:
    """"Who proposed the Hong Kong Human Rights and Democracy Act?" from "Hong Kong Human
    Rights and Democracy Act is proposed by Chris Smith": the agent of a passive asked as
    the subject of the active verb, as people ask it ("By whom is ... proposed?" was rated
    stilted). ``None`` when the verb's active form is not known for sure, for a "led"
    (leaders change) or when anything but one auxiliary stands before the verb."""
    if c.aux is None or c.aux == c.root.i or c.root.tag_ != "VBN" or len(c.middle) != 1:
        return None
    aux = c.sent.doc[c.aux].lower_
    lemma = c.root.lemma_.lower()
    if aux not in ("was", "were", "is", "are") or lemma == "lead":
        return None
    if aux in ("is", "are") and lemma in STATIVE_AGENT_VERBS:
        verb = _third_person(lemma)
    elif c.root.lower_ in IRREGULAR_PAST:
        verb = IRREGULAR_PAST[c.root.lower_]
    elif c.root.lower_.endswith("ed"):
        verb = c.root.lower_
    else:
        return None
    drop = {t.i for t in agent}
    lo, hi = min(drop), max(drop)
    drop |= {t.i for t in c.sent if t.text == "," and t.i in (lo - 1, hi + 1)}
    rest = [t for t in c.after if t.i not in drop]
    moved = [t for part in c.fronted for t in part]
    dates = bare_dates(c)
    subject = with_title_article(c, _lower_first(c.subject, render(c.subject), c.names))
    return _finish(_join("Who", verb, subject, render_dated(rest, dates),
                         _lower_first(moved, render_dated(moved, dates))))


# --- parse helpers ---------------------------------------------------------------------


def _subtree(tok: "Token") -> "list[Token] | None":
    """The token's subtree if it is contiguous (else ``None``: no clean cut exists)."""
    toks = sorted(tok.subtree, key=lambda t: t.i)
    if toks[-1].i - toks[0].i + 1 != len(toks):
        return None
    return toks


def _entity_of(tok: "Token") -> "Span | None":
    for ent in tok.doc.ents:
        if ent.start <= tok.i < ent.end:
            return ent
    return None


def _has_name(toks: "Sequence[Token]", names: frozenset[str] = frozenset()) -> bool:
    """A named entity, or a proper noun that is not just a capitalised first word (the tagger
    calls "Uncle" in "Uncle started a company." a proper noun), or a first word that its
    document writes capitalised inside sentences too (``names``: "Kaleido requires Chrome"
    when the page says "install Kaleido" elsewhere)."""
    return any(t.ent_type_ in NAME_LABELS or (t.pos_ == "PROPN" and t.i != t.sent.start)
               or _known_name(t, names) for t in toks)


def _known_name(tok: "Token", names: frozenset[str]) -> bool:
    """A word its document writes, capitalised, in the middle of a sentence (the tagger
    calls an unknown first word a noun as often as a proper noun: "Kaleido requires")."""
    return (tok.pos_ in ("PROPN", "NOUN") and tok.text[:1].isupper() and tok.text in names
            and not tok.is_stop)


def _is_date(ent: "Span") -> bool:
    return ent.label_ == "DATE" and (any(c.isdigit() for c in ent.text)
                                     or bool(_MONTH.search(ent.text)))


@dataclass
class _Clause:
    """A statement cut into the parts the transformations move around."""

    sent: "Span"
    root: "Token"
    subject: "list[Token]"
    fronted: "list[list[Token]]"  # constituents before the subject, each a subtree
    middle: "list[Token]"  # between subject and verb: auxiliaries, adverbs
    aux: int | None  # index of the auxiliary (or copula) that inverts; None: do-support
    after: "list[Token]"  # after the verb, final punctuation dropped
    statement: str
    names: frozenset[str] = frozenset()  # the document's names (``_known_name``)


def _clause(sent: "Span", names: frozenset[str] = frozenset()) -> _Clause | None:
    root = sent.root
    if root.pos_ not in ("VERB", "AUX") or sum(1 for t in sent if t.dep_ == "ROOT") != 1:
        return None
    if any(t.dep_ in ("neg", "expl") or t.text in ('"', "(", ")", "?", "!", ";", ":")
           for t in sent):
        return None
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if len(subjects) != 1 or subjects[0].i > root.i:
        return None
    subject = _subtree(subjects[0])
    if subject is None or any(t.lower_ in _PRONOUNS for t in subject if t.pos_ == "PRON"):
        return None
    if subjects[0].pos_ == "PRON":
        return None
    fronted: list[list[Token]] = []
    i = sent.start
    while i < subject[0].i:
        tok = sent.doc[i]
        if tok.is_punct:
            i += 1
            continue
        head = next((c for c in root.children if c.left_edge.i == i
                     and c.dep_ in ("prep", "npadvmod")), None)
        if head is None:
            return None
        part = _subtree(head)
        if part is None:
            return None
        if head.dep_ == "npadvmod" and not all(t.ent_type_ in ("DATE", "TIME") for t in part):
            return None  # "Miss Perú 2010, the 58th pageant was held": an apposition, not a time
        fronted.append(part)
        i = part[-1].i + 1
    auxes = [c for c in root.children if c.dep_ in ("aux", "auxpass") and c.i < root.i]
    middle = [sent.doc[i] for i in range(subject[-1].i + 1, root.i)]
    if any(t.dep_ not in ("aux", "auxpass", "advmod") for t in middle):
        return None
    aux: int | None
    if auxes:
        if auxes[0].lower_ == "to" or not middle or middle[0].i != auxes[0].i:
            return None
        aux = auxes[0].i
    elif root.lemma_ == "be" and root.pos_ == "AUX":
        aux = root.i
    elif root.tag_ in _DO:
        aux = None
    else:
        return None
    after = [t for t in sent if t.i > root.i]
    while after and after[-1].is_punct:
        after = after[:-1]
    statement = sent.text.strip()
    return _Clause(sent, root, subject, fronted, middle, aux, after, statement, names)


def _asked_clause(c: _Clause, drop: "set[int]") -> tuple[str, str, str]:
    """(inverted question body, subject as shown, remainder clause) with ``drop`` removed.

    The body is "aux subject middle verb rest fronted" ("was the Eiffel Tower completed"),
    the remainder the declarative without the dropped part ("the Eiffel Tower was
    completed").
    """
    subject_text = _lower_first(c.subject, render(c.subject), c.names)
    if drop:  # the commas that set the asked part off go with it
        lo, hi = min(drop), max(drop)
        drop = drop | {t.i for t in c.sent if t.text == "," and t.i in (lo - 1, hi + 1)}
    rest = without_orphan_comma(c, [t for t in c.after if t.i not in drop], drop)
    moved = [t for part in c.fronted for t in part if t.i not in drop]
    dates = bare_dates(c)
    moved_text = _lower_first(moved, render_dated(moved, dates))
    middle = [t for t in c.middle if t.i != c.aux]
    if c.aux is None:
        verb = c.root.lemma_.lower()
        aux = _DO[c.root.tag_]
    elif c.aux == c.root.i:
        verb = ""
        aux = c.root.lower_
    else:
        verb = c.root.text
        aux = c.sent.doc[c.aux].lower_
    shown = with_title_article(c, subject_text)
    body = _join(aux, shown, render(middle), verb, render_dated(rest, dates), moved_text)
    remainder = _join(subject_text, render(c.middle), c.root.text, render_dated(rest, dates),
                      moved_text)
    return body, subject_text, remainder


def _declarative(c: _Clause) -> str:
    """The statement as a clause: no capital unless a name opens it, no full stop, a fronted
    phrase moved to the end ("In 1903, Marie Curie won..." -> "Marie Curie won ... in 1903")."""
    moved = [t for part in c.fronted for t in part]
    dates = bare_dates(c)
    return _join(_lower_first(c.subject, render(c.subject), c.names), render(c.middle), c.root.text,
                 render_dated(c.after, dates), _lower_first(moved, render_dated(moved, dates)))


def _subject_questions(c: _Clause) -> list[Question]:
    out: list[Question] = []
    head = next((t for t in c.subject if t.dep_ in ("nsubj", "nsubjpass")), None)
    if head is None:
        return out
    pred_toks = [*c.middle, c.root, *c.after]
    moved = [t for part in c.fronted for t in part]
    dates = bare_dates(c)
    predicate = _join(render_dated(pred_toks, dates),
                      _lower_first(moved, render_dated(moved, dates)))
    ent = _entity_of(head)
    if ent is not None and ent.label_ in NAME_LABELS - {"NORP"}:
        covered = [t for t in c.subject if not (ent.start <= t.i < ent.end)]
        if any(t.lower_ != "the" for t in covered):
            return out
        if c.root.lemma_ == "be" and any(ch.dep_ == "attr" and any(
                d.lower_ in ("a", "an") for d in ch.children) for ch in c.root.children):
            return out  # "Who was a physicist?": many answers
        if not _has_name(pred_toks + moved, c.names):
            return out
        if ent.label_ == "PERSON" and len(ent) == 1 and (
                _known_name(head, c.names) or not ent.text[:1].isupper()):
            return out  # software the tagger calls a person: "Who has a Discord channel?"
        if ent.label_ == "ORG" and not _ORG_WORDS.search(ent.text):
            return out  # the small model calls people and titles ORG: "Which organisation lives in Panem?"
        wh = {"PERSON": "who", "ORG": "which organisation"}.get(ent.label_, "what")
        text = _finish(_join(wh, predicate))
        out.append(Question(text=text, answer=ent.text, statement=c.statement, wh=wh,
                            role="subject", label=ent.label_,
                            answer_norm=normalise_entity(ent.text), predicate=predicate,
                            declarative=_declarative(c)))
        return out
    # a count in the subject: "About seven million people visit ..."
    nums = [t for t in c.subject if t.ent_type_ == "CARDINAL" and t.head.i == head.i]
    if nums and head.tag_ in ("NNS", "NNPS") and _has_name(pred_toks + moved, c.names):
        ent = _entity_of(nums[0])
        if ent is None:
            return out
        drop = {t.i for t in c.subject if ent.start <= t.i < ent.end or t.head.i in
                range(ent.start, ent.end) and t.dep_ in ("advmod", "quantmod")}
        rest = [t for t in c.subject if t.i not in drop and t.dep_ not in ("det",)]
        if not rest or rest[0].i < ent.start:
            return out
        noun = render(rest)
        if rest[0].pos_ != "PROPN":
            noun = noun[:1].lower() + noun[1:]
        text = _finish(_join("how many " + noun, predicate))
        out.append(Question(text=text, answer=ent.text, statement=c.statement, wh="how many",
                            role="subject", label="CARDINAL",
                            answer_norm=normalise_entity(ent.text),
                            declarative=_declarative(c)))
    return out


def _object_questions(c: _Clause) -> list[Question]:
    out: list[Question] = []
    if not _has_name(c.subject, c.names):
        return out  # "When was the tower completed?" names nothing: it needs its chunk
    head = next((t for t in c.subject if t.dep_ in ("nsubj", "nsubjpass")), c.subject[-1])
    # a common noun that a name only modifies ("X.509 API requests", "an LLM judge", "the
    # 1926 Navy Midshipmen football team") is one of many, or the page's own: asked only
    # for what it is described as being ("What is the primary API for ...?")
    common_head = not (head.ent_type_ in NAME_LABELS or head.pos_ == "PROPN"
                       or _known_name(head, c.names))
    if any(ch.dep_ == "conj" and ch.pos_ in ("VERB", "AUX") for ch in c.root.children):
        return out  # "X absorbs blue light and reflects green": inversion breaks the second
    topic_ent = _entity_of(c.subject[-1])
    topic_norm = normalise_entity(render(c.subject)) if topic_ent is not None else ""
    topic_label = topic_ent.label_ if topic_ent is not None else ""
    if topic_ent is None and _named_by_document(c):
        topic_norm, topic_label = normalise_entity(render(c.subject)), DOCUMENT_NAME

    def add(wh_phrase: str, wh: str, drop: list["Token"], answer: str, label: str,
            span_years: int | None = None, tail: str = "", active: str = "") -> None:
        body, subject_text, remainder = _asked_clause(c, {t.i for t in drop})
        text = active or _finish(_join(wh_phrase, body, tail))
        out.append(Question(text=text, active=bool(active), answer=answer,
                            statement=c.statement, wh=wh, role="object", label=label,
                            answer_norm=normalise_entity(answer),
                            topic=subject_text, topic_norm=topic_norm,
                            topic_label=topic_label, remainder=remainder,
                            inverted=body, declarative=_declarative(c),
                            span_years=span_years, passive=_passive(c, drop)))

    definition = _definition(c, topic_ent)
    if definition is not None:
        out.append(definition)
    fronted = {t.i for part in c.fronted for t in part}
    # "Canty Bay is a coastal hamlet in East Lothian": asking "where" keeps the attribute
    # ("Where is Canty Bay a coastal hamlet?"), so a copula with one asks nothing
    attribute = c.aux == c.root.i and any(ch.dep_ == "attr" for ch in c.root.children)
    constituents = [ch for ch in c.root.children if ch.i > c.root.i or ch.i in fronted]
    for ch in constituents:
        if common_head and ch.dep_ != "attr":
            continue
        if ch.dep_ in ("prep", "agent"):
            objs = [g for g in ch.children if g.dep_ == "pobj"]
            if len(objs) != 1:
                continue
            pp = _subtree(ch)
            if pp is None:
                continue
            pobj = objs[0]
            ent = _entity_of(pobj)
            prep = ch.lower_
            phrase = render(pp[1:])
            if ch.dep_ == "agent" and prep == "by":
                names = {t.ent_type_ for t in pp}
                if "PERSON" in names or (ent is not None and ent.label_ == "ORG"):
                    active = active_agent_question(c, pp)
                    # "By whom is X proposed?" reads stilted; the past "By whom was X
                    # founded?" is kept where the active form is not known for sure
                    if active or c.sent.doc[c.aux or c.root.i].lower_ in ("was", "were"):
                        add("By whom", "who", pp, phrase, ent.label_ if ent else "",
                            active=active or "")
                continue
            if _span_years(pp) is not None:
                continue  # asked as a duration below
            if ((c.root.lemma_.lower(), prep) in PREPOSITIONAL_VERBS and ch.i == c.root.i + 1
                    and pp[-1].i == c.after[-1].i and not c.fronted
                    and not any(g.dep_ in ("dobj", "attr", "xcomp", "ccomp", "dative")
                                for g in c.root.children)
                    and (ent is None or ent.label_ not in ("DATE", "TIME", "CARDINAL",
                                                           "PERSON", "GPE", "LOC"))):
                # "FastAPI depends on Pydantic and Starlette." -> "What does FastAPI depend
                # on?": the preposition stays with its verb, at the end, as English asks it
                add("What", "what", pp, phrase, ent.label_ if ent is not None else "",
                    tail=prep)
                continue
            if ((c.root.lemma_.lower(), prep) in PREPOSITIONAL_VERBS and ent is not None
                    and ent.label_ in ("GPE", "LOC", "PERSON")):
                continue  # "implemented in C++" (tagged a place): not "Where is X implemented?"
            if ent is None or not (ent.start <= pobj.i < ent.end) or attribute:
                continue
            if ent.label_ == "DATE" and prep in WHEN_PREPS and _is_date(ent):
                add("When", "when", pp, ent.text, "DATE")
            elif ent.label_ in PLACE_LABELS and prep in WHERE_PREPS:
                others = [o for o in constituents if o.i != ch.i and o.dep_ == "prep"
                          and o.lower_ in WHERE_PREPS and any(
                              g.ent_type_ in PLACE_LABELS for g in o.subtree)]
                if not others:  # not "Where was Einstein born in Ulm?"
                    add("Where", "where", pp, ent.text, ent.label_)
        elif ch.dep_ == "npadvmod" and ch.i in bare_dates(c) and not attribute:
            # "The 55th Academy Awards were presented April 11, 1983, at ..." -> "When were
            # the 55th Academy Awards presented at the Dorothy Chandler Pavilion?"
            when = _subtree(ch)
            ent = _entity_of(ch)
            if when is not None and ent is not None:
                add("When", "when", when, ent.text, "DATE")
        elif ch.dep_ == "dobj":
            obj = _subtree(ch)
            if obj is None or ch.pos_ == "PRON" or any(t.lower_ in ("same", "such") for t in obj):
                continue  # "the same zipcode as Collins": the "as" part stays behind
            if any(g.dep_ in ("xcomp", "ccomp", "oprd") for g in c.root.children) and not (
                    c.root.lemma_ in PURPOSE_VERBS and all(
                        g.dep_ != "xcomp" or g.i > ch.i and _to_infinitive(g)
                        for g in c.root.children if g.dep_ in ("xcomp", "ccomp", "oprd"))):
                continue  # "tells a client to slow down": "What does it tell to slow down?"
                # but "uses Black to format the code" says what the object is for:
                # "What does fsspec use to format the code?"
            if any(g.dep_ not in ("prt", "punct") and c.root.i < g.i < ch.i
                   for g in c.root.children):
                continue  # "Macau elects on national level a legislature": an object moved
                # behind a phrase reads unnaturally as "What does Macau elect on national level?"
            if any(g.dep_ == "prep" and g.lower_ in ("as", "from", "into", "within")
                   for g in c.root.children if g.i > ch.i):
                continue  # "listed the population as 26,121", "separates X from Y": the
                # object is half of a relation, "What did the Census list as 26,121?" is odd
            nums = [t for t in obj if t.ent_type_ == "CARDINAL" and t.head.i == ch.i]
            if nums and ch.tag_ in ("NNS", "NNPS"):
                ent = _entity_of(nums[0])
                if ent is None:
                    continue
                # the counted noun and what precedes it ("Nobel Prizes"), not what follows
                rest = [t for t in obj if t.i <= ch.i and not (ent.start <= t.i < ent.end)
                        and t.dep_ not in ("det",) and not (t.dep_ in ("advmod", "quantmod")
                                                            and t.head.ent_type_ == "CARDINAL")]
                if any(t.dep_ in ("acl", "relcl", "prep") and t.left_edge.i == ch.i + 1
                       for t in ch.children):
                    continue  # "won 18 races driving Watson cars": 18 is not all his races
                if rest and rest[0].i > nums[0].i:
                    noun = render(rest)
                    if rest[0].pos_ != "PROPN":
                        noun = noun[:1].lower() + noun[1:]
                    add("How many " + noun, "how many", obj, ent.text, "CARDINAL")
                continue
            ent = _entity_of(ch)
            if ent is not None and ent.label_ in ("DATE", "TIME", "CARDINAL", "MONEY",
                                                  "PERCENT", "QUANTITY", "ORDINAL"):
                continue
            person = ent is not None and ent.label_ == "PERSON"
            if person and ent is not None and (len(ent) < 2 or render(obj) not in (ent.text, "the " + ent.text)):
                # a one-word "person" is as often a product ("requires Chrome or Chromium":
                # "Who does Kaleido require?"); only a full name is asked "who", a word the
                # document writes as a name is asked "what", anything else not at all
                if not all(_known_name(t, c.names) for t in ent):
                    continue
                person = False
            wh = "who" if person else "what"
            add(wh.capitalize(), wh, obj, render(obj), ent.label_ if ent is not None else "")
        elif (ch.dep_ == "attr" and c.aux == c.root.i and c.subject[0].lower_ == "the"
              and not c.fronted and ch.i == c.after[0].i + sum(
                  1 for t in c.after if t.i < ch.i and t.head.i == ch.i)):
            # "The primary API for interacting with OpenAI models is the Responses API." ->
            # "What is the primary API for interacting with OpenAI models?": a described
            # thing whose value is a name or a figure ("the default timeout ... is 10
            # minutes"); never a class noun ("is a library": every library would do)
            value = _subtree(ch)
            if (value is None or value[-1].i != c.after[-1].i or value[0].lower_ in ("a", "an")
                    or not (_has_name(value, c.names) or any(t.like_num for t in value))
                    or _entity_of(c.subject[-1]) is not None and all(
                        t.lower_ == "the" or t.ent_type_ for t in c.subject)):
                continue  # a bare name as subject is defined instead ("What is X?")
            ent = _entity_of(ch)
            add("What", "what", value, render(value), ent.label_ if ent is not None else "")
        elif ch.dep_ == "acomp" and c.aux == c.root.i:
            measures = [g for g in ch.children if g.dep_ == "npadvmod" and g.ent_type_ ==
                        "QUANTITY"]
            adj = _subtree(ch)
            if measures and adj is not None and ch.pos_ == "ADJ":
                ent = _entity_of(measures[0])
                if ent is not None:
                    add("How " + ch.lower_, "how " + ch.lower_, adj, ent.text, "QUANTITY")
    # "served as governor from 1990 to 1995", "was the tallest structure in the world from
    # 1889 to 1930": a span of years, on the verb or closing the sentence on its object,
    # asked as a duration the reader computes
    objects = {ch.i for ch in c.root.children if ch.dep_ in ("attr", "dobj")}
    for tok in ([] if common_head else c.after):
        if tok.dep_ != "prep" or not (tok.head.i == c.root.i or tok.head.i in objects):
            continue
        pp = _subtree(tok)
        years = _span_years(pp) if pp is not None else None
        if pp is None or years is None:
            continue
        if tok.head.i != c.root.i and pp[-1].i != c.after[-1].i:
            continue
        add("For how many years", "how many years", pp, f"{years} years", "DATE",
            span_years=years)
    return out


PERSON_NOUNS = frozenset("""politician actor actress singer businessman businesswoman man woman
professor member writer author footballer player musician composer director producer journalist
editor lawyer judge poet artist model president minister officer general leader founder
entrepreneur scientist king queen prince princess activist economist historian philosopher
novelist screenwriter comedian rapper drummer guitarist bassist pianist dancer athlete coach
manager chef physician surgeon engineer architect inventor explorer diplomat senator governor
mayor bishop priest monk saint soldier pilot astronaut cricketer boxer wrestler swimmer cyclist
jockey sprinter skier presenter host broadcaster personality illustrator cartoonist
photographer designer sculptor painter filmmaker playwright lyricist songwriter vocalist
mathematician physicist chemist biologist psychologist sociologist anthropologist""".split())
"""Nouns that define a person ("an Indian politician"): "Who is X?" rather than "What"."""

MEDIA_NOUNS = frozenset("film documentary album single song series novel game EP".split())
"""Kinds of work that a year in their definition dates ("a 2015 American film"): two of a
kind compare naturally ("Which film came out first: Crimson Peak or White Nights?")."""

DEFINITION = re.compile(r"^(?:Who|What) (?:is|was|are|were) [A-Z]")
"""A definition question: "What is the Oberoi Group?" (three words are enough here)."""


def _definition(c: _Clause, ent: "Span | None") -> Question | None:
    """"What is the Oberoi Group?" from "The Oberoi Group is a hotel company with its head
    office in Delhi.": the subject, a name and nothing else, defined by a copula. The
    answer is the defining noun phrase up to its head ("a hotel company"); the ground
    truth, the whole statement, carries the rest. Asked of people too ("Who was Tadesse
    Meskela?")."""
    if c.aux != c.root.i or c.root.lemma_ != "be" or c.fronted or c.middle:
        return None
    if ent is None and _named_by_document(c):
        label = DOCUMENT_NAME  # "Typer is a library for building CLI applications"
    elif ent is None or ent.label_ not in NAME_LABELS - {"NORP"}:
        return None
    else:
        label = ent.label_
        if any(not (ent.start <= t.i < ent.end) and t.lower_ != "the" for t in c.subject):
            return None  # "The 2013 team of Maine is ...": only a bare name is defined
    attrs = [ch for ch in c.root.children if ch.dep_ == "attr"]
    if len(attrs) != 1 or attrs[0].pos_ not in ("NOUN", "PROPN") or any(
            t.i not in {d.i for d in attrs[0].subtree} for t in c.sent[c.root.i + 1 - c.sent.start:
                                                                    attrs[0].i - c.sent.start]):
        return None  # the defining noun's own words lead up to it ("an efficient binary
        # serialization format"), nothing else
    attr = attrs[0]
    head_part = [t for t in attr.subtree if t.i <= attr.i]
    if not head_part or head_part[0].i != c.root.i + 1 or head_part[0].lower_ not in (
            "a", "an", "the"):
        return None
    if c.root.text[:1].isupper():
        return None  # "Jonny Greenwood Is the Controller is an album": a title, misparsed
    subject = _lower_first(c.subject, render(c.subject), c.names)
    # the small model tags towns and bands PERSON ("Who is Hemel Hempstead?") and people
    # ORG: "who" only when both the label and the defining noun say person, and nothing
    # when they disagree (the label, and with it the question word, may be wrong)
    person = attr.lemma_.lower() in PERSON_NOUNS or bool(re.search(
        r"(?:ist|ician|ter|ner|ger|ker|ler|der|ver|yer|tor|sor|ant|ent)$", attr.lower_))
    if (label == "PERSON") != person:
        return None
    whole = _subtree(attr)
    # "a hotel company" (the rest, "with its head office in Delhi", is in the ground truth);
    # a definite head alone says too little ("the capital"), so it keeps its phrase
    definite = head_part[0].lower_ == "the"
    answer = render(whole if definite and whole is not None and len(whole) <= 12 else head_part)
    year = [int(t.text) for t in head_part if re.fullmatch(r"1\d{3}|20\d{2}", t.text)
            and t.dep_ in ("nummod", "amod", "compound", "npadvmod")]
    return Question(text=f"{'Who' if person else 'What'} {c.root.lower_} {subject}?",
                    answer=answer, statement=c.statement, wh="define", role="object",
                    label="", answer_norm=normalise_entity(answer), topic=subject,
                    topic_norm=normalise_entity(render(c.subject)), topic_label=label,
                    declarative=_declarative(c), kind=attr.lemma_.lower(),
                    made_year=year[0] if len(year) == 1 else None)


PREPOSITIONAL_VERBS = frozenset({
    ("depend", "on"), ("rely", "on"), ("build", "on"), ("base", "on"), ("integrate", "with"),
    ("work", "with"), ("license", "under"), ("release", "under"), ("distribute", "under"),
    ("write", "in"), ("host", "on"), ("run", "on"), ("inspire", "by"), ("power", "by"),
    ("derive", "from"), ("fork", "from"), ("design", "for"), ("use", "for"),
    ("intend", "for"), ("optimize", "for"), ("optimise", "for"), ("implement", "in"),
    ("build", "with"), ("publish", "on")})
"""Verb and preposition that belong together, so that the preposition is left at the end
when its object is asked ("What does FastAPI depend on?", "What is RapidFuzz licensed
under?"): documentation states requirements and licences this way."""

PURPOSE_VERBS = frozenset("use require need".split())
"""Verbs whose object takes a "to" clause of purpose ("Kaleido requires Chrome to generate
images"), asked with the clause kept; other verbs' "to" clause belongs to the object
("tells a client to slow down")."""


def _to_infinitive(tok: "Token") -> bool:
    return any(ch.dep_ == "aux" and ch.lower_ == "to" and ch.i < tok.i for ch in tok.children)


DOCUMENT_NAME = "NAME"
"""The label of a subject no entity covers but its document writes as a name (a package,
a product: "Kaleido", "Typer"); a word the entity tagger covers keeps the tagger's label
(a person's surname stays PERSON, and the filter's surname rule sees it)."""


def _named_by_document(c: _Clause) -> bool:
    """The subject is a name and nothing else: its words, but for "the", are proper nouns
    of the document's names ("Kaleido", "the Responses API" when the page writes "Responses"
    and "API" mid-sentence)."""
    words = [t for t in c.subject if t.lower_ != "the"]
    if len(words) == 1 and len(c.subject) == 2 and not SOFTWARE_NAME.search(words[0].text):
        return False  # "the Pipeline": a capitalised class or common noun, not a name
    return bool(words) and len(words) <= 4 and all(_known_name(t, c.names) for t in words)


SOFTWARE_NAME = re.compile(r"[a-z][A-Z]|[A-Za-z]\d|^[A-Z]{2,}[a-z]*$")
"""Spelt like software, not like a word: "FastAPI", "MessagePack", "urllib3", "CLI"."""


def document_names(text: str) -> frozenset[str]:
    """Words a document writes capitalised in the middle of a prose sentence ("install
    Kaleido to export images"): its names. Only from prose lines (not headings, list items,
    table rows or code fences, where title case is the style), after a lowercase word, so
    that a sentence's first word is not taken for a name."""
    names: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or re.match(r"\s*(?:[#>|*•+-]|\d+[.)]|    )", line):
            continue
        names.update(m.group(1) for m in re.finditer(
            r"(?<=[a-z,]) ([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*|[A-Z]{2,}[a-z]?)\b(?![.'’]\w)",
            line))
    return frozenset(names)


def page_subjects(text: str, names: frozenset[str], least: int = 5) -> frozenset[str]:
    """One-word names a document is about: written mid-sentence at least ``least`` times
    ("Typer" in the Typer README) and never after another capitalised word that could be a
    first name ("Vladimir Lagunov" makes "Lagunov" a surname, not a subject)."""
    out = set()
    for name in names:
        if " " in name or len(re.findall(r"(?<=[a-z,] )" + re.escape(name) + r"\b", text)) < least:
            continue
        if re.search(r"\b(?!(?:The|A|An|In|On|At|By|For|Of|To|With|From|And|Or|Use|Install|"
                     r"See|Why|How|What|With|About|Like)\s)[A-Z][\w'.-]* "
                     + re.escape(name) + r"\b", text):
            continue
        out.add(name)
    return frozenset(out)


def _span_years(pp: "Sequence[Token]") -> int | None:
    """The years a "from 1990 to 1995" / "between 1990 and 1995" phrase spans."""
    span = re.fullmatch(r"(?:from|between) (1\d{3}|20\d{2}) (?:to|until|till|and) "
                        r"(1\d{3}|20\d{2})", render(pp))
    if span is None or int(span.group(2)) <= int(span.group(1)):
        return None
    return int(span.group(2)) - int(span.group(1))


def _passive(c: _Clause, drop: "Sequence[Token]") -> str:
    """"was founded" when the statement is "<subject> was/were <participle>" and what is
    left after the verb, once ``drop`` is asked away, is prepositional phrases only."""
    if c.aux is None or c.aux == c.root.i or c.root.tag_ != "VBN":
        return ""
    aux = c.sent.doc[c.aux]
    if aux.lower_ not in ("was", "were") or len(c.middle) != 1:
        return ""
    dropped = {t.i for t in drop}
    left = [ch for ch in c.root.children if ch.i > c.root.i and ch.i not in dropped
            and not ch.is_punct]
    if any(ch.dep_ not in ("prep", "agent") for ch in left):
        return ""
    return f"{aux.lower_} {c.root.lower_}"


MAX_WORDS = 25
"""Longer questions are almost always a long sentence with its asides left in."""


def _clean(q: Question) -> bool:
    words = q.text[:-1].split()
    if (not (3 if DEFINITION.match(q.text) else 4) <= len(words) <= MAX_WORDS
            or q.text.count(",") > 1):
        return False  # two commas: an aside or a subordinate clause in the middle
    if re.search(r",\s+(?:when|where|which|who|whose)\b", q.text):
        return False  # a second wh-word, in a relative clause: confusing in a question
    lowered = f" {q.text.lower()[:-1]} "
    if any(f" {p} " in lowered for p in ("he", "she", "it", "they", "him", "her", "them",
                                         "his", "its", "their")):
        return False
    answer = q.answer.lower()
    if answer and re.search(r"\b" + re.escape(answer) + r"\b", q.text.lower()):
        return False  # the question gives its answer away
    return "according to" not in lowered and "context" not in lowered


def questions_from_sentence(sent: "Span", names: frozenset[str] = frozenset()) -> list[Question]:
    """Every clean question one parsed statement gives (possibly none). ``names``: words
    the statement's document writes capitalised inside sentences (``document_names``), so
    that a name opening the sentence counts as one ("Kaleido requires Chrome ...")."""
    c = _clause(sent, names)
    if c is None:
        return []
    found = _subject_questions(c) + _object_questions(c)
    out: list[Question] = []
    seen: set[str] = set()
    for q in found:
        if q.text not in seen and _clean(q) and _object_gap(q):
            seen.add(q.text)
            out.append(q)
    return out


def _object_gap(q: Question) -> bool:
    """A "what / who does X verb?" question must leave the verb without its object: the
    question word is the object. Parsing the question again catches rewrites that kept it
    ("What does Dataset hold the samples?"), which odd source text (code names, lists)
    produces now and then."""
    if q.role != "object" or q.wh not in ("what", "who") or q.active:
        return True
    from ragmeter.text.syntax import parse

    doc = parse([q.text])[0]
    root = next(iter(doc.sents)).root
    return not any(ch.dep_ == "dobj" and ch.lower_ not in ("what", "who", "whom")
                   for ch in root.children)
