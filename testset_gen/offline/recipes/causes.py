"""reasoning: a cause or a purpose the page gives, asked "Why ...?" ("Why does the runner
isolate the file system in Click?" over "The runner isolates the file system because tests
run in parallel."), the sentence as the ground truth.

The sentence's main clause has a named subject (as ``quantities`` requires) and the cause
follows "because", "so that" or "in order to" after the main clause; the question
is the main clause asked with "Why", the cause left for the answer. A reader must connect
the effect to its reason, which is why these are ``reasoning`` records.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping

from testset_gen.documents.structure import PARAGRAPH
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page, whole_sentence
from testset_gen.offline.recipes.quantities import named_subject_of
from testset_gen.offline.wording import for_subject, has_pronoun

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

CAUSE = re.compile(r"\b(?:because|so that|in order to)\b")
"""Not "since": it dates far more often than it explains ("active since 2002", measured on HaluEval:
9 of 9 such questions were dates asked "Why")."""
_DO = {"VBD": "did", "VBZ": "does", "VBP": "do"}


def cause_of_root(sent: "Span", root: "Token", at: int) -> bool:
    """Whether the cause at character ``at`` explains the main clause: its word hangs from the
    root's own clause, not from what a verb like "determine" or "check" reports ("Performance
    testing will help determine if a function is taking longer to execute because it does not
    have enough memory": the "because" is part of what is determined, no reason for testing)."""
    mark = next((t for t in sent if t.idx >= at), None)
    if mark is None:
        return False
    head = mark.head if mark.dep_ in ("mark", "prep", "advmod") else mark
    while head.dep_ in ("advcl", "pcomp", "pobj", "mark") and head != root and head.head != head:
        if head.head == root:
            return not any(t.dep_ == "mark" and t.lower_ in ("if", "whether") and t.i < mark.i
                           for t in sent if t.i > root.i)
        head = head.head
    return head == root


def cause_questions(page: Page, docs: Mapping[str, "Doc"]) -> list[Candidate]:
    out = []
    for section in page.sections:
        for block in section.blocks:
            if block.kind != PARAGRAPH:
                continue
            for sentence, start, end in page.sentences(block):
                m = CAUSE.search(sentence)
                doc = docs.get(sentence)
                if not m or doc is None or not whole_sentence(sentence) or len(sentence.split()) > 35:
                    continue
                sent = next(iter(doc.sents))
                root = sent.root
                got = named_subject_of(sent, root, page, resolve=False)  # "It's not possible ..."
                if got is None or root.pos_ not in ("VERB", "AUX"):
                    continue
                subject, subj_tokens = got
                cut = m.start()
                if not cause_of_root(sent, root, sent.start_char + cut):
                    continue
                main = [t for t in sent if t.i > root.i and t.idx - sent.start_char < cut and not t.is_punct]
                aux = [c for c in root.children if c.dep_ in ("aux", "auxpass", "neg") and c.i < root.i]
                words = " ".join(t.text for t in main).replace(" ,", ",").strip()
                if root.lemma_ == "be" and not aux:
                    question = f"Why {root.text} {subject} {words}?"
                elif aux:
                    rest = " ".join(t.text for t in aux[1:])
                    question = f"Why {aux[0].text} {subject} {rest} {root.text} {words}?"
                elif root.tag_ in _DO:
                    question = f"Why {_DO[root.tag_]} {subject} {root.lemma_} {words}?"
                else:
                    continue
                question = re.sub(r"\s+", " ", question).replace(" ?", "?")
                if not subject[:1].isupper() and not subject.startswith("the ") or subject.startswith("the ") and subject[4:5].islower():
                    question = question[:-1] + for_subject(page.subject, question) + "?"
                chunk = page.chunk_for(start, end)
                if chunk is None or has_pronoun(question) or len(main) < 2:
                    continue
                out.append(Candidate("reasoning", question, sentence, (chunk,), (
                    ("template", "structure:cause"), ("wh", "why"), ("page", page.subject),
                    ("answer", sentence[m.start():].rstrip(".")), ("source_sentences", [sentence])),
                    derived="cause", structural=True))
    return out
