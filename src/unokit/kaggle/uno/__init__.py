"""The UNO games of :mod:`unokit.openspiel` as a Kaggle-style game package (extra
``openspiel``): :mod:`.uno_proxy` (a seat's observation as JSON), :mod:`.harness` (the LLM
harness: legal moves, prompt, parsing) and :mod:`.replay` (an episode and its replay file, which
the web table's replay plays). See docs/research.md."""
