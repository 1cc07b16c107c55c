"""Run a generated project's app.py once, end to end, with stand-ins for what Debian lacks.

Used by generated-projects.spec.ts: `python3 run_app.py` inside a generated project asks one
question through the real UI code (Streamlit or Gradio, faked at the module level), the real
agent wiring (build_agent, indexing, retrieval or SQL) and a fake LiteLLM, then prints what
the UI showed as JSON. Embedding models, vector stores other than memory, PandasAI, Vanna and
MongoDB are faked the same way; SQL databases are real SQLite files.
"""

import contextlib
import json
import os
import re
import runpy
import sqlite3
import sys
import tempfile
import types
import zlib

QUESTION = "How many sales were there in total?"
shown = {"title": None, "markdown": [], "code": [], "tables": [], "captions": [], "errors": []}
prompts = []


def fake_module(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules.get(parent) or fake_module(parent), child, module)
    return module


def namespace(**values):
    return types.SimpleNamespace(**values)


manifest = json.load(open("agent.json", encoding="utf-8"))
source = manifest["source"]
table = source.get("table") or "data"
quoted = '"' + table.replace('"', '""') + '"'

os.environ[manifest["llm"]["api_key_env"]] = "test-key"
os.environ["OPENAI_API_KEY"] = "test-key"
os.environ["PINECONE_API_KEY"] = "test-key"
os.environ["VECTOR_STORE"] = "memory"

# ---- the LLM ----
if manifest["type"] == "sql":
    replies = [f"```sql\nSELECT count(*) AS n FROM {quoted}\n```", "There were 3 sales."]
else:
    replies = ["The documents answer it [1]."]


def completion(model, messages, **kwargs):
    assert model == manifest["llm"]["litellm_model"], model
    assert kwargs["api_key"] == "test-key"
    prompts.append(messages)
    return namespace(choices=[namespace(message=namespace(content=replies.pop(0)))])


fake_module("litellm", completion=completion)

# ---- embeddings: bag-of-words vectors of the configured size ----
dimensions = manifest.get("embedding", {}).get("dimensions", 8)


def vector(text):
    values = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        values[zlib.crc32(word.encode()) % dimensions] += 1.0
    return values


class SentenceTransformer:
    def __init__(self, model_id):
        assert model_id == manifest["embedding"]["model_id"], model_id

    def encode(self, texts, **kwargs):
        return [vector(text) for text in texts]


class OpenAI:
    def __init__(self, api_key):
        self.embeddings = namespace(create=self.create)

    def create(self, model, input):
        return namespace(
            data=[namespace(index=i, embedding=vector(t)) for i, t in enumerate(input)]
        )


fake_module("sentence_transformers", SentenceTransformer=SentenceTransformer)
fake_module("openai", OpenAI=OpenAI)

# ---- data sources ----
if source["type"] in ("postgres", "mysql", "sqlite"):
    path = os.path.join(tempfile.mkdtemp(), "source.db")
    with sqlite3.connect(path) as connection:
        connection.execute(f"CREATE TABLE {quoted} (id INTEGER PRIMARY KEY, region TEXT)")
        connection.executemany(
            f"INSERT INTO {quoted} (region) VALUES (?)", [("N",), ("S",), ("E",)]
        )
    # Every SQL source is read through the same code; a SQLite file stands in for the server.
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
if source["type"] == "mongo":
    os.environ["DATABASE_URL"] = "mongodb://localhost:27017"
    records = [{"_id": 1, "title": "Sales", "body": "There were 3 sales in total."}]

    class MongoClient:
        def __init__(self, url, **kwargs):
            pass

        def __getitem__(self, name):
            return {table: namespace(find=lambda query, limit: records)}

        def close(self):
            pass

    fake_module("pymongo", MongoClient=MongoClient)

# ---- SQL frameworks ----


class VannaBase:
    def __init__(self, config=None):
        self.config = config or {}

    def generate_sql(self, question, **kwargs):
        context = self.get_related_ddl(question) + self.get_related_documentation(question)
        prompt = [self.system_message(self.config["initial_prompt"] + "\n".join(context))]
        prompt.append(self.user_message(question))
        match = re.search(r"```sql\n(.*)```", self.submit_prompt(prompt), re.DOTALL)
        return match.group(1)


class SmartDataframe:
    def __init__(self, frame, config):
        self.frame, self.llm = frame, config["llm"]

    def chat(self, question):
        self.llm.call(namespace(to_string=lambda: f"{list(self.frame.columns)} {question}"))
        return f"There were {len(self.frame)} sales."


fake_module("vanna.base", VannaBase=VannaBase)
fake_module("pandasai", SmartDataframe=SmartDataframe)
fake_module("pandasai.llm.base", LLM=object)

# ---- the UIs ----


def record(kind):
    return lambda value, *args, **kwargs: shown[kind].append(str(value))


def stop():
    raise SystemExit(1)


fake_module(
    "streamlit",
    session_state={},
    set_page_config=lambda **kwargs: None,
    title=lambda body, anchor=None: shown.update(title=body),
    cache_resource=lambda **kwargs: (lambda function: function),
    chat_message=lambda role: contextlib.nullcontext(),
    spinner=lambda text: contextlib.nullcontext(),
    chat_input=lambda placeholder: QUESTION,
    markdown=record("markdown"),
    code=record("code"),
    dataframe=lambda frame, **kwargs: shown["tables"].append(frame.values.tolist()),
    caption=record("captions"),
    image=record("captions"),
    error=record("errors"),
    stop=stop,
)


class ChatInterface:
    def __init__(self, fn, title, **kwargs):
        self.fn = fn
        shown["title"] = title

    def queue(self):
        return self

    def launch(self, **kwargs):
        shown["markdown"].append(self.fn(QUESTION, []))


fake_module("gradio", ChatInterface=ChatInterface)

sys.argv = ["app.py"]
sys.path.insert(0, os.getcwd())
runpy.run_path("app.py", run_name="__main__")
print(json.dumps({"shown": shown, "prompts": prompts}))
