"""Shared helpers of the Python module's tests: random chains and fabrik-solve as a subprocess.

The tests run with PYTHONPATH set to the built module (tests/CMakeLists.txt) and FABRIK_SOLVE
naming the built fabrik-solve program.
"""
import json
import os
import subprocess

import numpy as np


def random_chain(rng, segments, total=0.9):
    """(segments+1, 3) float64 joints rooted at the origin, random directions and lengths.

    The total length is in (0.5, 1], so fabrik-solve's local frame (relative to the root, in
    units of the smallest power of two >= the total length) is the world frame itself and
    both solve the very same floats.
    """
    directions = rng.normal(size=(segments, 3))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    lengths = rng.uniform(0.5, 1.5, size=segments)
    lengths *= total / lengths.sum()
    joints = np.zeros((segments + 1, 3))
    joints[1:] = np.cumsum(directions * lengths[:, None], axis=0)
    return joints


def random_target(rng, reach):
    """A point uniform in the ball of radius `reach` about the origin."""
    d = rng.normal(size=3)
    return d / np.linalg.norm(d) * reach * rng.uniform() ** (1.0 / 3.0)


def straight_batch(chains, joints):
    """(chains, joints, 3) float32: unit segments straight up (+Y) from roots along X."""
    out = np.zeros((chains, joints, 3), np.float32)
    out[:, :, 0] = 3.0 * np.arange(chains, dtype=np.float32)[:, None]
    out[:, :, 1] = np.arange(joints, dtype=np.float32)[None, :]
    return out


def run_fabrik_solve(requests):
    """Answers of the built fabrik-solve to `requests` (dicts), one process for all."""
    program = os.environ["FABRIK_SOLVE"]
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([program], input=lines, capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(requests), done.stderr
    return answers
