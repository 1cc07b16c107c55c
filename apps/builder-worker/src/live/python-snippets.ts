// Python the live check runs inside a generated project's environment (agents.live-spec.ts).

/** Creates a SQLite database at argv[1] whose table, named argv[2], holds two orders. */
export const SEED_SQLITE = `
import os, sqlite3, sys
os.makedirs(os.path.dirname(sys.argv[1]) or ".", exist_ok=True)
connection = sqlite3.connect(sys.argv[1])
table = '"' + sys.argv[2].replace('"', '""') + '"'
connection.execute(f"CREATE TABLE IF NOT EXISTS {table} (id INTEGER, item TEXT, status TEXT)")
connection.execute(f"DELETE FROM {table}")
connection.executemany(f"INSERT INTO {table} VALUES (?, ?, ?)", [(1, "lamp", "shipped"), (2, "desk", "refunded")])
connection.commit()
`;

/** Imports every module of the project and the libraries it pins, and says how many. */
export const IMPORT_ALL = `
import importlib, pkgutil, re, sys
import agent
modules = ["agent"] + [m.name for m in pkgutil.walk_packages(agent.__path__, "agent.")]
for name in modules:
    importlib.import_module(name)
renames = {"python-dotenv": "dotenv", "chromadb-client": "chromadb", "qdrant-client": "qdrant_client",
           "sentence-transformers": "sentence_transformers", "psycopg2-binary": "psycopg2",
           "milvus-lite": "milvus_lite", "pymysql": "pymysql", "sqlalchemy": "sqlalchemy",
           "google-genai": "google.genai", "pyyaml": "yaml"}
libraries = []
for line in open("requirements.txt", encoding="utf-8"):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name = re.split(r"[=<>]", line)[0].lower()
    module = renames.get(name, name.replace("-", "_"))
    importlib.import_module(module)
    libraries.append(line)
if "pymilvus==" in " ".join(libraries):
    from pymilvus import MilvusClient  # noqa: F401  (failed with pymilvus 2.4 and marshmallow 4)
print(f"{len(modules)} modules and {len(libraries)} libraries imported: {', '.join(libraries)}")
`;

/**
 * Converts the PyTorch weights in folder argv[1] to ONNX at argv[2], as transformers.js's ports
 * are made: the bare encoder, input_ids/attention_mask/token_type_ids in, last_hidden_state out,
 * batch and sequence dynamic (pooling and normalising stay in the runtime, as in those ports).
 * Eager attention: the SDPA path traces a mask shortcut that is only right for unpadded batches.
 */
export const EXPORT_ONNX = `
import sys, torch
from transformers import AutoModel
source, target = sys.argv[1], sys.argv[2]
encoder = AutoModel.from_pretrained(source, attn_implementation="eager").eval()
class Encoder(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
    def forward(self, input_ids, attention_mask, token_type_ids):
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
        return out.last_hidden_state
names = ["input_ids", "attention_mask", "token_type_ids"]
example = tuple(torch.ones(2, 8, dtype=torch.long) for _ in names)
axes = {name: {0: "batch_size", 1: "sequence_length"} for name in names + ["last_hidden_state"]}
with torch.no_grad():
    torch.onnx.export(Encoder(encoder), example, target, input_names=names,
                      output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=14,
                      dynamo=False)
`;

/**
 * Embeds, through the project's own agent/embeddings.py and agent.json, the passages and queries
 * of the JSON file argv[1], and writes the vectors, where the runtime cuts a text (PyTorch's
 * max_seq_length, or the ONNX tokenizer's truncation) and the runtime's name to argv[2].
 */
export const EMBED_WITH_PROJECT = `
import json, sys
from agent.config import load_settings
from agent.embeddings import embedder_from_settings
texts = json.load(open(sys.argv[1], encoding="utf-8"))
embedder = embedder_from_settings(load_settings())
result = {
    "passages": embedder.embed_documents(texts["passages"]),
    "queries": [embedder.embed_query(query) for query in texts["queries"]],
}
model = embedder.model
result["runtime"] = embedder.runtime
result["maxSeqLength"] = (
    model.max_seq_length if hasattr(model, "max_seq_length")
    else model.model.tokenizer.truncation["max_length"]
)
json.dump(result, open(sys.argv[2], "w", encoding="utf-8"))
`;

/**
 * Exits 0 when the installed client accepts a server of release argv[2] for store argv[1]:
 * Qdrant by qdrant-client's own compatibility check, Chroma as the same release as
 * chromadb-client, Milvus as the same major and minor release as pymilvus.
 */
export const CLIENT_ACCEPTS = `
import sys
from importlib.metadata import version
store, server = sys.argv[1], sys.argv[2]
if store == "qdrant":
    from qdrant_client.common.version_check import is_compatible
    client = version("qdrant-client")
    ok = is_compatible(client, server)
elif store == "chromadb":
    client = version("chromadb-client")
    ok = client == server
else:
    client = version("pymilvus")
    ok = client.split(".")[:2] == server.split(".")[:2]
print(f"{store} server {server}, client {client}: {'accepted' if ok else 'refused'}")
sys.exit(0 if ok else 1)
`;

/**
 * Asks argv[1] through the agent's streaming answer, after an earlier exchange that mentions
 * PAPAYA, and prints how many pieces the text came in and the final answer.
 */
export const STREAM_WITH_HISTORY = `
import json, sys
from agent import build_agent
agent = build_agent()
earlier = [{"role": "user", "content": "Remember the word PAPAYA."},
           {"role": "assistant", "content": "Noted: PAPAYA."}]
pieces = list(agent.ask_stream(sys.argv[1], earlier))
text = "".join(piece for piece in pieces[:-1])
print(json.dumps({"pieces": len(pieces) - 1, "streamed": text, "answer": pieces[-1].text,
                  "sources": pieces[-1].sources}))
`;
