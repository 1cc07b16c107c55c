"""The chat model, called through LiteLLM so every provider looks the same.

agent.json's `llm` section names the provider, the model as shown in the builder, the model
as LiteLLM expects it (`litellm_model`, with its provider prefix) and the environment variable
that holds the API key. Anything with a `complete(messages) -> str` method can stand in for
the real client: the tests use a scripted fake.
"""

from __future__ import annotations

import logging
import os

from typing import TYPE_CHECKING, Mapping, Optional, Protocol, Sequence

if TYPE_CHECKING:
    from .config import Settings

Message = Mapping[str, str]


class ChatModel(Protocol):
    def complete(self, messages: Sequence[Message]) -> str:
        """Send chat messages ({"role", "content"}) and return the reply's text."""
        ...


class LiteLLMChat:
    """A ChatModel backed by `litellm.completion`."""

    def __init__(
        self,
        model: str,
        api_key: Optional[str],
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float = 60.0,
        base_url: Optional[str] = None,
    ) -> None:
        self.model = model
        self.api_key = api_key
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.base_url = base_url

    def complete(self, messages: Sequence[Message]) -> str:
        # LiteLLM fetches its model price list from the internet on import unless told to use
        # the copy it ships: slower starts, and a request no agent needs.
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        # Imported here: LiteLLM is slow to import and the tests never need it.
        import litellm

        # LiteLLM logs every call at INFO on its own handler and prints help links on stdout;
        # the agent's answers come first.
        logging.getLogger("LiteLLM").setLevel(logging.WARNING)
        litellm.suppress_debug_info = True

        response = litellm.completion(
            model=self.model,
            messages=[dict(message) for message in messages],
            api_key=self.api_key,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            timeout=self.timeout,
            api_base=self.base_url,
        )
        content = response.choices[0].message.content
        return (content or "").strip()


def chat_model_from_settings(settings: "Settings") -> LiteLLMChat:
    llm = settings.section("llm")
    return LiteLLMChat(
        model=settings.llm_model,
        api_key=settings.llm_api_key,
        temperature=float(llm.get("temperature", 0.0)),
        max_tokens=int(llm.get("max_tokens", 1024)),
        base_url=settings.env("LLM_BASE_URL"),
    )
