"""Solve one chain with the fabrik module: three unit segments reaching for a point."""
import numpy as np

import fabrik

joints = np.array([[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0]], dtype=np.float32)
solved, info = fabrik.solve(joints, [1.5, 1.5, 0.5], tolerance=1e-3)
print(f"fabrik {fabrik.__version__}: {info['iterations']} iterations, "
      f"distance {info['distance']:.2e}, reached {info['reached']}")
print(solved)
assert info["reached"]
