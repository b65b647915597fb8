"""The shared dataset of the ragmeter-vs-Ragas benchmark (``bench_vs_ragas.py``).

    python bench/compare_samples.py out/samples.jsonl [--samples N]

Hand-written, encyclopedia-like samples, one distinct subject each, so that both tools
judge the same realistic texts. The mix (``kind``) exercises every branch of the metrics:

* ``faithful``: every answer sentence is backed by the contexts;
* ``wrong_fact``: one answer sentence carries a name or number the contexts do not have;
* ``distractor``: one retrieved chunk is about a neighbouring subject (context precision);
* ``incomplete``: the answer leaves out part of the ground truth (answer correctness);
* ``partial_recall``: the ground truth holds a fact the contexts lack (context recall).

Rules checked by ``samples()`` so the benchmark can attribute every recorded LLM request
to exactly one sample by finding one of its sentences in the request: ASCII only, no
double quotes or backslashes (a sentence reads the same raw and JSON-escaped), and no
sentence of one sample appears in another sample.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

_SAMPLES: list[dict[str, Any]] = [
    {
        "id": "lisbon",
        "kind": "faithful",
        "question": "What is Lisbon known for?",
        "answer": "Lisbon is the capital of Portugal and lies on the Tagus estuary. A great earthquake destroyed much of the city in 1755.",
        "contexts": [
            "Lisbon is the capital and largest city of Portugal. It lies on the northern bank of the Tagus estuary, close to the Atlantic Ocean. The city is one of the oldest in Western Europe.",
            "A great earthquake struck Lisbon on 1 November 1755. The earthquake and the fires and tsunami that followed destroyed much of the city centre. The Marquis of Pombal led the rebuilding of the lower town after the disaster.",
        ],
        "ground_truth": "Lisbon is the capital of Portugal and lies on the Tagus estuary. The city was rebuilt after the earthquake of 1755.",
    },
    {
        "id": "kyoto",
        "kind": "faithful",
        "question": "How long was Kyoto the capital of Japan?",
        "answer": "Kyoto was the imperial capital of Japan from 794 until 1869. The Emperor Meiji moved the capital to Tokyo.",
        "contexts": [
            "Kyoto served as the imperial capital of Japan from 794 until 1869, when the Emperor Meiji moved the capital to Tokyo. For more than a thousand years the city was the seat of the imperial court.",
            "Kyoto holds about 1,600 Buddhist temples and 400 Shinto shrines. Seventeen of its historic sites form a UNESCO World Heritage Site. The Kamo River runs through the city from north to south.",
        ],
        "ground_truth": "Kyoto was the imperial capital of Japan from 794 to 1869, when the capital moved to Tokyo.",
    },
    {
        "id": "valparaiso",
        "kind": "distractor",
        "question": "Why is Valparaiso famous among Chilean port cities?",
        "answer": "Valparaiso is a port city in Chile known for its steep hills and funiculars. Its historic quarter is a UNESCO World Heritage Site.",
        "contexts": [
            "Santiago is the capital and largest city of Chile, set in a valley beneath the Andes. The Mapocho River crosses the city from east to west. Most of the government offices of the country are located there.",
            "Valparaiso is a major port city on the Pacific coast of Chile, known for its steep hills. Many of the hills are served by old funiculars called ascensores.",
            "The historic quarter of Valparaiso was declared a UNESCO World Heritage Site in 2003. Its colourful houses attract painters and poets, among them Pablo Neruda.",
        ],
        "ground_truth": "Valparaiso is a port in Chile known for its steep hills and funiculars. Its historic quarter was declared a UNESCO World Heritage Site in 2003.",
    },
    {
        "id": "tallinn",
        "kind": "wrong_fact",
        "question": "When was the Old Town of Tallinn listed by UNESCO?",
        "answer": "Tallinn is the capital of Estonia. Its medieval Old Town was listed as a UNESCO World Heritage Site in 1999.",
        "contexts": [
            "Tallinn is the capital and most populous city of Estonia, on the southern shore of the Gulf of Finland. It was a member of the Hanseatic League in the Middle Ages.",
            "The Old Town of Tallinn is one of the best preserved medieval city centres in Northern Europe. It was listed as a UNESCO World Heritage Site in 1997. Its town walls still keep many of their towers.",
        ],
        "ground_truth": "The medieval Old Town of Tallinn, the capital of Estonia, was listed as a UNESCO World Heritage Site in 1997.",
    },
    {
        "id": "curie",
        "kind": "faithful",
        "question": "Which Nobel Prizes did Marie Curie win?",
        "answer": "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911. She was the first person to win two Nobel Prizes.",
        "contexts": [
            "Marie Curie was a Polish and naturalised French physicist and chemist who studied radioactivity. She shared the Nobel Prize in Physics in 1903 with Pierre Curie and Henri Becquerel.",
            "In 1911 Marie Curie won the Nobel Prize in Chemistry for the discovery of polonium and radium. She was the first woman to win a Nobel Prize and the first person to win two Nobel Prizes.",
        ],
        "ground_truth": "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.",
    },
    {
        "id": "franklin",
        "kind": "faithful",
        "question": "What did Rosalind Franklin contribute to the study of DNA?",
        "answer": "Rosalind Franklin made X-ray diffraction images of DNA. Her Photo 51 showed the helical structure of the molecule.",
        "contexts": [
            "Rosalind Franklin was an English chemist and X-ray crystallographer. In London she made X-ray diffraction images of DNA fibres in 1952.",
            "One of her images, known as Photo 51, showed the helical structure of the DNA molecule. Watson and Crick used this evidence in their 1953 model of the double helix.",
            "Franklin later led pioneering work on the structure of viruses, including the tobacco mosaic virus. She died of ovarian cancer in 1958 at the age of 37.",
        ],
        "ground_truth": "Rosalind Franklin made X-ray diffraction images of DNA, and her Photo 51 showed its helical structure.",
    },
    {
        "id": "wegener",
        "kind": "wrong_fact",
        "question": "What theory is Alfred Wegener remembered for?",
        "answer": "Alfred Wegener proposed the theory of continental drift in 1921. He died on an expedition to Greenland in 1930.",
        "contexts": [
            "Alfred Wegener was a German geophysicist and meteorologist. In 1912 he proposed the theory of continental drift, the idea that the continents slowly move across the surface of the Earth.",
            "Wegener took part in several expeditions to Greenland to study polar air circulation. He died on an expedition to Greenland in November 1930.",
        ],
        "ground_truth": "Alfred Wegener proposed the theory of continental drift in 1912.",
    },
    {
        "id": "mendeleev",
        "kind": "incomplete",
        "question": "What did Dmitri Mendeleev achieve with the periodic table?",
        "answer": "Dmitri Mendeleev published a periodic table of the elements in 1869.",
        "contexts": [
            "Dmitri Mendeleev was a Russian chemist who published a periodic table of the elements in 1869. He arranged the elements by atomic weight and grouped those with similar properties.",
            "Mendeleev left gaps in his table and predicted the properties of elements not yet discovered. Gallium and germanium were later found with properties close to his predictions.",
        ],
        "ground_truth": "Dmitri Mendeleev published a periodic table of the elements in 1869. He predicted the properties of undiscovered elements such as gallium and germanium.",
    },
    {
        "id": "danube",
        "kind": "faithful",
        "question": "How long is the Danube and where does it end?",
        "answer": "The Danube is about 2,850 kilometres long. It flows into the Black Sea.",
        "contexts": [
            "The Danube is the second longest river in Europe after the Volga. It rises in the Black Forest of Germany and is about 2,850 kilometres long.",
            "The river flows through or along the borders of ten countries, more than any other river in the world. It ends in a wide delta on the coast of Romania and flows into the Black Sea.",
        ],
        "ground_truth": "The Danube is about 2,850 kilometres long and flows into the Black Sea.",
    },
    {
        "id": "mekong",
        "kind": "distractor",
        "question": "Which countries does the Mekong River flow through?",
        "answer": "The Mekong rises on the Tibetan Plateau. It flows through China, Myanmar, Laos, Thailand, Cambodia and Vietnam.",
        "contexts": [
            "The Mekong rises on the Tibetan Plateau and is the longest river in Southeast Asia. It flows through China, Myanmar, Laos, Thailand, Cambodia and Vietnam before reaching the South China Sea.",
            "The Irrawaddy is the largest river of Myanmar and its most important commercial waterway. It flows from north to south through Mandalay and ends in a delta near Yangon.",
            "The Mekong basin supports one of the largest inland fisheries in the world. Tens of millions of people depend on its fish for food.",
        ],
        "ground_truth": "The Mekong flows through China, Myanmar, Laos, Thailand, Cambodia and Vietnam.",
    },
    {
        "id": "orinoco",
        "kind": "wrong_fact",
        "question": "Where does the Orinoco River reach the sea?",
        "answer": "Most of the course of the Orinoco lies in Venezuela. It empties into the Caribbean Sea through a wide delta.",
        "contexts": [
            "The Orinoco is one of the longest rivers of South America, flowing for about 2,140 kilometres. Most of its course lies in Venezuela, and part of it forms the border with Colombia.",
            "The Orinoco empties into the Atlantic Ocean through a wide delta of many channels. The delta is home to the Warao people, who travel its channels by canoe.",
        ],
        "ground_truth": "Most of the course of the Orinoco lies in Venezuela, and the river empties into the Atlantic Ocean through a wide delta.",
    },
    {
        "id": "gutenberg",
        "kind": "faithful",
        "question": "When and where did Johannes Gutenberg introduce his printing press?",
        "answer": "Johannes Gutenberg introduced printing with movable metal type in Mainz around 1440. The Gutenberg Bible was completed around 1455.",
        "contexts": [
            "Johannes Gutenberg was a goldsmith from Mainz who introduced printing with movable metal type to Europe around 1440. His press adapted the design of the screw presses used for wine and oil.",
            "The Gutenberg Bible, completed around 1455, was the first major book printed with movable type in Europe. About 49 copies survive today.",
        ],
        "ground_truth": "Johannes Gutenberg introduced printing with movable metal type in Mainz around 1440.",
    },
    {
        "id": "stethoscope",
        "kind": "faithful",
        "question": "Who invented the stethoscope and when?",
        "answer": "The stethoscope was invented by Rene Laennec in 1816. His first model was a wooden tube.",
        "contexts": [
            "The stethoscope was invented in 1816 by the French physician Rene Laennec at the Necker Hospital in Paris. He wanted to listen to the chest of a patient without placing his ear on it.",
            "His first model was a wooden tube about 25 centimetres long. The flexible stethoscope with two earpieces appeared in the 1850s.",
        ],
        "ground_truth": "The French physician Rene Laennec invented the stethoscope in 1816 in Paris.",
    },
    {
        "id": "draisine",
        "kind": "distractor",
        "question": "What was the first two-wheeled running machine?",
        "answer": "Karl Drais built the first two-wheeled running machine in Mannheim in 1817. The rider pushed it along with the feet.",
        "contexts": [
            "In 1817 Karl Drais built the first two-wheeled running machine in Mannheim, later called the draisine. The rider sat between the two wheels and pushed it along with the feet on the ground.",
            "Karl Benz built his three-wheeled Motorwagen in 1885 and patented it in 1886. It is widely regarded as the first practical automobile powered by a petrol engine.",
        ],
        "ground_truth": "Karl Drais built the first two-wheeled running machine, the draisine, in Mannheim in 1817.",
    },
    {
        "id": "kilimanjaro",
        "kind": "partial_recall",
        "question": "How high is Mount Kilimanjaro?",
        "answer": "Mount Kilimanjaro rises 5,895 metres above sea level in Tanzania. It is the highest mountain in Africa.",
        "contexts": [
            "Mount Kilimanjaro is a dormant volcano in Tanzania and the highest mountain in Africa. It rises 5,895 metres above sea level.",
            "The mountain has three volcanic cones, Kibo, Mawenzi and Shira. Its glaciers have shrunk sharply during the last century.",
        ],
        "ground_truth": "Mount Kilimanjaro in Tanzania is 5,895 metres high. Hans Meyer and Ludwig Purtscheller first reached its summit in 1889.",
    },
    {
        "id": "baikal",
        "kind": "wrong_fact",
        "question": "How deep is Lake Baikal?",
        "answer": "Lake Baikal in Siberia is the deepest lake in the world, reaching 1,242 metres. It holds about a fifth of the unfrozen fresh water on Earth.",
        "contexts": [
            "Lake Baikal is a rift lake in southern Siberia, Russia. It is the deepest lake in the world, reaching 1,642 metres at its deepest point.",
            "Baikal holds about a fifth of the unfrozen fresh water on Earth. It is home to the Baikal seal, one of the few seals that live only in fresh water.",
        ],
        "ground_truth": "Lake Baikal is the deepest lake in the world, reaching 1,642 metres at its deepest point.",
    },
    {
        "id": "hagia_sophia",
        "kind": "faithful",
        "question": "What is the history of the Hagia Sophia?",
        "answer": "The Hagia Sophia was completed in 537 under the emperor Justinian. It became a mosque after the Ottoman conquest of 1453.",
        "contexts": [
            "The Hagia Sophia in Istanbul was completed in 537 under the Byzantine emperor Justinian. For almost a thousand years it was the largest cathedral in the world.",
            "After the Ottoman conquest of Constantinople in 1453 the Hagia Sophia became a mosque. It was turned into a museum in 1934 and became a mosque again in 2020.",
        ],
        "ground_truth": "The Hagia Sophia was completed in 537 under Justinian and became a mosque after the Ottoman conquest in 1453.",
    },
    {
        "id": "axolotl",
        "kind": "incomplete",
        "question": "What is special about the axolotl?",
        "answer": "The axolotl is a salamander that keeps its larval features as an adult.",
        "contexts": [
            "The axolotl is a salamander native to Lake Xochimilco near Mexico City. Unlike most amphibians, it keeps its larval features, such as external gills, as an adult.",
            "Axolotls can regenerate lost limbs, parts of the heart and even parts of the brain. This ability makes them a common subject of medical research.",
        ],
        "ground_truth": "The axolotl is a salamander from Lake Xochimilco that keeps its larval features as an adult. It can regenerate lost limbs and parts of its heart and brain.",
    },
    {
        "id": "theremin",
        "kind": "faithful",
        "question": "How is the theremin played?",
        "answer": "The theremin is played without physical contact. The player moves the hands near two antennas that control pitch and volume.",
        "contexts": [
            "The theremin is an electronic musical instrument invented by Leon Theremin in 1920. It is played without physical contact between the player and the instrument.",
            "The player moves the hands near two antennas. One antenna controls the pitch and the other controls the volume.",
            "The eerie sound of the theremin was popular in science fiction films of the 1950s. Clara Rockmore was its best known concert performer.",
        ],
        "ground_truth": "The theremin, invented by Leon Theremin in 1920, is played without physical contact, as the hands move near two antennas that control pitch and volume.",
    },
    {
        "id": "atacama",
        "kind": "distractor",
        "question": "Why is the Atacama Desert so dry?",
        "answer": "The Atacama Desert is a plateau in northern Chile. It is dry because the Andes and a cold ocean current block moisture.",
        "contexts": [
            "The Sahara is the largest hot desert in the world, covering much of North Africa. Its dunes can reach heights of 180 metres.",
            "The Atacama Desert is a plateau in northern Chile, between the Pacific Ocean and the Andes. Some of its weather stations have never recorded rain.",
            "The Atacama is dry because the Andes block moisture from the east, while the cold Humboldt ocean current blocks moisture from the Pacific. Parts of the desert receive less than one millimetre of rain a year.",
        ],
        "ground_truth": "The Atacama Desert in northern Chile is dry because the Andes and the cold Humboldt ocean current block moisture.",
    },
    {
        "id": "madagascar",
        "kind": "faithful",
        "question": "Why does Madagascar have so many unique species?",
        "answer": "Madagascar split from India about 88 million years ago. Its plants and animals evolved in isolation, and most of its lemurs live nowhere else.",
        "contexts": [
            "Madagascar is the fourth largest island in the world, in the Indian Ocean off the coast of East Africa. It split from India about 88 million years ago.",
            "Because of this long isolation, its plants and animals evolved in isolation from the rest of the world. Most of its lemurs and chameleons live nowhere else.",
        ],
        "ground_truth": "Madagascar split from India about 88 million years ago, so its plants and animals evolved in isolation.",
    },
    {
        "id": "golden_gate",
        "kind": "wrong_fact",
        "question": "When did the Golden Gate Bridge open?",
        "answer": "The Golden Gate Bridge spans the strait between San Francisco Bay and the Pacific Ocean. It opened to traffic in 1939.",
        "contexts": [
            "The Golden Gate Bridge is a suspension bridge that spans the strait between San Francisco Bay and the Pacific Ocean. Construction began in January 1933.",
            "The bridge opened to traffic in May 1937. Its main span of 1,280 metres was the longest in the world until 1964.",
        ],
        "ground_truth": "The Golden Gate Bridge opened to traffic in 1937.",
    },
    {
        "id": "hildegard",
        "kind": "faithful",
        "question": "Who was Hildegard of Bingen?",
        "answer": "Hildegard of Bingen was a Benedictine abbess of the twelfth century. She composed music and wrote about her visions.",
        "contexts": [
            "Hildegard of Bingen was a Benedictine abbess in Germany in the twelfth century. She founded the monastery of Rupertsberg near Bingen around 1150.",
            "She composed music for the liturgy and wrote about her visions in works such as Scivias. More of her chants survive than those of any other medieval composer.",
        ],
        "ground_truth": "Hildegard of Bingen was a twelfth century Benedictine abbess who composed music and wrote about her visions.",
    },
    {
        "id": "voyager",
        "kind": "faithful",
        "question": "When did Voyager 1 reach interstellar space?",
        "answer": "Voyager 1 was launched by NASA in 1977. It reached interstellar space in 2012.",
        "contexts": [
            "Voyager 1 is a space probe launched by NASA in September 1977. It flew past Jupiter in 1979 and Saturn in 1980.",
            "In August 2012 Voyager 1 crossed the heliopause and reached interstellar space. It was the first human-made object to do so.",
        ],
        "ground_truth": "Voyager 1, launched by NASA in 1977, reached interstellar space in 2012.",
    },
    {
        "id": "fleming",
        "kind": "incomplete",
        "question": "How did Alexander Fleming discover penicillin?",
        "answer": "Alexander Fleming discovered penicillin in 1928.",
        "contexts": [
            "In 1928 Alexander Fleming discovered penicillin in his London laboratory. He noticed that a mould had killed the bacteria around it on a culture plate and named the active substance penicillin.",
            "Howard Florey and Ernst Chain turned penicillin into a usable drug during the Second World War. Fleming, Florey and Chain shared the Nobel Prize in Medicine in 1945.",
        ],
        "ground_truth": "Alexander Fleming discovered penicillin in 1928 when a mould killed the bacteria on a culture plate. He shared the Nobel Prize in Medicine in 1945.",
    },
    {
        "id": "antikythera",
        "kind": "partial_recall",
        "question": "What was the Antikythera mechanism used for?",
        "answer": "The Antikythera mechanism is an ancient Greek device of bronze gears. It predicted the positions of the Sun and Moon and the dates of eclipses.",
        "contexts": [
            "The Antikythera mechanism is an ancient Greek device of bronze gears found in a shipwreck off the island of Antikythera. Divers recovered it in 1901.",
            "It predicted the positions of the Sun and Moon and the dates of eclipses decades in advance. It is often called the first analogue computer.",
        ],
        "ground_truth": "The Antikythera mechanism predicted eclipses and the positions of the Sun and Moon. It was built around 100 BC.",
    },
]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
MIN_SIGNATURE_CHARS = 20


def sentences(text: str) -> list[str]:
    """Sentences of a text (the same split the scripted judge uses for claims)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def signatures(sample: dict[str, Any]) -> list[str]:
    """The sample's own sentences: a request holding any of them belongs to this sample."""
    texts = [sample["question"], sample["answer"], sample["ground_truth"], *sample["contexts"]]
    found = {s for t in texts for s in sentences(t) if len(s) >= MIN_SIGNATURE_CHARS}
    return sorted(found, key=lambda s: (-len(s), s))


def _check(items: list[dict[str, Any]]) -> None:
    """Fail loudly if an edit breaks the rules attribution and comparability rely on."""
    ids = [s["id"] for s in items]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate sample ids")
    for s in items:
        texts = [s["question"], s["answer"], s["ground_truth"], *s["contexts"]]
        for text in texts:
            if not text.isascii() or '"' in text or "\\" in text:
                raise ValueError(
                    f"{s['id']}: texts must be ASCII without double quotes or backslashes: {text!r}"
                )
        if not 2 <= len(s["contexts"]) <= 4:
            raise ValueError(f"{s['id']}: 2 to 4 chunks expected")
        for chunk in s["contexts"]:
            if not 2 <= len(sentences(chunk)) <= 4:
                raise ValueError(f"{s['id']}: each chunk needs 2 to 4 sentences: {chunk!r}")
        if not 1 <= len(sentences(s["ground_truth"])) <= 2:
            raise ValueError(f"{s['id']}: ground truth needs 1 or 2 sentences")
    for s in items:
        for other in items:
            if other is s:
                continue
            blob = "\n".join(
                [other["question"], other["answer"], other["ground_truth"], *other["contexts"]]
            )
            clash = next((sig for sig in signatures(s) if sig in blob), None)
            if clash:
                raise ValueError(f"sentence of {s['id']} also in {other['id']}: {clash!r}")


def samples() -> list[dict[str, Any]]:
    """All samples, in a fixed order; each has id, kind, question, answer, contexts, ground_truth."""
    items = copy.deepcopy(_SAMPLES)
    _check(items)
    return items


def main(argv: list[str] | None = None) -> None:
    """Write the samples as JSONL to the path given on the command line."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--samples", type=int, default=None, help="only the first N samples")
    args = parser.parse_args(argv)
    items = samples()[: args.samples]
    args.path.parent.mkdir(parents=True, exist_ok=True)
    with args.path.open("w", encoding="utf-8") as out:
        for item in items:
            out.write(json.dumps(item) + "\n")
    print(f"wrote {len(items)} samples to {args.path}", file=sys.stderr)


if __name__ == "__main__":
    main()
