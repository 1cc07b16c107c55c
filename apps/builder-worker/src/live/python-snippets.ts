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
