"""What the README and docs/ tell an operator holds for a fresh clone anywhere."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_docs_name_no_folder_of_one_machine():
    """A path under someone's home or a build machine's folders does not exist on a clone;
    the server's own places (/opt/fudgetable, /etc, /var/lib) are the README's recipe."""
    found = [
        f"{document.name}:{number}: {line.strip()}"
        for document in DOCUMENTS
        for number, line in enumerate(document.read_text().splitlines(), 1)
        if re.search(r"(?<![\w.])/(work|root|home)/", line)
    ]
    assert found == []


def test_every_pytest_marker_declared_is_used():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    markers = config["tool"]["pytest"]["ini_options"]["markers"]
    declared = [re.split(r"[:(]", marker)[0] for marker in markers]
    sources = "\n".join(
        path.read_text() for path in [*(ROOT / "tests").rglob("*.py"), ROOT / "scripts/test"]
    )
    unused = [
        marker
        for marker in declared
        if not re.search(rf"mark\.{marker}\b|-m \"[^\"]*\b{marker}\b", sources)
    ]
    assert unused == []
