"""Web sources: pages fetched from their address (a server on this machine stands in for a site)."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from agent.config import ConfigError

pytest.importorskip("bs4")
pytest.importorskip("html5lib")

from agent.web import read_web  # noqa: E402

PAGES = {
    "/docs": "<html><head><title>Docs</title></head><body><main><h1>Refunds</h1>"
    "<p>Refunds take five days.</p><p><a href='/docs/shipping#top'>Shipping</a></p>"
    "<p><a href='https://elsewhere.example/x'>away</a></p></main></body></html>",
    "/docs/shipping": "<html><head><title>Shipping</title></head><body><main>"
    "<p>Norway takes two weeks.</p><p><a href='/docs'>back</a></p></main></body></html>",
    "/sitemap.xml": "<urlset><url><loc>{base}/docs/shipping</loc></url></urlset>",
}


@pytest.fixture
def site():
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = PAGES.get(self.path)
            if body is None:
                self.send_error(404)
                return
            data = body.replace("{base}", base).encode("utf-8")
            self.send_response(200)
            kind = "application/xml" if self.path.endswith(".xml") else "text/html; charset=utf-8"
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base
    server.shutdown()
    server.server_close()


def test_one_page_is_read_with_its_address(site):
    [document] = read_web(f"{site}/docs")

    assert document.text == "Refunds\n\nRefunds take five days.\n\nShipping\n\naway"
    assert (document.source, document.url, document.section) == ("Docs", f"{site}/docs", "Refunds")


def test_links_on_the_same_site_are_followed_up_to_the_page_limit(site):
    documents = read_web(f"{site}/docs", max_pages=5)

    assert [document.url for document in documents] == [f"{site}/docs", f"{site}/docs/shipping"]
    assert documents[1].source == "Shipping"


def test_a_sitemap_lists_the_pages_read(site):
    documents = read_web(f"{site}/sitemap.xml", max_pages=5, sitemap=True)

    assert [(d.url, d.text) for d in documents] == [
        (f"{site}/docs/shipping", "Norway takes two weeks.\n\nback")
    ]


def test_an_address_that_cannot_be_read_says_so(site):
    with pytest.raises(ConfigError, match="could not be read"):
        read_web(f"{site}/missing")
    with pytest.raises(ConfigError, match="not a web address"):
        read_web("file:///etc/passwd")
