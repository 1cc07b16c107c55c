"""The chat model goes through LiteLLM with the model and key agent.json names."""

import dataclasses

from agent.llm import LiteLLMChat, chat_model_from_settings
from tests.fakes import install_module

PROVIDER_PREFIXES = ("openai/", "anthropic/", "groq/", "gemini/", "deepseek/")


class FakeCompletion:
    def __init__(self):
        self.calls = []

    def __call__(self, **kwargs):
        self.calls.append(kwargs)
        message = type("Message", (), {"content": "  Hello from the model.  "})()
        choice = type("Choice", (), {"message": message})()
        return type("Response", (), {"choices": [choice]})()


def test_the_litellm_model_carries_its_provider_prefix(settings):
    assert settings.llm_model.startswith(PROVIDER_PREFIXES)


def test_messages_model_and_key_reach_litellm(monkeypatch):
    completion = FakeCompletion()
    install_module(monkeypatch, "litellm", completion=completion)
    chat = LiteLLMChat(model="openai/gpt-4o-mini", api_key="test-key")

    reply = chat.complete([{"role": "user", "content": "Hi"}])

    assert reply == "Hello from the model."
    [call] = completion.calls
    assert call["model"] == "openai/gpt-4o-mini"
    assert call["api_key"] == "test-key"
    assert call["messages"] == [{"role": "user", "content": "Hi"}]


def test_the_client_is_built_from_settings(settings):
    variable = settings.section("llm")["api_key_env"]
    chat = chat_model_from_settings(dataclasses.replace(settings, environ={variable: "k"}))

    assert chat.model == settings.llm_model
    assert chat.api_key == "k"
