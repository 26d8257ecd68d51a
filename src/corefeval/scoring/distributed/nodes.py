"""A Dask scheduler and worker that open no HTTP server, for the local cluster.

``distributed`` starts an HTTP server (health, metrics, task information) in every scheduler and
worker, even with the dashboard turned off, and without authentication. The local cluster keeps other
users out with TLS on its comm ports, so it must not leave an HTTP port open beside them. This module
imports ``distributed``: it is imported only when a local cluster starts.
"""

from __future__ import annotations

from typing import Any

from distributed import Scheduler, Worker


class ClosedScheduler(Scheduler):  # type: ignore[misc]
    """A scheduler reachable only on its comm address."""

    def start_http_server(self, *args: Any, **kwargs: Any) -> None:
        """Open no HTTP server."""


class ClosedWorker(Worker):  # type: ignore[misc]
    """A worker reachable only on its comm address."""

    def start_http_server(self, *args: Any, **kwargs: Any) -> None:
        """Open no HTTP server."""
