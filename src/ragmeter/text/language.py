"""Which language a text is in, so that the local judge never scores what it cannot read.

The local judge's models are English: spaCy's ``en_core_web_sm`` (sentences, tags,
entities, the clause rules) and MiniLM trained on English pairs. Given German or Chinese
they do not fail, they return numbers: measured before this check, correct German and
Chinese answers scored 0 faithfulness or "NoClaims", and the refusal "我不知道" scored as
relevant. So the judge asks ``unsupported_language`` of every text a judgement reads and
answers a typed ``UnsupportedLanguage`` error instead of a number (an LLM judge, or the
cascade ``local+openai:MODEL``, reads other languages).

How a text's language is found, cheapest evidence first:

1. **Script.** Letters are counted by script. When letters of a script other than Latin
   (Han, Kana, Hangul, Cyrillic, Arabic, Greek, Hebrew, Devanagari, Thai...) are at least 2
   and at least half of all letters, the text is not English, whatever its length: "我不知道"
   (four Han characters) is Chinese. An English sentence quoting "北京" stays English.
2. **Words, for Latin script.** Names, numbers, code and single words tell nothing about a
   language ("Jürgen Klopp", "1879", "def add(a, b):"), and n-gram identifiers guess wildly
   on them (measured: every detector tried called 70-78% of such short English texts
   something else). So only words that start with a lower-case letter are read (names and
   sentence openers dropped; German nouns too, German is still plain from its other words),
   and a text with fewer than ``MIN_WORDS`` of them is *undetermined*, never rejected
   (unless the function words of a common European language carry it, see
   ``_function_word_vote``: "Ich weiß es nicht."). The rest goes to ``py3langid`` (langid.py's model, 97 languages, bundled in a 4.6 MB wheel,
   no download); a language other than English with probability at least
   ``MIN_PROBABILITY`` makes the text unsupported.

English prose is recognised first by its function words (``ENGLISH_SHARE``), which spares
the identifier most contexts. Long texts are judged on three 1,000-character windows (start, middle, end). Results are
cached by text (``caches.clear_caches`` clears them). Measured in
bench/language_check.py (commands and dated figures in bench/HISTORY.md).
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass
from typing import Any, Iterable

from ragmeter.extras import require
from ragmeter.text import caches
from ragmeter.text.words import STOPWORDS

__all__ = ["Language", "MIN_PROBABILITY", "MIN_WORDS", "SUPPORTED", "SURE_PROBABILITY", "detect",
           "unsupported_language"]

SUPPORTED = frozenset({"en"})
"""Languages the local models read (ISO 639-1)."""

MIN_WORDS = 4
"""Lower-case words a Latin-script text needs before it can be called non-English."""

MIN_PROBABILITY = 0.7
"""py3langid probability (on a text's lower-case words) above which a Latin-script text may
be called non-English: from here to ``SURE_PROBABILITY`` only if that language's function
words also outnumber the English ones. Measured on 15,558 English texts (HaluEval QA dev,
MS MARCO dev): none reaches 0.6 for another language."""

SURE_PROBABILITY = 0.9

_WINDOW = 1_000
_LETTERS = re.compile(r"[^\W\d_]+")
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^“”]*[“”]|«[^»]*»')

NAMES = {
    "af": "Afrikaans", "ar": "Arabic", "az": "Azerbaijani", "be": "Belarusian", "bg": "Bulgarian",
    "bn": "Bengali", "bs": "Bosnian", "ca": "Catalan", "cs": "Czech", "cy": "Welsh", "da": "Danish",
    "de": "German", "el": "Greek", "en": "English", "eo": "Esperanto", "es": "Spanish",
    "et": "Estonian", "eu": "Basque", "fa": "Persian", "fi": "Finnish", "fr": "French",
    "ga": "Irish", "gl": "Galician", "gu": "Gujarati", "he": "Hebrew", "hi": "Hindi",
    "hr": "Croatian", "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian", "is": "Icelandic",
    "it": "Italian", "ja": "Japanese", "ka": "Georgian", "kk": "Kazakh", "km": "Khmer",
    "kn": "Kannada", "ko": "Korean", "la": "Latin", "lb": "Luxembourgish", "lt": "Lithuanian",
    "lv": "Latvian", "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi",
    "ms": "Malay", "mt": "Maltese", "my": "Burmese", "ne": "Nepali", "nl": "Dutch",
    "nn": "Norwegian", "no": "Norwegian", "pa": "Punjabi", "pl": "Polish", "pt": "Portuguese",
    "ro": "Romanian", "ru": "Russian", "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian",
    "sr": "Serbian", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu",
    "th": "Thai", "tl": "Tagalog", "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu",
    "uz": "Uzbek", "vi": "Vietnamese", "zh": "Chinese", "wuu": "Chinese", "yue": "Chinese",
}

FUNCTION_WORDS = {
    code: frozenset(words.split()) for code, words in {
        "de": "der die das den dem des ein eine einer eines einem und ist sind war wurde wurden "
              "nicht ich du er sie es wir ihr mit von zu im auf für auch wie wer wann wo warum "
              "welche welcher nach bei aus oder aber dass hat haben sein kein keine einer einem "
              "zum zur vom beim sich noch nur über als wenn wird werden kann können ihre seine "
              "sehr schon dieser diese dieses am in",
        "fr": "le la les un une des du est sont était été et ou je tu il elle nous vous ils "
              "elles ne pas de au aux avec pour dans sur qui que quoi quel quelle où quand "
              "comment ce cette ces son sa ses",
        "es": "el la los las un una unos unas es son era fue y o yo tú él ella nosotros "
              "ellos no de del al con para por en que qué cuál cuándo dónde cómo quién este "
              "esta lo se está",
        "it": "il lo la gli le un una è sono era stato e o io tu lui lei noi voi loro non "
              "di del della al alla con per in che chi quale quando dove come questo questa",
        "pt": "o a os as um uma é são era foi e ou eu tu ele ela nós eles elas não de do da "
              "dos das ao com para por em que qual quando onde como quem este esta",
        "nl": "de het een en is zijn was werd niet ik jij hij zij wij van met voor op in te "
              "dat die wat wie waar wanneer hoe welke ook",
    }.items()
}
"""Frequent function words of the European languages a RAG set most often mixes in, for
texts too short for the identifier alone (``_function_word_vote``)."""

_ENGLISH_ONLY = STOPWORDS - frozenset().union(*FUNCTION_WORDS.values())

ENGLISH_SHARE = 0.2
"""Share of English-only function words ("the", "of", "and", "that"...) among 8 or more
lower-case words above which a text is English without asking py3langid (most contexts: it
is the costly step). Measured: 95% of the HaluEval/MS MARCO English texts with 8+ such words
reach 0.2, the hand-written texts in other languages at most 0.08."""

# (first code point, last code point, script); Latin is everything below U+0250 and the
# Latin Extended Additional block (Vietnamese); anything else not listed is "other".
_SCRIPTS = (
    (0x0370, 0x03FF, "Greek"), (0x0400, 0x052F, "Cyrillic"), (0x0530, 0x058F, "Armenian"),
    (0x0590, 0x05FF, "Hebrew"), (0x0600, 0x06FF, "Arabic"), (0x0750, 0x077F, "Arabic"),
    (0x0900, 0x097F, "Devanagari"), (0x0980, 0x09FF, "Bengali"), (0x0B80, 0x0BFF, "Tamil"),
    (0x0E00, 0x0E7F, "Thai"), (0x10A0, 0x10FF, "Georgian"), (0x1100, 0x11FF, "Hangul"),
    (0x3040, 0x30FF, "Kana"), (0x31F0, 0x31FF, "Kana"), (0x3400, 0x4DBF, "Han"),
    (0x4E00, 0x9FFF, "Han"), (0xAC00, 0xD7AF, "Hangul"), (0xF900, 0xFAFF, "Han"),
    (0x20000, 0x3FFFF, "Han"),
)
# the language a script alone names, when the identifier's guess is of another script
_SCRIPT_LANGUAGE = {"Han": "zh", "Kana": "ja", "Hangul": "ko", "Greek": "el", "Hebrew": "he",
                    "Thai": "th", "Georgian": "ka", "Armenian": "hy", "Tamil": "ta",
                    "Bengali": "bn"}
_SCRIPT_CODES = {"Cyrillic": {"ru", "uk", "bg", "be", "sr", "mk", "kk", "mn", "ky", "tg", "ba", "tt"},
                 "Arabic": {"ar", "fa", "ur", "ps", "ug", "sd", "ary", "arz"},
                 "Devanagari": {"hi", "mr", "ne", "sa"}}


@dataclass(frozen=True)
class Language:
    """A text's language: ISO 639-1 ``code`` ("und" when the text is too short or too
    mixed to tell), English ``name``, and ``probability`` of that reading."""

    code: str
    name: str
    probability: float

    @property
    def supported(self) -> bool:
        """English, or undetermined (a name, a number, code: nothing to refuse)."""
        return self.code in SUPPORTED or self.code == "und"


UNDETERMINED = Language("und", "undetermined", 0.0)
ENGLISH_PROSE = Language("en", "English", 1.0)  # decided by its function words

_IDENTIFIER: Any = None
_IDENTIFIER_LOCK = threading.Lock()


def _identifier() -> Any:
    """py3langid's identifier, loaded once (about 1-3 s: its model is xz-compressed)."""
    global _IDENTIFIER
    with _IDENTIFIER_LOCK:
        if _IDENTIFIER is None:
            langid = require("local", "py3langid.langid", "the local judge's language check")
            _IDENTIFIER = langid.LanguageIdentifier.from_model_file(langid.MODEL_FILE, norm_probs=True)
    return _IDENTIFIER


def _script(ch: str) -> str:
    cp = ord(ch)
    if cp < 0x0250 or 0x1E00 <= cp <= 0x1EFF:
        return "Latin"
    for first, last, name in _SCRIPTS:
        if first <= cp <= last:
            return name
    return "other"


def _sample(text: str) -> str:
    """Three windows of a long text; a quotation left out when enough text surrounds it
    ('Angela Merkel said: "Wir schaffen das."' is an English sentence)."""
    if len(text) > 3 * _WINDOW:
        middle = len(text) // 2
        text = " ".join((text[:_WINDOW], text[middle:middle + _WINDOW], text[-_WINDOW:]))
    outside = _QUOTED.sub(" ", text)
    return outside if outside != text and len(_LETTERS.findall(outside)) >= 3 else text


def _named(code: str, probability: float) -> Language:
    code = "zh" if code in ("wuu", "yue") else code
    return Language(code, NAMES.get(code, code), round(float(probability), 3))


@caches.register
def _clear() -> None:
    detect.cache_clear()


@functools.lru_cache(maxsize=65_536)
def detect(text: str) -> Language:
    """The language of ``text`` (see the module docstring for how, and its limits)."""
    sample = _sample(text)
    words = _LETTERS.findall(sample)
    counts: dict[str, int] = {}
    for word in words:
        for ch in word:
            script = _script(ch)
            counts[script] = counts.get(script, 0) + 1
    letters = sum(counts.values())
    if not letters:
        return UNDETERMINED
    n = letters - counts.get("Latin", 0)  # letters of other scripts, together (Han + Kana)
    if n >= 2 and n >= 0.5 * letters:
        share = n / letters
        script = max((s for s in counts if s != "Latin"), key=lambda s: counts[s])
        if "Kana" in counts and script == "Han":
            script = "Kana"  # Japanese writes Han and Kana together
        code, _ = _identifier().classify(sample)
        code = "zh" if code in ("wuu", "yue") else code
        if code not in _SCRIPT_CODES.get(script, ()) and code != _SCRIPT_LANGUAGE.get(script):
            code = _SCRIPT_LANGUAGE.get(script, "")
        if not code:  # a script whose language the identifier did not name
            return Language(script.lower(), f"{script}-script text", round(share, 3))
        return _named(code, share)
    latin = [w for w in words if _script(w[0]) == "Latin"]
    lower = [w for w in latin if w[0].islower()]
    if len(lower) >= 8 and sum(w.casefold() in _ENGLISH_ONLY for w in lower) >= ENGLISH_SHARE * len(lower):
        return ENGLISH_PROSE
    english = 0.0
    if len(lower) >= MIN_WORDS:
        code, probability = _identifier().classify(" ".join(lower))
        if code != "en" and probability >= MIN_PROBABILITY and (
                probability >= SURE_PROBABILITY or _outnumbers_english(code, lower)):
            return _named(code, probability)
        english = probability if code == "en" else 1.0 - probability
    voted = _function_word_vote(latin)
    if voted is not None:
        return voted
    if len(lower) < MIN_WORDS:
        return UNDETERMINED
    return _named("en", english)


def _outnumbers_english(code: str, words: list[str]) -> bool:
    """More function words of ``code`` than English ones ("The dish is called pão de queijo."
    has one of each: English with a foreign dish in it)."""
    vocab = FUNCTION_WORDS.get(code, frozenset())
    folded = [w.casefold() for w in words]
    # a word that is a function word of both ("in", "am", "die") counts for neither
    return sum(w in vocab and w not in STOPWORDS for w in folded) > sum(
        w in STOPWORDS and w not in vocab for w in folded)


def _function_word_vote(latin: list[str]) -> Language | None:
    """A short sentence in a common European language, told by its function words.

    Words that are function words in English too ("in", "am", "die", "was") count for
    neither side. Called non-English when one language's own function words are at least
    2, at least a quarter of the lower-case words (plus one), at least twice the English
    ones, and py3langid's first choice for the whole (lower-cased) text is that language:
    "Ich weiß es nicht." (ich, es, nicht), "Quelle est la capitale de la France ?"
    (quelle, est, la, de, la).
    """
    if len(latin) < 3:
        return None
    function = STOPWORDS.union(*FUNCTION_WORDS.values())
    lower = [w for w in latin if w[0].islower()]
    if all(w.casefold() in function for w in lower):
        return None  # no lower-case content word: a name ("Marquis de Lafayette"), a title
    words = [w.casefold() for w in latin]
    best, own = max(((code, [w for w in words if w in vocab and w not in STOPWORDS])
                     for code, vocab in FUNCTION_WORDS.items()), key=lambda x: len(x[1]))
    english = [w for w in words if w in STOPWORDS and w not in FUNCTION_WORDS[best]]
    if len(own) < 2 or len(own) < 0.25 * (len(lower) + 1) or len(own) < 2 * len(english):
        return None
    code, probability = _identifier().classify(" ".join(words))
    if code != best:
        return None
    return _named(code, probability)


def unsupported_language(texts: Iterable[str]) -> Language | None:
    """The first language among ``texts`` that the local models do not read, else ``None``."""
    for text in texts:
        if text and text.strip():
            language = detect(text)
            if not language.supported:
                return language
    return None
