"""The PandasAI engine: PandasAI answers questions about the file as a DataFrame.

PandasAI asks the LLM to write pandas code and runs it in this process on an in-memory copy
of the file (the file itself is never written). Its LLM calls go through the agent's chat
model (LiteLLM), so every provider works. Because the code is written by a model, run the
agent in its container, as docker-compose.yml does, not next to anything sensitive.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from .answer import Answer
from .config import ConfigError
from .llm import ChatModel

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


def make_llm(chat: ChatModel, system_prompt: str) -> Any:
    """PandasAI's LLM interface over the agent's chat model."""
    from pandasai.llm.base import LLM

    class AgentLLM(LLM):
        last_prompt: Optional[str] = None

        @property
        def type(self) -> str:
            return "litellm"

        def call(self, instruction: Any, context: Any = None) -> str:
            prompt = instruction.to_string()
            self.last_prompt = prompt
            return chat.complete(
                [{"role": "system", "content": system_prompt}, {"role": "user", "content": prompt}]
            )

    return AgentLLM()


class PandasAIEngine:
    def __init__(self, settings: "Settings", frame: "pd.DataFrame", chat: ChatModel) -> None:
        self.settings = settings
        self.frame = frame
        self.chat = chat
        self.max_rows = int(settings.section("sql")["max_rows"])
        self._smart: Optional[Any] = None

    @property
    def smart_dataframe(self) -> Any:
        if self._smart is None:
            from pandasai import SmartDataframe

            config = {
                "llm": make_llm(self.chat, self.settings.system_prompt),
                "enable_cache": False,
                "open_charts": False,
                "save_logs": False,
                "verbose": False,
            }
            self._smart = SmartDataframe(self.frame, config=config)
        return self._smart

    def ask(self, question: str) -> Answer:
        import pandas as pd

        result = self.smart_dataframe.chat(question)
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
