"""Scenarios: what each synthesizer writes a question from, read off the enriched graph.

A scenario is the chunks a question is written from and the topic it is about:

* ``single_hop_specific``: one profiled chunk and one of its entities (or, for a chunk that
  names none, one of its themes). The question asks something specific the chunk says.
* ``multi_hop_specific``: two chunks joined by an ``entity_overlap`` edge and one of the
  names they share: the bridge. The question needs a fact from each chunk about it.
* ``multi_hop_abstract``: two or three chunks that all carry one theme (so each pair is
  joined by a ``theme_overlap`` edge), or a pair joined by ``summary_similar`` (topic: the
  themes of both). The question asks about the theme across them: a comparison, a
  pattern, a summary no single chunk gives.

Only links in the graph make a multi-hop scenario, so a multi-hop record's chunks are always
linked: the record cites the relationship it was written along (``link``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.graph.relationships import normalise

SYNTHESIZERS: tuple[str, ...] = ("single_hop_specific", "multi_hop_specific", "multi_hop_abstract")
MAX_ABSTRACT_CHUNKS = 3
"""Chunks per abstract question: three already make a long prompt and a long answer."""


@dataclass(frozen=True)
class Scenario:
    """``chunk_ids`` in graph order; ``topic``: the entity or theme; ``link``: the edge kind
    that joins the chunks (``""`` for one chunk)."""

    synthesizer: str
    chunk_ids: tuple[str, ...]
    topic: str
    link: str = ""


def _single(graph: KnowledgeGraph) -> list[Scenario]:
    out: list[Scenario] = []
    for c in graph.chunk_ids():
        node = graph.graph.nodes[c]
        if "themes" not in node:
            continue  # not profiled (its enrichment call failed)
        topics = node.get("llm_entities") or node.get("themes") or []
        out.extend(Scenario("single_hop_specific", (c,), t) for t in topics[:3])
    return out


def _multi_specific(graph: KnowledgeGraph) -> list[Scenario]:
    return [Scenario("multi_hop_specific", (u, v), name, "entity_overlap")
            for u, v, data in graph.edges("entity_overlap") for name in data.get("shared", [])[:2]]


def _multi_abstract(graph: KnowledgeGraph) -> list[Scenario]:
    order = {c: i for i, c in enumerate(graph.chunk_ids())}
    holders: dict[str, list[str]] = {}
    label: dict[str, str] = {}
    for u, v, data in graph.edges("theme_overlap"):
        for theme in data.get("shared", []):
            key = normalise(theme)
            label.setdefault(key, theme)
            for c in (u, v):
                if c not in holders.setdefault(key, []):
                    holders[key].append(c)
    out: list[Scenario] = []
    for key in sorted(holders):
        chunks = sorted(holders[key], key=order.__getitem__)
        # windows of up to three chunks, stepping by two so that consecutive windows overlap
        # by one and every holder is covered
        step = max(1, MAX_ABSTRACT_CHUNKS - 1)
        for start in range(0, max(1, len(chunks) - 1), step):
            group = tuple(chunks[start:start + MAX_ABSTRACT_CHUNKS])
            if len(group) >= 2:
                out.append(Scenario("multi_hop_abstract", group, label[key], "theme_overlap"))
    for u, v, _ in graph.edges("summary_similar"):
        themes = [t for c in (u, v) for t in graph.graph.nodes[c].get("themes", [])]
        if themes:
            out.append(Scenario("multi_hop_abstract", (u, v), " / ".join(dict.fromkeys(themes[:4])),
                                "summary_similar"))
    return out


def scenarios(graph: KnowledgeGraph) -> dict[str, list[Scenario]]:
    """Every scenario of every synthesizer, in graph order (the caller shuffles, seeded)."""
    return {"single_hop_specific": _single(graph), "multi_hop_specific": _multi_specific(graph),
            "multi_hop_abstract": _multi_abstract(graph)}


def linked(graph: KnowledgeGraph, scenario: Scenario) -> bool:
    """Whether every chunk of a multi-hop scenario is joined to another of its chunks by an
    edge of the scenario's kind (what a test checks of every multi-hop record)."""
    if len(scenario.chunk_ids) < 2:
        return True
    ids = set(scenario.chunk_ids)
    return all(set(graph.neighbours(c, [scenario.link])) & (ids - {c}) for c in scenario.chunk_ids)


def describe(scenario: Scenario) -> dict[str, Any]:
    """What a record's metadata says about its scenario."""
    return {"topic": scenario.topic, "link": scenario.link}
