"""docs/rules.md says a check runs each ``pycon`` block, in order, as one doctest, so the
outputs it shows are what the code prints: this is that check."""

import doctest
import re
from pathlib import Path

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
PYCON = re.compile(r"^```pycon\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_every_example_in_the_rules_doc_prints_what_it_shows() -> None:
    blocks = PYCON.findall(RULES_DOC.read_text(encoding="utf-8"))
    assert len(blocks) > 10
    test = doctest.DocTestParser().get_doctest(
        "\n".join(blocks), globs={}, name="rules.md", filename=str(RULES_DOC), lineno=0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert tried > 100 and failed == 0
