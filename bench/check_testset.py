"""An automatic rubric check of a test set, written apart from the generator's filter.

    python bench/check_testset.py testset.jsonl

The generator's filter (``testset_gen.offline.record_filter``) decides what is written; this script
checks the written records again with rules of its own, so that a hole in the filter shows
as a failure here rather than being checked by itself. Per record, a failure names the
rubric part it breaks:

* ``form``: one question, opening with a question word or auxiliary, ending with "?", no
  backslash, backtick, pipe, double dash or brackets;
* ``standalone``: no pronoun or demonstrative in the question;
* ``answerable``: each sentence of the ground truth after a derived figure is written in
  the reference contexts (or written there with "He"/"She" for the name, or without the
  contexts' bracketed asides, which the generator leaves out of statements); at least 60% of
  the question's content words are in them, compared as spaCy lemmas (``_lemmas``: "What
  does FastAPI depend on?" against "FastAPI depends on Pydantic" failed on "depend" when
  compared as written);
* ``no_giveaway``: the answer (``metadata.answer``) is in the ground truth and not in the
  question, as whole words ("MIT" is not given away by "LangSmith");
* ``type``: multi_context cites two or more chunks and each chunk holds a ground-truth
  sentence; reasoning states a derived answer (years between two dates, which came first)
  whose figure follows from the years in its ground truth, or, on documentation, a Python
  version verdict that follows from the stated floor or a "why" answered by the sentence's
  "because"/"so that" part (``_doc_reasoning``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

STOP = set("""a an the of in on at to and or for by with from as is was were are be been did does do
what who whom when where which how many much why has have had it its this that these those
happened first after years year can could should would will you your
oldest newer both""".split())
"""Question words, and the words of a derivation ("first", "oldest", "newer", "both"): what the
record computes, not a fact the contexts must write."""
PRONOUNS = re.compile(r"\b(?:he|she|it|they|him|her|them|his|its|their|this|these|those)\b", re.I)
OPEN = re.compile(r"^(?:Who|Whom|What|When|Where|Which|How|Why|By whom|In which|For how|Is|Are|Was|"
                  r"Were|Do|Does|Did|Has|Have|Had|Can)\b")


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[\w'’-]+", text.lower()))


def _content(text: str) -> set[str]:
    return {w for w in _norm(text).split() if w not in STOP and not w.isdigit()}


def _forms(text: str) -> dict[str, str]:
    """Each word of ``text`` (lowercased) -> its spaCy lemma, read in its sentence."""
    from ragmeter.text.syntax import parse

    return {t.lower_: t.lemma_.lower() for doc in parse([text]) for t in doc}


def _lemmas(text: str) -> set[str]:
    """The words of ``text`` lowercased, and their spaCy lemmas ("depends" -> "depend",
    "requires" -> "require"), by the project's shared pipeline (``ragmeter.text.syntax``):
    a question asks with the base form what its context states inflected."""
    from ragmeter.text.syntax import parse

    out: set[str] = set()
    for doc in parse([text]):
        for t in doc:
            if re.search(r"\w", t.text):
                out.update((t.lower_, t.lemma_.lower()))
    return out


def _within(phrase: str, text: str) -> bool:
    """``phrase`` written in ``text`` as whole words, case aside."""
    return bool(re.search(r"(?<!\w)" + re.escape(phrase.lower().strip()) + r"(?!\w)",
                          text.lower()))


def _stated(sentence: str, joined: str, joined_raw: str = "") -> bool:
    """Written in the contexts, or written there with "He"/"She" where the ground truth
    names the person (a resolved pronoun)."""
    norm = _norm(sentence)
    if norm in joined:
        return True
    name = re.match(r"((?:[A-Z][\w'’.-]*\s+){1,4})[a-z]", sentence)
    if name:
        rest = _norm(sentence[len(name.group(1)):])
        if f"he {rest}" in joined or f"she {rest}" in joined:
            return True
        # a clause of a "He did X and did Y" sentence: its words, in a sentence opening "He"
        return any(re.match(r"(?:he|she) ", _norm(s)) and set(rest.split()) <= set(_norm(s).split())
                   for s in re.split(r"(?<=[.!?])\s+", joined_raw))
    return False


def _doc_reasoning(question: str, gt: str, meta: dict[str, Any]) -> bool:
    """A documentation reasoning record's derivation, read from its text alone:

    * "Can you use Rich with Python 3.7?" - "No. Rich requires Python 3.8 or later.": the
      ground truth states one floor ("3.N or later", "and higher", "3.N+") and the verdict
      is "Yes" exactly when the version asked is not below it;
    * "Why is X required ...?" - a ground truth with "because", "so that" or "in order to",
      the answer being what follows it, and fewer than half its content words asked."""
    if meta.get("template") == "doc:python_support":
        asked = re.search(r"Python 3\.(\d+)\?$", question)
        verdict = re.match(r"(Yes|No)\. ", gt)
        floors = re.findall(r"Python 3\.(\d+)(?:\+| or (?:later|higher|newer|above|greater)| and "
                            r"(?:higher|later|above|newer|up))", gt)
        return bool(asked and verdict and len(floors) == 1) and (
            (verdict.group(1) == "Yes") == (int(asked.group(1)) >= int(floors[0])))
    answer = str(meta.get("answer", ""))
    if meta.get("template") == "doc:consequence":
        # "Why can two reports be compared by eye ...?" - "The bins are the same in every
        # report, so two reports can be compared by eye.": the answer is what comes before "so"
        before = re.match(r"(.+?), so (.+?)\.?$", gt)
        return (question.startswith("Why ") and before is not None and answer == before.group(1)
                and len(_content(answer) & _content(question)) * 2 < len(_content(answer)))
    cause = re.search(r"\b(because|so that|in order to)\b (.+?)\.?$", gt)
    return (question.startswith("Why ") and cause is not None
            and answer == f"{cause.group(1)} {cause.group(2)}"
            and len(_content(cause.group(2)) & _content(question)) * 2 < len(_content(cause.group(2))))


def check(record: dict[str, Any]) -> list[str]:
    """The rubric parts ``record`` fails (empty: it passes)."""
    q, gt = record["question"], record["ground_truth"]
    contexts = record["reference_contexts"]
    meta = record.get("metadata", {})
    joined = _norm(" ".join(contexts))
    fails: list[str] = []
    if (not q.endswith("?") or q.count("?") != 1 or not OPEN.match(q)
            or re.search(r"\\|`|\||--|[()\[\]{}]", q)):
        fails.append("form")
    if PRONOUNS.search(q):
        fails.append("standalone")
    derived = (re.match(r"(\d+) years\. (.*)$", gt)
               or re.match(r".*? first \(([^)]*)\); .*? (?:in|on) [^.]*\. (.*)$", gt)
               or re.match(r"(Yes|No)\. (.*)$", gt)
               or re.match(r"Python (3\.\d+)\. (.*)$", gt))
    stated = derived.group(2) if derived else gt
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", stated) if s.strip()]
    # the generator leaves bracketed asides out of its statements ("listed by the Kennel Club
    # (UK) as" -> "listed by the Kennel Club as"): the contexts are read without them too
    plain = re.sub(r"\s*\([^()]*\)", "", " ".join(contexts))
    if not sentences or not all(_stated(s, joined, " ".join(contexts)) or _stated(s, _norm(plain), plain)
                                for s in sentences):
        fails.append("answerable")
    words = _content(q)
    in_contexts = set(joined.split()) | _lemmas(" ".join(contexts))
    forms = _forms(q)
    found = {w for w in words if w in in_contexts or forms.get(w, w) in in_contexts}
    if words and len(found) / len(words) < 0.6:
        fails.append("answerable")
    answer = str(meta.get("answer", ""))
    if answer and (not _within(answer, gt)
                   or (record["evolution_type"] == "simple" and _within(answer, q))):
        fails.append("no_giveaway")
    kind = record["evolution_type"]
    years = [int(y) for y in re.findall(r"\b(1\d{3}|20\d{2})\b", stated)]
    if kind == "multi_context":
        ids = set(record.get("reference_context_ids", []))
        each = all(any(_norm(s) in _norm(c) for s in sentences) for c in contexts)
        if len(ids) < 2 or not each:
            fails.append("type")
    if meta.get("template") == "doc:oldest_python":
        # "What is the oldest Python version that works with both X and Y?" - "Python 3.9.
        # <X's floor> <Y's floor>": the higher of the two floors the sentences state
        floors = [int(f) for f in re.findall(r"Python 3\.(\d+)(?:\+| or (?:later|higher|newer|above|"
                                             r"greater)| and (?:higher|later|above|newer|up))", stated)]
        if not derived or len(floors) != 2 or derived.group(1) != f"3.{max(floors)}":
            fails.append("type")
    if kind == "reasoning" or meta.get("template") in ("years_between", "which_first"):
        m = re.match(r"(\d+) years\.", gt)
        if meta.get("template") in ("doc:python_support", "doc:cause", "doc:consequence"):
            if not _doc_reasoning(q, gt, meta):
                fails.append("type")
        elif m:
            if len(years) != 2 or int(m.group(1)) != abs(years[0] - years[1]):
                fails.append("type")
        elif meta.get("template") == "which_first":
            first_year = re.search(r"\b(1\d{3}|20\d{2})\b", gt.split(";")[0])
            if not first_year or len(years) != 2 or int(first_year.group(1)) != min(years):
                fails.append("type")
        else:
            fails.append("type")
    return sorted(set(fails))


def main(path: str) -> None:
    records = [json.loads(line) for line in Path(path).open(encoding="utf-8") if line.strip()]
    failed = 0
    for r in records:
        fails = check(r)
        if fails:
            failed += 1
            print(f"FAIL {','.join(fails)}: {r['question']}")
    share = (len(records) - failed) / len(records) if records else float("nan")
    print(f"{len(records) - failed} of {len(records)} records pass the rubric check ({share:.0%})")


if __name__ == "__main__":
    main(sys.argv[1])
