"""Gradio chat for the agent.

    python app.py                     # then open http://127.0.0.1:7860
    python app.py --host 0.0.0.0      # listen on every interface (the Docker image does)
"""

from __future__ import annotations

import argparse
import hmac
import html
import logging
import sys
from typing import Any, Iterator, List, Union

import gradio as gr

from agent import ConfigError, build_agent, load_settings
from agent.answer import to_markdown

log = logging.getLogger("agent.app")


def text_of(content: Any) -> str:
    """A chat message's text. Gradio hands the chat function its own copy of the conversation,
    where a message's content is a list of parts ({"type": "text", "text": ...}, files,
    components); a message the function itself returned may still be a plain string."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and part.get("type") == "text" and part.get("text")
        )
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the agent's chat UI.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7860)
    args = parser.parse_args()

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = load_settings()
        agent = build_agent(settings)
    except ConfigError as error:  # a missing key, an unreachable store: say which setting
        print(f"Configuration error: {error}", file=sys.stderr)
        sys.exit(2)

    def respond(message: str, history: list) -> Iterator[Union[str, List[Any]]]:
        """Streams the answer as the model writes it (a SQL agent's once its query has run),
        with the conversation's earlier turns, then shows it whole (with its SQL, table, chart
        or sources)."""
        turns = [
            {"role": turn["role"], "content": text_of(turn["content"])}
            for turn in history
            if isinstance(turn, dict) and text_of(turn.get("content"))
        ]
        written = ""
        answer = None
        try:
            for piece in agent.ask_stream(message, turns):
                if isinstance(piece, str):
                    written += piece
                    yield written
                else:
                    answer = piece
        except ConfigError as error:  # a setting to change: its message says which
            yield f"Sorry, I cannot answer: {html.escape(str(error))}"
            return
        except Exception:  # the details go to the server's log, never to the visitor
            log.exception("Answering %r failed", message)
            yield "Sorry, something went wrong. Please try again later."
            return
        if answer.image:
            # A chart (PandasAI) is a message of its own, shown as the image itself.
            yield [to_markdown(answer), gr.Image(answer.image)]
        else:
            yield to_markdown(answer)

    demo = gr.ChatInterface(
        fn=respond,
        # The title is rendered as HTML: the name is data, so it is escaped.
        title=html.escape(settings.name),
        analytics_enabled=False,
    )
    password = settings.env("UI_PASSWORD")
    # Any user name; the password is compared in constant time.
    auth = (lambda _user, given: hmac.compare_digest(given, password)) if password else None
    # show_error=False: an error inside Gradio itself reaches the visitor without its details.
    demo.queue().launch(
        server_name=args.host, server_port=args.port, auth=auth, show_error=False
    )


if __name__ == "__main__":
    main()
