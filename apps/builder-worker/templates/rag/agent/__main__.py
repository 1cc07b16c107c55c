"""Command line for the agent.

    python -m agent ask "What does the handbook say about refunds?"
    python -m agent index [--rebuild] [--from-source]
    python -m agent prefetch
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import List, Optional

from . import build_agent, prefetch
from .answer import to_text
from .config import ConfigError, load_settings
from .stores import StoreInUse


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("ask", help="answer one question and print the answer")
    ask.add_argument("question")
    index = commands.add_parser(
        "index", help="embed what is new in the sources into the vector store, drop what is gone"
    )
    index.add_argument("--rebuild", action="store_true", help="embed every passage again")
    index.add_argument(
        "--from-source",
        action="store_true",
        help="read every source itself (fetch web pages again), ignoring data/chunks.jsonl",
    )
    commands.add_parser("prefetch", help="download the local embedding model, if any")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

    try:
        if args.command == "prefetch":
            prefetch(load_settings())
        elif args.command == "index":
            # Indexing needs no chat model: its key is not checked here.
            agent = build_agent(index=False, check_provider=False)
            print(agent.index(rebuild=args.rebuild, from_source=args.from_source))
        else:
            # Beside the running chat app, a local store it holds is read from a copy.
            print(to_text(build_agent(copy_if_held=True).ask(args.question)))
    except StoreInUse as error:  # not a setting to fix: another process has the store open
        print(error, file=sys.stderr)
        return 2
    except ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
