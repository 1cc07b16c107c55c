"""Web sources: pages fetched from their address and read as HTML (loaders.html_sections).

A page alone (`max_pages` 1); links on the same site followed, breadth first, up to `max_pages`;
or the pages a sitemap lists. Only http and https addresses are fetched.
"""

from __future__ import annotations

import re
import urllib.request
from typing import List, Optional, Tuple
from urllib.parse import urldefrag, urljoin, urlparse

from .chunking import Document
from .config import ConfigError
from .loaders import _parse_html, decode_html, html_sections

TIMEOUT_SECONDS = 20
MAX_PAGE_BYTES = 10 * 1024 * 1024
USER_AGENT = "agentloom-agent/1.0"
_LOC = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>", re.IGNORECASE)


def fetch(url: str) -> Tuple[bytes, str]:
    """The page's bytes and its content type."""
    if urlparse(url).scheme not in ("http", "https"):
        raise ConfigError(f"{url} is not a web address.")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
        return response.read(MAX_PAGE_BYTES), response.headers.get("Content-Type", "")


def read_web(url: str, max_pages: int = 1, sitemap: bool = False) -> List[Document]:
    """Every page's sections, each cited by its title (else address) and linking to it."""
    if sitemap:
        body, _ = fetch(url)
        queue = [loc for loc in _LOC.findall(body.decode("utf-8", errors="replace"))]
        queue = queue[:max_pages]
    else:
        queue = [url]
    seen = set(queue)
    documents: List[Document] = []
    read = 0
    while queue and read < max_pages:
        address = queue.pop(0)
        try:
            body, content_type = fetch(address)
        except OSError as error:
            if address == url:
                raise ConfigError(f"{url} could not be read ({error}).") from None
            continue
        if "html" not in content_type.lower():
            continue
        read += 1
        tree = _parse_html(decode_html(body))
        for section in html_sections(tree):
            label = section.get("title") or address
            documents.append(Document(source=label, url=address, **section))
        if not sitemap:
            for link in same_site_links(tree, address):
                if link not in seen and len(seen) < max_pages * 10:
                    seen.add(link)
                    queue.append(link)
    return documents


def same_site_links(tree, base: str) -> List[str]:
    """The page's links to other pages of the same site, without #fragments."""
    host = urlparse(base).netloc
    links: List[str] = []
    for anchor in tree.find_all("a", href=True):
        link: Optional[str] = urldefrag(urljoin(base, anchor["href"]))[0]
        parsed = urlparse(link)
        if parsed.scheme in ("http", "https") and parsed.netloc == host:
            links.append(link)
    return links
