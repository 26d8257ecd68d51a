"""Connect to a Dask scheduler, or start a local cluster of worker processes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..diagnostics import UsageError


def require_dask() -> None:
    """Refuse with one line when the ``dask`` extra is not installed."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError("the Dask engine needs the dask extra: pip install 'corefeval[dask]'") from None


@contextmanager
def connect(scheduler: str | None = None, workers: int = 2) -> Iterator[Any]:
    """A ``distributed.Client`` on ``scheduler``, or on a local cluster of ``workers`` processes."""
    require_dask()
    import logging

    from distributed import Client, LocalCluster

    logging.getLogger("distributed.shuffle").setLevel(logging.ERROR)  # per-shuffle notices are not news

    if scheduler:
        with Client(scheduler) as client:
            yield client
        return
    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        yield client
