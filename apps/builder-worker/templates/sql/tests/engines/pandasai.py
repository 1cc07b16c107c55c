"""The PandasAI engine against a stand-in for pandasai (same hooks, no network)."""

import pandas as pd
import pytest

from agent.engine import PandasAIEngine, build_engine
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


def test_a_text_result_is_the_answer(settings):
    chat = FakeChat("South sold the most.")
    engine = PandasAIEngine(settings, FRAME, chat)

    answer = engine.ask("Who sold the most?")

    assert answer.text == "South sold the most."
    [messages] = chat.calls
    assert messages[0] == {"role": "system", "content": settings.system_prompt}
    assert "Who sold the most?" in messages[1]["content"]
    assert engine.smart_dataframe.config["enable_cache"] is False


def test_a_dataframe_result_is_shown_as_a_table(settings):
    engine = PandasAIEngine(settings, FRAME, FakeChat("TABLE"))

    answer = engine.ask("Show two rows")

    assert answer.columns == ["region", "amount"]
    assert answer.rows == [("North", 1), ("South", 2)]


def test_the_engine_reads_the_shipped_file(settings):
    engine = build_engine(settings, FakeChat())

    assert len(engine.frame) > 0
