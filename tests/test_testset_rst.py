"""reStructuredText (Sphinx) pages: read through docutils into the same blocks as HTML, and
asked like any other page. A folder of .rst pages was once "no readable documents"."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from testset_gen import generate
from testset_gen.documents.file_readers import parse_file
from testset_gen.documents.ingest import load_documents

GUIDE = """Configuring the Widget Server
=============================

.. versionadded:: 2.0

The Widget Server reads its settings from a file called ``widgets.toml``. See
:ref:`the reference <settings-ref>` and :func:`widgets.load_config` for details.

Setting the timeout
-------------------

To set the timeout, pass ``--timeout`` to :program:`widgetd`::

    widgetd --timeout 30

The default timeout is 10 seconds.

- Use short timeouts for health checks.
- Use long timeouts for uploads.

.. toctree::

   install
   usage

.. autofunction:: widgets.load_config
"""


def test_a_sphinx_page_reads_as_headings_paragraphs_code_and_items(tmp_path: Path) -> None:
    page = tmp_path / "guide.rst"
    page.write_text(GUIDE, encoding="utf-8")
    parsed = parse_file(page)
    assert parsed.format == "rst" and parsed.declared_title == "Configuring the Widget Server"
    assert [(b.category, b.text) for b in parsed.blocks] == [
        ("Title", "Configuring the Widget Server"),
        # a role reads as the text it shows; the toctree and the API page pull in nothing
        ("NarrativeText", "The Widget Server reads its settings from a file called widgets.toml. See "
                          "the reference and widgets.load_config for details."),
        ("Title", "Setting the timeout"),
        ("NarrativeText", "To set the timeout, pass --timeout to widgetd:"),
        ("CodeSnippet", "widgetd --timeout 30"),
        ("NarrativeText", "The default timeout is 10 seconds."),
        ("ListItem", "Use short timeouts for health checks."),
        ("ListItem", "Use long timeouts for uploads."),
    ]


def test_a_folder_of_rst_pages_loads_and_an_unread_type_is_named(tmp_path: Path) -> None:
    (tmp_path / "guide.rst").write_text(GUIDE, encoding="utf-8")
    result = load_documents(tmp_path)
    assert [d.title for d in result.documents] == ["Configuring the Widget Server"]

    only_images = tmp_path / "images"
    only_images.mkdir()
    for name in ("a.png", "b.png", "c.svg"):
        (only_images / name).write_bytes(b"\x89PNG")
    with pytest.raises(ValueError, match=r"3 files of a type no reader handles: \.png 2, \.svg 1; read: .*\.rst"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            generate(only_images, 2, judge="local", cache=False)
