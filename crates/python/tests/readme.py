"""The Python examples of the README and docs/python.md, read from the pages themselves, so that
the tests run them as they stand there."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]
PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]


def block(heading: str) -> str:
    """The first ```python block after `heading`, in the README or else in docs/python.md."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        if heading in text:
            after = text.split(heading, 1)[1]
            match = re.search(r"```python\n(.*?)```", after, re.S)
            assert match, f"no python block under {heading!r} in {page.name}"
            return match.group(1)
    raise AssertionError(f"no heading {heading!r} in the README or docs/python.md")
