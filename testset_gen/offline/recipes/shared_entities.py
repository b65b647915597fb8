"""multi_context: two things of one kind, each described in its own section, compared ("What
is the difference between caret requirements and tilde requirements in Poetry?"): each
section contributes one half of the answer, and neither half answers alone.

The things are the noun-phrase sections ``sections`` asks "What is/are ...?" of (its
answer's first sentence has the thing as its subject), or two terms the folder defines
(``definitions``). Two of them are of one kind when their head nouns are the same
("caret requirements", "tilde requirements"; "primary package sources", "supplemental
package sources") and they are not the same thing. The ground truth is both answers, in
the order asked; the reference contexts are both chunks (two sections of one page are two
facts as much as two pages are).

What this replaced, and why: a thing named on two pages was asked by one page's
description of it ("Which tool for dependency management will publish to PyPI by
default?"): its answer was a name (on the Poetry docs, always the project's own), which the
second page stated whole; a rater judged all twelve such records not multi_context.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.recipes.definitions import Definition
from testset_gen.offline.wording import in_subject, term_key

MAX_PER_KIND = 6
"""Things of one kind compared at most: a long reference page ("Caret", "Tilde",
"Wildcard", "Inequality" ... requirements) would otherwise fill the set with pairs."""


def _thing(c: Candidate) -> tuple[str, str, str, bool] | None:
    meta = dict(c.meta)
    if meta.get("template") != "structure:section_what" or not meta.get("head"):
        return None
    return str(meta["thing"]), str(meta["head"]), str(meta.get("page") or ""), bool(meta.get("plural"))


def compared_things(sections: Sequence[Candidate], definitions: Sequence[Definition] = (),
                    project: str = "") -> list[Candidate]:
    """``sections``: the simple candidates (their ``section_what`` ones are used);
    ``definitions``: terms defined by the pages ("A plugin is ..."), compared with a thing of
    their kind; ``project``: the folder's subject, never one of the two things."""
    things: dict[str, list[tuple[str, bool, str, str, tuple[str, ...], tuple[str, ...]]]] = {}
    for c in sections:
        got = _thing(c)
        if got is None:
            continue
        thing, head, page, plural = got
        things.setdefault(head, []).append((thing, plural, page, c.ground_truth, c.chunk_ids,
                                            tuple(dict(c.meta).get("source_sentences", ()))))
    for d in definitions:
        term = d.term.removeprefix("the ")
        if not d.term.startswith(("a ", "an ")):
            continue  # a name ("Poetry") is the subject, not a kind of thing
        noun = d.term.split(" ", 1)[1]
        things.setdefault(noun.split()[-1], []).append((noun, False, d.page, d.sentence, (d.chunk,),
                                                        (d.sentence,)))
    out = []
    for head, found in sorted(things.items()):
        seen: dict[str, tuple[str, bool, str, str, tuple[str, ...], tuple[str, ...]]] = {}
        for f in found:
            seen.setdefault(term_key(f[0]), f)  # "constant variables" and "a constant variable": one
        kinds = list(seen.values())[:MAX_PER_KIND]
        for a, b in combinations(kinds, 2):
            if a[4] == b[4] or project and project.lower() in (a[0].lower(), b[0].lower()):
                continue  # one chunk holds both: not two contexts
            if a[0].lower() == head or b[0].lower() == head:
                continue  # "requirements" against "caret requirements": a kind and its instance
            subject = a[2] if a[2] == b[2] else project
            pair = f"{a[0]} and {b[0]}"
            question = f"What is the difference between {pair}{in_subject(subject, pair)}?"
            out.append(Candidate("multi_context", question, f"{a[3]} {b[3]}",
                                 tuple(dict.fromkeys(a[4] + b[4])), (
                ("template", "structure:compared_things"), ("wh", "what"), ("head", head),
                ("pair", [a[0], b[0]]), ("pages", [a[2], b[2]] if a[2] and b[2] else []),
                ("source_sentences", list(a[5] + b[5]))), structural=True))
    return out
