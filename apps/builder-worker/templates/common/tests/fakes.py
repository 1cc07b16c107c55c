"""Stand-ins for the network: the tests never call a model, a vector database or a server."""

from __future__ import annotations

import sys
import types
from typing import Any, Dict, Iterator, List, Sequence


class FakeChat:
    """A chat model that replays scripted replies and records every conversation it got."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.calls: List[List[Dict[str, str]]] = []

    def complete(self, messages: Any) -> str:
        self.calls.append([dict(message) for message in messages])
        return self.replies.pop(0) if self.replies else "A fake answer."


class StreamingChat(FakeChat):
    """A chat model that sends its reply in pieces, as the providers' streams do: each call
    that streams sends all of `pieces`."""

    def __init__(self, *pieces: str, replies: Sequence[str] = ()) -> None:
        super().__init__(*replies)
        self.pieces = list(pieces)

    def stream(self, messages: Any) -> Iterator[str]:
        self.calls.append([dict(message) for message in messages])
        yield from self.pieces


def install_module(monkeypatch: Any, name: str, **attributes: Any) -> types.ModuleType:
    """Put a fake module (and its parent packages) into sys.modules for one test."""
    module = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)
    parent, _, child = name.rpartition(".")
    if parent:
        package = sys.modules.get(parent) or install_module(monkeypatch, parent)
        monkeypatch.setattr(package, child, module, raising=False)
    return module
