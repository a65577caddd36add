"""unokit for language models: the text harness (:mod:`.harness`), an OpenAI-compatible chat
client (:mod:`.chat`) and the ``llm:`` agent of ``unokit eval`` (:mod:`.bot`). Standard library
only."""
