"""Judgements about an answer without an LLM: noncommittal, question coverage, two critiques.

* ``noncommittal``: probability that an answer is a refusal, an "I don't know" or a hedge
  with no content (English, French, German, Spanish, Italian, Portuguese, Dutch).
* ``question_coverage``: answer relevancy without generating questions. The question is
  split into its parts and each part is checked against the answer's clauses (embedding
  match, key terms, expected answer type).
* ``conciseness`` and ``coherence``: the two aspect critiques with a real local signal
  (repetition, filler, length per question part; contradictions, loops, truncation).

Harmfulness, maliciousness, correctness and custom criteria have no local signal and are not
implemented here: the caller raises ``NeedsLLMJudge`` for them.

Everything is deterministic and batched: one spaCy pass per text (``claims.parse``, cached,
shared with ``claims.extract_claims``) and one ``encoder.encode`` call per batch.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Sequence

import numpy as np

from ragmeter.local import claims as _claims
from ragmeter.local import nlp as _nlp

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Token


class Encoder(Protocol):
    """Anything with ``encode(texts) -> array`` of unit rows (``verifier.SentenceEncoder``)."""

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


# =========================================================================================
# noncommittal
# =========================================================================================

# Words that may open a refusal ("Sorry, I don't know", "Unfortunately the context ...").
_LEAD = (r"^(?:(?:well|so|but|and|however|sorry|honestly|unfortunately|actually|frankly|sadly|"
         r"regrettably|hmm+|um+|uh+|oh|ah|alas|i'm afraid|i am afraid|to be honest|to be fair|"
         r"i apologi[sz]e|my apologies|lo siento|désolée?|leider|purtroppo|infelizmente|"
         r"desafortunadamente|malheureusement|lamentablemente|mi dispiace|desculpe)\s*,?\s*)*")

_CTX = (r"(?:the |this |that )?(?:provided |given |available |retrieved |supplied )?"
        r"(?:context|text|passage|passages|document|documents|source|sources|article|excerpt|"
        r"information provided|information given|retrieved information)")
_IN_CTX = (r"in (?:the |this )?(?:provided |given )?(?:context|text|passage|passages|document|"
           r"documents|sources?|information)")

_STRONG_EN = [
    r"i (?:really |honestly |simply |just )?(?:do not|don't|dont|did not|didn't) know\b",
    r"i (?:have|'ve got|have got) no (?:idea|clue|information|knowledge|data|way)",
    r"no (?:idea|clue)\b",
    r"i(?:'m| am) (?:not|un)(?: entirely| completely| quite| really| totally| 100%| fully)?"
    r" ?(?:sure|certain)\b",
    r"i(?:'m| am) not (?:aware|familiar|able)\b",
    r"i (?:cannot|can't|cant|can not|could not|couldn't|am unable to|'m unable to|am not able to|"
    r"'m not able to|won't be able to|will not be able to|am not in a position to) (?:\w+ ){0,2}?"
    r"(?:answer|say|tell|determine|provide|find|help|confirm|verify|know|give|access|browse|"
    r"comment|assist|respond|share|offer|predict|speculate|be sure|be certain|identify)",
    r"i (?:do not|don't|dont|did not|didn't) have (?:\w+ ){0,3}?(?:information|info|data|details|"
    r"knowledge|access|answer|context|idea|way|means|records?|opinions?|feelings)",
    r"i(?:'m| am) (?:just |only |merely )?(?:an ai|a language model|an artificial intelligence|"
    r"a bot|a chatbot|an ai assistant|a large language model)",
    r"as an? (?:ai|artificial intelligence|ai language model|ai assistant|(?:large )?language model"
    r"|chatbot|virtual assistant)",
    r"(?:there is|there's|there are) (?:no|not enough|insufficient|limited|no specific|no relevant)"
    r" (?:\w+ ){0,2}?(?:information|data|details|mention|indication|records?|answer|way to "
    r"(?:know|tell|say|determine))",
    _CTX + r" (?:does not|doesn't|do not|don't|did not|didn't|fails to|cannot|can't) (?:\w+ ){0,2}?"
    r"(?:contain|mention|provide|say|specify|include|state|give|discuss|cover|answer|address|tell|"
    r"indicate|offer|reveal|describe|have|list|name|explain|refer)",
    _CTX + r" (?:is|are) (?:silent|unclear)",
    r"(?:not|no) (?:enough|sufficient) (?:information|context|data|details)",
    r"(?:insufficient|limited) (?:information|context|data)",
    r"(?:this|that|it|the answer|the information|this information|such information|"
    r"the (?:exact |precise |specific )?(?:date|number|answer|name|figure|year|amount|reason)) "
    r"(?:is|was|are|remains|has not been|have not been) (?:not |un|never )?(?:\w+ )?"
    r"(?:known|mentioned|specified|stated|provided|given|determinable|documented)\b"
    r"(?:(?: in| by) .*)?$",
    r"(?:this|that|it|the answer|such information) (?:is|was|are) (?:not )?(?:available|found) "
    + _IN_CTX,
    r"(?:(?:the|this|that|it|which|such) (?:\w+ ){0,2}?)?(?:cannot|can't|can not|could not) be "
    r"(?:determined|answered|known|said|confirmed|verified|found|inferred|deduced|established)",
    r"(?:unknown|unclear|uncertain|not sure|no answer|no comment|n/?a|none provided|not available|"
    r"not specified|not mentioned|not stated|not provided|no information|no data|not known|"
    r"no idea|no clue|don't know|dunno|idk|pass)$",
    r"(?:nobody|no one|no-one) (?:really |actually )?knows",
    r"i (?:could not|couldn't|was unable to|wasn't able to|did not|didn't|cannot|can't) find",
    r"i(?:'d| would) (?:rather not|prefer not)",
    r"i (?:must|have to|need to) (?:decline|refuse)",
    r"(?:that's |that is |this is |it's |it is )?(?:beyond|outside) (?:my|the scope of my|what i)"
    r" (?:knowledge|capabilities|training|can)",
    r"my (?:knowledge|training data|training) (?:cutoff|cut-off|only goes|does not|doesn't|ends)",
    r"(?:i )?(?:can't|cannot|can not) (?:say|tell|know) for (?:sure|certain)",
    r"(?:unable|impossible) to (?:answer|determine|provide|find|say|tell|know)",
    r"(?:the |this |that |your )?(?:question|query) (?:cannot|can't|can not) be answered",
    r"i (?:do not|don't) (?:have enough|possess)",
    r"i(?:'m| am) (?:not )?(?:allowed|permitted|programmed) (?:not )?to",
]
_VAGUE_EN = [
    r"(?:it|that|this|the answer|everything|it all) (?:really |all |totally |just )?depends\b",
    r"depends\b",
    r"(?:it's|it is|that's|that is|this is|it can be|it may be) (?:very |really |quite |rather )?"
    r"(?:hard|difficult|impossible|tricky|tough) to (?:say|tell|know|determine|answer|predict|"
    r"pin down|estimate|pinpoint)",
    r"(?:hard|difficult|impossible|tough) to (?:say|tell|know|determine)",
    r"(?:there are|there is|there's) (?:many|several|various|a number of|multiple|lots of|a lot of)"
    r" (?:factors|possibilities|answers|opinions|views|perspectives|ways to look|considerations|"
    r"variables)",
    r"(?:it|that|this|the answer) (?:varies|can vary|may vary|differs|can differ)"
    r"(?: (?:a lot|widely|greatly|considerably|from person to person|by case|case by case|"
    r"depending on (?:the )?(?:situation|circumstances|context|case|person)))?$",
    r"(?:it's|it is|that's|that is|this is) (?:a matter of (?:opinion|debate|perspective|taste)|"
    r"subjective|debatable|complicated|complex|not (?:that )?simple|not (?:a )?(?:simple|"
    r"straightforward|easy) (?:question|answer|matter)|up to you|up for debate)",
    r"(?:there is|there's) no (?:single|simple|clear|definitive|one|straightforward|easy|right|"
    r"universal|clear-cut) answer",
    r"who knows",
    r"(?:that's|that is|it's|it is) a (?:good|great|tough|difficult|complex|interesting) question$",
]
_STRONG_OTHER = [
    # French
    r"je ne (?:le |l'|l’|en )?sais (?:pas|rien)", r"j(?:e n'|'n')en sais rien", r"aucune idée",
    r"je n'ai (?:aucune|pas d'|pas la moindre) (?:\w+ )?(?:idée|informations?|réponse|données)",
    r"je ne suis pas (?:\w+ )?(?:sûre?|certaine?|en mesure)",
    r"je (?:ne )?(?:peux|pourrais|puis) (?:pas )?(?:vous )?(?:répondre|dire|fournir|aider|"
    r"confirmer|déterminer)",
    r"je n'ai pas (?:\w+ ){0,2}?(?:informations?|données|accès|réponse)",
    r"il n'y a (?:pas|aucune?) (?:d'|de )?(?:\w+ )?(?:informations?|données|mention|réponse)",
    r"aucune information",
    r"(?:le|ce|les|ces) (?:contexte|texte|document|passage|documents|sources?) ne (?:\w+ )?"
    r"(?:mentionnent|mentionne|contient|contiennent|précise|précisent|fournit|fournissent|dit|"
    r"disent|donne|donnent|indique|indiquent|parle|parlent)",
    r"en tant qu(?:e |'|’)(?:ia|intelligence artificielle|modèle de langage|assistant)",
    r"impossible (?:de|à) (?:répondre|dire|savoir|déterminer)",
    # German
    r"ich wei(?:ß|ss) (?:es |das )?(?:leider |wirklich )?nicht", r"(?:das )?wei(?:ß|ss) ich "
    r"(?:leider )?nicht", r"keine ahnung",
    r"ich bin (?:mir )?(?:leider )?(?:nicht|un)(?: ganz)? ?sicher",
    r"ich kann (?:\w+ ){0,3}?(?:nicht|keine)\b(?: \w+){0,3}? ?(?:beantworten|sagen|antworten|"
    r"helfen|geben|bestätigen|auskunft)",
    r"(?:das|dies|diese frage|darauf) kann ich (?:\w+ ){0,2}?nicht (?:\w+ )?(?:beantworten|sagen)",
    r"ich habe (?:\w+ ){0,2}?keine (?:\w+ )?(?:informationen|information|daten|ahnung|antwort|"
    r"zugriff|kenntnis|angaben)",
    r"(?:es gibt|es liegen|dazu liegen|mir liegen|hierzu liegen) (?:\w+ ){0,2}?keine (?:\w+ )?"
    r"(?:informationen|angaben|daten)",
    r"keine (?:informationen|angaben)",
    r"(?:der|im|das) (?:kontext|text|dokument|quelle) (?:\w+ ){0,2}?(?:enthält|nennt|erwähnt|gibt|"
    r"sagt|liefert) (?:\w+ ){0,2}?(?:keine|nicht|nichts)",
    r"als (?:eine? )?(?:ki|künstliche intelligenz|sprachmodell|ki-assistent|ki-modell)",
    # Spanish
    r"no (?:lo )?sé\b", r"no lo se\b", r"no sabría", r"ni idea", r"no se sabe", r"se desconoce",
    r"no estoy (?:del todo |muy )?segur[oa]",
    r"no (?:puedo|podría|soy capaz de) (?:\w+ )?(?:responder|decir|contestar|ayudar|proporcionar|"
    r"confirmar|determinar)",
    r"no tengo (?:\w+ ){0,2}?(?:información|informacion|datos|acceso|idea|respuesta)",
    r"no (?:hay|existe|dispongo de|tengo) (?:\w+ ){0,2}?(?:información|informacion|datos|respuesta)",
    r"(?:el|este|los) (?:contexto|texto|documento|pasaje|documentos) no (?:\w+ )?(?:menciona|"
    r"mencionan|contiene|contienen|proporciona|dice|especifica|indica|incluye|habla)",
    r"como (?:una? )?(?:ia|inteligencia artificial|modelo de lenguaje|asistente virtual)",
    # Italian
    r"non (?:lo )?so\b", r"non saprei", r"nessuna idea", r"non (?:ne )?sono (?:del tutto )?sicur[oa]",
    r"non (?:posso|sono in grado di|riesco a) (?:\w+ )?(?:rispondere|dire|aiutare|fornire|"
    r"confermare|determinare)",
    r"non ho (?:\w+ ){0,2}?(?:informazioni|informazione|dati|accesso|idea|risposta)",
    r"non (?:ci sono|c'è|esistono) (?:\w+ ){0,2}?(?:informazioni|dati|risposta)",
    r"nessuna informazione",
    r"(?:il|questo|i) (?:contesto|testo|documento|passaggio|documenti) non (?:\w+ )?(?:menziona|"
    r"menzionano|contiene|fornisce|dice|specifica|indica|parla)",
    r"come (?:un'|una |un )?(?:ia|intelligenza artificiale|modello (?:di )?linguistico|"
    r"assistente virtuale)",
    # Portuguese
    r"(?:eu )?n[ãa]o sei\b", r"n[ãa]o fa[çc]o (?:a menor )?ideia",
    r"n[ãa]o tenho (?:\w+ )?(?:certeza|ideia|informa[çc](?:ões|ão|oes|ao)|dados|acesso|resposta)",
    r"n[ãa]o estou (?:\w+ )?cert[oa]",
    r"n[ãa]o (?:posso|consigo|sou capaz de) (?:\w+ )?(?:responder|dizer|ajudar|fornecer|confirmar|"
    r"determinar)",
    r"n[ãa]o (?:há|existe|existem) (?:\w+ ){0,2}?(?:informa[çc](?:ões|ão|oes|ao)|dados|resposta)",
    r"nenhuma informa[çc]",
    r"(?:o|este|os) (?:contexto|texto|documento|trecho|documentos) n[ãa]o (?:\w+ )?(?:menciona|"
    r"mencionam|cont[ée]m|fornece|diz|especifica|indica|fala)",
    r"como (?:uma? )?(?:ia|intelig[êe]ncia artificial|modelo de linguagem|assistente virtual)",
    # Dutch
    r"ik weet (?:het )?niet", r"geen idee", r"ik kan (?:\w+ ){0,3}?niet (?:beantwoorden|zeggen)",
]
_VAGUE_OTHER = [
    r"(?:cela|ça|ca) dépend", r"tout dépend", r"(?:c'est )?difficile à dire",
    r"es kommt (?:ganz )?(?:darauf|drauf) an", r"(?:das ist )?schwer zu sagen",
    r"das hängt (?:davon )?ab",
    r"depende\b", r"dipende\b", r"(?:es )?difícil (?:de )?(?:decir|saber)",
    r"(?:è )?difficile (?:da )?dire", r"(?:é )?dif[íi]cil (?:de )?dizer", r"het hangt ervan af",
]
_STRONG = re.compile(_LEAD + r"(?:" + "|".join(_STRONG_EN + _STRONG_OTHER) + r")")
_VAGUE = re.compile(_LEAD + r"(?:" + "|".join(_VAGUE_EN + _VAGUE_OTHER) + r")")

_SEGMENT_SPLIT = re.compile(
    r"[.!?;:\n]+(?=\s|$)|[\u2014\u2013]|\s-\s|,\s*|\((?=\s*\w)|\)"
    r"|\s+(?=(?:but|however|although|mais|aber|jedoch|pero|però|tuttavia|mas|porém|contudo|"
    r"maar)\b)")
_WORD = re.compile(r"\w+", re.UNICODE)

_STOP = frozenset("""
a about above after again against all also am an and any are aren as at be because been before
being below between both but by can cannot could couldn did didn do does doesn doing don down
during each either else even ever every few for from further had hadn has hasn have haven having
he her here hers herself him himself his how i if in into is isn it its itself just ll let me
might mightn more most much must mustn my myself neither nor not now of off on once only or other
our ours ourselves out over own re same shall she should shouldn so some such than that the their
theirs them themselves then there these they this those through to too under until up upon us ve
very was wasn we were weren what when where which while who whom whose why will with won would
wouldn you your yours yourself yourselves s t d m o y ain ma shan needn via per really quite
rather just still already yet though although however therefore thus hence anyway besides
""".split())
_FILLER = frozenset("""
sorry apologies apologize apologise unfortunately honestly frankly actually basically
essentially maybe perhaps possibly probably likely think believe guess suppose assume know
knowing knew idea clue sure certain certainly course absolutely definitely indeed
question questions answer answers help helps helpful hope hopefully glad happy thanks thank
please ok okay well hello hi hey great good nice excellent interesting fine
anything something everything nothing someone anyone everyone nobody somebody
let ask asking asked info information context text details detail provided given mentioned
specified stated tell say said note noted regards day sadly regrettably alas afraid
hmm um uh oh ah feel free further additional assistance else
""".split())
_FILLER_OTHER = frozenset("""
je j ne n pas le la les l de des du d un une et est c ce cela ça que qui suis sais désolé
désolée merci oui non peut être mais pense crois il elle y a en au aux à bonne journée vous tu
me moi mon mes très bien
ich es das der die den dem ein eine nicht ist und aber weiß weiss leider ja nein vielleicht
glaube denke mir sie du wir danke bitte sicher auch
yo no sé se lo el los las del una es pero creo pienso quizás quizá tal vez sí siento gracias
estoy seguro segura mi usted eso esto
io non so il di è che penso credo forse mi dispiace grazie sono sicuro sicura
eu não nao sei o os as do da um é mas acho talvez sim desculpe obrigado obrigada tenho
certeza
ik weet het niet geen
""".split())
_COMMIT = frozenset("yes no yeah yep nope oui non ja nein sí si sim não nao".split())
_VAGUE_WORDS = frozenset("""
someone somebody something somewhere sometime sometimes various several many some thing things
stuff factors reasons ways aspects kind sort certain particular specific type types variety
""".split())
_WH = frozenset("what who whom whose when where which why how".split())
_YESNO_START = frozenset("""is are was were do does did can could will would should has have had
may might must am isn aren wasn weren don doesn didn""".split())


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    text = re.sub(r"[*_#>|\[\]\"“”«»]+", " ", text)
    return re.sub(r"[ \t]+", " ", text).strip()


def _segments(text: str) -> list[str]:
    """Clause-sized pieces: split at sentence ends, commas, dashes and "but"-like words."""
    return [s.strip(" '-") for s in _SEGMENT_SPLIT.split(_normalise(text)) if s and s.strip(" '-")]


def _has_content(segment: str, hedged: bool) -> bool:
    """A number, or a word that is not a stopword or a filler. "Yes"/"no" count only in an
    answer with no hedge; French, German, Spanish, Italian, Portuguese and Dutch function
    words are ignored only in an answer with a hedge (alone, "Au" or "Da" may be an answer)."""
    for w in _WORD.findall(segment):
        if any(ch.isdigit() for ch in w):
            return True
        if w in _COMMIT:
            if not hedged:
                return True
            continue
        if len(w) >= 2 and w not in _STOP and w not in _FILLER and not (hedged and w in _FILLER_OTHER):
            return True
    return False


def _classify(text: str) -> tuple[str, bool, list[str]]:
    """(hedge kind: "strong" / "vague" / "", has committed content, the hedges found)."""
    segments = _segments(text)
    strong = [s for s in segments if _STRONG.match(s)]
    vague = [s for s in segments if not _STRONG.match(s) and _VAGUE.match(s)]
    hedged = set(strong) | set(vague)
    content = any(_has_content(s, bool(hedged)) for s in segments if s not in hedged)
    kind = "strong" if strong else "vague" if vague else ""
    return kind, content, strong + vague


def _restates_question(answer: str, question: str) -> bool:
    """An answer to a wh-question that adds no content word of its own ("It is the capital.").

    Only for English wh-questions (yes/no questions are answered by restating them, and
    choice questions "X or Y?" by naming one of their own words).
    """
    q = _normalise(question)
    words = _WORD.findall(q)
    if not words or words[0] not in _WH or " or " in f" {q} ":
        return False
    asked = {w for w in words}
    for w in _WORD.findall(_normalise(answer)):
        if any(ch.isdigit() for ch in w):
            return False
        if len(w) < 2 or w in _STOP or w in _FILLER or w in _VAGUE_WORDS or w in _COMMIT:
            continue
        if w in asked or any(len(a) >= 4 and (w.startswith(a[:max(4, int(0.8 * len(a)))])
                                             and a.startswith(w[:max(4, int(0.8 * len(w)))]))
                             for a in asked):
            continue
        return False
    return True


def noncommittal(answers: Sequence[str],
                 questions: Sequence[str | None] | None = None) -> list[float]:
    """Probability that each answer is evasive, vague or a refusal (no spaCy; regex only).

    The answer is cut into clause-sized segments (sentence ends, commas, dashes, "but",
    "however" and their French/German/Spanish/Italian/Portuguese/Dutch equivalents). A
    segment is a *hedge* if it opens (after "sorry", "unfortunately", ...) with a refusal or
    ignorance pattern ("I don't know", "I cannot answer", "The context does not mention",
    "As an AI", "je ne sais pas", "ich weiß nicht", "no lo sé", "non lo so", "não sei") or a
    vague one ("It depends", "Hard to say", "There is no single answer"). A segment that is
    not a hedge *commits* if it has a content word (not a stopword, not a filler such as
    "sorry", "maybe", "hope this helps") or a number. Then:

    ==============================================  =====
    blank answer                                     1.0
    a refusal / ignorance hedge and nothing else     0.95
    a vague hedge ("It depends") and nothing else    0.85
    no hedge and no content ("Maybe.", "Sure!")      0.7
    wh-question answered with its own words only     0.6
    a hedge but also content ("not sure, but Paris") 0.15 / 0.1
    anything else                                    0.02
    ==============================================  =====

    "Yes"/"no" commit only when the answer has no hedge ("No, I don't know." is a refusal).
    The topic of a refusal in the same segment ("I don't know *when Einstein was born*")
    is not content. Precision first: patterns are anchored at the start of a segment, so a
    factual sentence merely mentioning "I don't know" in the middle is not a hedge. Limits:
    sarcasm, refusals phrased in other ways or other languages, and answers that commit to
    something irrelevant are not seen here (question coverage measures the latter).
    """
    qs = list(questions) if questions is not None else [None] * len(answers)
    out: list[float] = []
    for answer, question in zip(answers, qs):
        if not answer or not answer.strip() or not _WORD.search(answer):
            out.append(1.0)
            continue
        kind, content, _ = _classify(answer)
        if kind and not content:
            out.append(0.95 if kind == "strong" else 0.85)
        elif kind:
            out.append(0.15 if kind == "strong" else 0.1)
        elif not content:
            out.append(0.7)
        elif question and _restates_question(answer, question):
            out.append(0.6)
        else:
            out.append(0.02)
    return out


def piece_kind(text: str) -> str:
    """"hedge", "filler" or "claim" for one clause (``claims`` drops the first two)."""
    kind, content, _ = _classify(text)
    if kind and not content:
        return "hedge"
    if not kind and not content:
        return "filler"
    return "claim"


# =========================================================================================
# question parts
# =========================================================================================

_DATE_NOUNS = frozenset("year date day month century decade time era period age".split())
_NUMBER_NOUNS = frozenset("""number percentage percent amount population size height length
age price cost temperature distance speed weight area rate score count total sum depth width
value budget salary revenue""".split())
_PLACE_NOUNS = frozenset("""country city state continent place town region river mountain
island ocean sea lake location capital province county nation village street building
area""".split())
_PERSON_NOUNS = frozenset("""person man woman author writer scientist president king queen
emperor actor actress singer player inventor composer painter artist leader founder director
ceo poet philosopher explorer physicist chemist mathematician company organization
organisation team band group party university manufacturer owner creator""".split())
_HOW_NUMBER = frozenset("""many much old long far tall big large high deep wide often heavy fast
hot cold""".split())
_QUESTION_NOISE = frozenset("""name tell explain describe list give mention define please main
kind type example thing way know like""".split())
_PART_MAX = 8


@dataclass(frozen=True)
class QuestionPart:
    """One thing the question asks: its text (pronouns resolved), the answer type it expects
    ("date", "number", "person", "place" or ``None``), its key terms and its entities."""

    text: str
    expected: str | None
    terms: tuple[str, ...]
    entities: tuple[str, ...]
    numbers: tuple[str, ...]


def _is_wh(t: "Token") -> bool:
    """A question word ("that" is tagged WDT too, as a relative pronoun: not one)."""
    return t.lower_ in _WH


def _expected(toks: "Sequence[Token]") -> str | None:
    """Answer type cue of the first wh-word ("when" -> date, "how many" -> number...)."""
    for k, t in enumerate(toks):
        if not _is_wh(t):
            continue
        w = t.lower_
        nxt = list(toks[k + 1: k + 5])
        if w == "when":
            return "date"
        if w in ("who", "whom", "whose"):
            return "person"
        if w == "where":
            return "place"
        if w == "how":
            if nxt and nxt[0].lower_ in _HOW_NUMBER:
                return "number"
            return None
        if w in ("what", "which"):
            # "what year", "which baseball player", "what is the population of": the type
            # noun right after the wh-word, or after a copula and a determiner
            run: list[str] = []
            rest = list(toks[k + 1: k + 8])
            if rest and rest[0].lemma_.lower() == "be":
                rest = rest[1:]
            for x in rest:
                if x.pos_ == "NOUN":
                    run.append(x.lemma_.lower())
                elif run or not (x.pos_ in ("ADJ", "DET", "PROPN") or x.tag_ in ("POS", "PRP$")):
                    break
            if run:
                n = run[-1]
                if n in _DATE_NOUNS and n != "age":
                    return "date"
                if n in _NUMBER_NOUNS:
                    return "number"
                if n in _PLACE_NOUNS:
                    return "place"
                if n in _PERSON_NOUNS:
                    return "person"
            return None
        return None
    return None


def _split_wh(toks: "list[Token]") -> "list[list[Token]]":
    """Split at "and"/","/";"/"or" followed by a new wh-question or an auxiliary-led one."""
    parts: "list[list[Token]]" = []
    start = 0
    for i in range(1, len(toks) - 1):
        t, nxt = toks[i], toks[i + 1]
        if t.lower_ not in ("and", ",", ";", "or") and not (t.text == "," and nxt.lower_ == "and"):
            continue
        j = i + 1
        if nxt.lower_ == "and":
            j = i + 2
        if j >= len(toks):
            continue
        opener = toks[j]
        if opener.pos_ == "ADP" and j + 1 < len(toks) and _is_wh(toks[j + 1]):
            opener = toks[j + 1]  # "and in which year", "and for how long"
        new_q = _is_wh(opener) or (opener.lower_ in _YESNO_START and j + 1 < len(toks)
                                   and toks[j + 1].pos_ in ("PRON", "PROPN", "DET", "NOUN"))
        left = toks[start:i]
        if not new_q or len([x for x in left if not x.is_punct]) < 2:
            continue
        parts.append(left)
        start = j
    parts.append(toks[start:])
    parts = [p for p in parts if any(x.is_alpha for x in p)]
    for k in range(1, len(parts)):
        words = [x for x in parts[k] if not x.is_punct]
        prev = parts[k - 1]
        if words and not any(x.pos_ in ("VERB", "AUX") for x in words) and prev and _is_wh(prev[0]):
            # a fragment borrows the verb phrase of the part before it: "Who discovered
            # penicillin and when?" -> "when discovered penicillin"
            parts[k] = [*words, *prev[1:]]
    return parts


def _expand_list(toks: "list[Token]") -> "list[list[Token]]":
    """"What are the population, area and capital of France?" -> one part per item."""
    n = len(toks)
    for a in range(1, n - 1):
        if toks[a].lower_ != "and" or toks[a - 1].pos_ not in ("NOUN", "PROPN"):
            continue
        # the last item: a noun phrase after "and"
        e = a + 1
        while e < n and (toks[e].pos_ in ("DET", "ADJ", "NOUN", "PROPN") or toks[e].tag_ == "PRP$"):
            e += 1
        last = toks[a + 1:e]
        if not last or last[-1].pos_ not in ("NOUN", "PROPN") or len(last) > 4:
            continue
        items = [last]
        b = a  # walk back over "X, Y," items
        while True:
            s = b - 1
            while s >= 0 and (toks[s].pos_ in ("DET", "ADJ", "NOUN", "PROPN") or toks[s].tag_ == "PRP$") \
                    and b - s <= 4:
                s -= 1
            item = toks[s + 1:b]
            if not item or item[-1].pos_ not in ("NOUN", "PROPN"):
                break
            items.insert(0, item)
            if s >= 0 and toks[s].text == "," and s - 1 >= 0:
                b = s
                continue
            break
        if len(items) < 2:
            continue
        first = items[0][0].i
        before = [t for t in toks if t.i < first]
        after = [t for t in toks if t.i >= last[-1].i + 1]
        if before and before[-1].lower_ in ("between", "both", "among", "either"):
            continue
        ents = [e for e in toks[0].doc.ents if e.start < toks[a].i < e.end - 1 or
                (e.start <= toks[a - 1].i and toks[a + 1].i < e.end)]
        if ents:
            continue  # "Pride and Prejudice"
        if len(items) > 5:
            continue
        return [before + item + after for item in items]
    return [toks]


def _part_of(piece: "_claims._Piece", toks: "list[Token]") -> QuestionPart:
    text = _claims._render(piece) if piece.tokens else ""
    terms: list[str] = []
    numbers: list[str] = []
    replaced = set(piece.replace)
    for k, t in enumerate(toks):
        if k in replaced or t.is_punct or _is_wh(t):
            continue
        if t.like_num:
            v = _nlp.number_value(t.text)
            if v is not None:
                numbers.append(v)
            continue
        if t.is_stop or t.pos_ not in ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "X"):
            continue
        lemma = _nlp.normalise_text(t.lemma_ or t.text)
        if not lemma or lemma in ("be", "have", "do") or lemma in _QUESTION_NOISE:
            continue
        if lemma in _DATE_NOUNS or lemma in ("number", "percentage", "amount"):
            continue  # the answer type, not a term the answer must repeat ("what year")
        terms.extend(lemma.split())
    entities = [_nlp.normalise_entity(name) for name, label in piece.referents if label]
    for name, label in piece.referents:
        if not label:  # a common noun phrase: its words are key terms
            terms.extend(w for w in _nlp.normalise_text(name).split() if w not in _STOP)
    for first, last, label in _claims._entities_of(toks):
        if label not in _claims._NUMERIC_LABELS:
            entities.append(_nlp.normalise_entity(first.doc[first.i: last.i + 1].text))
    for e in entities:
        terms.extend(w for w in e.split() if w not in _STOP)
    return QuestionPart(
        text=text,
        expected=_expected(toks),
        terms=tuple(dict.fromkeys(w for w in terms if w)),
        entities=tuple(dict.fromkeys(e for e in entities if e)),
        numbers=tuple(dict.fromkeys(numbers)),
    )


def _question_parts(doc: "Doc") -> list[QuestionPart]:
    units: "list[list[Token]]" = []
    for sent in doc.sents:
        run: "list[Token]" = []
        for tok in sent:
            if tok.is_space:
                if "\n" in tok.text and run:
                    units.append(run)
                    run = []
                continue
            run.append(tok)
            if tok.text == "?":
                units.append(run)
                run = []
        if run:
            units.append(run)
    asked = [u for u in units if u and u[-1].text == "?"]
    earlier: list[list[_Antecedent]] = []  # per earlier part, what a pronoun may point to
    parts: list[QuestionPart] = []
    for unit in units:
        is_question = unit in asked or not asked
        toks = [t for t in unit if not (t.is_punct and t.text in "?.!")]
        if not any(t.is_alpha or t.like_num for t in toks):
            continue
        for wh_part in _split_wh(toks):
            for item in _expand_list(wh_part):
                item = _claims._strip(item)
                if not item:
                    continue
                piece = _claims._Piece(list(item), 0, question=True)
                _resolve_in_question(piece, earlier)
                if is_question:
                    parts.append(_part_of(piece, piece.tokens))
                earlier.append(_antecedents(piece.tokens))
    return parts[:_PART_MAX]


_GENDER = {"his": "m", "her": "f", "its": "n", "their": "p", "he": "m", "she": "f", "it": "n",
           "they": "p", "him": "m", "them": "p"}
_PLACES = frozenset({"GPE", "LOC", "FAC"})


@dataclass(frozen=True)
class _Antecedent:
    """Something a later part of the question may point back to."""

    text: str
    label: str  # spaCy label, or "" for a common noun phrase
    plural: bool
    head: bool  # not inside a prepositional phrase: what the part is about


def _antecedents(toks: "Sequence[Token]") -> list[_Antecedent]:
    """Named entities and head common-noun phrases of a question part, in order."""
    out: list[tuple[int, _Antecedent]] = []
    taken: set[int] = set()
    for first, last, label in _claims._entities_of(toks):
        if label in _claims._NUMERIC_LABELS:
            continue
        taken.update(range(first.i, last.i + 1))
        out.append((first.i, _Antecedent(_claims._mention_text(first, last, toks), label,
                                         last.tag_ == "NNPS", _claims._is_head_entity(first, toks))))
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.pos_ != "NOUN" or t.i in taken:
            k += 1
            continue
        end = k
        while end + 1 < len(toks) and toks[end + 1].pos_ == "NOUN" and toks[end + 1].i not in taken:
            end += 1
        start = k
        while start > 0 and toks[start - 1].pos_ in ("ADJ", "DET") and not _is_wh(toks[start - 1]) \
                and toks[start - 1].lower_ not in _HOW_NUMBER | {"few", "several", "more", "most"}:
            start -= 1
        before = toks[start - 1] if start > 0 else None
        words = [x.text for x in toks[start:end + 1]]
        if before is not None and _is_wh(before) and before.tag_ == "WDT":
            words = ["the", *words]  # "which planet" -> "the planet"
        head = before is None or before.pos_ != "ADP"
        out.append((toks[start].i, _Antecedent(" ".join(words), "", toks[end].tag_ == "NNS", head)))
        k = end + 1
    return [a for _, a in sorted(out, key=lambda x: x[0])]


def _pick(gender: str, earlier: list[list[_Antecedent]], possessive: bool) -> _Antecedent | None:
    """The antecedent of a pronoun in a later part (see ``_resolve_in_question``)."""
    def fits(a: _Antecedent) -> bool:
        if a.label == "":
            return gender in ("n", "p") and a.plural == (gender == "p")
        return _claims._compatible(gender, a.label, a.plural)

    if gender in ("m", "f"):
        for part in reversed(earlier):
            for a in reversed(part):
                if a.label == "PERSON":
                    return a
        return None
    if possessive:
        for part in reversed(earlier):
            for a in reversed(part):
                if a.label and fits(a):
                    return a
    for part in reversed(earlier):
        for a in part:
            if a.head and fits(a):
                return a
    return None


def _resolve_in_question(piece: "_claims._Piece", earlier: list[list[_Antecedent]]) -> None:
    """Pronouns of a question part point back to an earlier part.

    * he/she/his/her: the most recent PERSON;
    * it/they: what the part before is about, its first head noun phrase or name not inside
      a prepositional phrase ("What is the longest river in Africa and which countries does
      *it* flow through?" -> the river, not Africa; "What causes tides and how often do *they*
      occur?" -> tides);
    * its/their: the most recent compatible name first ("What language is spoken in Brazil
      and what is *its* currency?" -> Brazil's), else as it/they;
    * there: the most recent place ("... how many people live *there*" -> "in France").

    A part that names a compatible entity before the pronoun keeps it.
    """
    toks = piece.tokens
    for at, t in enumerate(toks):
        low = t.lower_
        possessive = low in ("his", "her", "its", "their") and t.tag_ == "PRP$"
        personal = low in _GENDER and t.tag_ == "PRP"
        there = low == "there" and t.tag_ == "RB"
        if not (possessive or personal or there):
            continue
        before = [(label, last.tag_ == "NNPS") for _, last, label in _claims._entities_of(toks[:at])]
        if there:
            ref = next((a for part in reversed(earlier) for a in reversed(part)
                        if a.label in _PLACES), None)
            if ref is None or any(label in _PLACES for label, _ in before):
                continue
            piece.replace[at] = "in " + ref.text
        else:
            gender = _GENDER[low]
            if any(_claims._compatible(gender, label, plural) for label, plural in before):
                continue
            ref = _pick(gender, earlier, possessive)
            if ref is None:
                continue
            text = ref.text
            if possessive:
                text += "'" if text.endswith("s") else "'s"
            piece.replace[at] = text
        if ref.label:
            piece.referents.append((ref.text, ref.label))
        else:
            piece.referents.append((ref.text, ""))


def question_parts(questions: Sequence[str]) -> list[list[QuestionPart]]:
    """The parts of each question (one spaCy pass for all, cached).

    Parts are: the questions of a text with several "?"; conjoined wh-clauses ("Where is
    France and what is its capital?" -> "Where is France?", "What is France's capital?");
    items of a noun list ("the population, area and capital of France" -> three parts). A
    text with no "?" is one or more imperative parts ("Name the capital of France."); a
    statement before a question ("I am going to Paris. What should I see?") only lends its
    entities to pronouns. At most 8 parts.
    """
    docs = _claims.parse([q or "" for q in questions])
    return [_question_parts(d) if q and q.strip() else [] for q, d in zip(questions, docs)]


# =========================================================================================
# question coverage
# =========================================================================================


@dataclass(frozen=True)
class PartCoverage:
    """How well the answer addresses one part of the question.

    ``covered`` in [0, 1]; ``evidence``: the answer clause that matches it best;
    ``similarity``: cosine between part and evidence; ``terms``: weighted share of the part's
    key terms found in the answer; ``expected``: the answer type the part asks for and
    ``type_found`` whether a matching clause has one (``None`` when no type is expected).
    """

    part: str
    covered: float
    evidence: str
    similarity: float
    terms: float
    expected: str | None
    type_found: bool | None


@dataclass(frozen=True)
class CoverageResult:
    """Answer relevancy without generation: ``score`` in [0, 1], its parts and the reason.

    ``noncommittal`` is the flag (probability >= 0.5; the score is then 0);
    ``noncommittal_probability`` the probability from ``noncommittal``; ``reason`` a
    sentence a person can read (which parts are addressed, by which clause).
    """

    score: float
    parts: tuple[PartCoverage, ...]
    noncommittal: bool
    noncommittal_probability: float

    @property
    def reason(self) -> str:
        if self.noncommittal:
            return "the answer is noncommittal (a refusal, an 'I don't know' or a hedge with no content)"
        if not self.parts:
            return "no question to cover"
        covered = [p for p in self.parts if p.covered >= 0.5]
        bits = []
        for p in self.parts:
            what = f'"{p.part}" {p.covered:.2f}'
            if p.covered >= 0.5:
                what += f' (by "{p.evidence}")'
            elif p.expected and not p.type_found:
                what += f" (no {p.expected} in the matching clause)"
            else:
                what += " (not addressed)"
            bits.append(what)
        return (f"the answer addresses {len(covered)} of {len(self.parts)} part(s) of the "
                f"question: " + "; ".join(bits))


# The weights of part coverage (see question_coverage): round numbers, checked (not
# fitted) on the hand-written triples of bench/local_answer_check.py. MiniLM gives an
# unrelated sentence a cosine of about 0.1-0.2 with a question and a sentence answering it
# 0.7-0.9, hence the rescaling range; a part whose expected type is missing keeps 35% of
# its topical match (it is on topic, but does not answer).
SIM_LOW, SIM_HIGH = 0.15, 0.85
W_SIM, W_TERMS = 0.6, 0.4
TYPE_FLOOR = 0.35


class _Lexicon:
    """Answer words for fuzzy term look-up (shared prefix of 4+ letters covering 80%)."""

    def __init__(self, words: set[str]) -> None:
        self.words = words
        self.by_prefix: dict[str, list[str]] = {}
        for w in words:
            if len(w) >= 4:
                self.by_prefix.setdefault(w[:4], []).append(w)

    def has(self, word: str) -> bool:
        if word in self.words:
            return True
        if len(word) < 4:
            return False
        for other in self.by_prefix.get(word[:4], ()):
            common = 0
            for a, b in zip(word, other):
                if a != b:
                    break
                common += 1
            if common >= 0.8 * min(len(word), len(other)):
                return True
        return False


def _answer_words(clauses: Sequence["_claims.Clause"]) -> set[str]:
    words: set[str] = set()
    for c in clauses:
        words.update(_nlp.normalise_text(c.text).split())
        words.update(c.content)
        words.update(c.proper_nouns)
    return words


_TYPE_LABELS = {
    "date": frozenset({"DATE", "TIME"}),
    "number": frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"}),
    "person": frozenset({"PERSON", "ORG", "NORP"}),
    "place": frozenset({"GPE", "LOC", "FAC"}),
}
_PLACE_WORDS = frozenset("""north south east west northern southern eastern western central
northeast northwest southeast southwest coast border continent near""".split())


def _has_type(clause: "_claims.Clause", part: QuestionPart) -> bool:
    """The clause states a value of the type the part asks for, not one the part names."""
    expected = part.expected
    assert expected is not None
    asked = set(part.entities)
    if expected == "date":
        return bool(clause.dates) or any(l in _TYPE_LABELS["date"] for _, l in clause.entities)
    if expected == "number":
        if any(n not in part.numbers for n in clause.numbers):
            return True
        return any(l in _TYPE_LABELS["number"] for _, l in clause.entities) or bool(clause.dates)
    for text, label in clause.entities:
        if label in _TYPE_LABELS[expected] and _nlp.normalise_entity(text) not in asked:
            return True
    asked_words = {w for e in asked for w in e.split()} | set(part.terms)
    if expected == "place":
        if any(p not in asked_words for p in clause.places):
            return True
        words = set(_nlp.normalise_text(clause.text).split())
        return bool(words & _PLACE_WORDS)
    return any(p not in asked_words for p in clause.proper_nouns)


def _rescale(sim: float) -> float:
    return min(1.0, max(0.0, (sim - SIM_LOW) / (SIM_HIGH - SIM_LOW)))


def _distinct_terms(parts: Sequence[QuestionPart]) -> list[tuple[str, ...]]:
    """Each part's own terms: those not shared by every part of the question.

    "Where do penguins live and what do they eat?": the second part's own term is "eat";
    "penguins" is the topic of both and says nothing about which part an answer covers.
    A part with no term of its own keeps all of them."""
    if len(parts) < 2:
        return [p.terms for p in parts]

    def stem(w: str) -> str:  # "penguins" (a pronoun's referent) and "penguin" (a lemma)
        return w[:-1] if len(w) > 3 and w.endswith("s") else w

    common = {stem(w) for w in parts[0].terms}
    for p in parts[1:]:
        common &= {stem(w) for w in p.terms}
    return [tuple(w for w in p.terms if stem(w) not in common) or p.terms for p in parts]


def _term_share(terms: Sequence[str], lexicon: _Lexicon) -> float:
    if not terms:
        return 1.0
    weights = [_nlp.word_weight(w) for w in terms]
    found = sum(wt for w, wt in zip(terms, weights) if lexicon.has(w))
    return found / sum(weights)


def question_coverage(questions: Sequence[str], answers: Sequence[str],
                      encoder: Encoder) -> list[CoverageResult]:
    """How much of each question its answer addresses, part by part (no generation).

    Why not one cosine between question and answer: a complete answer carries more content
    than an incomplete one and so drifts further from the question's embedding (measured:
    plain cosine ranks the incomplete answer first more often than not). Here each part of
    the question (``question_parts``) is matched on its own against the answer's clauses
    (``claims.clauses_of``, pronouns resolved), so extra content costs nothing:

        sim    = max over answer clauses of cos(part, clause), rescaled from
                 [SIM_LOW, SIM_HIGH] to [0, 1]
        terms  = rarity-weighted share of the part's own key terms (content lemmas and
                 entity words, pronoun referents included; minus the terms every part
                 shares, the question's topic) found anywhere in the answer
        topic  = W_SIM * sim + W_TERMS * terms
        type   = 1 if no answer type is expected, else whether one of the two best-matching
                 clauses has one ("when" -> a date, "how many" -> a number, "who" -> a
                 person or organisation, "where" -> a place), other than what the part names
        part coverage = topic * (TYPE_FLOOR + (1 - TYPE_FLOOR) * type)

    An elliptical answer of the expected type ("1879." to "When was Einstein born?", a
    verbless clause of at most 8 words) counts its terms as found: it answers the part
    without repeating it, so it scores about 0.5 ("Einstein was born in 1879." about 0.9,
    the topical non-answer "Einstein was born in Germany." about 0.3).
        score  = mean part coverage * (1 - p_noncommittal), and 0 if p_noncommittal >= 0.5

    ``encoder.encode`` is called once for the whole batch (unit rows expected). Limits: a
    clause that talks about the part's topic with a value of the expected type counts as an
    answer even if it answers something else ("born in Ulm" for "where did he die"); a
    question with no wh-word has no type cue; sim is MiniLM's and English-centred.
    """
    if len(questions) != len(answers):
        raise ValueError(f"{len(questions)} questions but {len(answers)} answers")
    probs = noncommittal(answers, questions)
    all_parts = question_parts(questions)
    all_clauses = _claims.clauses_of(answers, questions)
    units = [[c for c in cl if c.kind != "filler"] or list(cl) for cl in all_clauses]
    texts = list(dict.fromkeys([p.text for ps in all_parts for p in ps]
                               + [c.text for us in units for c in us]))
    vectors = encoder.encode(texts) if texts else np.zeros((0, 1), dtype=np.float32)
    row = {t: i for i, t in enumerate(texts)}
    out: list[CoverageResult] = []
    for parts, clauses, p_nc in zip(all_parts, units, probs):
        flag = p_nc >= 0.5
        if not parts or not clauses:
            out.append(CoverageResult(0.0, tuple(
                PartCoverage(p.text, 0.0, "", 0.0, 0.0, p.expected, False if p.expected else None)
                for p in parts), flag, float(p_nc)))
            continue
        lexicon = _Lexicon(_answer_words(clauses))
        cvecs = np.stack([vectors[row[c.text]] for c in clauses])
        results: list[PartCoverage] = []
        for part, own_terms in zip(parts, _distinct_terms(parts)):
            sims = cvecs @ vectors[row[part.text]]
            order = np.argsort(-sims, kind="stable")
            best = int(order[0])
            sim = float(sims[best])
            terms = _term_share(own_terms, lexicon)
            type_found: bool | None = None
            if part.expected:
                typed = [int(j) for j in order[:2] if _has_type(clauses[int(j)], part)]
                type_found = bool(typed)
                if typed and clauses[typed[0]].verbless and len(clauses[typed[0]].text.split()) <= 8:
                    # an elliptical answer ("1879.", "Paris.") leaves the question's words
                    # implied: it cannot repeat them, and its embedding is far from any question
                    terms = 1.0
                    best = typed[0]
                    sim = float(sims[best])
            topic = W_SIM * _rescale(sim) + W_TERMS * terms
            if part.expected:
                topic *= TYPE_FLOOR + (1.0 - TYPE_FLOOR) * float(type_found)
            results.append(PartCoverage(part.text, round(float(topic), 4), clauses[best].text,
                                        round(sim, 4), round(terms, 4), part.expected,
                                        type_found))
        mean = sum(r.covered for r in results) / len(results)
        score = 0.0 if flag else mean * (1.0 - p_nc)
        out.append(CoverageResult(round(min(1.0, max(0.0, score)), 4), tuple(results), flag,
                                  float(p_nc)))
    return out


# =========================================================================================
# critiques: conciseness and coherence
# =========================================================================================

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
            if _WORD.search(line):
                out.append(line.strip())
    return out


def _key(sentence: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(_normalise(sentence)))


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
    docs = _claims.parse(list(answers))
    parts = question_parts([q or "" for q in qs])
    out: list[tuple[bool, float, str]] = []
    for answer, question, doc, qparts in zip(answers, qs, docs, parts):
        words = _WORD.findall(_normalise(answer))
        if not words:
            out.append((False, 0.6, "the answer is empty"))
            continue
        n_parts = max(1, len(qparts))
        budget = WORDS_PER_PART_EXPLAIN if question and _EXPLAIN.match(question) else WORDS_PER_PART
        per_part = len(words) / n_parts
        sentences = _sentences_of(doc)
        dups = _near_duplicates(sentences)
        ngram = _repeated_ngrams(words)
        fillers = _FILLER_RE.findall(_normalise(answer))
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
    words = _WORD.findall(text)
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


def _contradictions(clauses: Sequence["_claims.Clause"]) -> list[str]:
    """Pairs of claims that say the same thing about the same entities but with different
    numbers or dates, or one negated and one not."""
    found: list[str] = []
    claims = [c for c in clauses if c.kind == "claim" and len(set(c.content)) >= 2]
    for i, a in enumerate(claims):
        for b in claims[i + 1:]:
            ea = {_nlp.normalise_entity(t) for t, l in a.entities if l not in _claims._NUMERIC_LABELS}
            eb = {_nlp.normalise_entity(t) for t, l in b.entities if l not in _claims._NUMERIC_LABELS}
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
    docs = _claims.parse(list(answers))
    all_clauses = _claims.clauses_of(list(answers), None, docs=docs)
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
                    shared = {w for w in _key(a) if w not in _STOP} & {w for w in _key(b) if w not in _STOP}
                    if cos < TOPIC_JUMP and not shared:
                        jumps[k] = f'a topic jump between "{a}" and "{b}" (cosine {cos:.2f})'
                        break
    out: list[tuple[bool, float, str]] = []
    for answer, clauses, sentences, jump in zip(answers, all_clauses, sentence_lists, jumps):
        words = _WORD.findall(_normalise(answer))
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
