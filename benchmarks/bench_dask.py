"""Benchmark the Dask engine on one giant unit written as Parquet, against the local scorer.

The 1M-mention unit is built as run_benchmark.py builds its million-mention unit: the shared
generator makes 50 parts (about 20,000 mentions each), and all parts form one unit (here, one
Parquet mention table; entity ids made distinct per part). The 10M unit is ten copies of those
parts under distinct document names, so the unit has ten times the mentions, entities and
overlap-graph components. Generated data is cached in ``--workdir``.

Each row runs ``corefeval score KEY RESPONSE`` as a whole process: ``--engine local``, and
``--engine dask --scheduler ADDRESS`` against a scheduler and 1 or 2 worker processes started here
(each worker one thread). Peak memory per worker is sampled from the worker processes every 0.2 s;
the command's own peak comes from its resource usage. Prints a Markdown table and the load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
GENERATOR = BENCHMARKS.parent.parent / "shared" / "tools" / "make_synthetic_conll.py"
PARTS = ["--seed", "2012", "--docs", "50", "--mentions", "1000000"]  # run_benchmark.py's MILLION unit
COPY_STRIDE = 100_000_000  # entity ids of copy c become c * stride + id
MIB = 2**20


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workdir", type=Path, default=Path("bench-dask-work"), help="where generated data is cached")
    p.add_argument("--generator", type=Path, default=GENERATOR)
    p.add_argument("--sizes", default="1,10", help="unit sizes in millions of mentions (copies of the parts)")
    p.add_argument("--workers", default="1,2", help="worker counts to measure")
    p.add_argument("--skip-local", action="store_true", help="do not run the local scorer")
    p.add_argument("--timeout", type=float, default=3600.0)
    return p.parse_args(argv)


def parts(workdir: Path, generator: Path) -> tuple[Path, Path]:
    """The generated parts as Parquet mention tables (generated once)."""
    from corefeval.scoring.distributed.tables import conll_to_unit_table

    key, response = workdir / "parts.key.parquet", workdir / "parts.response.parquet"
    if key.exists() and response.exists():
        return key, response
    conll_key, conll_response = workdir / "parts.key.conll", workdir / "parts.response.conll"
    if not conll_response.exists():
        subprocess.run(
            [
                sys.executable,
                str(generator),
                *PARTS,
                "--out-key",
                str(conll_key),
                "--out-response",
                str(conll_response),
                "--summary",
                str(workdir / "parts.json"),
            ],
            check=True,
        )
    conll_to_unit_table(str(conll_key), str(key))
    conll_to_unit_table(str(conll_response), str(response))
    return key, response


def unit(workdir: Path, source: Path, copies: int) -> Path:
    """A folder of ``copies`` Parquet files: the parts again under new document names and entity ids."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    side = source.name.split(".")[1]
    folder = workdir / f"{copies}M.{side}.parquet"
    if folder.exists():
        return folder
    partial = workdir / f"{copies}M.{side}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    table = pq.read_table(source)
    for c in range(copies):
        copy = table.set_column(0, "doc", pc.binary_join_element_wise(table["doc"], f"#{c}", ""))
        copy = copy.set_column(3, "entity", pc.add(table["entity"], c * COPY_STRIDE))
        pq.write_table(copy, partial / f"part-{c:03d}.parquet", row_group_size=1_000_000)
    partial.rename(folder)
    return folder


class Sampler:
    """Peak resident memory of each process in the trees of ``pids``, sampled in a thread."""

    def __init__(self, pids: list[int]) -> None:
        import psutil

        self.roots = [psutil.Process(p) for p in pids]
        self.peaks: dict[int, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        import psutil

        while not self.stop.is_set():
            for root in self.roots:
                try:
                    procs = [root, *root.children(recursive=True)]
                except psutil.Error:
                    continue
                for proc in procs:
                    try:
                        rss = proc.memory_info().rss
                    except psutil.Error:
                        continue
                    self.peaks[proc.pid] = max(self.peaks.get(proc.pid, 0), rss)
            time.sleep(0.2)

    def __enter__(self) -> Sampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_cluster(n_workers: int, workdir: Path) -> tuple[str, list[subprocess.Popen[bytes]], dict[str, str]]:
    """A scheduler and ``n_workers`` one-thread worker processes on this machine, on loopback and
    TLS only (a certificate made for this run, in a private folder), with no dashboard; also the
    environment that gives a client the certificate (see docs/distributed.md, "Security")."""
    from distributed.security import Security

    port = free_port()
    address = f"tls://127.0.0.1:{port}"
    secrets = workdir / "tls"
    secrets.mkdir(mode=0o700, exist_ok=True)
    pem = secrets / "cluster.pem"
    key = secrets / "cluster.key"
    config = Security.temporary().get_tls_config_for_role("client")
    pem.write_text(config["cert"])
    key.touch(mode=0o600)
    key.write_text(config["key"])
    tls = ["--tls-ca-file", str(pem), "--tls-cert", str(pem), "--tls-key", str(key)]
    log = (workdir / "cluster.log").open("ab")
    bindir = Path(sys.executable).parent
    scheduler = subprocess.Popen(
        [str(bindir / "dask"), "scheduler", "--protocol", "tls", "--host", "127.0.0.1", "--port", str(port)]
        + ["--no-dashboard", *tls],
        stdout=log,
        stderr=log,
    )
    workers = [
        subprocess.Popen(
            [str(bindir / "dask"), "worker", address, "--nthreads", "1", "--nworkers", "1", "--memory-limit", "0"]
            + ["--host", "127.0.0.1", "--no-dashboard", *tls],
            stdout=log,
            stderr=log,
        )
        for _ in range(n_workers)
    ]
    env = {
        "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
        "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(pem),
        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(pem),
        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(key),
    }
    from distributed import Client

    security = Security(
        tls_ca_file=str(pem), tls_client_cert=str(pem), tls_client_key=str(key), require_encryption=True
    )
    with Client(address, timeout=60, security=security) as client:
        client.wait_for_workers(n_workers, timeout=120)
    return address, [scheduler, *workers], env


def stop_cluster(processes: list[subprocess.Popen[bytes]]) -> None:
    for p in reversed(processes):
        p.terminate()
    for p in processes:
        p.wait(timeout=60)


def run(
    command: list[str], timeout: float, worker_pids: list[int], env: dict[str, str] | None = None
) -> tuple[float, int, list[int], str]:
    """Wall seconds, peak RSS (MiB) of the command process, of each worker process tree's largest
    process (MiB, largest first), and the command's standard output.

    Memory is sampled, not taken from the command's resource usage: a child's ``ru_maxrss`` starts
    from the parent's at fork time, and this script holds a part table in memory.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    with Sampler([proc.pid]) as own, Sampler(worker_pids) as workers:
        out, err = proc.communicate()
    timer.cancel()
    wall = time.perf_counter() - start
    if proc.returncode:
        lines = err.decode().strip().splitlines()
        raise RuntimeError(f"exit {proc.returncode}: {lines[-1] if lines else ''}")
    worker_peaks = sorted((v // MIB for v in workers.peaks.values()), reverse=True)[: len(worker_pids)]
    return wall, max(own.peaks.values(), default=0) // MIB, worker_peaks, out.decode()


def conll_line(out: str) -> str:
    return next((line.split()[-1] for line in out.splitlines() if line.startswith("CoNLL")), "?")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    key_parts, response_parts = parts(args.workdir, args.generator)
    rows = ["| unit | engine | workers | wall (s) | peak RSS, command (MiB) | peak RSS per worker (MiB) | CoNLL F1 |"]
    rows.append("|---|---|---|---|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        key, response = unit(args.workdir, key_parts, size), unit(args.workdir, response_parts, size)
        base = [sys.executable, "-m", "corefeval", "score", str(key), str(response)]
        if not args.skip_local:
            try:
                wall, peak, _, out = run([*base, "--engine", "local"], args.timeout, [])
                rows.append(f"| {size}M | local | - | {wall:.1f} | {peak} | - | {conll_line(out)} |")
            except RuntimeError as err:
                rows.append(f"| {size}M | local | - | failed | - | - | {err} |")
            print(rows[-1], file=sys.stderr, flush=True)
        for n in (int(w) for w in args.workers.split(",")):
            address, processes, env = start_cluster(n, args.workdir)
            try:
                command = [*base, "--engine", "dask", "--scheduler", address]
                wall, peak, worker_peaks, out = run(command, args.timeout, [p.pid for p in processes[1:]], env)
                per_worker = ", ".join(str(v) for v in worker_peaks)
                rows.append(f"| {size}M | dask | {n} | {wall:.1f} | {peak} | {per_worker} | {conll_line(out)} |")
            finally:
                stop_cluster(processes)
            print(rows[-1], file=sys.stderr, flush=True)
    print("\n".join(rows))
    print(f"\nload average after the runs: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
