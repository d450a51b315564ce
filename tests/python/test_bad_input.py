"""Every bad input raises ValueError naming the problem, and no input array changes."""
import numpy as np
import pytest

import fabrik
from fabrik_test_util import straight_batch

CHAIN = np.array([[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0]], np.float64)
TARGET = np.array([1.0, 1.0, 1.0])

with_nan = CHAIN.copy()
with_nan[2, 1] = np.nan
with_inf = CHAIN.copy()
with_inf[1, 0] = np.inf
coincident = CHAIN.copy()
coincident[2] = coincident[1]
huge = CHAIN.copy()
huge[3, 2] = 1e300

SOLVE_CASES = [
    ({"joints": CHAIN[:1]}, "shape (n+1, 3)"),
    ({"joints": CHAIN[:, :2]}, "shape (n+1, 3)"),
    ({"joints": CHAIN.reshape(-1)}, "2 dimensions"),
    ({"joints": CHAIN.astype(np.complex128)}, "real numbers"),
    ({"joints": CHAIN.astype(object)}, "real numbers"),
    ({"joints": CHAIN.astype(str)}, "real numbers"),
    ({"joints": [[0, 0, 0], [0, 1]]}, "array of real numbers"),
    ({"joints": "joints"}, "array of real numbers"),
    ({"joints": None}, "array of real numbers"),
    ({"joints": with_nan}, "joints[2][1] is not finite"),
    ({"joints": with_inf}, "joints[1][0] is not finite"),
    ({"joints": huge}, "joints[3][2] is beyond single precision"),
    ({"joints": coincident}, "zero-length segment"),
    # float32 arrays are read without conversion: the same checks and messages.
    ({"joints": CHAIN[:1].astype(np.float32)}, "shape (n+1, 3)"),
    ({"joints": with_nan.astype(np.float32)}, "joints[2][1] is not finite"),
    ({"joints": with_inf.astype(np.float32)}, "joints[1][0] is not finite"),
    ({"joints": coincident.astype(np.float32)}, "zero-length segment"),
    ({"target": np.array([1, np.nan, 2], np.float32)}, "target[1] is not finite"),
    ({"target": np.array([1, 2], np.float32)}, "target must have shape (3,)"),
    ({"target": [1, 2]}, "target must have shape (3,)"),
    ({"target": [1, np.nan, 2]}, "target[1] is not finite"),
    ({"target": [np.inf, 0, 0]}, "target[0] is not finite"),
    ({"target": "up"}, "target must be an array"),
    ({"tolerance": 0}, "tolerance"),
    ({"tolerance": -1}, "tolerance"),
    ({"tolerance": np.nan}, "tolerance"),
    ({"tolerance": 1e-60}, "tolerance"),
    ({"tolerance": "0.1"}, "tolerance must be a real number"),
    ({"tolerance": True}, "tolerance must be a real number"),
    ({"max_iterations": 0}, "max_iterations"),
    ({"max_iterations": 2.5}, "max_iterations must be an integer"),
    ({"max_iterations": 10 ** 30}, "max_iterations"),
    ({"accelerate": 1}, "accelerate must be True or False"),
    ({"accelerate": None}, "accelerate must be True or False"),
    ({"solver": "newton"}, "unknown solver 'newton'"),
    ({"solver": 3}, "solver must be a str"),
]


@pytest.mark.parametrize("change,message", SOLVE_CASES)
def test_solve_bad_input(change, message):
    args = {"joints": CHAIN.copy(), "target": TARGET.copy(), "tolerance": 0.01,
            "max_iterations": 10, "accelerate": True, "solver": "fabrik"}
    args.update(change)
    kept = {k: np.array(v, copy=True) for k, v in args.items() if isinstance(v, np.ndarray)}
    joints, target = args.pop("joints"), args.pop("target")
    with pytest.raises(ValueError) as caught:
        fabrik.solve(joints, target, **args)
    assert message in str(caught.value)
    for name, before in kept.items():
        now = joints if name == "joints" else target
        np.testing.assert_array_equal(now, before)


def bad_chain(batch, chain, joint, value):
    batch[chain, joint] = value
    return batch


BATCH_CASES = [
    (lambda b, t: (b[0], t), "shape (N, n+1, 3)"),
    (lambda b, t: (b[:, :1], t), "shape (N, n+1, 3)"),
    (lambda b, t: (b[:, :, :2].copy(), t), "shape (N, n+1, 3)"),
    (lambda b, t: (b.astype(np.complex64), t), "real numbers"),
    (lambda b, t: (b.astype(str), t), "real numbers"),
    (lambda b, t: (b, t[:-1]), "targets must have shape (12, 3)"),
    (lambda b, t: (b, t[:, :2].copy()), "targets must have shape (12, 3)"),
    (lambda b, t: (b, bad_chain(t, 5, 1, np.nan)), "targets[5][1] is not finite"),
    (lambda b, t: (bad_chain(b, 7, 2, np.nan), t), "joints[7]: joints[2] is not finite"),
    (lambda b, t: (bad_chain(b, 4, 3, b[4, 2]), t), "joints[4]: joints[3] coincides"),
    (lambda b, t: (bad_chain(b, 9, 1, np.inf), t), "joints[9]: joints[1] is not finite"),
]


@pytest.mark.parametrize("make,message", BATCH_CASES)
def test_solve_batch_bad_input(make, message):
    batch = straight_batch(12, 5)
    targets = batch[:, 0, :].astype(np.float64) + 1.0
    joints, targets = make(batch, targets)
    before_joints = np.array(joints, copy=True)
    before_targets = np.array(targets, copy=True)
    with pytest.raises(ValueError) as caught:
        fabrik.solve_batch(joints, targets)
    assert message in str(caught.value)
    np.testing.assert_array_equal(joints, before_joints)
    np.testing.assert_array_equal(targets, before_targets)


@pytest.mark.parametrize("change,message", [
    ({"tolerance": 0.0}, "tolerance"), ({"max_iterations": -3}, "max_iterations"),
    ({"accelerate": "yes"}, "accelerate"), ({"threads": 0}, "threads"),
    ({"threads": 1.5}, "threads"), ({"threads": True}, "threads")])
def test_solve_batch_bad_settings(change, message):
    batch = straight_batch(3, 4)
    before = batch.copy()
    with pytest.raises(ValueError) as caught:
        fabrik.solve_batch(batch, batch[:, 0, :] + 1.0, **change)
    assert message in str(caught.value)
    np.testing.assert_array_equal(batch, before)


@pytest.mark.parametrize("request_,message", [
    ({"joints": [[0, 0, 0], [0, 1, 0]], "target": [0, 0, float("nan")], "tolerance": 0.01,
      "max_iterations": 5}, "JSON"),
    ([1, 2, 3], "dict or a JSON string"),
    ("", "empty"),
    ("{not json", "JSON"),
    ({"joints": [[0, 0, 0], [0, 1, 0]], "target": [1, 1, 0], "tolerance": 0.01,
      "max_iterations": 5, "solver": "newton"}, "newton"),
])
def test_solve_request_bad_input(request_, message):
    with pytest.raises(ValueError) as caught:
        fabrik.solve_request(request_)
    assert message in str(caught.value)
