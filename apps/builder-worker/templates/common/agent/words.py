"""Words as Agentloom's hosted agents count them: lower-cased runs of letters and digits in any
script. Searching by words (RAG agents) and comparing a question with the curated ones by the
words they share (SQL agents) both read a question this way."""

from __future__ import annotations

import re
from typing import List

_WORD = re.compile(r"[^\W_]+")
# English words that ask, or carry no subject: not the question's content.
ASKING_WORDS = frozenset(
    (
        "what which where when does have with from that this there their about into your please "
        "tell could would should know were many much some been being them they then than also "
        "just only very more most such each other whom whose will shall"
    ).split()
)


def tokenize(text: str) -> List[str]:
    """Lower-cased runs of letters and digits in any script: "Zürich's 2024" -> zürich, s, 2024."""
    return _WORD.findall(text.lower())


def content_words(question: str) -> List[str]:
    """The question's words of four letters or more, asking words aside."""
    words = tokenize(question)
    return list(dict.fromkeys(w for w in words if len(w) >= 4 and w not in ASKING_WORDS))
