"""The chat model calls the provider's own SDK with the model and key agent.json names."""

import dataclasses
from types import SimpleNamespace

import pytest

from agent.llm import (
    CLIENTS,
    AnthropicChat,
    GeminiChat,
    OpenAIChat,
    chat_model_from_settings,
)
from tests.fakes import install_module

CONVERSATION = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": "Hello."},
    {"role": "user", "content": "Again?"},
]


class Recorder:
    """A fake SDK entry point: remembers how it was built and called, answers `reply`."""

    def __init__(self, reply):
        self.reply = reply
        self.built = []
        self.calls = []

    def client(self, **kwargs):
        self.built.append(kwargs)
        return self

    def create(self, **kwargs):
        self.calls.append(kwargs)
        return self.reply


def test_the_model_id_is_the_providers_own(settings):
    llm = settings.section("llm")
    assert settings.llm_model and "/" not in settings.llm_model
    assert llm["provider"] in CLIENTS


def test_openai_compatible_providers_get_the_conversation_as_it_is(monkeypatch):
    message = SimpleNamespace(content="  Hello from the model.  ")
    sdk = Recorder(SimpleNamespace(choices=[SimpleNamespace(message=message)]))
    sdk.chat = SimpleNamespace(completions=sdk)
    install_module(monkeypatch, "openai", OpenAI=sdk.client)

    chat = OpenAIChat(provider="groq", model="llama-3.3-70b-versatile", api_key="test-key")
    assert chat.complete(CONVERSATION) == "Hello from the model."

    [built] = sdk.built
    assert built["api_key"] == "test-key"
    assert built["base_url"] == "https://api.groq.com/openai/v1"
    [call] = sdk.calls
    assert call["model"] == "llama-3.3-70b-versatile"
    assert call["messages"] == CONVERSATION


def test_claude_gets_the_system_prompt_apart(monkeypatch):
    blocks = [SimpleNamespace(type="text", text=" Hello"), SimpleNamespace(type="text", text=".")]
    sdk = Recorder(SimpleNamespace(content=blocks))
    sdk.messages = sdk
    install_module(monkeypatch, "anthropic", Anthropic=sdk.client)

    chat = AnthropicChat(provider="claude", model="claude-3-5-haiku-20241022", api_key="k")
    assert chat.complete(CONVERSATION) == "Hello."

    [call] = sdk.calls
    assert call["system"] == "Be brief."
    assert call["messages"] == CONVERSATION[1:]
    assert call["max_tokens"] == 1024
    assert "temperature" not in call  # anthropic 2.x's Messages.create has no such argument


def test_gemini_gets_the_system_prompt_apart_and_model_turns(monkeypatch):
    sdk = Recorder(SimpleNamespace(text="Hello. "))
    sdk.models = SimpleNamespace(generate_content=sdk.create)
    types = install_module(
        monkeypatch,
        "google.genai.types",
        HttpOptions=lambda **kwargs: kwargs,
        GenerateContentConfig=lambda **kwargs: kwargs,
        Content=lambda **kwargs: kwargs,
        Part=lambda **kwargs: kwargs,
    )
    install_module(monkeypatch, "google.genai", Client=sdk.client, types=types)

    chat = GeminiChat(provider="gemini", model="gemini-2.0-flash", api_key="k")
    assert chat.complete(CONVERSATION) == "Hello."

    [built] = sdk.built
    assert built["http_options"]["api_version"] == "v1beta"
    [call] = sdk.calls
    assert call["config"]["system_instruction"] == "Be brief."
    assert [content["role"] for content in call["contents"]] == ["user", "model", "user"]
    assert call["contents"][0]["parts"] == [{"text": "Hi"}]


@pytest.mark.parametrize("provider", sorted(CLIENTS))
def test_the_client_is_built_from_settings(settings, provider):
    llm = {**settings.section("llm"), "provider": provider}
    manifest = {**settings.manifest, "llm": llm}
    configured = dataclasses.replace(
        settings,
        manifest=manifest,
        environ={llm["api_key_env"]: "k", "LLM_BASE_URL": "http://127.0.0.1:9/v1"},
    )

    chat = chat_model_from_settings(configured)

    assert isinstance(chat, CLIENTS[provider])
    assert (chat.model, chat.api_key) == (settings.llm_model, "k")
    assert chat.base_url == "http://127.0.0.1:9/v1"


class RefusedKey(Exception):
    """What the SDKs raise for a refused key: an error carrying the HTTP status."""

    status_code = 401


class UnknownModel(Exception):
    status_code = 404


def test_a_refused_key_names_the_setting_and_is_not_retried(monkeypatch):
    from agent.config import ConfigError

    calls = []

    def create(**kwargs):
        calls.append(kwargs)
        raise RefusedKey("Error code: 401 - Incorrect API key provided")

    sdk = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
    install_module(monkeypatch, "openai", OpenAI=lambda **kwargs: sdk)
    chat = OpenAIChat(provider="openai", model="gpt-4o-mini", api_key="k", key_env="OPENAI_API_KEY")

    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        chat.complete(CONVERSATION)
    assert len(calls) == 1


def test_a_missing_model_and_an_unreachable_address_say_what_to_check():
    from agent.llm import provider_error

    missing = provider_error(
        UnknownModel("model not found"), what="The chat model", key_env="K", model="m", base_url=None
    )
    assert missing is not None and "'m'" in str(missing) and "agent.json" in str(missing)
    unreachable = provider_error(
        ConnectionRefusedError(111, "Connection refused"),
        what="The chat model",
        key_env="K",
        model="m",
        base_url="http://127.0.0.1:9",
    )
    assert unreachable is not None and "LLM_BASE_URL" in str(unreachable)
    assert provider_error(ValueError("bad"), what="x", key_env="K", model="m", base_url=None) is None


def test_openai_compatible_replies_stream_piece_by_piece(monkeypatch):
    pieces = [
        SimpleNamespace(choices=[SimpleNamespace(delta=SimpleNamespace(content=text))])
        for text in ("Hel", "lo", None, ".")
    ]
    sdk = Recorder(iter(pieces))
    sdk.chat = SimpleNamespace(completions=sdk)
    install_module(monkeypatch, "openai", OpenAI=sdk.client)

    chat = OpenAIChat(provider="openai", model="gpt-4o-mini", api_key="k")
    assert list(chat.stream(CONVERSATION)) == ["Hel", "lo", "."]
    [call] = sdk.calls
    assert call["stream"] is True
