"""reStructuredText (Sphinx documentation) to HTML, so that the HTML reader keeps its structure.

Why: most Python projects write their documentation in reStructuredText for Sphinx; a folder
of ``.rst`` pages read as nothing ("no readable documents") on the first one tried. docutils,
the reference implementation of the format, parses it into sections, paragraphs, lists,
literal blocks and tables, and writes HTML whose headings and lists unstructured's HTML
partitioner already reads as such.

Sphinx adds roles and directives that docutils does not know; unknown ones would come out as
error text in the page. The common ones are registered here: a cross-reference role
(``:func:`json.dumps```, ``:ref:`the guide <guide>```) reads as its text, an admonition-like
directive (``versionadded``, ``seealso``...) keeps its content, and directives that only pull
in other files or generated API pages (``toctree``, ``autofunction``, ``literalinclude``...)
are left out. Any other unknown markup is dropped quietly rather than written into the text.
"""

from __future__ import annotations

import re
from typing import Any

SPHINX_ROLES = ("ref", "doc", "term", "func", "meth", "class", "attr", "mod", "data", "const", "exc", "obj",
                "option", "envvar", "file", "command", "program", "kbd", "abbr", "samp", "menuselection",
                "guilabel", "keyword", "pep", "rfc", "py:func", "py:meth", "py:class", "py:attr", "py:mod",
                "py:data", "py:exc", "py:obj", "issue", "pr", "user", "gh", "confval", "setting")
"""Sphinx's roles (and a few common extensions'): each reads as the text it shows."""

PROSE_DIRECTIVES = ("versionadded", "versionchanged", "deprecated", "seealso", "admonition", "rubric",
                    "centered", "only", "tab", "tabs", "group-tab", "code-tab", "glossary", "hlist",
                    "describe", "function", "class", "method", "attribute", "data", "module", "program",
                    "option", "envvar", "confval")
"""Directives whose content is part of the page's text."""

FILE_DIRECTIVES = ("toctree", "literalinclude", "autofunction", "autoclass", "automodule", "automethod",
                   "autoattribute", "autodata", "autoexception", "autosummary", "currentmodule", "index",
                   "highlight", "default-role", "sectionauthor", "codeauthor", "click", "program-output",
                   "include", "graphviz", "mermaid", "uml", "jinja")
"""Directives that pull in other files or generated pages: nothing of this page's text."""

_TARGET = re.compile(r"^(?P<title>.*?)\s*<[^<>]*>$", re.S)
_registered = False


def _register() -> None:
    """Teach docutils Sphinx's roles and directives (once per process)."""
    global _registered
    if _registered:
        return
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives, roles

    def shown_text(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
                   options: dict | None = None, content: list | None = None) -> tuple[list, list]:
        m = _TARGET.match(text)
        shown = (m.group("title") if m and m.group("title") else text).lstrip("~!")
        if "." in shown and name in ("func", "meth", "class", "attr", "mod", "exc", "obj") and text.startswith("~"):
            shown = shown.rsplit(".", 1)[-1]
        return [nodes.literal(rawtext, shown)], []

    class ProseDirective(Directive):
        has_content = True
        optional_arguments = 8
        final_argument_whitespace = True
        option_spec = None  # any option, ignored

        def run(self) -> list:
            node = nodes.container()
            if self.arguments and self.name in ("admonition", "rubric", "describe", "function", "class",
                                                "method", "attribute", "data", "option", "envvar", "confval"):
                node += nodes.paragraph(text=" ".join(self.arguments))
            self.state.nested_parse(self.content, self.content_offset, node)
            return [node]

    class FileDirective(Directive):
        has_content = True
        optional_arguments = 8
        final_argument_whitespace = True
        option_spec = None

        def run(self) -> list:
            return []

    for role in SPHINX_ROLES:
        roles.register_canonical_role(role, shown_text)
    for name in PROSE_DIRECTIVES:
        directives.register_directive(name, ProseDirective)
    for name in FILE_DIRECTIVES:
        directives.register_directive(name, FileDirective)
    _registered = True


def rst_to_html(text: str) -> tuple[str, str | None]:
    """(the HTML body of ``text``, its document title or None). Errors in the markup are
    not written into the page (``report_level`` 5) and never stop the read (``halt_level`` 5)."""
    from docutils.core import publish_parts

    _register()
    parts = publish_parts(source=text, writer="html5", settings_overrides={
        "report_level": 5, "halt_level": 5, "file_insertion_enabled": False, "raw_enabled": False,
        "warning_stream": False, "syntax_highlight": "none", "input_encoding": "unicode"})
    title = re.sub(r"<[^>]+>", "", parts.get("title") or "").strip() or None
    body = parts["html_body"]
    return body, title
