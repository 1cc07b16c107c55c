"""Gradio chat for the agent.

    python app.py                     # then open http://127.0.0.1:7860
    python app.py --host 0.0.0.0      # listen on every interface (the Docker image does)
"""

from __future__ import annotations

import argparse
import hmac
import html
from typing import Any, List, Union

import gradio as gr

from agent import build_agent, load_settings
from agent.answer import to_markdown


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the agent's chat UI.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7860)
    args = parser.parse_args()

    settings = load_settings()
    agent = build_agent(settings)

    def respond(message: str, history: list) -> Union[str, List[Any]]:
        try:
            answer = agent.ask(message)
        except Exception as error:  # shown in the chat rather than as a stack trace
            return f"Sorry, something went wrong: {html.escape(str(error))}"
        if answer.image:
            # A chart (PandasAI) is a message of its own, shown as the image itself.
            return [to_markdown(answer), gr.Image(answer.image)]
        return to_markdown(answer)

    demo = gr.ChatInterface(
        fn=respond,
        # The title is rendered as HTML: the name is data, so it is escaped.
        title=html.escape(settings.name),
        analytics_enabled=False,
    )
    password = settings.env("UI_PASSWORD")
    # Any user name; the password is compared in constant time.
    auth = (lambda _user, given: hmac.compare_digest(given, password)) if password else None
    demo.queue().launch(server_name=args.host, server_port=args.port, auth=auth)


if __name__ == "__main__":
    main()
