"""The UNO games of :mod:`unokit.openspiel` as a Kaggle-style game package (extra
``openspiel``): :mod:`.uno_proxy` (a seat's observation as JSON) and :mod:`.harness` (the LLM
harness: legal moves, prompt, parsing). See docs/research.md."""
