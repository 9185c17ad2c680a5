"""The README's Python examples, read from the README itself, so that the tests run them as
they stand there."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def block(heading: str) -> str:
    """The first ```python block after `heading`."""
    text = README.read_text(encoding="utf-8")
    after = text.split(heading, 1)[1]
    match = re.search(r"```python\n(.*?)```", after, re.S)
    assert match, f"no python block under {heading!r} in the README"
    return match.group(1)
