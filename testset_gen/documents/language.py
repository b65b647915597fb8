"""Which language a document is written in, so the English-only offline rules can skip it.

The offline generator's question rules are English grammar (subject-auxiliary inversion,
"do"-support, English wh-words); on German text they wrote "Who ist Berlin die?". A
document that is not English is named in a warning with its language and left out of the
offline run, rather than turned into broken questions.

Detection is the text toolkit's (``ragmeter.text.detect``: script, function
words, then py3langid), so a document the offline generator skips is one the local judge
would refuse to score, on the first ``SAMPLE_CHARS`` characters of prose (code blocks and
tables removed: English keywords in a German page's code would vote English).
"""

from __future__ import annotations

import re

SAMPLE_CHARS = 3000
"""Characters of prose looked at: enough for a stable answer, cheap on a long document."""

NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
         "pt": "Portuguese", "nl": "Dutch", "sv": "Swedish", "da": "Danish", "no": "Norwegian",
         "fi": "Finnish", "pl": "Polish", "cs": "Czech", "ru": "Russian", "uk": "Ukrainian",
         "tr": "Turkish", "ja": "Japanese", "zh-cn": "Chinese", "zh-tw": "Chinese",
         "ko": "Korean", "ar": "Arabic", "hi": "Hindi", "el": "Greek", "hu": "Hungarian",
         "ro": "Romanian", "ca": "Catalan", "id": "Indonesian", "vi": "Vietnamese"}

_CODE = re.compile(r"```.*?```|`[^`]*`|^\s*\|.*$|https?://\S+", re.S | re.M)


def detect_language(text: str) -> str:
    """The ISO 639-1 code of ``text``'s language (``"en"``, ``"de"``...); ``"en"`` when there
    is too little prose to tell (a short note is not worth a warning)."""
    from ragmeter.text.language import detect

    prose = _CODE.sub(" ", text)[:SAMPLE_CHARS]
    if len(re.findall(r"[^\W\d_]{2,}", prose)) < 8:
        return "en"
    found = detect(prose)
    return "en" if found.supported else found.code


def language_name(code: str) -> str:
    return NAMES.get(code, code)
