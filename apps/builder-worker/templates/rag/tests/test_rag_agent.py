"""The agent end to end, with a fake embedder, the in-memory store and a scripted model."""

import dataclasses

import pytest

from agent.chunking import Chunk
from agent.rag import RagAgent, build_messages, fill_template
from agent.stores.memory_store import MemoryStore
from tests.fakes import FakeChat, StreamingChat
from tests.rag_fakes import FakeEmbedder

SAMPLE_CHUNKS = [
    Chunk(
        id="a", text="Refunds are paid back within five working days.", source="policy.pdf", page=2
    ),
    Chunk(id="b", text="Shipping to Norway takes two weeks.", source="policy.pdf", page=5),
    Chunk(
        id="c", text="Support answers the phone from 9 to 5.", source="contacts", row=3, ref="id=3"
    ),
]


@pytest.fixture
def agent(settings, monkeypatch, tmp_path):
    # The project's own chunks when it ships them, else a small sample; never the network.
    from agent import sources

    try:
        chunks = sources.load_chunks(settings)
    except Exception:
        chunks = []
    if not chunks:
        chunks = SAMPLE_CHUNKS
    monkeypatch.setattr(
        "agent.rag.source_chunks", lambda settings, from_source=False: [("source", chunks)]
    )
    chat = FakeChat("The answer [1].")
    agent = RagAgent(
        settings,
        embedder=FakeEmbedder(),
        store=MemoryStore("cosine"),
        chat=chat,
        records_file=tmp_path / "records.json",
    )
    agent.chunks = chunks
    # Answering only from the sources is test_search.py's: here every question is answered.
    agent.answer_only_from_sources = False
    return agent


def test_indexing_fills_the_store_once(agent):
    assert agent.index().embedded == len(agent.chunks)
    assert agent.index().embedded == 0
    assert agent.store.count() == len(agent.chunks)
    assert agent.index(rebuild=True).embedded == len(agent.chunks)


def test_a_question_retrieves_the_matching_chunk_first(agent):
    # By meaning alone (test_search.py searches by words, and both).
    agent.search_mode = "meaning"
    agent.index()
    target = agent.chunks[len(agent.chunks) // 2]

    hits = agent.retrieve(target.text)

    # The target's own words give a perfect match; another chunk can only tie with it.
    assert hits[0].score == pytest.approx(1.0)
    assert target.text in [hit.chunk.text for hit in hits if hit.score == pytest.approx(1.0)]
    assert len(hits) == min(agent.top_k, agent.store.count())


def test_the_answer_cites_its_sources_and_the_prompt_is_sent_as_written(agent, settings):
    agent.index()
    question = agent.chunks[0].text

    answer = agent.ask(question)

    assert answer.text == "The answer [1]."
    [messages] = agent.chat.calls
    assert messages[0] == {"role": "system", "content": settings.system_prompt}
    user = messages[1]["content"]
    assert user.startswith(settings.section("rag")["question_template"].split("{")[0])
    assert f"Question: {question}" in user
    assert f"[1] ({agent.chunks[0].citation()})" in user
    assert answer.sources[0] == agent.chunks[0].citation()
    assert len(answer.sources) == len(set(answer.sources))


def test_an_empty_knowledge_base_says_so(settings):
    agent = RagAgent(settings, FakeEmbedder(), MemoryStore(), FakeChat())

    assert "empty" in agent.ask("Anything?").text
    assert agent.chat.calls == []


def test_placeholders_are_filled_once():
    filled = fill_template("C: {context} Q: {question}", context="{question}", question="{context}")
    assert filled == "C: {question} Q: {context}"


def test_messages_keep_the_system_prompt_separate():
    messages = build_messages("Be brief.", "{context}\n{question}", "Why?", [])
    assert messages == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "\nWhy?"},
    ]


def test_indexing_waits_for_a_vector_store_that_is_starting(agent):
    from agent import when_store_ready

    attempts = []
    index = agent.index

    def starting_store():
        attempts.append(1)
        if len(attempts) < 3:
            raise ConnectionError("connection refused")
        return index()

    agent.index = starting_store

    assert when_store_ready(agent.index, wait_seconds=5).embedded == len(agent.chunks)
    assert len(attempts) == 3


def test_configuration_errors_are_not_retried(agent):
    from agent import ConfigError, when_store_ready

    def misconfigured():
        raise ConfigError("Set DATABASE_URL")

    agent.index = misconfigured

    with pytest.raises(ConfigError):
        when_store_ready(agent.index, wait_seconds=5)


@pytest.mark.parametrize(
    "error",
    [
        PermissionError("Error code: 401 - Incorrect API key provided"),
        ValueError("Collection expects dimension 384, got 1536"),
    ],
)
def test_only_a_store_that_does_not_answer_is_waited_for(agent, error):
    """A refused key or a bad request does not fix itself: it fails at the first attempt."""
    from agent import when_store_ready

    attempts = []

    def failing():
        attempts.append(1)
        raise error

    with pytest.raises(type(error)):
        when_store_ready(failing, wait_seconds=30)
    assert attempts == [1]


def test_a_store_that_never_answers_is_reported_with_the_setting_to_change():
    from agent import ConfigError, when_store_ready

    def refused():
        raise ConnectionRefusedError(111, "Connection refused")

    with pytest.raises(ConfigError, match="VECTOR_STORE_URL"):
        when_store_ready(refused, wait_seconds=0.2)


def test_a_store_host_that_does_not_exist_fails_at_once(settings, monkeypatch):
    import agent as package

    attempts = []
    monkeypatch.setattr("agent.stores.store_from_settings", lambda *args: attempts.append(1))
    monkeypatch.setattr("agent.embeddings.embedder_from_settings", lambda settings: FakeEmbedder())
    monkeypatch.setattr("agent.llm.chat_model_from_settings", lambda settings: FakeChat())
    unknown = dataclasses.replace(
        settings, environ={"VECTOR_STORE_URL": "http://no-such-host.invalid:8000"}
    )

    with pytest.raises(package.ConfigError, match="VECTOR_STORE_URL"):
        package.build_agent(unknown, index=False)
    assert attempts == []


def test_sources_are_the_passages_the_answer_cites(agent):
    from agent.rag import citations
    from agent.stores import Hit

    hits = [Hit(chunk=chunk, score=1.0) for chunk in SAMPLE_CHUNKS]

    assert citations(hits, "Refunds take five days [1], shipping two weeks [2][2].") == [
        SAMPLE_CHUNKS[0].citation(),
        SAMPLE_CHUNKS[1].citation(),
    ]
    assert citations(hits, "Only the third [3].") == [SAMPLE_CHUNKS[2].citation()]
    # A model that cites nothing: every passage, labelled as retrieved, not as cited.
    assert citations(hits, "No numbers here.") == [
        f"{chunk.citation()} (retrieved)" for chunk in SAMPLE_CHUNKS
    ]


def test_creating_the_store_client_waits_for_a_store_that_is_starting(settings, monkeypatch):
    """Chroma's and Milvus's clients connect when created: that is retried like indexing."""
    import agent as package

    attempts = []

    def starting_store(settings, dimensions, copy_if_held=False):
        attempts.append(1)
        if len(attempts) < 3:
            raise ConnectionError("connection refused")
        return MemoryStore("cosine")

    monkeypatch.setattr("agent.stores.store_from_settings", starting_store)
    monkeypatch.setattr("agent.embeddings.embedder_from_settings", lambda settings: FakeEmbedder())
    monkeypatch.setattr("agent.llm.chat_model_from_settings", lambda settings: FakeChat())
    # A host that exists (agent.json's may name a compose service, which does not resolve here).
    local = dataclasses.replace(settings, environ={"VECTOR_STORE_URL": "http://127.0.0.1:6333"})

    built = package.build_agent(local, index=False)

    assert isinstance(built.store, MemoryStore)
    assert built.store.count() == 0
    assert len(attempts) == 3


def test_an_index_interrupted_halfway_is_completed(agent):
    if len({chunk.id for chunk in agent.chunks}) < 2:
        pytest.skip("needs two chunks or more")
    half = agent.chunks[: len(agent.chunks) // 2]
    agent.store.add(half, agent.embedder.embed_documents([chunk.text for chunk in half]))

    assert agent.index().embedded == len(agent.chunks)
    assert agent.store.count() == len(agent.chunks)
    assert agent.index().embedded == 0


def test_the_answer_streams_and_follow_ups_keep_the_conversation(agent, settings):
    agent.index()
    agent.chat = StreamingChat("The answer ", "is [1]", ".")
    earlier = [
        {"role": "user", "content": "Where do refunds go?"},
        {"role": "assistant", "content": "Back to the card [1]."},
    ]

    pieces = list(agent.ask_stream("And how long does it take?", earlier))

    assert pieces[:3] == ["The answer ", "is [1]", "."]
    final = pieces[-1]
    assert final.text == "The answer is [1]."
    assert len(final.sources) == 1
    [messages] = agent.chat.calls
    assert messages[1:3] == earlier
    assert messages[-1]["role"] == "user" and "And how long does it take?" in messages[-1]["content"]


def test_only_the_recent_turns_are_sent(agent):
    from agent.llm import HISTORY_MESSAGES

    agent.index()
    long_ago = [{"role": "user", "content": f"question {n}"} for n in range(20)]

    agent.ask("Now?", long_ago)

    [messages] = agent.chat.calls
    assert messages[1 : 1 + HISTORY_MESSAGES] == long_ago[-HISTORY_MESSAGES:]
    assert len(messages) == HISTORY_MESSAGES + 2
