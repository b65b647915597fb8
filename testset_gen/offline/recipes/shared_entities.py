"""multi_context: one thing on two pages, identified by what one page says of it and asked
about with what the other says ("Which compact gas stove fits inside the Trailhead 2's
vestibule?": the tent page names the Ember Stove, the stove page says what it is).

Page A defines X ("The Ember Stove is a compact gas stove for camping."; ``definitions``);
page B has a sentence that starts with X and says something else of it ("The Ember Stove
fits inside ..."). The question puts A's category ("compact gas stove") in place of X in
B's sentence: B alone says what fits, only A says that it is the stove asked about. The
ground truth is both sentences. A category that says nothing ("a way of", "a set of") is
not used.
"""

from __future__ import annotations

import re
from typing import Sequence

from testset_gen.documents.structure import PARAGRAPH
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page, whole_sentence
from testset_gen.offline.recipes.definitions import Definition

CATEGORY = re.compile(r"^(?:a|an|the) (?P<cat>(?:[a-z][\w-]* ){0,3}[a-z][\w-]*?)(?= (?:for|that|which|of|to|in|"
                      r"with|used|from|by|on|at|and|who|written|based|built|designed|made)\b|[,.;]|$)")
VAGUE = frozenset("way thing lot number set part kind type bit one place piece tool something".split())
VERB = re.compile(r"^(?:[a-z]+(?:s|ed)|can|will|must|should|may|runs|has|was|were)\b")


def category(definition: Definition) -> str:
    """What the definition says the term is ("compact gas stove"), or ""."""
    rest = definition.sentence.rstrip(".").split(" is ", 1)
    if len(rest) != 2:
        return ""
    m = CATEGORY.match(rest[1].strip())
    if not m:
        return ""
    cat = m.group("cat")
    return "" if cat.split()[-1] in VAGUE or len(cat) < 4 else cat


def bridge_questions(definitions: Sequence[Definition], pages: Sequence[Page]) -> list[Candidate]:
    out = []
    for d in definitions:
        cat = category(d)
        if not cat or d.term[:1].islower() and not d.term.startswith("the "):
            continue
        spoken = d.term[4:] if d.term.startswith("the ") else d.term
        if not any(re.search(r"(?<=[a-z,] )" + re.escape(spoken) + r"\b", p.text) for p in pages):
            continue  # a capital only at a sentence's start ("Documentation is ...") is no name
        start = re.compile(r"^(?:The )?" + re.escape(spoken) + r" (?P<rest>.+)$")
        for page in pages:
            if page.document_id == d.document_id:
                continue
            for section in page.sections:
                for block in section.blocks:
                    if block.kind != PARAGRAPH:
                        continue
                    for sentence, a, b in page.sentences(block):
                        m = start.match(sentence)
                        if (not m or not whole_sentence(sentence) or not VERB.match(m.group("rest"))
                                or len(m.group("rest").split()) < 3
                                or " is " in sentence[:len(spoken) + 5] or len(sentence.split()) > 30
                                or m.group("rest").startswith(("is ", "are "))):
                            continue
                        chunk = page.chunk_for(a, b)
                        if chunk is None:
                            continue
                        question = f"Which {cat} {m.group('rest').rstrip('.')}?"
                        truth = f"{d.sentence} {sentence}"
                        out.append(Candidate("multi_context", question, truth,
                                             tuple(dict.fromkeys((d.chunk, chunk))), (
                            ("template", "structure:shared_entity"), ("wh", "which"),
                            ("bridge_entity", d.term), ("answer", d.term),
                            ("pages", [d.page, page.subject] if d.page and page.subject else []),
                            ("source_sentences", [d.sentence, sentence])), structural=True))
    return out
