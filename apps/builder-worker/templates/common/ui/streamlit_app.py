"""Streamlit chat for the agent.

    streamlit run app.py        # then open http://localhost:8501
"""

from __future__ import annotations

import hmac
import itertools
import logging
from typing import NoReturn

import pandas as pd
import streamlit as st

from agent import ConfigError, build_agent, load_settings
from agent.answer import Answer, conversation_text, escape_markdown

log = logging.getLogger("agent.app")
# The agent's own progress (indexing, waiting for the store) in the terminal, as the command line
# and the Gradio app show it; Streamlit sets up only its own loggers. Once: later runs of this
# script find the handler in place.
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

# The agent is made once per run of the server, with the settings of that moment.
RESTART = (
    "After changing `.env`, restart the app: stop it (Ctrl+C) and run `streamlit run app.py` "
    "again, or with Docker `docker compose up -d`."
)


@st.cache_resource(show_spinner="Preparing the agent...")
def get_agent():
    # Built once per server process and shared by every browser session.
    return build_agent()


def stop_with(error: ConfigError) -> NoReturn:
    """A setting to change: said in the terminal and on the page, with how to apply the fix."""
    log.error("Configuration error: %s", error)
    st.error(f"{error}\n\n{RESTART}")
    st.stop()


def show(answer: Answer) -> None:
    if answer.text:
        st.markdown(answer.text)
    if answer.sql:
        st.code(answer.sql, language="sql")
    if answer.columns:
        st.dataframe(pd.DataFrame(answer.rows, columns=answer.columns), hide_index=True)
        if answer.truncated:
            st.caption("The result reached the row limit; there may be more rows.")
    if answer.image:
        st.image(answer.image)
    if answer.sources:
        st.caption("Sources: " + "; ".join(escape_markdown(source) for source in answer.sources))


def respond(agent, question: str, earlier: list) -> Answer:
    """The agent's answer, its text shown as the model writes it (a SQL agent's once its query
    has run), with the conversation's earlier turns."""
    turns = [
        {
            "role": role,
            "content": conversation_text(content) if isinstance(content, Answer) else content,
        }
        for role, content in earlier
    ]
    pieces = agent.ask_stream(question, turns)
    with st.spinner("Thinking..."):  # until the first piece arrives
        first = next(pieces, None)
    placeholder = st.empty()
    written = ""
    answer = Answer(text="")
    for piece in itertools.chain([first] if first is not None else [], pieces):
        if isinstance(piece, Answer):
            answer = piece
        else:
            written += piece
            placeholder.markdown(written + " ▌")
    placeholder.empty()
    return answer


def require_password(password: str) -> None:
    """With UI_PASSWORD set, nothing below this runs until the visitor has typed it."""
    if st.session_state.get("signed_in"):
        return
    given = st.text_input("Password", type="password")
    if given and hmac.compare_digest(given, password):
        st.session_state["signed_in"] = True
        st.rerun()
    if given:
        st.error("Wrong password.")
    st.stop()


def main() -> None:
    try:
        settings = load_settings()
    except ConfigError as error:
        stop_with(error)
    st.set_page_config(page_title=settings.name.strip()[:100] or "Agent")
    # The name is data: escaped so that Markdown characters in it show as typed.
    st.title(escape_markdown(settings.name), anchor=False)
    password = settings.env("UI_PASSWORD")
    if password:
        require_password(password)

    try:
        agent = get_agent()
    except ConfigError as error:
        stop_with(error)

    history = st.session_state.setdefault("history", [])
    for role, content in history:
        with st.chat_message(role):
            if isinstance(content, Answer):
                show(content)
            else:
                st.markdown(escape_markdown(content))

    question = st.chat_input("Ask a question")
    if question:
        history.append(("user", question))
        with st.chat_message("user"):
            st.markdown(escape_markdown(question))
        with st.chat_message("assistant"):
            try:
                answer = respond(agent, question, history[:-1])
            except ConfigError as error:  # a setting to change: its message says which
                log.error("Configuration error: %s", error)
                answer = Answer(
                    text=f"Sorry, I cannot answer: {escape_markdown(str(error))}\n\n{RESTART}"
                )
            except Exception:  # the details go to the server's log, never to the visitor
                log.exception("Answering %r failed", question)
                answer = Answer(text="Sorry, something went wrong. Please try again later.")
            show(answer)
        history.append(("assistant", answer))


main()
