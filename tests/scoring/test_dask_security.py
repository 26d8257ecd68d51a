"""The Dask engine's cluster keeps other users out, and its errors are the local engine's one line."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed")
pytest.importorskip("dask.dataframe")
pytest.importorskip("cryptography")
psutil = pytest.importorskip("psutil")

import dask.config  # noqa: E402
from distributed.security import Security  # noqa: E402

from corefeval.cli import main  # noqa: E402
from corefeval.core.diagnostics import InputError  # noqa: E402
from corefeval.scoring.distributed import cluster  # noqa: E402

KEY = """#begin document (d); part 000
d 0 0 A _ _ _ _ _ _ _ (1)
d 0 1 B _ _ _ _ _ _ _ (1)
d 0 2 C _ _ _ _ _ _ _ -

#end document
"""


def write(tmp_path: Path, field: str) -> tuple[str, str]:
    """A key, and a response whose third line has the coreference field ``field``."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(KEY)
    response.write_text(KEY.replace("d 0 1 B _ _ _ _ _ _ _ (1)", "d 0 1 B _ _ _ _ _ _ _ " + field))
    return str(key), str(response)


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    """A key, and a response whose error message is longer than the 10,000 characters distributed
    sends back by default: its document, named by 20,000 characters, has a token fewer."""
    name = "(" + "x" * 20_000 + "); part 000"
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(KEY.replace("(d); part 000", name))
    response.write_text(KEY.replace("(d); part 000", name).replace("d 0 2 C _ _ _ _ _ _ _ -\n", ""))
    return str(key), str(response)


def listening() -> set[int]:
    """The TCP ports this process and its children listen on."""
    me = psutil.Process()
    return {
        c.laddr.port
        for p in (me, *me.children(recursive=True))
        for c in p.net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN
    }


def answers_http(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /health HTTP/1.0\r\n\r\n")
        try:
            return s.recv(5) == b"HTTP/"
        except OSError:
            return False


def admits(address: str, **connection_args: Any) -> bool:
    """Whether a comm can be opened to ``address`` with these credentials."""
    from distributed.comm import connect as open_comm

    async def attempt() -> bool:
        try:
            comm = await open_comm(address, timeout=2, **connection_args)
        except OSError:
            return False
        await comm.close()
        return True

    return asyncio.run(attempt())


def test_the_local_cluster_listens_only_on_tls_ports_that_refuse_strangers() -> None:
    """Every port the local cluster opens (scheduler, nanny, worker) speaks TLS with a key of the run:
    plain TCP, HTTP and TLS with another key are refused, so another user cannot run code there."""
    before = listening()
    with cluster.connect(None, 1) as client:
        opened = listening() - before
        assert client.scheduler.address.startswith("tls://127.0.0.1:")
        assert len(opened) == 3  # scheduler, nanny, worker: no HTTP server beside them
        stranger = Security.temporary().get_connection_args("client")
        for port in opened:
            assert not answers_http(port)
            assert not admits(f"tcp://127.0.0.1:{port}")
            assert not admits(f"tls://127.0.0.1:{port}", **stranger)
        assert admits(client.scheduler.address, **client.security.get_connection_args("client"))


@pytest.mark.parametrize("field", ["(x", "(" + "x" * 20_000])
def test_an_input_error_under_the_local_cluster_is_the_local_engines_one_line(
    tmp_path: Path, field: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """No worker log before it, and no "Long error message" traceback instead of a long one."""
    key, response = write(tmp_path, field)
    assert main(["score", key, response]) == 1
    local = capfd.readouterr().err
    assert local.startswith(f"{response}:3: error: cannot read coreference field '(x") and local.count("\n") == 1
    assert main(["score", key, response, "--engine", "dask", "-j", "1"]) == 1
    assert capfd.readouterr().err == local


@pytest.fixture
def tls_scheduler(tmp_path: Path) -> Iterator[str]:
    """A cluster started elsewhere, as docs/distributed.md secures one: TLS certificates in files,
    given to the client through dask's configuration. Its worker cuts long errors (dask's default)."""
    from distributed import LocalCluster

    made = Security.temporary()
    pem = {"ca.pem": made.tls_ca_file, "cert.pem": made.tls_client_cert, "key.pem": made.tls_client_key}
    for name, text in pem.items():
        (tmp_path / name).write_text(text)
    ca, cert, key = (str(tmp_path / name) for name in pem)
    files = {"tls_ca_file": ca, "tls_scheduler_cert": cert, "tls_scheduler_key": key}
    files |= {"tls_worker_cert": cert, "tls_worker_key": key, "tls_client_cert": cert, "tls_client_key": key}
    security = Security(require_encryption=True, **files)
    with LocalCluster(
        n_workers=1, threads_per_worker=1, protocol="tls", security=security, dashboard_address="127.0.0.1:0"
    ) as c:
        config = {"distributed.comm.tls.ca-file": ca, "distributed.comm.tls.client.cert": cert}
        config |= {"distributed.comm.tls.client.key": key, "distributed.comm.require-encryption": True}
        with dask.config.set(config):
            yield c.scheduler_address


def test_a_tls_scheduler_scores_and_its_cut_errors_stay_one_line(
    tls_scheduler: str, files: tuple[str, str], capfd: pytest.CaptureFixture[str]
) -> None:
    key, response = files
    assert main(["score", key, key, "--engine", "dask", "--scheduler", tls_scheduler, "-m", "conll"]) == 0
    assert "100.00" in capfd.readouterr().out
    assert main(["score", key, response, "--engine", "dask", "--scheduler", tls_scheduler]) == 1
    err = capfd.readouterr().err
    assert err.startswith(f"{response}:1: error: document '(xxx")
    assert err.endswith("x [...]\n") and err.count("\n") == 1 and len(err) < 10_100
    plain = tls_scheduler.replace("tls://", "tcp://")
    assert main(["score", key, key, "--engine", "dask", "--scheduler", plain]) == 2
    err = capfd.readouterr().err
    assert err == f"corefeval score: error: --scheduler {plain}: dask's configuration requires encryption " + (
        "(distributed.comm.require-encryption): give a tls:// address\n"
    )


def test_a_cut_error_is_restored_as_an_input_error() -> None:
    from distributed.utils import truncate_exception

    long = InputError("a b.conll", 7, "bad: " + "y" * 20_000)
    cut = truncate_exception(long, 10_000)
    assert type(cut) is Exception and cut.args[0] == "Long error message"
    restored = cluster.uncut_error(cut)
    assert isinstance(restored, InputError)
    assert restored.diagnostic.path == "a b.conll" and restored.diagnostic.line == 7
    assert str(restored).startswith("a b.conll:7: error: bad: yyy") and str(restored).endswith("y [...]")
    other = ValueError("not ours")
    assert cluster.uncut_error(other) is other


def test_an_unreachable_scheduler_is_one_line_naming_it(
    files: tuple[str, str], capfd: pytest.CaptureFixture[str]
) -> None:
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert main(["score", *files, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capfd.readouterr().err
    assert err.startswith("corefeval score: error: cannot connect to the Dask scheduler at tcp://127.0.0.1:1: ")
    assert "no answer within 1 s" in err and err.count("\n") == 1


def test_the_wait_for_a_scheduler_is_short_unless_dask_is_told_otherwise() -> None:
    assert cluster.connect_timeout() == cluster.CONNECT_TIMEOUT == 10
    with dask.config.set({"distributed.comm.timeouts.connect": "45s"}):
        assert cluster.connect_timeout() == 45


@pytest.mark.parametrize(
    "address", ["foo", "tcp://", "tcp://[::1", "nonsense://x:1", "tcp://host:port", "127.0.0.1:0", "tcp://h:99999"]
)
def test_a_malformed_scheduler_address_is_one_line(address: str, capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "k", "r", "--engine", "dask", "--scheduler", address]) == 2
    err = capfd.readouterr().err
    assert err == f"corefeval score: error: --scheduler {address!r}: expected an address such as tcp://HOST:8786 " + (
        "or tls://HOST:8786\n"
    )


def test_a_tls_address_without_credentials_is_one_line(
    files: tuple[str, str], capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", *files, "--engine", "dask", "--scheduler", "tls://127.0.0.1:1"]) == 2
    err = capfd.readouterr().err
    assert err.startswith("corefeval score: error: --scheduler tls://127.0.0.1:1: no TLS credentials")
    assert err.count("\n") == 1
