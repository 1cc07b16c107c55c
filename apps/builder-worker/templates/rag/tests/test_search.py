"""Search by words and by both, and answering only from the sources (agent.json's rag)."""

import dataclasses

import pytest

from agent.chunking import Chunk
from agent.rag import DONT_KNOW, RagAgent
from agent.search import WordIndex, fused, is_relevant, tokenize
from agent.stores import Hit
from agent.stores.memory_store import MemoryStore
from tests.fakes import FakeChat
from tests.rag_fakes import FakeEmbedder

PASSAGES = [
    Chunk(id="a", text="Refunds are paid back within five working days.", source="policy.pdf"),
    Chunk(id="b", text="Shipping to Norway takes two weeks.", source="policy.pdf"),
    Chunk(id="c", text="The order SKU-4471-B ships from Rotterdam.", source="orders", ref="id=7"),
]


class QueryCounter(FakeEmbedder):
    def __init__(self) -> None:
        self.queries = 0

    def embed_query(self, text):
        self.queries += 1
        return super().embed_query(text)


def agent_with(settings, tmp_path, monkeypatch, **rag):
    manifest = {**settings.manifest, "rag": {**settings.section("rag"), **rag}}
    manifest["vector_store"] = {**settings.section("vector_store"), "distance_metric": "cosine"}
    local = dataclasses.replace(settings, manifest=manifest)
    monkeypatch.setattr("agent.rag.source_chunks", lambda s, from_source=False: [("s", PASSAGES)])
    agent = RagAgent(
        local,
        QueryCounter(),
        MemoryStore("cosine"),
        FakeChat("The answer [1]."),
        records_file=tmp_path / "records.json",
    )
    agent.index()
    return agent


def test_words_are_letters_and_digits_in_any_script():
    assert tokenize("Zürich's 2024 SKU-4471") == ["zürich", "s", "2024", "sku", "4471"]


def test_search_by_words_ranks_the_passage_holding_the_rare_words_first():
    hits = WordIndex(PASSAGES).search("Where does SKU-4471-B ship from?", 2)

    assert hits[0].chunk.id == "c"
    assert hits[0].found == "words" and hits[0].word_score > 0
    assert WordIndex(PASSAGES).search("zebra", 3) == []


def test_both_lists_fuse_by_rank_and_keep_what_each_measured():
    meaning = [Hit(PASSAGES[1], 0.9, "meaning", 0.9), Hit(PASSAGES[0], 0.5, "meaning", 0.5)]
    words = [Hit(PASSAGES[0], 3.0, "words", None, 3.0)]

    hits = fused(meaning, words, 3)

    assert [hit.chunk.id for hit in hits] == ["a", "b"]
    assert (hits[0].found, hits[0].similarity, hits[0].word_score) == ("both", 0.5, 3.0)


def test_a_passage_is_relevant_by_similarity_by_a_name_or_by_its_words():
    near = Hit(PASSAGES[1], 0.8, "meaning", 0.8)
    far = Hit(PASSAGES[1], 0.1, "meaning", 0.1)
    assert is_relevant(near, "How long is shipping?", 0.3)
    assert not is_relevant(far, "How long is shipping?", 0.3)
    # A code the question names counts whatever the similarity.
    assert is_relevant(Hit(PASSAGES[2], 0.1, "meaning", 0.1), "Where is SKU-4471-B?", 0.3)
    words = Hit(PASSAGES[1], 2.0, "words", None, 2.0)
    assert is_relevant(words, "Shipping time to Norway?", 0.3)
    # Found by words alone: one of three content words is not enough.
    assert not is_relevant(words, "does shipping cost money?", 0.3)


def test_search_by_words_alone_embeds_no_question(settings, tmp_path, monkeypatch):
    agent = agent_with(settings, tmp_path, monkeypatch, search="words")

    hits = agent.retrieve("Which order is SKU-4471-B?")

    # Stored passages carry the index's ids: compared by text.
    assert hits[0].chunk.text == PASSAGES[2].text
    assert agent.embedder.queries == 0


def test_search_by_both_finds_by_meaning_and_words(settings, tmp_path, monkeypatch):
    agent = agent_with(settings, tmp_path, monkeypatch, search="both")

    hits = agent.retrieve("Refunds are paid back within five working days.")

    assert hits[0].chunk.text == PASSAGES[0].text and hits[0].found == "both"
    assert agent.embedder.queries == 1


def test_a_question_no_source_answers_is_not_answered_from_them(settings, tmp_path, monkeypatch):
    rag = {"search": "both", "answer_only_from_sources": True, "relevance_threshold": 0.9}
    agent = agent_with(settings, tmp_path, monkeypatch, **rag)

    answer = agent.ask("Who painted the Mona Lisa?")

    assert answer.sources == []
    [messages] = agent.chat.calls
    assert messages[0]["content"].endswith(DONT_KNOW)
    assert messages[-1] == {"role": "user", "content": "Question: Who painted the Mona Lisa?"}

    answered = agent.ask("How long does shipping to Norway take?")
    assert answered.sources and "Norway" in agent.chat.calls[-1][-1]["content"]


@pytest.mark.parametrize("search", ["meaning", "words", "both"])
def test_every_search_returns_at_most_top_k(settings, tmp_path, monkeypatch, search):
    agent = agent_with(settings, tmp_path, monkeypatch, search=search, top_k=2)

    assert 1 <= len(agent.retrieve("Refunds shipping order")) <= 2
