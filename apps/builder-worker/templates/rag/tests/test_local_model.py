"""The local embedding model's runtimes: ONNX Runtime on the CPU by default, PyTorch on request.

Loading the model itself needs its files (downloaded once from Hugging Face); these tests check
the choice of runtime and what each says when it cannot run, without the model.
"""

from __future__ import annotations

import importlib.util
import json
import logging
from dataclasses import replace

import pytest

from agent.config import ConfigError, load_settings
from agent.embeddings import LocalEmbedder, embedder_from_settings


@pytest.fixture
def settings():
    return load_settings()


def with_env(settings, **environ):
    return replace(settings, environ={**settings.environ, **environ})


def test_agent_json_names_the_onnx_port_its_pooling_and_cut(settings):
    onnx = settings.section("embedding")["onnx"]
    assert onnx["model_id"]
    assert onnx["pooling"] in ("mean", "cls")
    assert int(onnx["max_tokens"]) > 0


def test_onnx_runtime_is_the_default(settings):
    embedder = embedder_from_settings(with_env(settings, EMBEDDING_RUNTIME=""))
    assert isinstance(embedder, LocalEmbedder)
    assert embedder.runtime == "ONNX Runtime, CPU"
    assert embedder.dimensions == settings.section("embedding")["dimensions"]


def test_an_unknown_runtime_is_refused_naming_the_choices(settings):
    with pytest.raises(ConfigError, match="EMBEDDING_RUNTIME must be onnx .* or torch"):
        embedder_from_settings(with_env(settings, EMBEDDING_RUNTIME="cuda"))


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is not None,
    reason="PyTorch's path is installed here (requirements-gpu.lock)",
)
def test_torch_without_pytorch_installed_says_what_to_install(settings):
    embedder = embedder_from_settings(with_env(settings, EMBEDDING_RUNTIME="torch"))
    assert embedder.runtime == "PyTorch"
    with pytest.raises(ConfigError, match="requirements-gpu.lock"):
        embedder.embed_query("hello")


def test_onnx_without_fastembed_installed_says_what_to_install(settings, monkeypatch):
    # As if only requirements-gpu.lock's packages were there: fastembed cannot be imported.
    import builtins

    real_import = builtins.__import__

    def no_fastembed(name, *args, **kwargs):
        if name == "fastembed" or name.startswith("fastembed."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_fastembed)
    embedder = embedder_from_settings(settings)
    with pytest.raises(ConfigError, match="requirements.lock.*EMBEDDING_RUNTIME=torch"):
        embedder.embed_query("hello")


def test_a_model_that_cannot_be_loaded_names_the_setting(settings, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    empty = tmp_path / "no-model-here"
    empty.mkdir()
    embedder = embedder_from_settings(with_env(settings, EMBEDDING_MODEL_PATH=str(empty)))
    with pytest.raises(ConfigError, match="EMBEDDING_MODEL_PATH"):
        embedder.embed_query("hello")


def test_load_says_so_in_the_terminal(caplog):
    loaded = []
    embedder = LocalEmbedder(
        model_id="some/model",
        dimensions=3,
        runtime="ONNX Runtime, CPU",
        loader=lambda: loaded.append(1) or object(),
        encode=lambda model, texts: [[1.0, 0.0, 0.0] for _ in texts],
    )
    with caplog.at_level(logging.INFO):
        embedder.load()
        embedder.embed_query("hello")
    assert loaded == [1]  # once, at start: not again for the question
    messages = [record.getMessage() for record in caplog.records]
    assert messages[0] == "Loading the embedding model some/model (ONNX Runtime, CPU)..."
    assert messages[1].startswith("The embedding model is ready (")


def test_the_docker_prefetch_reads_only_agent_json(tmp_path, monkeypatch, capsys):
    # python agent/local_model.py runs before the rest of the code is in the image.
    from agent import local_model

    (tmp_path / "agent.json").write_text(json.dumps({"embedding": {"backend": "openai"}}))
    monkeypatch.chdir(tmp_path)
    local_model.main()
    assert "nothing to download" in capsys.readouterr().out
