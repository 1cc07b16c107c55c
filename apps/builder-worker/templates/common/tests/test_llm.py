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


@pytest.fixture
def provider_api(settings):
    """A local stand-in for the provider's API: every request is answered with `status` (the
    list of models, empty, when 200). Yields the status holder and settings pointing at it."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    answer = {"status": 200}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            status = answer["status"]
            listed = {"object": "list", "data": [], "has_more": False, "models": []}
            # Each SDK reads its own fields of an error; Gemini's needs `code` and `status`.
            refused = {"error": {"message": "refused", "code": status, "status": "REFUSED"}}
            body = json.dumps(listed if status == 200 else refused).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    key_env = settings.section("llm")["api_key_env"]
    environ = {key_env: "k", "LLM_BASE_URL": f"http://127.0.0.1:{server.server_port}"}
    yield answer, dataclasses.replace(settings, environ=environ)
    server.shutdown()


def test_the_start_check_stops_at_a_refused_key_naming_it(provider_api):
    """With the project's own provider SDK, against a local stand-in of its API."""
    from agent.config import ConfigError

    answer, configured = provider_api
    chat = chat_model_from_settings(configured)
    chat.check()  # the key is taken: nothing to say

    answer["status"] = 401
    key_env = configured.section("llm")["api_key_env"]
    with pytest.raises(ConfigError, match=f"refused the key in {key_env}"):
        chat.check()


def test_the_start_check_lets_a_gateway_without_a_list_of_models_pass(provider_api):
    answer, configured = provider_api
    answer["status"] = 404

    chat_model_from_settings(configured).check()


def test_the_start_check_stops_when_nothing_answers(settings):
    from agent.config import ConfigError

    key_env = settings.section("llm")["api_key_env"]
    # Port 9 (discard): nothing answers there on a test machine.
    environ = {key_env: "k", "LLM_BASE_URL": "http://127.0.0.1:9"}
    chat = chat_model_from_settings(dataclasses.replace(settings, environ=environ))

    with pytest.raises(ConfigError, match="nothing answered at http://127.0.0.1:9"):
        chat.check()
