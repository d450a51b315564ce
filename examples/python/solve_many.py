"""Solve 100,000 chains of 10 joints in one call, in place, on all cores."""
import time

import numpy as np

import fabrik

chains, joints = 100_000, 10
rng = np.random.default_rng(1)
poses = np.zeros((chains, joints, 3), np.float32)
poses[:, :, 1] = np.arange(joints)           # unit segments straight up from the origin
direction = rng.normal(size=(chains, 3))
direction /= np.linalg.norm(direction, axis=1, keepdims=True)
reach = (joints - 1) * rng.uniform(size=(chains, 1)) ** (1 / 3)
targets = direction * reach                   # uniform in the ball of the chains' reach

start = time.perf_counter()
out = fabrik.solve_batch(poses, targets, tolerance=1e-3, max_iterations=100)
seconds = time.perf_counter() - start
assert out["joints"] is poses                 # solved in place
print(f"{chains} chains: {out['reached'].mean():.1%} reached, "
      f"{out['iterations'].mean():.1f} iterations a chain, {seconds * 1e3:.1f} ms")
assert out["reached"][out["reachable"]].mean() > 0.9
