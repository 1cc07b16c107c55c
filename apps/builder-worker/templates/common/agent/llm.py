"""The chat model, called through the provider's own Python SDK.

agent.json's `llm` section names the provider, the model as shown in the builder, the model as
the provider's API knows it (`model_id`) and the environment variable that holds the API key.
OpenAI, Groq and DeepSeek serve OpenAI's chat API, so the `openai` package talks to all three
(at their own addresses); Claude goes through `anthropic` and Gemini through `google-genai`.
Each agent installs only its provider's SDK: a few MB, where a client for every provider
(LiteLLM) would add some 300 MB to the install.

Anything with a `complete(messages) -> str` method can stand in for the real client (a
`stream(messages)` that yields the reply's pieces is used when present): the tests use a
scripted fake.
"""

from __future__ import annotations

from typing import (
    TYPE_CHECKING,
    Any,
    Dict,
    Generator,
    Iterator,
    List,
    Mapping,
    Optional,
    Protocol,
    Sequence,
)

from .config import ConfigError

if TYPE_CHECKING:
    from .config import Settings

Message = Mapping[str, str]

# Where each OpenAI-compatible provider serves OpenAI's chat API (None: the SDK's own default).
OPENAI_COMPATIBLE_URLS: Dict[str, Optional[str]] = {
    "openai": None,
    "groq": "https://api.groq.com/openai/v1",
    "deepseek": "https://api.deepseek.com",
}


def _status(error: BaseException) -> Optional[int]:
    """The HTTP status an SDK error carries: openai's and anthropic's `status_code`, Gemini's `code`."""
    for name in ("status_code", "code"):
        value = getattr(error, name, None)
        if isinstance(value, int):
            return value
    return None


def _cannot_connect(error: BaseException) -> bool:
    """Whether the request never got an answer (no server there, name unknown, timed out)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, (ConnectionError, TimeoutError, OSError)):
            return True
        if type(seen).__name__ in {"APIConnectionError", "APITimeoutError", "ConnectError",
                                   "ConnectTimeout", "ReadTimeout"}:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def provider_error(
    error: BaseException, *, what: str, key_env: str, model: str, base_url: Optional[str]
) -> Optional[ConfigError]:
    """A provider's refusal, in plain words naming the setting to change; None if it is not one.

    A rejected key, a model the provider does not serve or an address nothing answers at will
    not fix themselves: they are reported at once, never retried.
    """
    where = base_url or "the provider's default address"
    status = _status(error)
    detail = str(getattr(error, "message", "") or error).splitlines()[0][:200]
    if status in (401, 403) or "API_KEY_INVALID" in str(error):
        return ConfigError(
            f"{what}: the provider refused the key in {key_env} ({status}). "
            f"Check {key_env} in .env."
        )
    if status == 404:
        return ConfigError(
            f"{what}: the model {model!r} was not found at {where} ({detail}). "
            "Check the model in agent.json, or LLM_BASE_URL."
        )
    if status is None and _cannot_connect(error):
        return ConfigError(
            f"{what}: nothing answered at {where} ({detail}). "
            "Check LLM_BASE_URL and your network connection."
        )
    return None


class ChatModel(Protocol):
    def complete(self, messages: Sequence[Message]) -> str:
        """Send chat messages ({"role", "content"}) and return the reply's text."""
        ...


def check_chat_model(chat: ChatModel) -> None:
    """The start check: `chat.check()` where the model has one (the providers' clients do; a
    stand-in need not)."""
    check = getattr(chat, "check", None)
    if callable(check):
        check()


# The start check's limit: the list of models is a small answer.
CHECK_TIMEOUT = 10.0

# The conversation's recent messages the model sees before a question (three exchanges), as
# the builder's preview and the published agents keep them.
HISTORY_MESSAGES = 6


def recent_turns(history: Sequence[Message]) -> List[Dict[str, str]]:
    """The last HISTORY_MESSAGES user and assistant messages of `history` (oldest first), so a
    follow-up question ("and in March?") keeps its context."""
    return [
        {"role": turn["role"], "content": turn["content"]}
        for turn in list(history)[-HISTORY_MESSAGES:]
        if turn.get("role") in ("user", "assistant") and turn.get("content")
    ]


def reply_pieces(chat: ChatModel, messages: Sequence[Message]) -> Generator[str, None, str]:
    """Yields the reply as the model writes it (whole, from a model without `stream`) and
    returns the whole text: `text = yield from reply_pieces(chat, messages)`."""
    stream = getattr(chat, "stream", None)
    pieces: List[str] = []
    for piece in stream(messages) if callable(stream) else [chat.complete(messages)]:
        pieces.append(piece)
        yield piece
    return "".join(pieces).strip()


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
        key_env: str = "the API key setting",
    ) -> None:
        self.provider = provider
        self.key_env = key_env
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

    def check(self) -> None:
        """Ask the provider for its list of models - free, and answered in a moment - so that a
        refused key or an address nothing answers at stops the agent as it starts, not at the
        first question. Any other answer (a gateway without that call, say) is left for the
        first question to meet."""
        try:
            self._list_models()
        except Exception as error:
            explained = self.explain(error)
            # A 404 here is the list's address, not the model: it says nothing about either.
            if explained is None or _status(error) == 404:
                return
            raise explained from error

    def _list_models(self) -> None:
        raise NotImplementedError

    def complete(self, messages: Sequence[Message]) -> str:
        try:
            return self._complete(messages)
        except Exception as error:
            explained = self.explain(error)
            if explained is None:
                raise
            raise explained from error

    def _complete(self, messages: Sequence[Message]) -> str:
        raise NotImplementedError

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        """The reply's text as the provider sends it, piece by piece."""
        try:
            yield from self._stream(messages)
        except Exception as error:
            explained = self.explain(error)
            if explained is None:
                raise
            raise explained from error

    def _stream(self, messages: Sequence[Message]) -> Iterator[str]:
        yield self._complete(messages)

    def explain(self, error: BaseException) -> Optional[ConfigError]:
        """`provider_error` for this chat model's own settings."""
        return provider_error(
            error,
            what=f"The chat model ({self.provider})",
            key_env=self.key_env,
            model=self.model,
            base_url=self.base_url,
        )


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

    def _list_models(self) -> None:
        self.client().with_options(timeout=CHECK_TIMEOUT).models.list()

    def _complete(self, messages: Sequence[Message]) -> str:
        response = self.client().chat.completions.create(
            model=self.model,
            messages=[dict(message) for message in messages],
            temperature=self.temperature,
            max_tokens=self.max_tokens,
        )
        return (response.choices[0].message.content or "").strip()

    def _stream(self, messages: Sequence[Message]) -> Iterator[str]:
        chunks = self.client().chat.completions.create(
            model=self.model,
            messages=[dict(message) for message in messages],
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            stream=True,
        )
        for chunk in chunks:
            if chunk.choices and chunk.choices[0].delta.content:
                yield chunk.choices[0].delta.content


class AnthropicChat(ProviderChat):
    """Claude: Anthropic's Messages API."""

    def make_client(self) -> Any:
        from anthropic import Anthropic

        return Anthropic(api_key=self.api_key, base_url=self.base_url, timeout=self.timeout)

    def _list_models(self) -> None:
        self.client().with_options(timeout=CHECK_TIMEOUT).models.list(limit=1)

    def _complete(self, messages: Sequence[Message]) -> str:
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

    def _stream(self, messages: Sequence[Message]) -> Iterator[str]:
        system, conversation = split_system(messages)
        extra: Dict[str, Any] = {"system": system} if system else {}
        events = self.client().messages.create(
            model=self.model,
            messages=conversation,
            max_tokens=self.max_tokens,
            stream=True,
            **extra,
        )
        for event in events:
            if event.type == "content_block_delta" and event.delta.type == "text_delta":
                yield event.delta.text


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

    def _list_models(self) -> None:
        # The pager asks for its first page as it is made.
        self.client().models.list(config={"page_size": 1})

    def _request(self, messages: Sequence[Message]) -> Dict[str, Any]:
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
        return {
            "model": self.model,
            "contents": contents,
            "config": types.GenerateContentConfig(
                system_instruction=system or None,
                temperature=self.temperature,
                max_output_tokens=self.max_tokens,
            ),
        }

    def _complete(self, messages: Sequence[Message]) -> str:
        response = self.client().models.generate_content(**self._request(messages))
        return (response.text or "").strip()

    def _stream(self, messages: Sequence[Message]) -> Iterator[str]:
        for chunk in self.client().models.generate_content_stream(**self._request(messages)):
            if chunk.text:
                yield chunk.text


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
        key_env=llm["api_key_env"],
    )
