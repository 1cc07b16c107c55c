"""Fixtures shared by the tests. Everything runs offline: models and stores are faked."""

import pytest

from agent.config import PROJECT_ROOT, Settings, load_settings


@pytest.fixture
def settings() -> Settings:
    """This project's own agent.json and prompt, with an empty environment."""
    return load_settings(PROJECT_ROOT, environ={})
