"""The PandasAI engine against a stand-in for pandasai (same hooks, no network)."""

import dataclasses

import pandas as pd
import pytest

from agent.engine import SWITCHED_OFF, PandasAIEngine, build_engine
from tests.fakes import FakeChat, install_module


class FakeLLMBase:
    pass


class FakePrompt:
    def __init__(self, text):
        self.text = text

    def to_string(self):
        return self.text


class FakeSmartDataframe:
    """Asks the LLM once; "TABLE" as the reply stands for code that returns a DataFrame."""

    def __init__(self, frame, config):
        self.frame = frame
        self.config = config

    def chat(self, question):
        reply = self.config["llm"].call(
            FakePrompt(f"Columns: {list(self.frame.columns)}. {question}")
        )
        return self.frame.head(2) if reply == "TABLE" else reply


@pytest.fixture(autouse=True)
def fake_pandasai(monkeypatch):
    install_module(monkeypatch, "pandasai", SmartDataframe=FakeSmartDataframe)
    install_module(monkeypatch, "pandasai.llm.base", LLM=FakeLLMBase)


FRAME = pd.DataFrame({"region": ["North", "South", "East"], "amount": [1, 2, 3]})


@pytest.fixture
def allowed(settings):
    """The settings of an owner who switched model-written code on."""
    return dataclasses.replace(settings, environ={"PANDASAI_ALLOW_MODEL_CODE": "true"})


def test_model_written_code_is_off_by_default(settings):
    chat = FakeChat("TABLE")
    engine = PandasAIEngine(settings, FRAME, chat)

    assert engine.ask("Show two rows").text == SWITCHED_OFF
    assert chat.calls == []


def test_each_question_gets_its_own_state_and_chart_folder(allowed, monkeypatch):
    seen = []
    original = FakeSmartDataframe.__init__

    def recording(self, frame, config):
        seen.append((self, config["save_charts_path"]))
        original(self, frame, config)

    monkeypatch.setattr(FakeSmartDataframe, "__init__", recording)
    engine = PandasAIEngine(allowed, FRAME, FakeChat("One.", "Two."))

    engine.ask("First?")
    engine.ask("Second?")

    assert seen[0][0] is not seen[1][0]
    assert seen[0][1] != seen[1][1]
    assert all("exports/charts/" in path for _, path in seen)


def test_a_text_result_is_the_answer(allowed, settings):
    chat = FakeChat("South sold the most.")
    engine = PandasAIEngine(allowed, FRAME, chat)

    answer = engine.ask("Who sold the most?")

    assert answer.text == "South sold the most."
    [messages] = chat.calls
    assert messages[0] == {"role": "system", "content": settings.system_prompt}
    assert "Who sold the most?" in messages[1]["content"]


def test_a_dataframe_result_is_shown_as_a_table(allowed):
    engine = PandasAIEngine(allowed, FRAME, FakeChat("TABLE"))

    answer = engine.ask("Show two rows")

    assert answer.columns == ["region", "amount"]
    assert answer.rows == [("North", 1), ("South", 2)]


def test_the_engine_reads_the_shipped_file(settings):
    engine = build_engine(settings, FakeChat())

    assert len(engine.frame) > 0


def test_follow_ups_keep_the_conversation(allowed, settings):
    chat = FakeChat("North.")
    engine = PandasAIEngine(allowed, FRAME, chat)
    earlier = [
        {"role": "user", "content": "Which region sold the least?"},
        {"role": "assistant", "content": "North."},
    ]

    [answer] = list(engine.ask_stream("And the most?", earlier))

    assert answer.text == "North."
    [messages] = chat.calls
    assert messages[1:3] == earlier
    assert "And the most?" in messages[3]["content"]
