"""Reference counts and memory stay put over 100,000 calls, good and bad."""
import resource
import sys
import tracemalloc

import numpy as np

import fabrik
from fabrik_test_util import straight_batch

CALLS = 100_000


def max_rss_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run_many(call, objects):
    """Runs call() CALLS times; returns the refcount changes of `objects` and the growth of
    traced Python memory and of the peak resident set."""
    for _ in range(1000):  # warm up caches, interned strings and pools first
        call()
    counts = [sys.getrefcount(o) for o in objects]
    rss = max_rss_kib()
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    for _ in range(CALLS):
        call()
    now, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    after = [sys.getrefcount(o) for o in objects]  # counted as before, in the same form
    changes = [a - c for a, c in zip(after, counts)]
    return changes, now - start, max_rss_kib() - rss


def test_solve_is_stable():
    joints = straight_batch(1, 10)[0].astype(np.float64)
    target = np.array([2.0, 5.0, 1.0])
    solve = fabrik.solve
    changes, traced, rss = run_many(lambda: solve(joints, target), [joints, target, solve])
    assert changes == [0, 0, 0]
    assert traced < 64 * 1024, traced
    assert rss < 16 * 1024, rss


def test_bad_calls_are_stable():
    joints = straight_batch(1, 10)[0]
    joints[4] = joints[3]
    target = np.array([2.0, 5.0, 1.0])

    def call():
        try:
            fabrik.solve(joints, target)
        except ValueError:
            return
        raise AssertionError("no ValueError")

    changes, traced, rss = run_many(call, [joints, target])
    assert changes == [0, 0]
    assert traced < 64 * 1024, traced
    assert rss < 16 * 1024, rss


def test_solve_batch_is_stable():
    batch = straight_batch(4, 10)
    start = batch.copy()
    targets = batch[:, 0, :].astype(np.float64) + np.array([3.0, 4.0, 1.0])

    def call():
        batch[...] = start
        fabrik.solve_batch(batch, targets, threads=1)

    changes, traced, rss = run_many(call, [batch, targets])
    assert changes == [0, 0]
    assert traced < 64 * 1024, traced
    assert rss < 16 * 1024, rss


def test_solve_request_is_stable():
    request = {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0]], "target": [1, 1, 0],
               "tolerance": 0.01, "max_iterations": 10,
               "constraints": [{"joint": 1, "type": "ball", "angle": 0.6}]}
    calls = 20_000  # about a thousandth of a second each: JSON both ways
    for _ in range(500):
        fabrik.solve_request(request)
    count = sys.getrefcount(request)
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    for _ in range(calls):
        fabrik.solve_request(request)
    now, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert sys.getrefcount(request) == count
    assert now - start < 64 * 1024
