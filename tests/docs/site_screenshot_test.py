#!/usr/bin/python3
"""Looked at, not only built: the README and the documentation site in a
real browser.

The README (made HTML by python3-markdown, which mkdocs uses) and the built
site's first page are opened in headless Chromium, driven over the DevTools
protocol (tests/http/cdp.py), from a loopback HTTP server; a screenshot of
each is saved, every picture on them must have loaded, and the site's page
must show its navigation. Every picture in docs/ is drawn on a canvas and
must put ink on it, and every page of the site that shows a picture must
have loaded it. Chromium is installed with apt-get when missing and this
runs as root; the cases are skipped otherwise. Python 3 standard library
and python3-markdown only.

usage: site_screenshot_test.py --source-dir DIR --site-dir DIR --screenshot-dir DIR
                               [unittest args]
"""
import argparse
import functools
import glob
import http.server
import os
import sys
import tempfile
import threading
import unittest
from typing import List

import markdown

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "http"))
import cdp  # noqa: E402 (found through the path above)

OPTIONS = None  # the parsed command line

# What the README and the first page must show: the pictures of a solved
# board, the methods and the time per row.
PICTURES = ("board.svg", "methods.svg", "time-per-row.svg")
# The least share of a picture's pixels that must differ from the white it is
# drawn on: a picture that parses but draws nothing has none.
LEAST_INK = 0.002
# Each <img> of the page, as the browser has it.
IMAGES_JS = """[...document.images].map((image) => ({
  src: image.src, complete: image.complete, width: image.naturalWidth}))"""


def ink_js(url: str) -> str:
    """An expression: the picture at `url`, drawn on white on a canvas (at
    most 1000 pixels wide), as its natural size and the share of pixels it
    inked, or the error that kept it from decoding."""
    return f"""(async () => {{
      const image = new Image();
      image.src = {url!r};
      try {{ await image.decode(); }} catch (error) {{ return {{error: String(error)}}; }}
      const scale = Math.min(1, 1000 / image.naturalWidth);
      const width = Math.max(1, Math.round(image.naturalWidth * scale));
      const height = Math.max(1, Math.round(image.naturalHeight * scale));
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext("2d");
      context.fillStyle = "#fff";
      context.fillRect(0, 0, width, height);
      context.drawImage(image, 0, 0, width, height);
      const pixels = context.getImageData(0, 0, width, height).data;
      let inked = 0;
      for (let i = 0; i < pixels.length; i += 4) {{
        if (pixels[i] < 224 || pixels[i + 1] < 224 || pixels[i + 2] < 224) inked++;
      }}
      return {{width: image.naturalWidth, height: image.naturalHeight,
               ink: inked / (width * height)}};
    }})()"""


def readme_html(source_dir: str) -> str:
    """The README as an HTML page whose relative links resolve in the
    repository (served at /repository/)."""
    body = markdown.markdown(read(os.path.join(source_dir, "README.md")),
                             extensions=["tables", "fenced_code"])
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            "<base href='/repository/'><title>README</title></head>"
            f"<body style='max-width: 60em; margin: auto; font-family: sans-serif'>{body}"
            "</body></html>")


def read(path: str) -> str:
    with open(path, encoding="utf-8") as file:
        return file.read()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass  # the cases say what failed


class SiteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        executable = cdp.chromium()
        # Served from one root: the README's page, the repository and the site.
        root = tempfile.TemporaryDirectory(prefix="site-test-")
        cls.addClassCleanup(root.cleanup)
        with open(os.path.join(root.name, "readme.html"), "w", encoding="utf-8") as page:
            page.write(readme_html(OPTIONS.source_dir))
        # The origin pictures are drawn in: a canvas shows only its own origin's.
        with open(os.path.join(root.name, "blank.html"), "w", encoding="utf-8") as page:
            page.write("<!DOCTYPE html><title>blank</title>")
        os.symlink(OPTIONS.source_dir, os.path.join(root.name, "repository"))
        os.symlink(OPTIONS.site_dir, os.path.join(root.name, "site"))
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Quiet, directory=root.name))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        cls.addClassCleanup(server.server_close)
        cls.addClassCleanup(server.shutdown)
        cls.base = f"http://127.0.0.1:{server.server_address[1]}/"
        cls.browser = cdp.Browser(executable)
        cls.addClassCleanup(cls.browser.close)

    def open_page(self, path: str) -> cdp.Page:
        """A tab wide enough for the site's navigation sidebar, showing
        `path` with every picture on it loaded."""
        page = cdp.Page(self.browser, width=1440, height=900)
        self.addCleanup(page.close)
        page.navigate(self.base + path)
        images = page.evaluate(IMAGES_JS)
        for image in images:
            self.assertTrue(image["complete"] and image["width"] > 0,
                            f"{path}: {image['src']} did not load")
        return page

    def images(self, page: cdp.Page) -> List[str]:
        return [image["src"] for image in page.evaluate(IMAGES_JS)]

    def screenshot(self, page: cdp.Page, name: str) -> None:
        path = os.path.join(OPTIONS.screenshot_dir, name)
        page.screenshot(path)
        print(f"screenshot: {path}", flush=True)

    def site_page(self, name: str) -> str:
        """`name`'s path on the server; fails when the site was not built."""
        if not os.path.exists(os.path.join(OPTIONS.site_dir, name)):
            self.fail(f"{OPTIONS.site_dir}/{name} is missing: the site is not built "
                      "(cmake --build BUILD --target nqueens_site)")
        return f"site/{name}"

    def test_the_readme_shows_its_board(self):
        page = self.open_page("readme.html")
        self.assertEqual(page.evaluate("document.querySelector('h1').textContent"),
                         "nqueens: an n-Queens completion service")
        self.assertIn(self.base + "repository/docs/board.svg", self.images(page))
        self.screenshot(page, "docs-readme.png")

    def test_the_site_s_first_page_shows_its_navigation_and_board(self):
        page = self.open_page(self.site_page("index.html"))
        navigation = page.evaluate("""(() => {
          const nav = document.querySelector("nav.md-nav--primary");
          return nav && {visible: nav.getBoundingClientRect().width > 0,
                         links: [...nav.querySelectorAll("a")].map((a) => a.textContent.trim())};
        })()""")
        self.assertIsNotNone(navigation, "the page has no navigation")
        self.assertTrue(navigation["visible"], "the navigation is hidden")
        for title in ("Getting started", "Tutorial: from a board to a proof", "gRPC API"):
            self.assertIn(title, navigation["links"])
        self.assertIn(self.base + "site/board.svg", self.images(page))
        self.screenshot(page, "docs-site-index.png")

    def test_every_picture_in_docs_draws(self):
        docs = os.path.join(OPTIONS.source_dir, "docs")
        pictures = sorted(os.path.relpath(path, docs) for pattern in ("*.svg", "*.png")
                          for path in glob.glob(os.path.join(docs, "**", pattern),
                                                recursive=True))
        for name in PICTURES:
            self.assertIn(name, pictures)
        page = self.open_page("blank.html")
        for name in pictures:
            with self.subTest(name):
                drawn = page.evaluate(ink_js(f"{self.base}repository/docs/{name}"))
                self.assertNotIn("error", drawn, drawn)
                self.assertGreater(drawn["width"], 0)
                self.assertGreater(drawn["ink"], LEAST_INK, f"{name} draws almost nothing: {drawn}")

    def test_every_site_page_with_pictures_loads_them(self):
        self.site_page("index.html")
        pages = sorted(
            os.path.relpath(path, OPTIONS.site_dir)
            for path in glob.glob(os.path.join(OPTIONS.site_dir, "**", "*.html"), recursive=True)
            if "<img" in read(path))
        shown = set()
        for name in pages:
            with self.subTest(name):
                page = self.open_page(f"site/{name}")
                shown.update(os.path.basename(src) for src in self.images(page))
        for name in PICTURES:
            self.assertIn(name, shown)


def main():
    global OPTIONS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True, help="the repository's top directory")
    parser.add_argument("--site-dir", required=True, help="the built site (mkdocs build)")
    parser.add_argument("--screenshot-dir", required=True, help="where the PNGs go")
    OPTIONS, unittest_args = parser.parse_known_args()
    for name in ("source_dir", "site_dir", "screenshot_dir"):
        setattr(OPTIONS, name, os.path.abspath(getattr(OPTIONS, name)))
    unittest.main(argv=[sys.argv[0]] + unittest_args)


if __name__ == "__main__":
    main()
