"""Curated answers: a question close to one the owner answered gets that answer, word for word,
and the model is not called. The embedding model and the LLM are stand-ins; the live check runs
the real ones."""

import json
import math
import re

import pytest

from agent.answer import CURATED_CITATION, Agent, Answer, to_markdown, to_text
from agent.config import ConfigError, Settings
from agent.curated import CuratedAnswers, CuratedEntry, load_curated, with_curated
from tests.fakes import FakeChat

REFUND = {
    "id": "0b6c9f0e-3f7a-4c55-9a52-6f1d2f0a1c01",
    "question": "How do I get a refund for my order?",
    "answer": "Write to refunds@example.com with your order number; we pay back within 5 days.",
}
HOURS = {
    "id": "0b6c9f0e-3f7a-4c55-9a52-6f1d2f0a1c02",
    "question": "When is the support team available?",
    "answer": "From 9 to 5, Monday to Friday.",
}
# Agents comparing by meaning get a paraphrase in other words; by words, one sharing most of them.
PARAPHRASES = {
    "meaning": "How can I get my money back for a purchase?",
    "words": "Can I get a refund on an order I placed?",
}
# What the stand-in embedding model knows: these words mean the same as the concept they name.
CONCEPTS = {
    "refund": "refund", "money": "refund", "back": "refund",
    "order": "order", "purchase": "order",
    "support": "support", "team": "support", "available": "support",
    "weather": "weather",
}
AXES = ["refund", "order", "support", "weather"]


class MeaningEmbedder:
    """A stand-in embedding model: questions about the same things get the same vector."""

    dimensions = len(AXES) + 1

    def __init__(self):
        self.queries = []

    def embed_query(self, text):
        self.queries.append(text)
        found = {CONCEPTS[word] for word in re.findall(r"\w+", text.lower()) if word in CONCEPTS}
        return [1.0 if axis in found else 0.0 for axis in AXES] + [0.1]


class ModelAgent(Agent):
    """The agent behind the curated answers: each question it gets goes to the model stand-in."""

    def __init__(self, chat):
        self.chat = chat

    def ask_stream(self, question, history=()):
        text = self.chat.complete([{"role": "user", "content": question}])
        yield text
        yield Answer(text=text)


def with_answers(settings, tmp_path, answers):
    """This project's agent.json and prompt, with these curated answers in its data folder."""
    relative = settings.manifest["curated"]["file"]
    (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / relative).write_text(json.dumps(answers), encoding="utf-8")
    return Settings(tmp_path, settings.manifest, settings.system_prompt, {})


def curated_agent(settings, chat, embedder):
    """The agent as build_agent makes it: RAG agents pass their embedding model."""
    by_meaning = settings.manifest["curated"]["compare"] == "meaning"
    return with_curated(ModelAgent(chat), settings, embedder if by_meaning else None)


def test_a_paraphrase_gets_the_curated_text_and_the_model_is_not_called(settings, tmp_path):
    project = with_answers(settings, tmp_path, [HOURS, REFUND])
    chat = FakeChat("The model's answer.")
    agent = curated_agent(project, chat, MeaningEmbedder())
    paraphrase = PARAPHRASES[settings.manifest["curated"]["compare"]]

    pieces = list(agent.ask_stream(paraphrase))

    answer = pieces[-1]
    assert pieces[:-1] == [REFUND["answer"]]
    assert answer.text == REFUND["answer"]
    assert answer.sources == [CURATED_CITATION]
    assert answer.curated.id == REFUND["id"]
    assert answer.curated.question == REFUND["question"]
    assert answer.curated.similarity >= settings.manifest["curated"]["threshold"]
    assert chat.calls == []
    # The chat apps and the command line say it is the curated answer.
    assert to_text(answer).endswith("Sources:\n- Curated answer")
    assert to_markdown(answer).endswith("**Sources**\n- Curated answer")


def test_a_question_close_to_none_is_answered_by_the_model(settings, tmp_path):
    project = with_answers(settings, tmp_path, [HOURS, REFUND])
    chat = FakeChat("The model's answer.")
    agent = curated_agent(project, chat, MeaningEmbedder())

    answer = agent.ask("Will the weather be sunny tomorrow?")

    assert answer.text == "The model's answer."
    assert answer.curated is None
    assert len(chat.calls) == 1


class WordsEmbedder:
    """A stand-in embedding model: one axis per word, so a question is nearest itself."""

    def embed_query(self, text):
        words = re.findall(r"\w+", text.lower())
        vector = [0.0] * 64
        for word in words:
            vector[sum(map(ord, word)) % 64] += 1.0
        return vector


def test_each_shipped_curated_answer_is_given_for_its_own_question(settings):
    entries = load_curated(settings)
    chat = FakeChat()
    agent = curated_agent(settings, chat, WordsEmbedder())
    if not entries:
        # No curated answers: the agent is the model's alone.
        assert isinstance(agent, ModelAgent)
    for entry in entries:
        answer = agent.ask(entry.question)
        assert answer.curated.question == entry.question
        assert answer.text == answer.curated.answer
    assert chat.calls == []


def test_by_meaning_the_similarity_must_reach_the_threshold():
    threshold = 0.75

    class Fixed:
        def embed_query(self, text):
            # The curated question "1" points along the first axis; "0.8" is 0.8 away from it.
            angle = math.acos(float(text))
            return [math.cos(angle), math.sin(angle)]

    curated = CuratedAnswers([CuratedEntry("a", "1", "yes")], threshold, Fixed())

    assert curated.match(str(threshold + 0.01)).answer == "yes"
    assert curated.match(str(threshold - 0.01)) is None


def test_by_words_at_least_the_share_of_content_words_must_be_shared():
    curated = CuratedAnswers([CuratedEntry("a", "alpha bravo charlie delta echo", "yes")], 0.6)

    # Three of five content words (short and asking words do not count): 0.6.
    assert curated.match("Which alpha bravo charlie? foxtrot golf").similarity == 0.6
    assert curated.match("alpha bravo foxtrot golf") is None


def test_the_closest_question_wins_and_the_oldest_of_equals():
    entries = [
        CuratedEntry("old", "refund order", "first"),
        CuratedEntry("new", "refund order", "second"),
        CuratedEntry("near", "refund order purchase weather", "third"),
    ]

    assert CuratedAnswers(entries, 0.5).match("refund order").id == "old"


def test_a_malformed_file_is_named_in_plain_words(settings, tmp_path):
    project = with_answers(settings, tmp_path, [{"question": "Only a question"}])

    with pytest.raises(ConfigError, match='needs a "question" and an "answer"'):
        load_curated(project)
