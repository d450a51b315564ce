"""Hostile calls: bounded work, Ctrl-C during a long batch, two threads on one array, huge
requests, numbers in messages, and no traceback in an error (docs/library.md, Python)."""
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import fabrik
from fabrik_test_util import straight_batch

CHAIN = np.array([[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0]], np.float64)


def long_chain(joints):
    """(joints, 3) unit segments zig-zagging up, so a target beside it is reachable."""
    out = np.zeros((joints, 3))
    out[:, 1] = np.arange(joints)
    out[1::2, 0] = 0.5
    return out


def test_max_iterations_is_bounded_as_in_fabrik_solve():
    fabrik.solve(CHAIN, [1, 1, 1], max_iterations=1_000_000)
    for bad in (1_000_001, 2**31 - 1, 2**63):
        with pytest.raises(ValueError, match="max_iterations must be between 1 and 1000000"):
            fabrik.solve(CHAIN, [1, 1, 1], max_iterations=bad)
        with pytest.raises(ValueError, match="between 1 and 1000000"):
            fabrik.solve_batch(straight_batch(2, 4), np.ones((2, 3)), max_iterations=bad)


def test_one_solve_costs_at_most_ten_million_joint_iterations():
    # 1,000 joints: at most 10,000 iterations whatever max_iterations says. A target by the
    # root with a tolerance no float reaches keeps the solver going to its cap.
    joints = long_chain(1000)
    near_root = [0.0, 0.0, 1e-3]
    _, info = fabrik.solve(joints, near_root, tolerance=1e-30, max_iterations=1_000_000)
    assert info["iterations"] == 10_000
    assert info["work_limited"] is True
    _, info = fabrik.solve(joints, near_root, tolerance=1e-30, max_iterations=50)
    assert info["iterations"] == 50 and info["work_limited"] is False
    batch = np.stack([joints, joints]).astype(np.float32)
    out = fabrik.solve_batch(batch, np.array([near_root] * 2), tolerance=1e-30,
                             max_iterations=1_000_000)
    assert list(out["iterations"]) == [10_000, 10_000]


def test_threads_beyond_any_int_is_a_value_error_naming_the_range():
    for bad in (2**63, 2**64 + 5, -(2**63) - 1, 0, 4097):
        with pytest.raises(ValueError, match="threads must be None or between 1 and 4096"):
            fabrik.solve_batch(straight_batch(2, 4), np.ones((2, 3)), threads=bad)


def test_numbers_in_messages_are_short():
    huge = CHAIN.copy()
    huge[3, 2] = 1e300
    with pytest.raises(ValueError) as caught:
        fabrik.solve(huge, [1, 1, 1])
    assert "beyond single precision (1e+300)" in str(caught.value)
    assert len(str(caught.value)) < 100


def test_a_request_that_cannot_be_written_as_json_names_the_problem_without_a_traceback():
    with pytest.raises(ValueError) as caught:
        fabrik.solve_request({"joints": {1, 2}, "target": [0, 1, 0]})
    message = str(caught.value)
    assert "not JSON serializable" in message
    assert "\n" not in message and "At:" not in message and ".py" not in message


def test_solve_request_has_fabrik_solves_line_limit():
    limit = 8 << 20
    with pytest.raises(ValueError, match="longer than 8388608 bytes"):
        fabrik.solve_request(" " * (limit + 1))
    # Multi-byte characters: counted in UTF-8 bytes, as fabrik-solve reads its lines.
    with pytest.raises(ValueError, match="longer than 8388608 bytes"):
        fabrik.solve_request("\u00e9" * (limit // 2 + 1))
    with pytest.raises(ValueError, match="longer than 8388608 bytes"):
        fabrik.solve_request({"joints": [[0, 0, 0]] * 1_000_000, "target": [0, 1, 0]})
    # At the limit the request is read (and refused for what it says, not for its size).
    line = '{"joints": 1}'
    with pytest.raises(ValueError, match="joints"):
        fabrik.solve_request(line + " " * (limit - len(line)))


def test_two_threads_solving_one_array_in_place_the_second_is_refused():
    batch = straight_batch(64, 6)
    targets = np.tile([1.0, 2.0, 1.0], (64, 1))
    results = {}

    def first():
        results["first"] = fabrik.solve_batch(batch, targets)

    fabrik._set_solve_gate(2)  # the first call waits inside, GIL released, until released
    try:
        thread = threading.Thread(target=first)
        thread.start()
        while fabrik._solve_gate_state()[0] < 1:  # wait for the state: the first is inside
            time.sleep(0.001)
        before = batch.copy()
        with pytest.raises(ValueError, match="solving in place"):
            fabrik.solve_batch(batch, targets)
        # A view of part of it, and reading it as a copy, are refused too.
        with pytest.raises(ValueError, match="solving in place"):
            fabrik.solve_batch(batch[10:12], targets[:2])
        with pytest.raises(ValueError, match="solving in place"):
            fabrik.solve_batch(batch[::2], targets[:32])
        with pytest.raises(ValueError, match="targets shares memory"):
            fabrik.solve_batch(straight_batch(2, 3), batch[0, :2])
        # Another array is fine meanwhile.
        fabrik.solve_batch(straight_batch(2, 3), np.ones((2, 3)))
    finally:
        fabrik._set_solve_gate(0)
    thread.join()
    assert results["first"]["joints"] is batch
    assert fabrik._solve_gate_state()[0] == 0
    # The first call solved the chains as one call alone does.
    alone = fabrik.solve_batch(before, targets)
    np.testing.assert_array_equal(batch, alone["joints"])
    # Once it returned, the array may be solved again.
    fabrik.solve_batch(batch, targets)


CHILD = r"""
import sys, threading, time
import numpy as np
import fabrik
chains, joints = 20000, 100
batch = np.zeros((chains, joints, 3), np.float32)
batch[:, :, 1] = np.arange(joints)
batch[:, 1::2, 0] = 0.5
targets = np.tile([0.0, 0.0, 1e-3], (chains, 1))

def report_inside():
    while fabrik._solve_gate_state()[0] < 1:
        time.sleep(0.005)
    print("inside", flush=True)

threading.Thread(target=report_inside, daemon=True).start()
try:
    fabrik.solve_batch(batch, targets, tolerance=1e-30, max_iterations=1_000_000)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def test_ctrl_c_interrupts_a_long_batch():
    # 20,000 chains of 100 joints, 100,000 iterations each (the work bound): 2e11
    # joint-iterations, minutes of work; Ctrl-C must end it between blocks.
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert child.stdout.readline().strip() == "inside"
        child.send_signal(signal.SIGINT)
        # A safety net only: the call ends within a block (a fraction of a second alone).
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 3, (out, err)
    assert "interrupted" in out
