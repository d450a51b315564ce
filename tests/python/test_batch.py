"""solve_batch: in place for C-contiguous float32, a copy otherwise; the GIL is released."""
import threading

import numpy as np
import pytest

import fabrik
from fabrik_test_util import straight_batch


def targets_for(batch, offset=(2.0, 3.0, 1.0)):
    return batch[:, 0, :].astype(np.float64) + np.array(offset)


def test_in_place_for_c_contiguous_float32():
    batch = straight_batch(50, 6)
    before = batch.copy()
    out = fabrik.solve_batch(batch, targets_for(batch), tolerance=1e-3, max_iterations=50)
    assert out["joints"] is batch
    assert not np.array_equal(batch, before)
    np.testing.assert_array_equal(batch[:, 0, :], before[:, 0, :])  # roots stay
    assert out["iterations"].dtype == np.int32 and out["iterations"].shape == (50,)
    assert out["distance"].dtype == np.float32
    assert out["reached"].dtype == np.bool_ and out["reachable"].dtype == np.bool_
    assert out["reached"].all() and out["reachable"].all()
    effectors = batch[:, -1, :]
    assert np.all(np.linalg.norm(effectors - targets_for(batch), axis=1) <= 1e-3 + 1e-6)
    lengths = np.linalg.norm(np.diff(batch, axis=1), axis=2)
    np.testing.assert_allclose(lengths, 1.0, atol=1e-5)


@pytest.mark.parametrize("make", [
    lambda b: b.astype(np.float64),                      # another dtype
    lambda b: np.asfortranarray(b),                      # not C-contiguous
    lambda b: np.stack([b, b], axis=1)[:, 0],            # a strided view
    lambda b: b.tolist(),                                # a list
])
def test_copy_otherwise_and_input_unchanged(make):
    batch = straight_batch(20, 5)
    given = make(batch)
    before = np.array(given, copy=True)
    out = fabrik.solve_batch(given, targets_for(batch), tolerance=1e-3, max_iterations=50)
    np.testing.assert_array_equal(np.asarray(given), before)
    assert out["joints"] is not given
    assert out["joints"].dtype == np.float32 and out["joints"].flags.c_contiguous
    expected = fabrik.solve_batch(batch.copy(), targets_for(batch), tolerance=1e-3,
                                  max_iterations=50)
    np.testing.assert_array_equal(out["joints"], expected["joints"])


def test_read_only_array_is_copied():
    batch = straight_batch(10, 4)
    batch.setflags(write=False)
    before = batch.copy()
    out = fabrik.solve_batch(batch, targets_for(batch, (1, 2, 1)), tolerance=1e-3,
                             max_iterations=50)
    np.testing.assert_array_equal(batch, before)
    assert out["joints"] is not batch and out["reached"].all()


@pytest.mark.parametrize("threads", [None, 1, 2, 3])
def test_threads_give_the_same_result(threads):
    batch = straight_batch(1000, 10)
    reference = fabrik.solve_batch(batch.copy(), targets_for(batch, (4, 2, -3)))
    out = fabrik.solve_batch(batch, targets_for(batch, (4, 2, -3)), threads=threads)
    np.testing.assert_array_equal(batch, reference["joints"])
    np.testing.assert_array_equal(out["iterations"], reference["iterations"])


def test_gil_released_two_threads_inside_at_once():
    """Two threads are inside solve_batch at the same time, and a Python thread runs while
    another is inside: with the test gate set, each solve waits (GIL released) until two
    have been inside at once, so this passes only if neither holds the GIL while solving."""
    big = [straight_batch(20000, 10) for _ in range(2)]
    results = [None, None]

    def work(i):
        results[i] = fabrik.solve_batch(big[i], targets_for(big[i], (3, 4, 2)))

    fabrik._set_solve_gate(2)
    try:
        first = threading.Thread(target=work, args=(0,))
        first.start()
        # Wait for the state "the first thread has entered solve_batch" (the most inside at
        # once reaches 1 and stays there); this loop is Python code running meanwhile.
        spins = 0
        while fabrik._solve_gate_state()[1] < 1:
            spins += 1
        python_work = sum(range(1000))  # more Python while the first solve is inside
        work(1)
        first.join()
        inside_now, most = fabrik._solve_gate_state()
    finally:
        fabrik._set_solve_gate(0)
    assert python_work == 499500
    assert most == 2 and inside_now == 0
    for r in results:
        assert r["reached"].all()
    np.testing.assert_array_equal(big[0], big[1])  # the same problem, the same answer
