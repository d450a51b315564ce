"""Plot FABRIK's iterations by joint count (textbook and accelerated) into a PNG.

usage: python3 plot_iterations.py [OUT.png]   (default: iterations.png)
"""
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import fabrik  # noqa: E402

out_path = sys.argv[1] if len(sys.argv) > 1 else "iterations.png"
rng = np.random.default_rng(2)
counts = [3, 5, 10, 20, 40]
chains = 500
mean = {False: [], True: []}
for joints in counts:
    direction = rng.normal(size=(chains, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    targets = direction * (joints - 1) * rng.uniform(size=(chains, 1)) ** (1 / 3)
    start = np.zeros((joints, 3))
    start[:, 1] = np.arange(joints)
    for accelerate in (False, True):
        its = [fabrik.solve(start, t, tolerance=1e-3, max_iterations=100,
                            accelerate=accelerate)[1]["iterations"] for t in targets]
        mean[accelerate].append(np.mean(its))

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(counts, mean[False], "o-", label="FABRIK")
ax.plot(counts, mean[True], "s-", label="accelerated FABRIK")
ax.set_xlabel("joints")
ax.set_ylabel("mean iterations (tolerance 1e-3, cap 100)")
ax.set_title("Cold targets uniform in the reach")
ax.legend()
fig.tight_layout()
fig.savefig(out_path, dpi=100)
print(f"wrote {out_path}: textbook {mean[False]}, accelerated {mean[True]}")
