"""A small hand-written corpus for the knowledge-graph and offline-generator tests.

Three documents, one chunk per paragraph (built with ``Chunk.make``, no chunker involved).
Written so that the graph has something to find: Marie Curie is named in her own document
and in Warsaw's, Paris in hers and the Eiffel Tower's, Pierre Curie in two of her chunks;
her research is a topic of a Curie chunk and a Warsaw chunk.
"""

from __future__ import annotations

import re

from testset_gen.documents.document import Chunk, Document

PARAGRAPHS: dict[str, tuple[str, list[str]]] = {
    "curie.md": ("Marie Curie", [
        "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 to study physics "
        "at the University of Paris. In 1895 she married Pierre Curie, a French physicist.",
        "Marie Curie discovered polonium and radium with Pierre Curie. Their research on "
        "radioactivity changed physics. She won two Nobel Prizes. In 1903, she shared the "
        "Nobel Prize in Physics with Pierre Curie and Henri Becquerel.",
        "Marie Curie founded the Radium Institute in 1914. She died in 1934 in Passy, France. "
        "Her notebooks are still radioactive.",
    ]),
    "eiffel.md": ("The Eiffel Tower", [
        "The Eiffel Tower is a wrought-iron lattice tower in Paris. It was designed by the "
        "engineering company of Gustave Eiffel. The Eiffel Tower was completed in 1889 for "
        "the World's Fair.",
        "The tower is 330 metres tall. The Eiffel Tower was the tallest structure in the world "
        "from 1889 to 1930. It has three levels for visitors. About seven million "
        "people visit the Eiffel Tower every year.",
    ]),
    "warsaw.md": ("Warsaw", [
        "Warsaw is the capital of Poland. The city lies on the Vistula River. Marie Curie was "
        "born in Warsaw, where a museum on her research on radioactivity now honours her.",
        "Warsaw was almost completely destroyed during World War II. The Old Town was rebuilt "
        "after the war. UNESCO added the Old Town to the World Heritage List in 1980.",
    ]),
}


def corpus(named: bool = False) -> tuple[list[Document], list[Chunk]]:
    """The documents and their chunks (one per paragraph, in reading order).

    ``named``: every "She"/"It" that opens a sentence written as the name it stands for
    (the offline generator asks nothing of a statement whose subject is a pronoun)."""
    documents: list[Document] = []
    chunks: list[Chunk] = []
    for source, (title, paragraphs) in PARAGRAPHS.items():
        if named:
            name = {"curie.md": "Marie Curie", "eiffel.md": "The Eiffel Tower"}.get(source)
            if name:
                paragraphs = [re.sub(r"(?<=[.] )(?:She|It)\b|^(?:She|It)\b|(?<=, )she\b", name, p)
                              for p in paragraphs]
        text = "\n\n".join(paragraphs)
        doc = Document.make(text, source, title=title)
        documents.append(doc)
        for index, paragraph in enumerate(paragraphs):
            start = text.index(paragraph)
            chunks.append(Chunk.make(doc, paragraph, index, start, start + len(paragraph),
                                     len(paragraph.split())))
    return documents, chunks


def one_chunk_each(texts: dict[str, str], heading_titles: bool = False):
    """A graph (no embeddings) of one document per text, each one chunk: the file name is
    the title, or with ``heading_titles`` the text's first line without its "#" (as a
    README's H1)."""
    from testset_gen.graph.knowledge_graph import build_graph

    documents, chunks = [], []
    for name, text in texts.items():
        title = text.splitlines()[0].lstrip("# ") if heading_titles else name
        doc = Document.make(text, name, title=title)
        documents.append(doc)
        chunks.append(Chunk.make(doc, text, 0, 0, len(text), tokens=len(text.split())))
    return build_graph(documents, chunks, embed=False)


def generate_short(graph, size: int, distribution: dict[str, float]):
    """``generate_offline`` with seed 0 on a test document too small for ``size``: the
    shortfall it warns about is expected here, and the records are what the test reads."""
    import warnings

    from testset_gen.offline.generator import ShortfallWarning, generate_offline

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortfallWarning)
        return generate_offline(graph, size, distribution, seed=0)


# Four files for the LLM paths of generation (the synthesizers and the judge-fault tests): Curie,
# Warsaw and radium share entities and themes, the Eiffel Tower only Paris.
LINKED_FILES: dict[str, str] = {
    "curie.md": """# Marie Curie

Marie Curie was a physicist and chemist who was born in Warsaw in 1867. She moved to Paris in 1891 to study physics at the University of Paris, where she met Pierre Curie.

Marie Curie discovered polonium and radium together with Pierre Curie in 1898. She named polonium after Poland, her native country, and studied radioactivity for the rest of her life.

In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel. In 1911 she won the Nobel Prize in Chemistry alone, for her radioactivity research.
""",
    "warsaw.txt": """Warsaw is the capital and largest city of Poland. The city stands on the Vistula River in east-central Poland, and its old town was rebuilt after the Second World War.

Marie Curie was born in Warsaw, and a museum in the New Town is devoted to her life and her radioactivity research. Visitors to Warsaw can see her laboratory notes.
""",
    "radium.md": """# Radium

Radium was discovered by Marie Curie and Pierre Curie in Paris in 1898. Radium glows faintly blue in the dark because of its strong radioactivity.

The Radium Institute in Paris was founded by Marie Curie in 1914 to study radioactivity and its medical uses. Radium was once added to watch dials so that they glowed.
""",
    "tower.md": """# The Eiffel Tower

The Eiffel Tower is a wrought-iron lattice tower in Paris. It was designed by the company of Gustave Eiffel and completed in 1889 for the World's Fair, and it is 330 metres tall.
""",
}
