"""``corefeval leaderboard``: many datasets under the CRAC variants (or all twelve mention modes),
with macro and micro averages, in one table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..scoring.presets import PRESETS

if TYPE_CHECKING:
    from ..stats.leaderboard import Dataset

DEFAULT_PRESET = "crac2024"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..core.format_names import FORMATS
    from ..core.options import CHOICES
    from ..core.registry import ALL
    from ..report.leaderboard import FORMATS as OUTPUTS

    g = p.add_argument_group("datasets (any mix; each named once)")
    g.add_argument(
        "--pair", nargs=3, action="append", metavar=("NAME", "KEY", "RESPONSE"), help="a dataset (repeatable)"
    )
    g.add_argument(
        "--manifest",
        action="append",
        metavar="FILE",
        help="a TSV or CSV file of lines 'dataset, key, response' (paths relative to the file's folder; "
        "'#' starts a comment line)",
    )
    g.add_argument("--keys", metavar="GLOB", help="key files; each is paired with the response of the same file name")
    g.add_argument("--responses", metavar="GLOB", help="response files (with --keys); the dataset is the name's stem")
    v = p.add_argument_group("variants (columns)")
    v.add_argument(
        "--preset",
        choices=tuple(PRESETS),
        help=f"a shared task's variants and BLANC variant (default: {DEFAULT_PRESET})",
    )
    v.add_argument(
        "--modes",
        choices=("all",),
        help="instead of a preset: all twelve combinations of --match, --singletons and --zeros include|dependent",
    )
    o = p.add_argument_group("scores")
    o.add_argument(
        "-m", "--metric", default="conll", help=f"the metric whose F1 is shown: {', '.join(ALL)} (default conll)"
    )
    o.add_argument(
        "--blanc",
        choices=CHOICES["blanc"],
        help="BLANC boundary cases (default: the preset's, else as score chooses: ua for CorefUD and "
        "Universal Anaphora keys, reference for others)",
    )
    o.add_argument(
        "--heads",
        choices=CHOICES["heads"],
        default="first",
        help="head of a CorefUD mention whose file gives no 'head' field: its first node, as the CorefUD scorer "
        "takes it (default), or its syntactic head from the tree",
    )
    o.add_argument("--key-format", choices=FORMATS, default="auto", help="format of the keys (default: auto)")
    o.add_argument("--response-format", choices=FORMATS, default="auto", help="format of the responses (default: auto)")
    o.add_argument("--lenient", action="store_true", help="read an unreadable coreference field as '-', with a warning")
    o.add_argument("--format", choices=OUTPUTS, default="text", help="output format (default: text)")
    c = p.add_argument_group("confidence intervals (percentile bootstrap over documents)")
    c.add_argument(
        "--confidence", nargs="?", type=int, const=1000, metavar="N", help="intervals from N resamples (default 1000)"
    )
    c.add_argument(
        "--confidence-level", type=float, default=0.95, metavar="LEVEL", help="interval coverage (default 0.95)"
    )
    c.add_argument("--seed", type=int, help="random seed of the resampling (default 12345; in the signature)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar on standard error")


def run(args: argparse.Namespace) -> int:
    from ..core.diagnostics import UsageError
    from ..core.options import AUTO, Options
    from ..report.leaderboard import render
    from ..scoring.presets import ALL_MODES, preset
    from ..stats.confidence import DEFAULT_SEED
    from ..stats.leaderboard import Bootstrap, leaderboard
    from .common import emit_warnings

    if args.modes and args.preset:
        raise UsageError("choose one of --preset and --modes")
    if args.confidence is None and args.seed is not None:
        raise UsageError("--seed needs --confidence")
    name = None if args.modes else (args.preset or DEFAULT_PRESET)
    variants, blanc = (ALL_MODES, AUTO) if name is None else preset(name)  # auto: the key's format decides
    base = Options(
        blanc=args.blanc or blanc,
        lenient=args.lenient,
        heads=args.heads,
        key_format=args.key_format,
        response_format=args.response_format,
    )
    boot = None
    if args.confidence is not None:
        boot = Bootstrap(args.confidence, args.confidence_level, DEFAULT_SEED if args.seed is None else args.seed)
    board = leaderboard(datasets(args), variants, base, args.metric, name, boot)
    emit_warnings(board.warnings)
    sys.stdout.write(render(board, args.format))
    return 0


def datasets(args: argparse.Namespace) -> list[Dataset]:
    """The datasets the options name, in the order given: pairs, manifests, then globs."""
    from ..stats.leaderboard import Dataset, check_datasets

    found = [Dataset(n, k, r) for n, k, r in args.pair or ()]
    for manifest in args.manifest or ():
        found += read_manifest(manifest)
    if args.keys or args.responses:
        found += glob_pairs(args.keys, args.responses)
    check_datasets(found)
    for d in found:
        for path in (d.key, d.response):
            if not Path(path).exists():  # an input that cannot be read: exit 1, as in every command
                from ..core.diagnostics import InputError

                raise InputError(path, 0, f"cannot read the file: No such file or directory (dataset '{d.name}')")
            if not Path(path).is_file():  # standard input ("-") included: one stream cannot serve many files
                from ..core.diagnostics import UsageError

                raise UsageError(f"dataset '{d.name}': not a regular file (a dataset is read once per file): {path}")
    return found


def read_manifest(path: str) -> list[Dataset]:
    """Datasets from a TSV or CSV manifest: ``dataset, key, response`` per line (a tab anywhere
    makes tabs the separator); blank and ``#`` lines are skipped; a first line ``dataset,key,response``
    is a header."""
    import csv

    from ..core.diagnostics import InputError
    from ..stats.leaderboard import Dataset

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(path, 0, f"cannot read the manifest: {getattr(err, 'strerror', None) or err}") from None
    folder = Path(path).parent
    delimiter = "\t" if "\t" in text else ","
    out = []
    for number, fields in enumerate(csv.reader(text.splitlines(), delimiter=delimiter), start=1):
        if not fields or not "".join(fields).strip() or fields[0].lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in fields]
        if number == 1 and [f.lower() for f in fields] == ["dataset", "key", "response"]:
            continue
        if len(fields) != 3 or not all(fields):
            raise InputError(path, number, f"expected 3 fields (dataset, key, response), found {len(fields)}")
        name, key, response = fields
        out.append(Dataset(name, str(folder / key), str(folder / response)))
    return out


def glob_pairs(keys: str | None, responses: str | None) -> list[Dataset]:
    """Key and response files matched by two globs, paired by file name; the dataset is named after
    the file name without its last suffix. Files without a partner are an error."""
    import glob

    from ..core.diagnostics import InputError, UsageError
    from ..stats.leaderboard import Dataset

    if not keys or not responses:
        raise UsageError("--keys and --responses go together")
    found = []
    for option, pattern in (("--keys", keys), ("--responses", responses)):
        files = sorted(glob.glob(pattern))
        if not files:  # no input file: exit 1, as a missing file in every command
            raise InputError(pattern, 0, f"{option} matches no file")
        by_name = {Path(f).name: f for f in files}
        if len(by_name) < len(files):
            twice = next(n for n in by_name if sum(Path(f).name == n for f in files) > 1)
            raise UsageError(f"{option} '{pattern}' matches two files named '{twice}'")
        found.append(by_name)
    key_files, response_files = found
    unpaired = sorted(set(key_files) ^ set(response_files))
    if unpaired:
        side = "key" if unpaired[0] in key_files else "response"
        raise UsageError(f"{side} file '{unpaired[0]}' has no partner of the same name ({len(unpaired)} unpaired)")
    return [Dataset(Path(n).stem, key_files[n], response_files[n]) for n in sorted(key_files)]
