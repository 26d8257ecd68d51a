"""text2text-coref's commands for tests, in one process: run with the Python that has udapi, with
text2text-coref's ``src`` folder on ``PYTHONPATH``.

    PYTHONPATH=TEXT2TEXT_SRC COREFUD_PYTHON llm_pipeline_runs.py

reads one JSON job a line on stdin, ``{"command": NAME, "args": [...]}``, where ``NAME`` is one of
text2text-coref's commands (``conllu2text``, ``conllu2json``, ``clean``, ``text2conllu``,
``json2conllu``) and ``args`` its command-line arguments, and answers one JSON line: ``{"ok": true}``,
or ``{"error": message}`` when the command fails. The commands' own functions are called, as their
command line calls them; nothing of them is reimplemented here.
"""

import contextlib
import io
import json
import logging
import sys


def main() -> None:
    logging.disable(logging.CRITICAL)
    from text2text_coref import __main__ as cli

    for line in sys.stdin:
        job = json.loads(line)
        sys.argv = ["text2text_coref", job["command"], *job["args"]]
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cli.main()
            answer = {"ok": True}
        except BaseException as err:  # assertion errors and exits are the command failing
            answer = {"error": f"{type(err).__name__}: {err}"[:300]}
        logging.disable(logging.CRITICAL)  # the commands configure logging again
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
