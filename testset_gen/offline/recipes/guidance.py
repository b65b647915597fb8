"""Questions from the rules a guide gives its reader: a rule with its condition, its reason or
the thing it prefers ("If you're unsure of a person's pronouns, use they or them." ->
"What should you do if you're unsure of a person's pronouns?").

Guides, handbooks and style manuals state most of what they teach as instructions to the
reader: an imperative ("Avoid jargon"), "you should/must ...", or the house rule "we use
...". Such a sentence has no named subject, so the statement rules, which ask about a
named subject, find nothing in it (the 18F writing guide: 9 records of 50 asked, none
from its rules). The rule's reader is the question's subject, "you", which a question may
name; what the rule is about is written in its clause. Three shapes, read from the
dependency parse, never from a word list of topics:

* a condition (an adverbial clause marked "if", "when", "before", "after", "once",
  "whenever" or "unless"): "What should you do if <condition>?" (``simple``) and "When
  should you <rule>?" (``reasoning``: the reader links the rule to when it applies);
* a reason or purpose after the rule ("because", "so that", "in order to", "since" with a
  clause) or before it ("To avoid confusion, spell out dates"): "Why should you <rule>?"
  (``reasoning``);
* a preference ("Use buy instead of purchase", "... rather than ..."): "Should you use buy
  or purchase?" (``reasoning``: the two things the text contrasts, one chosen).

The ground truth is the whole sentence, which answers by construction; a clause holding a
pronoun other than "you" ("If it is long, ...") is not asked: only the paragraph says what
"it" is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from testset_gen.documents.structure import ITEM, PARAGRAPH
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page, whole_sentence
from testset_gen.offline.heading_forms import HOW, WHAT, HeadingForm, grounded, heading_forms
from testset_gen.offline.wording import has_pronoun, lower_first

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

CONDITION_MARKS = frozenset("if when whenever before after once unless".split())
"""Marks of a condition; "unless" is asked only as "When should you ...?"."""


BULLET = re.compile(r"^(?:[-*+•]|\d+[.)])\s+")
GUIDANCE_HINT = re.compile(r"\b(?:[Ii]f|[Ww]hen(?:ever)?|[Bb]efore|[Aa]fter|[Oo]nce|[Uu]nless|because|since|"
                           r"so that|in order to|instead of|rather than|[Yy]ou|[Ww]e)\b|^[A-Z][a-z]+ |^To ")
"""Sentences worth parsing: a condition, reason or preference mark, a "you"/"we" rule, or an
opening word that may be an imperative (the parse decides)."""

MAX_SENTENCE_WORDS = 40
MIN_CLAUSE_WORDS = 2
MAX_CLAUSE_WORDS = 16
"""A rule or condition longer than this makes a question nobody would type."""

_OPENERS = frozenset("also instead however then first finally still so generally usually often always "
                     "please".split())
"""Sentence adverbs dropped from the front of a rule ("Instead, use ..." -> "use ...")."""


def _text(tokens: Iterable["Token"]) -> str:
    words = "".join(t.text_with_ws for t in sorted(tokens, key=lambda t: t.i)).strip()
    words = re.sub(r"\s+", " ", words)
    return words.strip(" ,;:—–-").replace(" ,", ",")


def _subtree(token: "Token") -> set["Token"]:
    return set(token.subtree)


def rule_form(root: "Token") -> str | None:
    """How the sentence tells the reader what to do: "imperative", "dont" (a negated
    imperative), "you" ("you should/must/need to ..."), "we" (a house rule in the present:
    "we use numerals"), else None."""
    kids = list(root.children)
    subj = [c for c in kids if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    aux = [c for c in kids if c.dep_ in ("aux", "neg") and c.i < root.i]
    if root.pos_ not in ("VERB", "AUX"):
        return None
    if not subj:
        # after a fronted clause the small parser often tags the imperative VBP ("If you're
        # unsure ..., use they or them"): a base form with no subject is the imperative
        if root.tag_ not in ("VB", "VBP") or root.lower_ != root.lemma_.lower():
            return None
        if [a.lower_ for a in aux] in (["do", "n't"], ["do", "not"]):
            return "dont"
        return "imperative" if not aux else None
    who = subj[0].lower_
    modal = [a.lower_ for a in aux if a.dep_ == "aux"]
    if who == "you" and modal[:1] in (["should"], ["must"]) and not any(a.dep_ == "neg" for a in aux):
        return "you"
    if who == "you" and root.lemma_ == "need" and any(c.dep_ == "xcomp" for c in kids) and not any(
            a.dep_ == "neg" for a in aux):  # "You do not need to hand code tests" is no rule to ask why
        return "you"
    if who == "we" and root.tag_ == "VBP" and not aux and root.lemma_ != "be":
        return "we"
    return None


def rule_clause(root: "Token", form: str, drop: set["Token"]) -> tuple[str, list["Token"]]:
    """The rule as the reader is told it, in the base form ("avoid moving content", "use
    numerals in titles"), without the tokens of ``drop`` (the condition or reason); with
    its tokens."""
    skip = set(drop)
    for c in root.children:
        if c.dep_ in ("nsubj", "nsubjpass", "expl", "mark", "intj", "discourse"):
            skip |= _subtree(c)
        if c.dep_ in ("aux", "neg", "cc") or (c.dep_ == "punct" and (c.i < root.i or c.i == c.sent.end - 1)):
            skip.add(c)
        if c.dep_ == "advmod" and c.i < root.i and c.lower_ in _OPENERS:
            skip |= _subtree(c)
        if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX"):
            skip |= _subtree(c)  # one rule, not "use X and write Y"
    if form == "you" and root.lemma_ == "need":
        # "you need to test drafts": the rule is the xcomp
        xcomp = next(c for c in root.children if c.dep_ == "xcomp")
        kept = [t for t in xcomp.subtree if t not in skip and not (t.dep_ == "aux" and t.head == xcomp)]
        return _lower(_text(kept)), kept
    kept = sorted((t for t in root.subtree if t not in skip), key=lambda t: t.i)
    while kept and (kept[-1].is_punct or kept[-1].dep_ in ("cc", "advmod") and kept[-1].lower_ in ("only", "even")):
        kept.pop()
    # the verb in the base form ("we prefer" -> "prefer", "we use" -> "use")
    words = [(t.lemma_ if t == root and form == "we" else t.text) + t.whitespace_ for t in kept]
    return _lower(re.sub(r"\s+", " ", "".join(words)).strip(" ,;:—–-").replace(" ,", ",")), kept


def _lower(text: str) -> str:
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[1:].lower() != first[1:]:
        return text
    return text[:1].lower() + text[1:]


READER = frozenset("you your yours yourself yourselves".split())

CONTEXT_WORDS = frozenset("again also above below instead otherwise too then there here same".split())
"""Words that point at what the paragraph said before ("navigate again to the Traffic page",
"use the framework above", "try using a table instead"): the rule is not whole alone."""


def _plain(tokens: Iterable["Token"], question: str) -> bool:
    """A clause a question may carry: short; a noun that says what it is about ("before you
    respond" and "be as specific as possible" say nothing a reader could find); no pronoun
    or demonstrative but the reader's "you" ("If that's the case", "the most important
    ones"); no code or aside; not ending on a word that needs more ("use and instead of")."""
    toks = sorted(tokens, key=lambda t: t.i)
    words = [t for t in toks if not t.is_punct]
    if not MIN_CLAUSE_WORDS <= len(words) <= MAX_CLAUSE_WORDS or has_pronoun(question):
        return False
    if any((t.pos_ == "PRON" and t.lower_ not in READER and t.tag_ not in ("WP", "WDT"))
           or (t.dep_ == "det" and t.lower_ in ("that", "this", "these", "those"))
           or t.lower_ in ("one", "ones", "such", "following") or t.lower_ in CONTEXT_WORDS for t in words):
        return False
    if not any(t.pos_ in ("NOUN", "PROPN") for t in words) or words[-1].pos_ in ("ADP", "CCONJ", "SCONJ", "DET", "PART"):
        return False
    return not re.search(r"[()\[\]{}<>`\"“”;:/=_*]|\be\.g\b|\bi\.e\b|\betc\b", _text(toks))


# --- what a question is about -------------------------------------------------------------

_CODE_LIKE = re.compile(r"[$._/\\-]\w|\w\d|\d\w")


def specific(tokens: Iterable["Token"], topic: frozenset[str] = frozenset()) -> bool:
    """Whether the asked part names something a reader could look up without the page: a
    name (PROPN), code ("$env", "pyproject.toml"), a compound noun ("site analytics", "the
    sync command"), a noun owned by a noun ("a reader's pronouns"), or a word of the page's
    topic. Common nouns alone, even with an adjective ("a deadline", "additional context",
    "an unexpected error"), are about whatever the page is about, and the question loses that
    ("What should you do if you have a deadline?" was rated not standalone: a deadline for
    feedback). Read from the tags and dependencies, not from a list of words."""
    for t in tokens:
        if t.pos_ == "PROPN" or (not t.is_punct and _CODE_LIKE.search(t.text)):
            return True
        # a compound noun, or a verb's base form naming a noun ("the develop keyword")
        if t.pos_ == "NOUN" and (t.dep_ == "compound" or any(
                (c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")) or (c.tag_ == "VB" and c.i == t.i - 1)
                for c in t.children)):
            return True
        if t.pos_ == "NOUN" and any(c.dep_ == "poss" and c.pos_ in ("NOUN", "PROPN") for c in t.children):
            return True
        if t.pos_ in ("NOUN", "VERB") and t.lemma_.lower() in topic:
            return True
    return False


GERUND = "gerund"
NOUN_PHRASE = "noun"


def gerund(verb: str) -> str:
    """"receive" -> "receiving", "set" -> "setting", "tie" -> "tying" (English spelling)."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


Topic = tuple[str, str, frozenset[str]]
"""``(kind, phrase, lemmas)``: ``GERUND`` "receiving feedback" or ``NOUN_PHRASE`` "pull
requests", and the words that already name it in a question."""


def topic_phrases(headings: Iterable[str]) -> dict[str, list[tuple[Topic, "HeadingForm"]]]:
    """Heading -> its readings as a topic a question can open with: a task as a gerund
    ("receiving feedback", from "How to receive feedback", "Receiving feedback" or "Receive
    feedback") or a thing as a noun phrase ("pull requests"); headings that read as neither
    (a name alone, "Usage", a question) are left out. Which reading holds is the page's to
    say (``_topic``)."""
    out: dict[str, list[tuple[Topic, HeadingForm]]] = {}
    for heading, forms in heading_forms(headings).items():
        for form in forms:
            if form.kind == HOW:
                first, _, rest = form.phrase.partition(" ")
                phrase, kind = (gerund(first) + (" " + rest if rest else "")).strip(), GERUND
            elif form.kind == WHAT:
                last = form.phrase.split()[-1].lower()
                if not last.startswith(form.target[:3]):
                    continue  # "Important information first": the head noun must end it
                # "Performance Testing" keeps its capitals (a name or a title-case heading)
                capitals = any(w[:1].isupper() for w in form.phrase.split()[1:])
                phrase, kind = form.phrase if capitals else lower_first(form.phrase), NOUN_PHRASE
            else:
                continue
            if len(phrase.split()) > 6 or _CODE_LIKE.search(phrase):
                continue
            lemmas = frozenset(w.lower() for w in re.findall(r"[A-Za-z]{3,}", phrase + " " + form.phrase))
            out.setdefault(heading, []).append(((kind, phrase, lemmas | ({form.target} if form.target else set())), form))
    return out


def _topic(readings: Sequence[tuple[Topic, "HeadingForm"]], page: Page,
           docs: Sequence[object]) -> Topic | None:
    """The reading the page bears out: a gerund or "How to" heading as written; an
    imperative heading when a sentence of the page does it ("Gather feedback" and "we gather
    feedback from ..."; "Pull requests" is no task of pulling); a thing when the page writes
    it again below its heading ("gather feedback" read as a noun phrase is written nowhere)."""
    for (topic, form) in readings:
        if form.kind == HOW and form.frame in ("gerund", "how_to"):
            return topic
    for (topic, form) in readings:
        if form.kind == HOW and any(grounded(form, d) for d in docs):
            return topic
    for (topic, form) in readings:
        if form.kind == WHAT and len(re.findall(r"(?<!\w)" + re.escape(form.phrase) + r"(?!\w)", page.text, re.I)) >= 2:
            if re.search(r"[a-z,] " + re.escape(form.phrase) + r"\b", page.text):
                return topic[0], form.phrase, topic[2]  # a name the page capitalises mid-sentence ("Prezto")
            return topic
    return None


def with_topic(question: str, topic: Topic | None) -> str:
    """The question opened with its topic: "When receiving feedback, what should you do if
    ...?", "For pull requests, why should you ...?"; "" when there is none or the two would
    read badly ("When receiving feedback, when should you ...?")."""
    if topic is None:
        return ""
    kind, phrase, _ = topic
    if kind == GERUND:
        if question.startswith("When "):
            return ""
        return f"When {phrase}, {question[:1].lower()}{question[1:]}"
    return f"For {phrase}, {question[:1].lower()}{question[1:]}"


def _condition(root: "Token") -> "Token | None":
    for c in root.children:
        if c.dep_ == "advcl":
            marks = [m for m in c.children if m.dep_ == "mark"]
            if len(marks) == 1 and marks[0].lower_ in CONDITION_MARKS:
                return c
    return None


def states_a_value(clause: "Token") -> bool:
    """A "so that" clause that says what a setting comes to, not what the action is for:
    a copula whose subject is a thing (not the reader, people or a pronoun) and whose
    predicate is a quantity or a comparison ("so that the session timeout is less than 30
    minutes"). That is how the action is done; "Why ...?" would take it for the reason."""
    subj = next((k for k in clause.children if k.dep_ in ("nsubj", "nsubjpass")), None)
    if clause.lemma_ != "be" or subj is None or subj.pos_ != "NOUN":
        return False
    return any(t.pos_ == "NUM" or t.tag_ in ("JJR", "RBR") or t.lower_ == "than" for t in clause.subtree)


def _reason(root: "Token") -> "tuple[Token, str] | None":
    """The clause that gives the rule's reason and its connective, or None."""
    for c in root.children:
        if c.dep_ != "advcl":
            continue
        marks = [m.lower_ for m in c.children if m.dep_ == "mark"]
        text = " ".join(t.lower_ for t in list(c.subtree)[:3])
        if marks[:1] == ["because"] and c.i > root.i:
            return c, "because"
        if marks[:1] == ["since"] and c.i > root.i and c.pos_ in ("VERB", "AUX") and any(
                k.dep_ in ("nsubj", "nsubjpass") for k in c.children):
            return c, "since"
        if text.startswith(("so that", "in order to")) and c.i > root.i:
            if text.startswith("so that") and states_a_value(c):
                continue  # "set up the account so that the timeout is less than 30 minutes": how, not why
            return c, text.split()[0]
        if c.tag_ == "VB" and [k.lower_ for k in c.children if k.dep_ == "aux"] == ["to"] and c.i < root.i \
                and c.sent[0].lower_ == "to":
            return c, "to"  # "To avoid confusion, spell out dates"
    return None


def _preference(root: "Token") -> "tuple[str, str] | None":
    """``(chosen, other)`` of "use X instead of Y" / "use X rather than Y"; None otherwise.
    The parser attaches "instead of" in several ways (a prep of the verb, a "cc" of the
    object), so the words are found in the order the sentence writes them."""
    obj = next((c for c in root.children if c.dep_ == "dobj"), None)
    if obj is None:
        return None
    for t in root.subtree:
        if t.i == 0 or not ((t.lower_ == "of" and t.nbor(-1).lower_ == "instead")
                            or (t.lower_ == "than" and t.nbor(-1).lower_ == "rather")):
            continue
        pobj = next((k for k in t.children if k.dep_ == "pobj"), None)
        if pobj is None or pobj.i < t.i:
            return None
        chosen = [x for x in obj.subtree if x.i < t.i - 1]
        return _text(chosen), _text(pobj.subtree)
    return None


def _points_back(root: "Token") -> bool:
    """The sentence's rule leans on what came before it (``CONTEXT_WORDS``)."""
    return any(t.lower_ in CONTEXT_WORDS for t in root.subtree)


def prohibition(root: "Token", form: str) -> tuple[str, list["Token"]] | None:
    """What a prohibition forbids, asked back ("Avoid describing people as disabled." ->
    "describe people as disabled"; "Don't use women as substitute for novice." -> "use women
    as substitute for novice"), with its tokens; None for any other rule. The answer, "no",
    is the sentence itself."""
    if form == "dont":
        return rule_clause(root, "imperative", set())
    if root.lemma_ != "avoid" or root.i != root.sent.start:
        return None
    gerund = next((c for c in root.children if c.dep_ in ("xcomp", "dobj") and c.tag_ == "VBG"), None)
    if gerund is None:
        return None
    kept = sorted((t for t in gerund.subtree if not t.is_punct or t.i < gerund.sent.end - 1), key=lambda t: t.i)
    words = [(t.lemma_ if t == gerund else t.text) + t.whitespace_ for t in kept]
    return re.sub(r"\s+", " ", "".join(words)).strip(" ,;:—–-").replace(" ,", ","), kept


GuideSentence = tuple[str, int, int, bool, str, int]
"""A sentence the guide-prose recipes read: ``(text, start, end, item, heading, block)``;
``block`` numbers the block it is in (the sentences of one paragraph share it)."""


def guide_sentences(page: Page) -> list[GuideSentence]:
    """Every sentence of the page's paragraphs and list items, in reading order. Split once per
    page (``prose_questions``) and handed to each reader below: ``guidance_sentences``,
    ``action_rules`` and ``guidance_questions`` read the same sentences."""
    out = []
    for section in page.sections:
        for number, block in enumerate(section.blocks):
            if block.kind not in (PARAGRAPH, ITEM):
                continue
            before = section.blocks[number - 1] if number else None
            if block.kind == PARAGRAPH and before is not None and before.kind == PARAGRAPH and \
                    before.text.rstrip().endswith(":"):
                continue  # a sample shown after "Instead of:" or "For example:", not a rule
            for sentence, start, end in page.sentences(block):
                # a list item given as plain Markdown keeps its bullet ("- Avoid ...")
                bullet = BULLET.match(sentence) if block.kind == ITEM else None
                if bullet:
                    sentence, start = sentence[bullet.end():], start + bullet.end()
                out.append((sentence, start, end, block.kind == ITEM, section.heading,
                            id(section) * 1000 + number))
    return out


def guidance_sentences(told: Iterable[Sequence[GuideSentence]]) -> list[str]:
    """The sentences ``guidance_questions`` reads (to parse them all at once), of the pages
    whose ``guide_sentences`` are ``told``."""
    return sorted({s[0] for sentences in told for s in sentences if GUIDANCE_HINT.search(s[0])
                   and len(s[0].split()) <= MAX_SENTENCE_WORDS})


REFERRAL = frozenset("see refer read consult visit".split())
"""A rule that only points elsewhere ("To store ..., see virtualenvs.in-project"): its
answer is a pointer, not a means."""


def _object(root: "Token") -> "Token | None":
    """The thing the rule acts on: its direct object, else the object of its first preposition."""
    obj = next((c for c in root.children if c.dep_ in ("dobj", "obj")), None)
    verb = next((c for c in root.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
    if obj is None and verb is not None:  # "avoid moving content": what is moved
        obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
    if obj is None:
        prep = next((c for c in root.children if c.dep_ == "prep"), None)
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
    return obj


def action_of(root: "Token") -> tuple[str, str]:
    """``(key, object)`` of a rule: the verb and what it acts on, as lemmas ("contact gds
    information security team"), and the object as written without its article ("GDS
    Information Security team"); ``("", "")`` with no object."""
    obj = _object(root)
    if obj is None:
        return "", ""
    words = [t for t in obj.subtree if t.dep_ not in ("det", "poss", "punct", "case") and t.i <= obj.i]
    if not words:
        return "", ""
    # the verb and the object's head: "include a short summary" and "include a two-sentence
    # summary" are one action told twice
    verb = obj.head if obj.head != root and obj.head.pos_ == "VERB" else None
    return " ".join([root.lemma_.lower()] + ([verb.lemma_.lower()] if verb is not None else [])
                    + [obj.lemma_.lower()]), _text(words)


def action_rules(page: Page, told: Sequence[GuideSentence],
                 docs: Mapping[str, "object"]) -> list[tuple[str, str, str, str, str]]:
    """Every rule of the page that acts on something: ``(action, kind, sentence, chunk,
    page subject)``, ``kind`` "when" (it has a condition), "why" (a reason), else ""; a
    sentence that prescribes with no rule of the reader's has action "". The
    folder-wide view ``recipes/occasions`` settles the "When/Why ...?" questions with."""
    out = []
    for sentence, start, end, _, _, _ in told:
        doc = docs.get(sentence)
        chunk = page.chunk_for(start, end)
        if doc is None or chunk is None:
            continue
        for sent in doc.sents:  # type: ignore[attr-defined]
            root = sent.root
            if rule_form(root) is None:
                if any(t.dep_ == "aux" and t.lower_ in ("should", "must") for t in sent):
                    # "Any questions should be directed to the #splunk channel": no rule of the
                    # reader's, but it says what to do with the thing
                    out.append(("", "", sentence, chunk, page.subject))
                continue
            action, _ = action_of(root)
            if action:
                kind = "when" if _condition(root) is not None else "why" if _reason(root) is not None else ""
                out.append((action, kind, sentence, chunk, page.subject))
    return out


ALSO = re.compile(r"^(?:(?:It|This|That|They|These|Doing so|Doing this)\b[^.]{0,40}?\balso\b|(?:Also|Additionally|"
                  r"In addition|Furthermore|Moreover),)")
"""A sentence that goes on with another reason for what the one before said ("This also helps
team members build familiarity ...")."""


def names_topic(tokens: Sequence["Token"], phrase: str) -> bool:
    """Whether the asked words hold every word of the topic phrase (by the first letters of
    its lemma: "receiving" and "receive"): one word of a longer topic ("decision" of
    "architecture decisions") does not name it."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]{3,}", phrase)]
    have = {t.lemma_.lower()[:5] for t in tokens} | {t.lower_[:5] for t in tokens}
    return bool(words) and all(w[:5] in have for w in words)


def whole_reason(sentences: Sequence[GuideSentence], number: int, thing: str) -> str:
    """The ground truth of a "Why ...?": the sentence with the next one when that goes on with
    another reason ("It also ...", "This also ..."); "" when a later sentence of the section
    gives another reason for the same thing ("Offline backups also help protect ...") that
    the answer would miss (a partial "why" was rated unusable)."""
    sentence, _, _, _, _, block = sentences[number]
    truth = sentence
    following = sentences[number + 1] if number + 1 < len(sentences) else None
    if following is not None and following[5] == block and ALSO.match(following[0]):
        truth = f"{sentence} {following[0]}"
        number += 1
    section = block // 1000
    head = thing.split()[-1].lower() if thing else ""
    for later in sentences[number + 1:]:
        if later[5] // 1000 != section:
            break
        if head and re.search(r"\balso\b", later[0]) and re.search(r"\b" + re.escape(head) + r"\b", later[0], re.I):
            return ""
    return truth


def guidance_questions(page: Page, told: Sequence[GuideSentence], docs: Mapping[str, "object"],
                       topics: Mapping[str, Sequence[tuple[Topic, HeadingForm]]] | None = None) -> list[Candidate]:
    """``told``: the page's ``guide_sentences``; ``docs``: sentence -> its parse
    (``ragmeter.text.syntax.parse``); ``topics``: heading
    -> its topic reading (``topic_phrases``), which opens a question whose asked part names
    nothing specific (``specific``); such a question with no topic is not written."""
    out: list[Candidate] = []
    topics = topics or {}
    sentences = [s[:5] for s in told]
    page_docs = [docs[s] for s, _, _, _, _ in sentences if s in docs]
    read: dict[str, Topic | None] = {}

    def topic_of(heading: str) -> Topic | None:
        if heading not in read:
            read[heading] = _topic(topics.get(heading, ()), page, page_docs)
        return read[heading]

    for number, (sentence, start, end, item, heading) in enumerate(sentences):
        doc = docs.get(sentence)
        truth = sentence if whole_sentence(sentence) else (
            sentence + "." if item and sentence[:1].isupper() and sentence[-1:].isalnum() else "")
        if doc is None or not truth or sentence.lower().startswith(("for example", "for instance", "e.g")):
            continue
        chunk = page.chunk_for(start, end)
        sents = list(doc.sents)  # type: ignore[attr-defined]
        if chunk is None or len(sents) != 1:
            continue
        sent: "Span" = sents[0]
        root = sent.root
        form = rule_form(root)
        if form is None:
            continue
        meta = (("page", page.subject), ("source_sentences", [sentence]))
        topic = topic_of(heading) or topic_of(page.title)
        topic_words = topic[2] if topic else frozenset()
        action, thing = action_of(root)

        def add(evolution: str, question: str, template: str, answer: str,
                asked: Iterable["Token"] = (), truth: str = truth) -> None:
            question = re.sub(r"\s+", " ", question).replace(" ?", "?")
            asked = list(asked)
            # a word of the topic names it only with the topic's other words: "the original
            # decision" is no architecture decision record ("What should you do if some
            # implementation of the original decision has occurred?" was rated not standalone)
            named = topic_words if topic is not None and names_topic(asked, topic[1]) else frozenset()
            if template not in ("rule_preference", "rule_prohibition", "rule_means") and not specific(asked, named):
                question = with_topic(question, topic)  # "When receiving feedback, what should ..."
                if not question:
                    return
            extra: tuple[tuple[str, object], ...] = ()
            if template in ("rule_when", "rule_reason") and action:
                extra = (("action", action), ("object", thing), ("object_named", specific(
                    [t for t in root.subtree if t.text in thing.split()])), ("heading", heading))
            out.append(Candidate(evolution, question, truth, (chunk,), (
                ("template", f"structure:{template}"), ("wh", question.split()[0].lower()),
                ("answer", answer)) + meta + extra, derived=template if evolution == "reasoning" else "",
                structural=True))

        condition = _condition(root)
        reason = _reason(root)
        should = "shouldn't you" if form == "dont" else "should you"
        if condition is not None:
            mark = next(m for m in condition.children if m.dep_ == "mark")
            cond_tokens = [t for t in condition.subtree if t != mark and not (
                t.dep_ == "advmod" and t.head == condition and (t.lower_ in ("only", "even") or t.i < mark.i))]
            cond = _text(cond_tokens)
            if any(t.lower_ == "even" for t in condition.children) or any(
                    t.lower_ in CONTEXT_WORDS for t in cond_tokens):
                continue  # "Even if you don't track every metric": a concession, not a condition
            rule, rule_tokens = rule_clause(root, form, _subtree(condition) | (_subtree(reason[0]) if reason else set()))
            asked = f"What should you do {mark.lower_} {cond}?"
            # the rule is the answer here: it need not name a thing ("try writing conversationally")
            if (form != "dont" and mark.lower_ != "unless" and _plain(cond_tokens, asked)
                    and len(rule.split()) >= MIN_CLAUSE_WORDS and not _points_back(root)):
                add("simple", asked, "rule_condition", rule, cond_tokens)
            asked = f"When {should} {rule}?"
            if _plain(rule_tokens, asked) and _plain(cond_tokens, cond):
                add("reasoning", asked, "rule_when", cond, rule_tokens)
        if reason is not None:
            clause, connective = reason
            rule, rule_tokens = rule_clause(root, form, _subtree(clause) | (_subtree(condition) if condition is not None else set()))
            obj = _object(root)
            if connective == "to" and obj is not None and specific([t for t in obj.subtree if t.i <= obj.i]):
                # "To change directory, use the cd command": the means to a goal, not a reason
                # to act (asked "Why should you use the cd command?", rated tautological)
                goal_tokens = [t for t in clause.subtree if not (t.head == clause and t.dep_ == "aux")]
                goal = _lower(_text(goal_tokens))
                asked = f"How do you {goal}?"
                if root.lemma_ not in REFERRAL and form != "dont" and _plain(goal_tokens, asked):
                    add("simple", asked, "rule_means", rule, goal_tokens)
            else:
                asked = f"Why {should} {rule}?"
                whole = whole_reason(told, number, thing)
                if _plain(rule_tokens, asked) and whole:
                    add("reasoning", asked, "rule_reason", _text(clause.subtree), rule_tokens, truth=whole)
        if condition is None and reason is None and form in ("dont", "imperative"):
            forbidden = prohibition(root, form)
            if forbidden is not None:
                text, tokens = forbidden
                asked = f"Should you {text}?"
                if _plain(tokens, asked):
                    add("simple", asked, "rule_prohibition", "No")
        # A rule with no condition is not asked back ("Should you use official base images?" -
        # "Always use official base images."): tried this session, it made 24 of 50 GDS Way
        # questions yes-questions whose answer the question already states, a test no
        # retriever can fail; a prohibition ("Should you ...?" - "No") stays, as raters rated it.
        if form in ("imperative", "we", "you") and root.lemma_ in ("use", "write", "say", "choose", "prefer"):
            got = _preference(root)
            if got is not None:
                chosen, other = got
                pair = sorted([chosen, other], key=str.lower)
                asked = f"Should you {root.lemma_} {pair[0]} or {pair[1]}?"
                if (chosen.lower() != other.lower() and all(0 < len(x.split()) <= 6 for x in pair)
                        and not has_pronoun(asked) and not re.search(r"[()\[\]{}<>`\"“”;:/=_*]", asked)):
                    add("reasoning", asked, "rule_preference", chosen)
    return out
