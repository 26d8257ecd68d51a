"""The floor: read the key and the response file and split every line into fields, nothing more.

Run as its own process, its whole-process time is what any scorer that reads CoNLL text from Python
must pay at least; it prints the time spent in the read-and-split itself (seconds) on stdout.
"""

import sys
import time


def read_and_split(path: str) -> int:
    """Split each line of ``path`` into whitespace-separated fields; return the number of fields."""
    fields = 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields += len(line.split())
    return fields


if __name__ == "__main__":
    started = time.perf_counter()
    for path in sys.argv[1:]:
        read_and_split(path)
    print(f"{time.perf_counter() - started:.6f}")
