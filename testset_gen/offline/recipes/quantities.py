"""simple: a number, a quantity or a date asked with its subject named ("How much does the
Trailhead 2 weigh?", "How long is the warranty of the Ember Stove?", "How many houses were
burnt in the city of Kangpokpi?", "When did Yeti Airlines cancel all flights?"), the sentence
as the ground truth.

The sentence's grammatical subject must be named: a name, a common noun phrase ("Refunds"),
or "It"/"They" when the paragraph's first sentence is about the page's subject (then that
sentence opens the ground truth too, so the answer says what "it" is). The quantity is
asked by its kind: money "How much", a count "How many <noun>", a duration "How long" (or
"Within how many days" for "within 14 days"), a date "When". Prices, weights and
durations are also ``Fact``s for ``comparisons``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping

from testset_gen.documents.structure import PARAGRAPH
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page, whole_sentence
from testset_gen.offline.recipes.tables import Fact
from testset_gen.offline.wording import PRONOUNS, for_subject, has_pronoun

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

TIME_UNITS = r"(?:second|minute|hour|day|week|month|year)s?"
DURATION = re.compile(r"\b(?:a |an )?(?P<n>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|"
                      r"twelve|fifteen|twenty|thirty)[- ](?P<unit>year|month|week|day|hour|minute)s?[- ]"
                      r"(?P<noun>warranty|guarantee|trial|subscription|licen[cs]e|return period|"
                      r"support|period|plan|contract|term)\b")
LIFETIME = re.compile(r"\b(?:a |an )?lifetime (?P<noun>warranty|guarantee|licen[cs]e|subscription)\b")
ANAPHORIC = frozenset("the this that these those its his her their our my".split())
"""Determiners that point back to something said before the sentence."""
AMOUNT_VERBS = frozenset("weigh cost hold carry contain store produce consume use need require measure "
                         "raise earn generate draw take".split())
"""Verbs whose object quantity "How much" asks ("It weighs 1.8 kg"); with another verb the
quantity is what is acted on ("boils one litre of water") and is not the point."""
_DO = {"VBD": "did", "VBZ": "does", "VBP": "do"}
_YEARISH = re.compile(r"\b(?:1\d{3}|20\d{2})\b|\b(?:January|February|March|April|May|June|July|August|"
                      r"September|October|November|December)\b")


def _text(tokens: "list[Token]") -> str:
    """The tokens as written, a space kept where a left-out token stood ("Hills, California")."""
    out = []
    for a, b in zip(tokens, tokens[1:] + [None]):
        out.append(a.text + (a.whitespace_ or (" " if b is not None and b.i != a.i + 1 else "")))
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _subject(sent: "Span", root: "Token") -> "list[Token] | None":
    subj = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if len(subj) != 1:
        return None
    tokens = list(subj[0].subtree)
    return tokens if tokens[0].i == sent.start else None


def _named(tokens: "list[Token]", page: Page) -> str:
    """The subject as a question writes it ("the Ember Stove", "Refunds" -> "refunds"), or ""."""
    text = _text(tokens)
    if text.lower() in PRONOUNS:
        return ""
    if any(t.pos_ == "PROPN" or (t.i > tokens[0].i and t.text[:1].isupper()) for t in tokens):
        return "the " + text[4:] if text.startswith("The ") else text
    # a common noun after "the" points back ("the stadium", "the company": which?); one
    # without ("Refunds", "A 230 g canister") is general, and is asked on its page
    if (any(t.pos_ == "NOUN" for t in tokens) and not any(t.lower_ in PRONOUNS for t in tokens)
            and tokens[0].lower_ not in ANAPHORIC):
        # "Refunds" -> "refunds"; "Spanish paella" keeps its capital (a nationality, a name)
        return text if tokens[0].ent_type_ or tokens[0].pos_ == "PROPN" else text[:1].lower() + text[1:]
    return ""


def named_subject_of(sent: "Span", root: "Token", page: Page,
                     resolve: bool = True) -> "tuple[str, list[Token]] | None":
    """The root's subject as a question writes it, with its tokens; "It"/"They" as the
    page's subject only with ``resolve`` (the caller has made sure the sentence is about
    it); else None."""
    subj = _subject(sent, root)
    if subj is None:
        return None
    subject = _named(subj, page)
    if not subject and resolve and _text(subj).lower() in ("it", "they") and page.subject:
        subject = page.subject
    return (subject, subj) if subject else None


def _wh(ent: "Span", root: "Token") -> tuple[str, str] | None:
    """``(how the question asks it, the preposition it drops)`` for a quantity entity of the
    root verb; None when it is not asked."""
    head = ent.root
    prep = ""
    if head.dep_ == "pobj" and head.head.dep_ == "prep" and head.head.head == root:
        prep = head.head.lower_
    elif not (head.head == root and head.dep_ in ("dobj", "attr", "npadvmod", "oprd")):
        return None
    text = ent.text
    if ent.label_ == "DATE" and _YEARISH.search(text) and prep in ("in", "on", ""):
        return "When", prep
    timed = re.search(r"\b(" + TIME_UNITS + r")\b", text)
    if timed and ent.label_ in ("TIME", "DATE", "QUANTITY") and re.search(r"\d|one|two|three", text):
        unit = timed.group(1).rstrip("s") + "s"
        if prep in ("within", "after"):
            return f"{prep.capitalize()} how many {unit}", prep
        if prep == "in":
            return "in", prep  # "How long does it take X to ...?"
        if prep in ("", "for"):
            return "How long", prep
        return None
    if ent.label_ == "MONEY" and not prep:
        return "How much", prep
    if ent.label_ == "QUANTITY" and not prep and root.lemma_ in AMOUNT_VERBS:
        return "How much", prep
    return None


def _question(sent: "Span", page: Page) -> tuple[str, str, str] | None:
    """``(question, answer, asked subject)`` for one quantity of the sentence, else None."""
    root = sent.root
    if root.pos_ not in ("VERB", "AUX") or root.lemma_ in ("be", "have"):
        return None
    named = named_subject_of(sent, root, page)
    if named is None:
        return None
    subject = named[0]
    aux = [c for c in root.children if c.dep_ in ("aux", "auxpass") and c.i < root.i]
    if any(c.dep_ == "neg" for c in root.children):
        return None
    # a duration or a date before an amount: "boils one litre of water in 3 minutes" asks how long
    for ent in sorted(sent.ents, key=lambda e: e.label_ not in ("TIME", "DATE")):
        if (" or " in ent.text or " to " in ent.text  # "one or more", "two to four": no one answer
                or (ent.end < len(ent.doc) and ent.doc[ent.end].lower_ in ("or", "to"))):
            continue
        if ent.label_ == "CARDINAL" and ent.root.dep_ == "nummod":
            noun = ent.root.head
            if noun.head != root or noun.dep_ not in ("dobj", "nsubjpass") or noun.tag_ != "NNS":
                continue
            counted = [t for t in noun.subtree if t.i not in range(ent.start, ent.end)]
            if any(t.dep_ in ("conj", "cc", "appos") or t.text == "," for t in counted):
                continue  # "planes, missions and locations": several counts
            wh, drop = f"How many {_text(counted)}", set(t.i for t in noun.subtree)
            if noun.dep_ == "nsubjpass":
                if not aux:
                    continue
                rest = [t for t in root.subtree if t.i > root.i and not t.is_punct]
                question = f"{wh} {_text(aux)} {root.text} {_text(rest)}".strip() + "?"
                if not re.search(r"[A-Z]", question[1:]):
                    continue
                return question, ent.text, subject
        else:
            got = _wh(ent, root)
            if got is None:
                continue
            wh, prep = got
            drop = set(range(ent.start, ent.end)) | {t.i for t in ent.root.subtree}
            if prep:
                drop.add(ent.root.head.i)
        rest = [t for t in root.subtree if t.i > root.i and t.i not in drop
                and not (t.is_punct and (t.i == sent.end - 1 or t.text in ".;:!?"))
                and not any(a.i in drop for a in t.ancestors if a != root and a.i > root.i and a.dep_ == "prep"
                            and a.i in drop)]
        if any(t.dep_ in ("ccomp", "advcl", "conj") for t in rest):
            continue
        tail = _text(rest)
        if wh == "in":  # "boils one litre of water in 3 minutes"
            if aux or root.tag_ not in ("VBZ", "VBP"):
                continue
            question = f"How long does it take {subject} to {root.lemma_} {tail}".strip() + "?"
        elif aux:
            question = f"{wh} {aux[0].text} {subject} {_text(aux[1:])} {root.text} {tail}".replace("  ", " ").strip() + "?"
        elif root.tag_ in _DO:
            question = f"{wh} {_DO[root.tag_]} {subject} {root.lemma_} {tail}".strip() + "?"
        else:
            continue
        question = re.sub(r"\s+", " ", question.replace(" ,", ",")).replace(",?", "?")
        question = re.sub(r",\s*,", ",", question)
        return question, ent.text, subject
    return None


def quantity_questions(page: Page, docs: Mapping[str, "Doc"]) -> tuple[list[Candidate], list[Fact]]:
    """``docs``: sentence -> its parse (one ``parse`` call for every page)."""
    out: list[Candidate] = []
    facts: list[Fact] = []
    core = page.subject[4:] if page.subject.lower().startswith("the ") else page.subject
    for section in page.sections:
        for block in section.blocks:
            if block.kind != PARAGRAPH:
                continue
            sentences = page.sentences(block)
            about_page = bool(core) and bool(sentences) and sentences[0][0].lower().startswith(
                (core.lower(), "the " + core.lower()))
            for n, (sentence, start, end) in enumerate(sentences):
                if not whole_sentence(sentence) or len(sentence.split()) > 40:
                    continue
                pronoun = re.match(r"(?:It|They) ", sentence) is not None
                if pronoun and not (about_page and n > 0):
                    continue
                lead = sentences[0] if pronoun else None
                chunk = page.chunk_for(lead[1] if lead else start, end)
                if chunk is None:
                    continue
                truth = f"{lead[0]} {sentence}" if lead else sentence
                sources = [lead[0], sentence] if lead else [sentence]
                subject = page.subject if pronoun else ""
                m = DURATION.search(sentence) or LIFETIME.search(sentence)
                doc = docs.get(sentence)
                if m and doc is not None:
                    sent = next(iter(doc.sents))
                    subj = _subject(sent, sent.root)
                    named = subject or (_named(subj, page) if subj else "")
                    if named and named[:1] != named[:1].lower() or (named and named.startswith("the ")):
                        noun = m.group("noun")
                        value = (f"{m.group('n')} {m.group('unit')}s" if "unit" in m.groupdict() and m.groupdict().get("unit")
                                 else "lifetime")
                        out.append(Candidate("simple", f"How long is the {noun} of {named}?", truth, (chunk,), (
                            ("template", "structure:duration"), ("wh", "how long"), ("page", page.subject),
                            ("answer", value), ("source_sentences", sources)), structural=True))
                        if value != "lifetime":
                            facts.append(Fact(named, noun, value, truth, chunk, sentence, page.document_id))
                        continue
                if doc is None:
                    continue
                sent = next(iter(doc.sents))
                got = _question(sent, page)  # "It" is read as the page's subject there
                if got is None:
                    continue
                question, answer, asked = got
                if asked != page.subject and not asked[:1].isupper() and not asked.startswith("the "):
                    # a common noun ("a 230 g canister", "refunds") is the page's: say which
                    question = question[:-1] + for_subject(page.subject, question) + "?"
                if has_pronoun(question):
                    continue
                out.append(Candidate("simple", question, truth, (chunk,), (
                    ("template", "structure:quantity"), ("wh", question.split()[0].lower()),
                    ("page", page.subject), ("answer", answer), ("source_sentences", sources)),
                    structural=True))
                verb = sent.root.lemma_
                prop = "weight" if verb == "weigh" else "price" if verb == "cost" else ""
                if prop and question.startswith("How much"):
                    facts.append(Fact(asked, prop, answer, truth, chunk, sentence, page.document_id))
    return out, facts
