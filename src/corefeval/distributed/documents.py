"""Many documents on Dask: each partition scores its documents with the local scorer; rows are summed once.

CoNLL-2012, CorefUD, jsonlines and model-output files are split at their document boundaries (the
byte-range index of :mod:`corefeval.stream`), so a worker reads only its own documents; every run
option applies, the rows come back in key-file order and the result is the one
:func:`corefeval.score` gives. Files of any format can also be given as shards (lists or globs of
key and response files, paired in sorted order): each pair is scored by a task and the results are
merged.
"""

from __future__ import annotations

import glob
from collections.abc import Iterable, Sequence
from typing import Any

from ..diagnostics import UsageError
from ..options import Options
from ..results import ScoreResult, merge
from ..stream import Row, Task, _score_task, score_streaming

_TASKS_PER_PARTITION = 64  # documents per Dask task: large enough that scheduling costs little


def _bag_map(tasks: list[Task]) -> list[Row]:
    import dask.bag as db

    if not tasks:
        return []
    n = max(1, -(-len(tasks) // _TASKS_PER_PARTITION))
    return list(db.from_sequence(tasks, npartitions=n).map(_score_task).compute())


def score_documents(
    key: str,
    response: str,
    metrics: Iterable[str] | None = None,
    *,
    options: Options | None = None,
    blanc: str | None = None,
    pad_key_mentions: bool | None = None,
) -> ScoreResult:
    """Score two files document by document on Dask (the active client, or Dask's default), with
    ``options`` as :func:`corefeval.score` takes them (``metrics``, ``blanc`` and
    ``pad_key_mentions`` put over them). spaCy files have no document index: they are scored here."""
    from .cluster import require_dask

    require_dask()
    return score_streaming(
        key, response, metrics, options=options, blanc=blanc, pad_key_mentions=pad_key_mentions, mapper=_bag_map
    )


def expand(paths: str | Sequence[str]) -> list[str]:
    """Paths and globs, expanded and sorted (each pattern in turn)."""
    out: list[str] = []
    for p in [paths] if isinstance(paths, str) else paths:
        found = sorted(glob.glob(p))
        out.extend(found if found else [p])
    return out


def score_shards(keys: str | Sequence[str], responses: str | Sequence[str], **options: Any) -> ScoreResult:
    """Score pairs of shard files of any format (``keys[i]`` against ``responses[i]``) on Dask and merge
    the results; ``options`` are those of :func:`corefeval.score`."""
    from .cluster import require_dask

    require_dask()
    import dask.bag as db

    key_files, response_files = expand(keys), expand(responses)
    if len(key_files) != len(response_files) or not key_files:
        raise UsageError(f"{len(key_files)} key shards but {len(response_files)} response shards")
    pairs = list(zip(key_files, response_files))
    results = db.from_sequence(pairs, npartitions=len(pairs)).map(_score_pair, options).compute()
    return merge(list(results))


def _score_pair(pair: tuple[str, str], options: dict[str, Any]) -> ScoreResult:
    from ..scoring import score

    return score(pair[0], pair[1], **options)
