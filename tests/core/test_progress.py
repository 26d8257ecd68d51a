"""Progress bars: on a terminal's stderr when the command line runs long work, never otherwise."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "src" / "corefeval" / "examples"
KEY, RESPONSE = str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll")
N_DOCUMENTS = 40  # enough that resampling documents raises no warning


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The bundled example repeated as many documents (so resampling works without warnings)."""
    folder = tmp_path_factory.mktemp("corpus")
    paths = []
    for name in ("key.conll", "response.conll"):
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        path = folder / name
        path.write_text("".join(text.replace("pradhan2014", f"doc{i}") for i in range(N_DOCUMENTS)), encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1]


# The bar's delay is set to 0 so that the small example shows one; everything else is as shipped.
CLI = "import sys, corefeval.core.progress as p; "
CLI += "p.DELAY = 0; from corefeval.cli import main; sys.exit(main(sys.argv[1:]))"


def _run(code: str, args: list[str], terminal: bool) -> tuple[int, str, str]:
    """Run ``code`` in a new interpreter; stderr is a pseudo-terminal or a pipe. Returns (status, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    if not terminal:
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
    with subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=follower, env=env
    ) as child:
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other side is closed: the child has exited
                break
            if not chunk:
                break
            seen += chunk
        out = child.stdout.read() if child.stdout else b""
        status = child.wait(timeout=300)
    os.close(leader)
    return status, out.decode(), seen.decode(errors="replace")


COMMANDS = {
    "scoring": ["score", "KEY", "RESPONSE"],
    "bootstrap": ["score", "KEY", "RESPONSE", "--confidence", "200"],
    "randomisation": ["compare", "KEY", "RESPONSE", "KEY", "--rounds", "200", "--resamples", "200"],
    "error analysis": ["errors", "KEY", "RESPONSE"],
    "repair costs": ["errors", "KEY", "RESPONSE"],
}


def _command(bar: str, corpus: tuple[str, str]) -> list[str]:
    return [{"KEY": corpus[0], "RESPONSE": corpus[1]}.get(a, a) for a in COMMANDS[bar]]


@pytest.mark.parametrize("bar", list(COMMANDS))
def test_a_terminal_shows_the_bar(bar: str, corpus: tuple[str, str]) -> None:
    status, out, err = _run(CLI, _command(bar, corpus), terminal=True)
    assert status == 0 and out
    assert f"\r{bar}:   0%|" in err


def test_reading_each_file_shows_a_bar_of_its_bytes(corpus: tuple[str, str]) -> None:
    """The reading of a long plain run is most of it: each file gets a bar of bytes read."""
    status, out, err = _run(CLI, ["score", *corpus], terminal=True)
    assert status == 0 and out
    for path in corpus:
        size = os.path.getsize(path)
        assert f"\rreading {os.path.basename(path)}:   0%|" in err
        assert f"| 0.00/{size / 1024:.2f}k [00:00<?, ?B/s]" in err  # bytes, out of the file's size
    status, _, err = _run(CLI, ["score", *corpus, "-q"], terminal=True)
    assert status == 0 and err == ""


@pytest.mark.parametrize("bar", list(COMMANDS))
def test_quiet_silences_it(bar: str, corpus: tuple[str, str]) -> None:
    status, out, err = _run(CLI, [*_command(bar, corpus), "--quiet"], terminal=True)
    assert status == 0 and out
    assert err == ""


@pytest.mark.parametrize("bar", list(COMMANDS))
def test_a_pipe_gets_nothing(bar: str, corpus: tuple[str, str]) -> None:
    status, out, err = _run(CLI, _command(bar, corpus), terminal=False)
    assert status == 0 and out
    assert err == ""


def test_human_study_shows_the_bars(shared: Path) -> None:
    h = shared / "human-study"
    args = ["humans", "agreement", "--answers", str(h / "answers.csv"), "--errors", str(h / "errors.csv")]
    args += ["--key", str(h / "GOLD.txt"), "--response", str(h / "SYS.txt"), "--resamples", "50"]
    status, out, err = _run(CLI, args, terminal=True)
    assert status == 0 and out
    assert "agreement: " in err and "scoring: " in err
    status, out, err = _run(CLI, [*args, "-q"], terminal=True)
    assert status == 0 and out and "agreement: " not in err


LIBRARY = f"""
import sys, corefeval, corefeval.core.progress as p
p.DELAY = 0
if sys.argv[1:] == ["asked"]:
    with p.shown():
        corefeval.score({KEY!r}, {RESPONSE!r})
else:
    corefeval.score({KEY!r}, {RESPONSE!r})
print("tqdm" in sys.modules)
"""


def test_library_calls_show_a_bar_only_when_asked() -> None:
    status, out, err = _run(LIBRARY, [], terminal=True)
    assert (status, out, err) == (0, "False\n", "")
    status, out, err = _run(LIBRARY, ["asked"], terminal=True)
    assert (status, out) == (0, "True\n") and "scoring: " in err


def test_a_plain_score_does_not_import_tqdm() -> None:
    code = CLI.replace("sys.exit(main(sys.argv[1:]))", "main(sys.argv[1:]); print('tqdm' in sys.modules)")
    status, out, err = _run(code, ["score", KEY, RESPONSE], terminal=False)
    assert status == 0 and out.endswith("False\n") and err == ""
