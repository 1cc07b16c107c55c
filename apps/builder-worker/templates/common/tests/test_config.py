"""agent.json and the system prompt load unchanged; secrets come only from the environment."""

import dataclasses
import json
import shutil

import pytest

from agent.config import PROJECT_ROOT, ConfigError, load_settings, read_dotenv


def copy_project_config(tmp_path):
    shutil.copy(PROJECT_ROOT / "agent.json", tmp_path / "agent.json")
    shutil.copytree(PROJECT_ROOT / "prompts", tmp_path / "prompts")
    return tmp_path


def test_name_and_prompt_are_read_back_byte_for_byte(settings):
    manifest = json.loads((PROJECT_ROOT / "agent.json").read_bytes().decode("utf-8"))
    prompt_bytes = (PROJECT_ROOT / settings.manifest["prompt_file"]).read_bytes()

    assert settings.name == manifest["name"]
    assert settings.system_prompt.encode("utf-8") == prompt_bytes
    assert settings.manifest == manifest


def keys_of(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_of(item)


def test_agent_json_holds_no_secret(settings):
    # Keys name variables (api_key_env) at most; the secrets themselves live in the environment.
    secret_keys = {"api_key", "apikey", "password", "secret", "token", "uri"}
    assert not secret_keys & set(keys_of(dict(settings.manifest)))


def test_the_prompt_file_stays_inside_the_project(settings):
    with pytest.raises(ConfigError, match="outside the project"):
        settings.path("../outside.txt")


def test_the_llm_key_comes_from_the_variable_agent_json_names(settings):
    variable = settings.section("llm")["api_key_env"]
    with pytest.raises(ConfigError, match=variable):
        settings.llm_api_key

    with_key = dataclasses.replace(settings, environ={variable: "test-key"})
    assert with_key.llm_api_key == "test-key"


def test_blank_variables_count_as_unset(settings):
    blank = dataclasses.replace(settings, environ={"SOME_SETTING": "   "})
    assert blank.env("SOME_SETTING", "default") == "default"


def test_dotenv_is_read_and_the_environment_wins(tmp_path, monkeypatch):
    root = copy_project_config(tmp_path)
    (root / ".env").write_text(
        "# comment\nFIRST=from-file # why it is set\nexport SECOND='quoted value'\n"
        'THIRD=from-file\nFOURTH="a # inside quotes"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("THIRD", "from-environment")

    settings = load_settings(root)

    assert read_dotenv(root / ".env")["SECOND"] == "quoted value"
    assert settings.env("FIRST") == "from-file"  # the inline comment is not part of it
    assert settings.env("FOURTH") == "a # inside quotes"
    assert settings.env("THIRD") == "from-environment"


def test_an_unknown_agent_json_version_is_refused(tmp_path):
    root = copy_project_config(tmp_path)
    manifest = json.loads((root / "agent.json").read_text(encoding="utf-8"))
    manifest["version"] = 999
    (root / "agent.json").write_text(json.dumps(manifest), encoding="utf-8")

    with pytest.raises(ConfigError, match="version"):
        load_settings(root, environ={})
