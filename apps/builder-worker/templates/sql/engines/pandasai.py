"""The PandasAI engine: PandasAI answers questions about the file as a DataFrame.

PandasAI asks the LLM to write pandas code and runs it in this process on an in-memory copy
of the file (the file itself is never written). Its LLM calls go through the agent's chat
model (the provider's own SDK), so every provider works.

Because that code is written by a model and runs in the process that holds the API key and can
reach the network, it is switched off until PANDASAI_ALLOW_MODEL_CODE=true says otherwise
(README.md, "Safety"). Each question gets a fresh PandasAI state, so one visitor's questions
never reach another's prompt, and its own chart folder, so answers never share a chart file.
The conversation's recent turns (from the UI, per visitor) go with each call to the model, so a
follow-up question keeps its context. The answer is what the code computed, so it arrives whole.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

from .answer import Agent, Answer
from .config import ConfigError
from .llm import ChatModel, Message, recent_turns

if TYPE_CHECKING:
    import pandas as pd

    from .config import Settings


def read_frame(path: Path, kind: str, sheet: Optional[str] = None) -> "pd.DataFrame":
    """The CSV or Excel file as a DataFrame (for Excel, the sheet chosen in the builder)."""
    import pandas as pd

    if kind == "csv":
        return pd.read_csv(path, encoding_errors="replace")
    if kind == "excel":
        return pd.read_excel(path, sheet_name=sheet or 0, engine="openpyxl")
    raise ConfigError(f"PandasAI needs a CSV or Excel source, not {kind!r}.")


SWITCHED_OFF = (
    "PandasAI is switched off in this agent: it answers by running Python code that the model "
    "writes, inside the process that holds your API key. To switch it on, set "
    "PANDASAI_ALLOW_MODEL_CODE=true in .env (read \"Safety\" in README.md first)."
)
CHARTS_DIR = "exports/charts"


def model_code_allowed(settings: "Settings") -> bool:
    return (settings.env("PANDASAI_ALLOW_MODEL_CODE") or "").strip().lower() == "true"


def make_llm(chat: ChatModel, system_prompt: str, history: Sequence[Message] = ()) -> Any:
    """PandasAI's LLM interface over the agent's chat model, with the conversation so far."""
    from pandasai.llm.base import LLM

    class AgentLLM(LLM):
        last_prompt: Optional[str] = None

        @property
        def type(self) -> str:
            return "agentloom"

        def call(self, instruction: Any, context: Any = None) -> str:
            prompt = instruction.to_string()
            self.last_prompt = prompt
            return chat.complete(
                [
                    {"role": "system", "content": system_prompt},
                    *recent_turns(history),
                    {"role": "user", "content": prompt},
                ]
            )

    return AgentLLM()


class PandasAIEngine(Agent):
    def __init__(self, settings: "Settings", frame: "pd.DataFrame", chat: ChatModel) -> None:
        self.settings = settings
        self.frame = frame
        self.chat = chat
        self.max_rows = int(settings.section("sql")["max_rows"])

    def smart_dataframe(self, charts_dir: Path, history: Sequence[Message] = ()) -> Any:
        """A fresh PandasAI state for one question, saving any chart under `charts_dir`."""
        from pandasai import SmartDataframe

        config = {
            "llm": make_llm(self.chat, self.settings.system_prompt, history),
            "enable_cache": False,
            "open_charts": False,
            "save_charts": True,
            "save_charts_path": str(charts_dir),
            "save_logs": False,
            "verbose": False,
        }
        return SmartDataframe(self.frame, config=config)

    def ask_stream(self, question: str, history: Sequence[Message] = ()) -> Iterator[Answer]:
        """Only the whole Answer: it is what the model's code computed, no text being written."""
        yield self.answer(question, history)

    def answer(self, question: str, history: Sequence[Message]) -> Answer:
        import pandas as pd

        if not model_code_allowed(self.settings):
            return Answer(text=SWITCHED_OFF)
        charts_dir = self.settings.path(CHARTS_DIR) / uuid.uuid4().hex
        result = self.smart_dataframe(charts_dir, history).chat(question)
        if isinstance(result, pd.DataFrame):
            rows = [tuple(row) for row in result.head(self.max_rows).itertuples(index=False)]
            return Answer(
                text="",
                columns=[str(column) for column in result.columns],
                rows=rows,
                truncated=len(result) > self.max_rows,
            )
        if isinstance(result, str) and result.endswith(".png") and Path(result).is_file():
            return Answer(text="Here is the chart.", image=result)
        return Answer(text=str(result))


def build_engine(settings: "Settings", chat: ChatModel) -> PandasAIEngine:
    # PandasAI works on the DataFrame itself; no SQL database is involved.
    source = settings.source
    frame = read_frame(settings.path(source["file"]), source["type"], source.get("sheet"))
    return PandasAIEngine(settings, frame, chat)
