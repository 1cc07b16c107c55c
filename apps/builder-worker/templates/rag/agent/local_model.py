"""The local embedding model on the CPU: its ONNX port, run by ONNX Runtime through FastEmbed.

PyTorch is not needed for this (on Linux, PyPI's torch alone is some 5 GB with CUDA's
libraries); embeddings.py runs the same model on PyTorch when EMBEDDING_RUNTIME=torch.

This module imports nothing else of the agent, so the Docker image downloads the model before
the code is copied: `python agent/local_model.py` reads agent.json's embedding section.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, Optional


def hub_cache() -> str:
    """Hugging Face's own cache (HF_HOME, HF_HUB_CACHE): where PyTorch's path keeps models too."""
    from huggingface_hub import constants

    return constants.HF_HUB_CACHE


def load_onnx_model(onnx: Dict[str, Any], dimensions: int, model_path: Optional[str] = None) -> Any:
    """FastEmbed's TextEmbedding for agent.json's `embedding.onnx`, downloaded once if needed.

    `model_path` is a folder holding the ONNX port (onnx/model.onnx and the tokenizer's files),
    for hosts that cannot reach Hugging Face.
    """
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    model_id = onnx["model_id"]
    try:
        TextEmbedding.add_custom_model(
            model=model_id,
            pooling=PoolingType.CLS if onnx["pooling"] == "cls" else PoolingType.MEAN,
            normalization=True,
            sources=ModelSource(hf=model_id),
            dim=dimensions,
            model_file="onnx/model.onnx",
        )
    except ValueError:
        pass  # registered already, by an earlier embedder in this process
    options = {"specific_model_path": model_path} if model_path else {}
    model = TextEmbedding(model_id, cache_dir=hub_cache(), **options)
    # FastEmbed cuts a text where the tokenizer's config says (512 tokens for MiniLM), while
    # sentence-transformers (and so Agentloom's hosted agents) cut it at the model's own
    # max_seq_length: the same cut gives the same vectors.
    model.model.tokenizer.enable_truncation(max_length=int(onnx["max_tokens"]))
    return model


def main() -> None:
    embedding = json.loads(Path("agent.json").read_text(encoding="utf-8")).get("embedding") or {}
    if "onnx" not in embedding:
        print("This agent has no local embedding model: nothing to download.")
        return
    load_onnx_model(embedding["onnx"], int(embedding["dimensions"]))
    print(f"The embedding model {embedding['onnx']['model_id']} is in {hub_cache()}.")


if __name__ == "__main__":
    sys.exit(main())
