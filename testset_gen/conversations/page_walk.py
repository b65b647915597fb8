"""Offline conversations that follow a reader through one page.

On documentation the subject path (``follow_ups``) finds little: most questions ask about
the project as a whole or a section's topic and write no named subject. Grouped by the
page their passages come from instead, a page's records make a chat: the first turn names
a topic of the page (a section's or a defined term's question when the page has one), and
each follow-up is another record of the same page, the same section first, reworded to
lean on the turn before when a rule of ``topic_references`` or ``what_about`` can (its
``refers_back`` says which) and kept as it stands otherwise (``refers_back`` ""). A chat
with no real back-reference is not a conversation test and is not written: its records go
back to the pool.

Every turn is a filtered record, its ground truth and reference contexts unchanged.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Sequence

from testset_gen.conversations.follow_ups import scenario_turn, structure_between, what_about
from testset_gen.conversations.scenario import ConversationScenario, ScenarioTurn
from testset_gen.conversations.topic_references import (and_condition, heading_what_about, record_topic,
                                                        topic_pronoun)
from testset_gen.documents.document import content_id
from testset_gen.record import TestsetRecord

_STRUCTURE_RANK = {"same_section": 0, "same_page": 1}


def page_of(record: TestsetRecord) -> str:
    """The document a record's first passage comes from ("" when its sources do not say)."""
    return str(record.sources[0].get("source") or "") if record.sources else ""


def refer_back(previous: TestsetRecord, record: TestsetRecord) -> tuple[str, str]:
    """(question as asked in the chat, how it refers back): the first rewording that applies,
    or the standalone question and ""."""
    for how, worded in (("what_about", heading_what_about(previous, record)),
                        ("what_about", what_about(previous.question, record.question)),
                        ("condition", and_condition(previous.question, record.question)),
                        ("topic_pronoun", topic_pronoun(previous, record.question))):
        if worded is not None:
            return worded, how
    return record.question, ""


def page_conversations(records: Sequence[TestsetRecord], count: int, turns: int, used: set[str],
                       seed: int = 0) -> list[ConversationScenario]:
    """Up to ``count`` conversations of 2..``turns`` turns, each from one page's records not
    in ``used`` (which this adds to). Pages are visited in a seeded order and a page gives
    as many chats as its records allow."""
    order = {r.id: i for i, r in enumerate(records)}
    by_page: dict[str, list[TestsetRecord]] = defaultdict(list)
    for r in records:
        if page_of(r):
            by_page[page_of(r)].append(r)
    pages = sorted(by_page)
    random.Random(f"{seed}:pages").shuffle(pages)
    out: list[ConversationScenario] = []
    progress = True
    while len(out) < count and progress:
        progress = False  # one chat per page per round: the set spreads over the folder
        for page in pages:
            if len(out) >= count:
                break
            chat = _one_chat([r for r in by_page[page] if r.id not in used], turns, order)
            if chat is None:
                continue
            chosen, chat_turns = chat
            used.update(r.id for r in chosen)
            progress = True
            out.append(ConversationScenario(
                id=content_id(*(t.question for t in chat_turns), *(r.id for r in chosen), prefix="conv-"),
                subject=record_topic(chosen[0]) or page.rsplit("/", 1)[-1],
                turns=chat_turns, metadata={"generator": "offline", "seed": seed, "page": page}))
    return out


def _one_chat(free: list[TestsetRecord], turns: int,
              order: dict[str, int]) -> tuple[list[TestsetRecord], list[ScenarioTurn]] | None:
    if len(free) < 2:
        return None
    # the opener names a topic of the page when one is known (a section's or a term's question)
    openers = sorted(free, key=lambda r: (not record_topic(r), order[r.id]))
    best: tuple[tuple[bool, int], list[TestsetRecord], list[ScenarioTurn]] | None = None
    for opener in openers:
        chosen = [opener]
        chat = [scenario_turn(opener, opener.question, "", "opening")]
        while len(chat) < turns:
            options = []
            for r in free:
                if r.id in {c.id for c in chosen} or r.ground_truth == chosen[-1].ground_truth:
                    continue
                worded, how = refer_back(chosen[-1], r)
                structure = structure_between(chosen[-1], r)
                options.append((not how, _STRUCTURE_RANK.get(structure, 2), order[r.id], r, worded, how, structure))
            if not options:
                break
            _, _, _, r, worded, how, structure = min(options, key=lambda o: o[:3])
            chosen.append(r)
            chat.append(scenario_turn(r, worded, how, structure))
        backs = sum(bool(t.refers_back) for t in chat[1:])
        # the best chat leans on its opener at once, then refers back most often
        rank = (bool(chat[1].refers_back) if len(chat) > 1 else False, backs)
        if backs and (best is None or rank > best[0]):
            best = (rank, chosen, chat)
    return (best[1], best[2]) if best is not None else None
