"""Settings: the agent's configuration (agent.json, prompts/) plus secrets from the environment.

agent.json and prompts/system.txt are plain data. Everything user-specific - the agent's name,
its system prompt, table names, the model - is read from them at run time, so editing either
file changes the agent without touching any Python.

Secrets (API keys, DATABASE_URL) never live in agent.json: they come from environment
variables, or from a `.env` file next to agent.json when you run the app without Docker.
Real environment variables win over `.env`; an empty value counts as unset.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MANIFEST_FILE = "agent.json"
SUPPORTED_VERSION = 1
AGENT_TYPES = ("rag", "sql")


class ConfigError(RuntimeError):
    """A setting is missing or invalid. The message names it and says how to fix it."""


@dataclass(frozen=True)
class Settings:
    """The loaded configuration. `manifest` is agent.json as parsed, untouched."""

    root: Path
    manifest: Mapping[str, Any]
    system_prompt: str
    environ: Mapping[str, str]

    @property
    def name(self) -> str:
        return self.manifest["name"]

    @property
    def agent_type(self) -> str:
        return self.manifest["type"]

    def section(self, key: str) -> Mapping[str, Any]:
        """A top-level object of agent.json, e.g. `settings.section("llm")["model"]`."""
        value = self.manifest.get(key)
        if not isinstance(value, Mapping):
            raise ConfigError(f"{MANIFEST_FILE} has no '{key}' section.")
        return value

    def env(self, key: str, default: Optional[str] = None) -> Optional[str]:
        """An environment variable, or `default` when it is unset or blank."""
        value = self.environ.get(key, "")
        return value if value.strip() else default

    def require_env(self, key: str, purpose: str) -> str:
        value = self.env(key)
        if value is None:
            raise ConfigError(f"Set {key} (in .env or the environment): {purpose}.")
        return value

    def path(self, relative: str) -> Path:
        """A path from agent.json, resolved inside the project folder (never outside it)."""
        resolved = (self.root / relative).resolve()
        if resolved != self.root and self.root not in resolved.parents:
            raise ConfigError(f"{relative!r} points outside the project folder.")
        return resolved

    # ---- values several modules need ----

    @property
    def source(self) -> Mapping[str, Any]:
        return self.section("source")

    @property
    def llm_model(self) -> str:
        """The model as the provider's API knows it, e.g. 'claude-3-5-haiku-20241022'."""
        return self.section("llm")["model_id"]

    @property
    def llm_api_key(self) -> str:
        llm = self.section("llm")
        return self.require_env(llm["api_key_env"], f"the API key for {llm['provider']}")

    @property
    def database_url(self) -> str:
        return self.require_env(
            "DATABASE_URL", f"the connection URL of the {self.source['type']} source"
        )


def read_dotenv(path: Path) -> dict[str, str]:
    """A `.env` file's values, read by python-dotenv (comments, quotes and `export` as in shells)."""
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    return {key: value or "" for key, value in dotenv_values(path, encoding="utf-8").items()}


def load_settings(
    root: Optional[Path] = None, environ: Optional[Mapping[str, str]] = None
) -> Settings:
    """Read agent.json and the system prompt.

    `environ` defaults to `.env` overlaid with the process environment; tests pass their own.
    """
    root = (root or PROJECT_ROOT).resolve()
    if environ is None:
        merged = read_dotenv(root / ".env")
        merged.update(os.environ)
        environ = merged

    manifest_path = root / MANIFEST_FILE
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{manifest_path} is missing.") from None
    except json.JSONDecodeError as error:
        raise ConfigError(f"{manifest_path} is not valid JSON: {error}") from None

    if not isinstance(manifest, dict):
        raise ConfigError(f"{MANIFEST_FILE} must hold a JSON object.")
    if manifest.get("version") != SUPPORTED_VERSION:
        raise ConfigError(
            f"{MANIFEST_FILE} has version {manifest.get('version')!r}; "
            f"this code reads version {SUPPORTED_VERSION}."
        )
    if manifest.get("type") not in AGENT_TYPES:
        raise ConfigError(f"{MANIFEST_FILE}: 'type' must be one of {', '.join(AGENT_TYPES)}.")
    if not isinstance(manifest.get("name"), str):
        raise ConfigError(f"{MANIFEST_FILE}: 'name' must be a string.")

    settings = Settings(root=root, manifest=manifest, system_prompt="", environ=environ)
    prompt_path = settings.path(manifest.get("prompt_file", "prompts/system.txt"))
    try:
        # Bytes, then decode: text mode would turn "\r\n" into "\n", and the prompt must reach
        # the model exactly as it was written.
        system_prompt = prompt_path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"The system prompt file {prompt_path} is missing.") from None
    return Settings(root=root, manifest=manifest, system_prompt=system_prompt, environ=environ)
