"""The chat model, called through the provider's own Python SDK.

agent.json's `llm` section names the provider, the model as shown in the builder, the model as
the provider's API knows it (`model_id`) and the environment variable that holds the API key.
OpenAI, Groq and DeepSeek serve OpenAI's chat API, so the `openai` package talks to all three
(at their own addresses); Claude goes through `anthropic` and Gemini through `google-genai`.
Each agent installs only its provider's SDK: a few MB, where a client for every provider
(LiteLLM) would add some 300 MB to the install.

Anything with a `complete(messages) -> str` method can stand in for the real client: the tests
use a scripted fake.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol, Sequence

if TYPE_CHECKING:
    from .config import Settings

Message = Mapping[str, str]

# Where each OpenAI-compatible provider serves OpenAI's chat API (None: the SDK's own default).
OPENAI_COMPATIBLE_URLS: Dict[str, Optional[str]] = {
    "openai": None,
    "groq": "https://api.groq.com/openai/v1",
    "deepseek": "https://api.deepseek.com",
}


class ChatModel(Protocol):
    def complete(self, messages: Sequence[Message]) -> str:
        """Send chat messages ({"role", "content"}) and return the reply's text."""
        ...


class ProviderChat:
    """What every provider's client shares: the model, the key and the call's limits."""

    def __init__(
        self,
        provider: str,
        model: str,
        api_key: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float = 60.0,
        base_url: Optional[str] = None,
    ) -> None:
        self.provider = provider
        self.model = model
        self.api_key = api_key
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.base_url = base_url
        self._client: Any = None

    def client(self) -> Any:
        """The SDK's client, made on first use (importing an SDK takes a moment)."""
        if self._client is None:
            self._client = self.make_client()
        return self._client

    def make_client(self) -> Any:
        raise NotImplementedError

    def complete(self, messages: Sequence[Message]) -> str:
        raise NotImplementedError


def split_system(messages: Sequence[Message]) -> "tuple[str, List[Dict[str, str]]]":
    """Claude and Gemini take the system prompt apart from the conversation."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    rest = [{"role": m["role"], "content": m["content"]} for m in messages if m["role"] != "system"]
    return system, rest


class OpenAIChat(ProviderChat):
    """OpenAI, Groq and DeepSeek: OpenAI's chat completions API."""

    def make_client(self) -> Any:
        from openai import OpenAI

        base_url = self.base_url or OPENAI_COMPATIBLE_URLS[self.provider]
        return OpenAI(api_key=self.api_key, base_url=base_url, timeout=self.timeout)

    def complete(self, messages: Sequence[Message]) -> str:
        response = self.client().chat.completions.create(
            model=self.model,
            messages=[dict(message) for message in messages],
            temperature=self.temperature,
            max_tokens=self.max_tokens,
        )
        return (response.choices[0].message.content or "").strip()


class AnthropicChat(ProviderChat):
    """Claude: Anthropic's Messages API."""

    def make_client(self) -> Any:
        from anthropic import Anthropic

        return Anthropic(api_key=self.api_key, base_url=self.base_url, timeout=self.timeout)

    def complete(self, messages: Sequence[Message]) -> str:
        system, conversation = split_system(messages)
        extra: Dict[str, Any] = {"system": system} if system else {}
        # The Messages API of anthropic 2.x takes no temperature: the model keeps its own.
        response = self.client().messages.create(
            model=self.model,
            messages=conversation,
            max_tokens=self.max_tokens,
            **extra,
        )
        text = "".join(block.text for block in response.content if block.type == "text")
        return text.strip()


class GeminiChat(ProviderChat):
    """Gemini: Google's generateContent API."""

    def make_client(self) -> Any:
        from google import genai
        from google.genai import types

        # v1beta: the Gemini API version that Google's own examples for API keys use.
        options = types.HttpOptions(
            base_url=self.base_url, api_version="v1beta", timeout=int(self.timeout * 1000)
        )
        return genai.Client(api_key=self.api_key, http_options=options)

    def complete(self, messages: Sequence[Message]) -> str:
        from google.genai import types

        system, conversation = split_system(messages)
        contents = [
            types.Content(
                # Gemini calls the assistant's turns "model".
                role="model" if m["role"] == "assistant" else "user",
                parts=[types.Part(text=m["content"])],
            )
            for m in conversation
        ]
        response = self.client().models.generate_content(
            model=self.model,
            contents=contents,
            config=types.GenerateContentConfig(
                system_instruction=system or None,
                temperature=self.temperature,
                max_output_tokens=self.max_tokens,
            ),
        )
        return (response.text or "").strip()


CLIENTS = {
    "openai": OpenAIChat,
    "groq": OpenAIChat,
    "deepseek": OpenAIChat,
    "claude": AnthropicChat,
    "gemini": GeminiChat,
}


def chat_model_from_settings(settings: "Settings") -> ProviderChat:
    llm = settings.section("llm")
    return CLIENTS[llm["provider"]](
        provider=llm["provider"],
        model=settings.llm_model,
        api_key=settings.llm_api_key,
        temperature=float(llm.get("temperature", 0.0)),
        max_tokens=int(llm.get("max_tokens", 1024)),
        # A proxy or gateway in front of the provider (and the builder's tests) set this.
        base_url=settings.env("LLM_BASE_URL"),
    )
