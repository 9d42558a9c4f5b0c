"""mkdocs hooks (mkdocs.yml, `hooks:`): a link to an anchor that its page
does not have is a warning, which `strict: true` turns into a failed build.

mkdocs 1.4 checks that a link's page exists, not its #fragment: a heading
renamed on one page would silently break the links of the others. Here every
link of every page (its content and the theme's navigation) that names a
fragment is checked against the ids of the page it points to.
"""
import logging
import posixpath
from html.parser import HTMLParser
from typing import Dict, List, Set
from urllib.parse import unquote, urlsplit

# Under "mkdocs", where strict mode counts the warnings.
log = logging.getLogger("mkdocs.hooks.anchors")


class _Anchors(HTMLParser):
    """The ids a page defines and the links it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: Set[str] = set()
        self.links: List[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "a" and attributes.get("name"):
            self.ids.add(attributes["name"])
        if tag == "a" and attributes.get("href"):
            self.links.append(attributes["href"])


# Each built page's anchors, by its path in the site: filled as pages are
# written, checked once all are.
_pages: Dict[str, _Anchors] = {}


def on_pre_build(config) -> None:
    _pages.clear()  # `mkdocs serve` builds again in the same process


def on_post_page(output: str, page, config) -> str:
    anchors = _Anchors()
    anchors.feed(output)
    _pages[page.file.dest_uri] = anchors
    return output


def on_post_build(config) -> None:
    for source, anchors in sorted(_pages.items()):
        for href in anchors.links:
            url = urlsplit(href)
            if url.scheme or url.netloc or not url.fragment:
                continue
            target = source
            if url.path:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(source),
                                                           unquote(url.path)))
            # Not a page (a picture, a download): mkdocs checks those itself.
            if target not in _pages:
                continue
            if unquote(url.fragment) not in _pages[target].ids:
                log.warning("%s links to '%s': %s has no anchor '#%s'",
                            source, href, target, unquote(url.fragment))
