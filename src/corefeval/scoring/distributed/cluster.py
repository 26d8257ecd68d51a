"""Connect to a Dask scheduler, or start a local cluster of worker processes that only this user reaches.

The local cluster speaks TLS with a key made for the run and held in memory (dask's
``Security.temporary``; dask writes it only for a moment, to a folder private to the user): a
process without that key, another user's included, cannot connect to its scheduler, nannies or
workers, which would otherwise run any code sent to them. It opens no HTTP server (:mod:`.nodes`)
and its logs are silenced. On any cluster, an input error reaches the command line as the one line
the local engine prints; a scheduler that cannot be reached, or an address that cannot be one, is
refused in one line naming it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...core.diagnostics import InputError, UsageError

#: Seconds to wait for a ``--scheduler`` unless dask's ``distributed.comm.timeouts.connect`` says otherwise.
CONNECT_TIMEOUT = 10.0

#: Characters of an error message that a local cluster's workers send back whole (dask cuts at 10,000).
_MAX_ERROR_LENGTH = 1 << 20

#: A scheduler address: an optional scheme Dask serves without extra packages, a host and a port.
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})")

#: What distributed sends instead of an exception whose text is longer than its limit.
_CUT = "Long error message"


def require_dask() -> None:
    """Refuse with one line when the ``dask`` extra is not installed."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError("the Dask engine needs the dask extra: pip install 'corefeval[dask]'") from None


@contextmanager
def connect(scheduler: str | None = None, workers: int = 2) -> Iterator[Any]:
    """A ``distributed.Client`` on ``scheduler``, or on a local cluster of ``workers`` processes; an
    error raised in a task leaves as the exception the task raised."""
    if scheduler:
        check_address(scheduler)
    require_dask()
    logging.getLogger("distributed.shuffle").setLevel(logging.ERROR)  # per-shuffle notices are not news
    with _remote(scheduler) if scheduler else _local(workers) as client:
        try:
            yield client
        except Exception as err:
            whole = uncut_error(err)
            if whole is err:
                raise
            raise whole from None


def check_address(address: str) -> None:
    """Refuse, before Dask is imported, what cannot be a scheduler's address."""
    match = _ADDRESS.fullmatch(address)
    if match is None or not 0 < int(match.group(1)) < 65536:
        raise UsageError(f"--scheduler {address!r}: expected an address such as tcp://HOST:8786 or tls://HOST:8786")


@contextmanager
def _remote(address: str) -> Iterator[Any]:
    """A client of the scheduler at ``address``, with the TLS credentials of dask's configuration."""
    from distributed import Client
    from distributed.security import Security

    security, encrypted = Security(), address.startswith(("tls://", "wss://"))
    if encrypted and security.get_connection_args("client")["ssl_context"] is None:
        raise UsageError(
            f"--scheduler {address}: no TLS credentials: set distributed.comm.tls.ca-file, "
            "distributed.comm.tls.client.cert and distributed.comm.tls.client.key in dask's configuration"
        )
    if security.require_encryption and not encrypted:
        raise UsageError(
            f"--scheduler {address}: dask's configuration requires encryption "
            "(distributed.comm.require-encryption): give a tls:// address"
        )
    timeout = connect_timeout()
    try:
        client = Client(address, timeout=timeout, security=security)
    except OSError as err:
        raise UsageError(f"cannot connect to the Dask scheduler at {address}: {_why(err, timeout)}") from None
    with client:
        yield client


def _why(err: OSError, timeout: float) -> str:
    """What distributed says went wrong, without its object addresses."""
    if type(err) is OSError and str(err).startswith("Timed out"):
        last = f" (last: {_plain(err.__cause__)})" if err.__cause__ else ""
        return f"no answer within {timeout:g} s{last}; dask's distributed.comm.timeouts.connect sets the wait"
    return _plain(err)


def _plain(err: BaseException) -> str:
    return re.sub(r"^in <[^>]*>: ", "", str(err)) or type(err).__name__


def connect_timeout() -> float:
    """Seconds to wait for a scheduler: dask's ``distributed.comm.timeouts.connect`` when it was set
    to something other than dask's default (30 s, long for a command line), else ``CONNECT_TIMEOUT``."""
    import dask.config
    from dask.utils import parse_timedelta

    key = "distributed.comm.timeouts.connect"
    chosen, default = dask.config.get(key), dask.config.get(key, config=dask.config.merge(*dask.config.defaults))
    return CONNECT_TIMEOUT if chosen == default else float(parse_timedelta(chosen, "s"))


@contextmanager
def _local(workers: int) -> Iterator[Any]:
    """A client of a new cluster on loopback: a scheduler here and ``workers`` one-thread worker
    processes, all on TLS with a temporary key, none with an HTTP server, their logs silenced."""
    import dask.config
    from distributed import Client, Nanny, SpecCluster
    from distributed.worker_memory import parse_memory_limit

    from .nodes import ClosedScheduler, ClosedWorker

    security = _temporary_security()
    where = {"host": "127.0.0.1", "protocol": "tls", "security": security}
    scheduler = {"cls": ClosedScheduler, "options": {**where, "dashboard": False, "dashboard_address": None}}
    memory = parse_memory_limit("auto", 1, workers, logger=logging.getLogger("distributed.worker"))
    options = {"worker_class": ClosedWorker, "nthreads": 1, "memory_limit": memory, "silence_logs": logging.CRITICAL}
    worker = {"cls": Nanny, "options": {**where, **options}}
    with dask.config.set({"distributed.admin.max-error-length": _MAX_ERROR_LENGTH}):  # nannies pass it on
        cluster = SpecCluster(
            scheduler=scheduler,
            workers=dict.fromkeys(range(workers), worker),
            worker=worker,
            security=security,
            silence_logs=logging.CRITICAL,
        )
    with cluster, Client(cluster, security=security) as client:
        yield client


def _temporary_security() -> Any:
    """TLS credentials made for this run, held in memory (a self-signed certificate and its key)."""
    from distributed.security import Security

    try:
        return Security.temporary()
    except ImportError:
        raise UsageError("the local Dask cluster needs the dask extra: pip install 'corefeval[dask]'") from None


def uncut_error(err: Exception) -> Exception:
    """The error a task raised, when distributed replaced it by a generic ``Exception`` because its
    text was long (the workers of a cluster started elsewhere cut at their own limit): its start,
    as the one-line error it was."""
    if len(err.args) == 3 and err.args[:2] == (_CUT, InputError) and isinstance(err.args[2], str):
        where = re.match(r"(.*?)(?::(\d+))?: error: (.*)", err.args[2], re.DOTALL)
        if where is not None:
            return InputError(where.group(1), int(where.group(2) or 0), where.group(3) + " [...]")
    if isinstance(err, UsageError) and err.args[:1] == (_CUT,):
        return UsageError(f"{err.args[-1]} [...]")
    return err
