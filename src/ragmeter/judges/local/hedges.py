"""Hedges and noncommittal answers, by patterns: refusals, "I don't know", "it depends".

* ``noncommittal``: probability that an answer is a refusal, an "I don't know" or a hedge
  with no content (English, French, German, Spanish, Italian, Portuguese, Dutch);
* ``piece_kind``: whether one clause is a claim, a hedge or a filler (``claims`` keeps only
  the claims).

Regular expressions only, no model: it runs on every answer and every clause, and a refusal
is said in a small number of set ways.
"""

from __future__ import annotations

import re
from typing import Sequence

from ragmeter.judges.local.families import enabled
from ragmeter.text.normalise import normalise_prose
from ragmeter.text.words import STOPWORDS, WH_WORDS, WORD

__all__ = ["noncommittal", "piece_kind"]

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
    r"(?:the )?(?:choice|decision|answer|best option) is (?:really |entirely |totally |all |ultimately )?"
    r"(?:up to you|yours|a personal one|personal)",
    r"(?:everyone|everybody|each person) (?:is different|has (?:their|his or her) own)",
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
_GENERIC = frozenset("""
everyone everybody each every different differently differ difference differences own many
various several strength strengths weakness weaknesses pros cons preference preferences
factor factors situation situations circumstance circumstances individual individually
person people case cases choice choices option options way ways thing things lot lots
""".split())
"""Words that fill an evasive answer without committing to anything ("everyone is different,
each option has its strengths and weaknesses"): not content in an answer that also hedges."""
_VAGUE_WORDS = frozenset("""
someone somebody something somewhere sometime sometimes various several many some thing things
stuff factors reasons ways aspects kind sort certain particular specific type types variety
""".split())

def _segments(text: str) -> list[str]:
    """Clause-sized pieces: split at sentence ends, commas, dashes and "but"-like words."""
    return [s.strip(" '-") for s in _SEGMENT_SPLIT.split(normalise_prose(text)) if s and s.strip(" '-")]


def _has_content(segment: str, hedged: bool, asked: frozenset[str] = frozenset()) -> bool:
    """A number, or a word that is not a stopword or a filler. "Yes"/"no" count only in an
    answer with no hedge; French, German, Spanish, Italian, Portuguese and Dutch function
    words are ignored only in an answer with a hedge (alone, "Au" or "Da" may be an answer).
    In an answer with a hedge, generic words (``_GENERIC``) and the question's own words
    (``asked``, matched on their first 5 letters) do not commit either: "Everyone learns
    differently, it is hard to say" says nothing the question did not."""
    for w in WORD.findall(segment):
        if hedged and (w in _GENERIC or w[:5] in asked):
            continue
        if any(ch.isdigit() for ch in w):
            return True
        if w in _COMMIT:
            if not hedged:
                return True
            continue
        if len(w) >= 2 and w not in STOPWORDS and w not in _FILLER and not (hedged and w in _FILLER_OTHER):
            return True
    return False


def _classify(text: str, question: str | None = None) -> tuple[str, bool, list[str]]:
    """(hedge kind: "strong" / "vague" / "", has committed content, the hedges found)."""
    segments = _segments(text)
    strong = [s for s in segments if _STRONG.match(s)]
    vague = [s for s in segments if not _STRONG.match(s) and _VAGUE.match(s)]
    hedged = set(strong) | set(vague)
    asked = frozenset(w[:5] for w in WORD.findall(normalise_prose(question or "")) if len(w) >= 3)
    content = any(_has_content(s, bool(hedged), asked) for s in segments if s not in hedged)
    kind = "strong" if strong else "vague" if vague else ""
    return kind, content, strong + vague


def _restates_question(answer: str, question: str) -> bool:
    """An answer to a wh-question that adds no content word of its own ("It is the capital.").

    Only for English wh-questions (yes/no questions are answered by restating them, and
    choice questions "X or Y?" by naming one of their own words).
    """
    q = normalise_prose(question)
    words = WORD.findall(q)
    if not words or words[0] not in WH_WORDS or " or " in f" {q} ":
        return False
    asked = {w for w in words}
    for w in WORD.findall(normalise_prose(answer)):
        if any(ch.isdigit() for ch in w):
            return False
        if len(w) < 2 or w in STOPWORDS or w in _FILLER or w in _VAGUE_WORDS or w in _COMMIT:
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
    if not enabled("noncommittal"):  # a blank answer still commits to nothing
        return [0.0 if answer and WORD.search(answer) else 1.0 for answer in answers]
    qs = list(questions) if questions is not None else [None] * len(answers)
    out: list[float] = []
    for answer, question in zip(answers, qs):
        if not answer or not answer.strip() or not WORD.search(answer):
            out.append(1.0)
            continue
        kind, content, _ = _classify(answer, question)
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
    if not enabled("hedges"):
        return "claim"
    kind, content, _ = _classify(text)
    if kind and not content:
        return "hedge"
    if not kind and not content:
        return "filler"
    return "claim"

