"""The two aspect critiques with a real local signal: conciseness and coherence.

* ``conciseness``: repetition, filler phrases, length per question part;
* ``coherence``: repeated sentences, word loops, contradictions between claims, truncation,
  topic jumps.

Harmfulness, maliciousness, correctness and custom criteria have no local signal and are
not implemented: the caller raises ``NeedsLLMJudge`` for them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from ragmeter.text import nlp as _nlp
from ragmeter.judges.local.claims import Clause, clauses_of
from ragmeter.text.nlp import VALUE_LABELS, parse
from ragmeter.text.normalise import normalise_prose
from ragmeter.judges.local.question_parts import question_parts
from ragmeter.text.words import STOPWORDS, WORD

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

    from ragmeter.judges.local.coverage import Encoder

__all__ = ["TOPIC_JUMP", "WORDS_PER_PART", "WORDS_PER_PART_EXPLAIN", "coherence", "conciseness"]

_FILLER_PHRASES = [
    r"it(?: is|'s) (?:important|worth|crucial|essential) (?:to note|noting|to mention|"
    r"mentioning|to remember|to understand)",
    r"it should be noted", r"needless to say", r"as (?:i )?(?:mentioned|said|noted|stated) "
    r"(?:earlier|before|above|previously)?", r"in conclusion", r"to (?:sum up|summari[sz]e|"
    r"conclude)", r"in summary", r"all in all", r"at the end of the day", r"(?:i )?hope this helps",
    r"let me know if", r"feel free to", r"(?:that's |that is |what )?(?:a )?(?:great|good|"
    r"excellent|interesting) question", r"^(?:sure|certainly|of course|absolutely|great)[!,.]",
    r"\bbasically\b", r"\bessentially\b", r"in other words", r"to be honest", r"for what it's worth",
    r"the answer to (?:your|this|the) question is", r"you asked (?:about|me)",
    r"thank(?:s| you) for (?:asking|your question)", r"i(?:'d| would) be (?:happy|glad) to",
    r"happy to help", r"as (?:we|you) (?:all )?know", r"it goes without saying",
    r"i hope (?:this|that) (?:answers|clarifies|helps)", r"as an ai",
]
_FILLER_RE = re.compile("|".join(_FILLER_PHRASES))
WORDS_PER_PART = 120
"""Words per question part above which a factual answer is called long."""
WORDS_PER_PART_EXPLAIN = 250
"""The same for "why", "how", "explain", "describe" questions, which need room."""
_EXPLAIN = re.compile(r"^\s*(?:why|how(?! (?:many|much|old|long|far|tall|big|large|high))|explain|"
                      r"describe|discuss|compare|what are the (?:differences|reasons|causes|"
                      r"effects|benefits|advantages|steps))\b", re.I)


def _sentences_of(doc: "Doc") -> list[str]:
    out = []
    for sent in doc.sents:
        for line in sent.text.split("\n"):
            if WORD.search(line):
                out.append(line.strip())
    return out


def _key(sentence: str) -> tuple[str, ...]:
    return tuple(WORD.findall(normalise_prose(sentence)))


def _near_duplicates(sentences: Sequence[str]) -> int:
    """Sentences equal to an earlier one, or with 80% of the same words (4+ words)."""
    seen: list[tuple[set[str], int]] = []
    exact: set[tuple[str, ...]] = set()
    dups = 0
    for s in sentences:
        key = _key(s)
        if not key:
            continue
        words = set(key)
        negated = len(_nlp.negation_cues(key)) % 2
        if key in exact or (len(key) >= 4 and any(
                n == negated and len(words & o) / max(1, len(words | o)) >= 0.8 for o, n in seen)):
            dups += 1
        exact.add(key)
        seen.append((words, negated))
    return dups


def _repeated_ngrams(words: Sequence[str], n: int = 4) -> float:
    """Share of the word n-grams that repeat an earlier one (0 below 20 words)."""
    if len(words) < 20:
        return 0.0
    grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
    seen: set[tuple[str, ...]] = set()
    repeats = 0
    for g in grams:
        if g in seen:
            repeats += 1
        seen.add(g)
    return repeats / len(grams)


def conciseness(answers: Sequence[str],
                questions: Sequence[str | None] | None = None) -> list[tuple[bool, float, str]]:
    """(verdict, confidence, reason): is the answer free of repetition, filler and bloat?

    Checks, each a reason to fail:

    * **repetition**: a sentence equal to an earlier one, or sharing 80% of its words with
      one (sentences of 4+ words); or 15% or more of the word 4-grams repeating (answers of
      20+ words);
    * **filler**: two or more stock phrases ("it is important to note", "I hope this
      helps", "great question", "in conclusion", ...);
    * **length**: more than ``WORDS_PER_PART`` words per part of the question
      (``WORDS_PER_PART_EXPLAIN`` for why/how/explain/describe questions; a blank question
      counts as one part).

    Confidence: 0.6 + 0.1 per failed check (at most 0.95) when it fails; when it passes,
    0.55 to 0.8, lower as the answer nears a limit. Limits: it cannot tell a necessary
    detail from an unnecessary one, so a long answer within the budget full of off-topic
    detail passes, and a long but needed explanation may fail.
    """
    qs = list(questions) if questions is not None else [None] * len(answers)
    docs = parse(list(answers))
    parts = question_parts([q or "" for q in qs])
    out: list[tuple[bool, float, str]] = []
    for answer, question, doc, qparts in zip(answers, qs, docs, parts):
        words = WORD.findall(normalise_prose(answer))
        if not words:
            out.append((False, 0.6, "the answer is empty"))
            continue
        n_parts = max(1, len(qparts))
        budget = WORDS_PER_PART_EXPLAIN if question and _EXPLAIN.match(question) else WORDS_PER_PART
        per_part = len(words) / n_parts
        sentences = _sentences_of(doc)
        dups = _near_duplicates(sentences)
        ngram = _repeated_ngrams(words)
        fillers = _FILLER_RE.findall(normalise_prose(answer))
        problems: list[str] = []
        if dups:
            problems.append(f"{dups} repeated sentence(s)")
        if ngram >= 0.15:
            problems.append(f"{ngram:.0%} of its 4-word sequences repeat")
        if len(fillers) >= 2:
            problems.append(f"{len(fillers)} filler phrases ({', '.join(repr(f.strip()) for f in fillers[:3])})")
        if per_part > budget:
            problems.append(f"{per_part:.0f} words per question part (limit {budget})")
        if problems:
            out.append((False, min(0.95, 0.6 + 0.1 * len(problems)),
                        "not concise: " + "; ".join(problems)))
        else:
            margin = 1.0 - min(1.0, per_part / budget)
            conf = 0.55 + 0.25 * margin * (0.5 if fillers else 1.0)
            out.append((True, round(conf, 3),
                        f"concise: {len(words)} words for {n_parts} question part(s), no repeated "
                        f"sentences, {len(fillers)} filler phrase(s)"))
    return out


_FUNCTION_END = frozenset("""the a an of to and or but with in on at for from by as is are was
were be that which who whose this these its their his her our your my than because if when
while so such very""".split())
_OPEN_CLOSE = [("(", ")"), ("[", "]"), ("{", "}")]


def _truncated(answer: str) -> str | None:
    """Why the answer looks cut off, or ``None``."""
    text = answer.rstrip()
    words = WORD.findall(text)
    if len(words) < 5:
        return None
    for a, b in _OPEN_CLOSE:
        if text.count(a) > text.count(b):
            return f"an unclosed '{a}'"
    if text.count("```") % 2:
        return "an unclosed code block"
    if text[-1] in ".!?)]}\"'”’*`:%" or text[-1].isdigit():
        if text[-1] == ":" and len(text.splitlines()) == 1:
            return "it ends on a colon"
        return None
    if text[-1] in ",;-(/":
        return f"it ends on '{text[-1]}'"
    if words[-1].lower() in _FUNCTION_END:
        return f"it ends mid-sentence on '{words[-1]}'"
    return None


def _loop(words: Sequence[str]) -> str | None:
    run = 1
    for a, b in zip(words, words[1:]):
        run = run + 1 if a == b else 1
        if run >= 3:
            return f"'{a}' repeated {run} times in a row"
    return None


def _contradictions(clauses: Sequence["Clause"]) -> list[str]:
    """Pairs of claims that say the same thing about the same entities but with different
    numbers or dates, or one negated and one not."""
    found: list[str] = []
    claims = [c for c in clauses if c.kind == "claim" and len(set(c.content)) >= 2]
    for i, a in enumerate(claims):
        for b in claims[i + 1:]:
            ea = {_nlp.normalise_entity(t) for t, l in a.entities if l not in VALUE_LABELS}
            eb = {_nlp.normalise_entity(t) for t, l in b.entities if l not in VALUE_LABELS}
            if ea != eb:
                continue
            ca, cb = set(a.content), set(b.content)
            overlap = len(ca & cb) / max(1, len(ca | cb))
            na, nb = set(a.numbers), set(b.numbers)
            same_time = (not a.dates and not b.dates) or _dates_overlap(a.dates, b.dates)
            if overlap >= 0.7 and na and nb and not na & nb and same_time:
                # "330 m tall" / "300 m tall" (a different year would make both true)
                found.append(f'"{a.text}" vs "{b.text}" (different numbers)')
            elif overlap >= 0.7 and a.dates and b.dates and not same_time and na == nb:
                found.append(f'"{a.text}" vs "{b.text}" (different dates)')
            elif ca == cb and (len(a.negations) % 2) != (len(b.negations) % 2) \
                    and na == nb and set(a.dates) == set(b.dates):
                found.append(f'"{a.text}" vs "{b.text}" (one denies the other)')
    return found


def _dates_overlap(a: Sequence[str], b: Sequence[str]) -> bool:
    return any(_nlp.date_compatible(x, y) or _nlp.date_compatible(y, x) for x in a for y in b)


TOPIC_JUMP = 0.05
"""Adjacent sentences with a cosine below this (and no shared word) are a topic jump."""


def coherence(answers: Sequence[str],
              encoder: Encoder | None = None) -> list[tuple[bool, float, str]]:
    """(verdict, confidence, reason): is the answer consistent and well formed?

    Checks, each a reason to fail:

    * **repeated sentences**: a sentence that repeats an earlier one (or 80% of its words): a
      generation loop rather than an argument;
    * **loops**: a word three times in a row ("the the the");
    * **contradictions**: two claims (``claims.clauses_of``, pronouns resolved) about the same
      named entities with the same content words (70%+) but different numbers at the same
      time ("330 m tall" / "300 m tall"; "200 employees in 2010" / "500 in 2020" is not one),
      or different dates and the same numbers ("born in 1879" / "born in 1880"), or the same
      content words and values but for a negation;
    * **truncation**: an unclosed bracket or code block, or an ending on a comma, a colon or
      a function word ("... and the");
    * **topic jump** (only with an ``encoder``): two adjacent sentences with a cosine below
      ``TOPIC_JUMP`` that share no content word, in an answer of 3+ sentences.

    Confidence: 0.75 + 0.1 per failed check (at most 0.95) when it fails; 0.65 when it
    passes (these checks cannot see a flawed argument, a non sequitur in fluent prose, or a
    contradiction phrased with different words).
    """
    docs = parse(list(answers))
    all_clauses = clauses_of(list(answers), None, docs=docs)
    sentence_lists = [_sentences_of(d) for d in docs]
    jumps: list[str | None] = [None] * len(answers)
    if encoder is not None:
        texts = list(dict.fromkeys(s for ss in sentence_lists if len(ss) >= 3 for s in ss))
        if texts:
            vecs = encoder.encode(texts)
            row = {t: i for i, t in enumerate(texts)}
            for k, ss in enumerate(sentence_lists):
                if len(ss) < 3:
                    continue
                for a, b in zip(ss, ss[1:]):
                    cos = float(vecs[row[a]] @ vecs[row[b]])
                    shared = {w for w in _key(a) if w not in STOPWORDS} & {w for w in _key(b) if w not in STOPWORDS}
                    if cos < TOPIC_JUMP and not shared:
                        jumps[k] = f'a topic jump between "{a}" and "{b}" (cosine {cos:.2f})'
                        break
    out: list[tuple[bool, float, str]] = []
    for answer, clauses, sentences, jump in zip(answers, all_clauses, sentence_lists, jumps):
        words = WORD.findall(normalise_prose(answer))
        if not words:
            out.append((False, 0.6, "the answer is empty"))
            continue
        problems: list[str] = []
        dups = _near_duplicates(sentences)
        if dups:
            problems.append(f"{dups} repeated sentence(s)")
        loop = _loop(words)
        if loop:
            problems.append(loop)
        contra = _contradictions(clauses)
        if contra:
            problems.append("contradicts itself: " + "; ".join(contra[:2]))
        cut = _truncated(answer)
        if cut:
            problems.append(f"looks truncated: {cut}")
        if jump:
            problems.append(jump)
        if problems:
            out.append((False, min(0.95, 0.75 + 0.1 * (len(problems) - 1)),
                        "incoherent: " + "; ".join(problems)))
        else:
            checked = "no repetition, loop, contradiction or truncation found"
            if encoder is not None:
                checked = "no repetition, loop, contradiction, truncation or topic jump found"
            out.append((True, 0.65, f"coherent as far as local checks go: {checked}"))
    return out
