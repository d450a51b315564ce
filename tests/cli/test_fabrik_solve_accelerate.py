#!/usr/bin/env python3
"""fabrik-solve's "accelerate" field (docs/fabrik-solve.md): the accelerated FABRIK on
request, off by default, a non-boolean rejected. Standard library only; the executable is
taken from the FABRIK_SOLVE environment variable (ctest sets it)."""
import math
import unittest

from solve_client import dist, solve

# Ten joints along +X, one unit apart; the target sits at 99% of the reach, off the axis,
# where the textbook passes crawl (docs/accelerated-fabrik.md).
CHAIN = [[float(i), 0.0, 0.0] for i in range(10)]
REACH = 9.0
NEAR_RIM = [REACH * 0.99 * math.cos(1.0), REACH * 0.99 * math.sin(1.0), 0.0]


def request(**fields):
    r = {"joints": CHAIN, "target": NEAR_RIM, "tolerance": 0.001, "max_iterations": 10}
    r.update(fields)
    return r


class Accelerate(unittest.TestCase):
    def test_off_by_default_and_false_is_the_same(self):
        absent, false = solve(request(), request(accelerate=False))
        self.assertTrue(absent["ok"], absent)
        self.assertEqual(absent["joints"], false["joints"])
        self.assertEqual(absent["iterations"], false["iterations"])
        # The textbook passes do not get there within 10 iterations.
        self.assertFalse(absent["reached"], absent)
        self.assertEqual(absent["iterations"], 10)

    def test_accelerated_reaches_near_full_reach(self):
        (r,) = solve(request(accelerate=True))
        self.assertTrue(r["ok"], r)
        self.assertTrue(r["reached"], r)
        self.assertLessEqual(r["iterations"], 4)
        joints = r["joints"]
        self.assertEqual(joints[0], CHAIN[0])
        for a, b in zip(joints, joints[1:]):
            self.assertAlmostEqual(dist(a, b), 1.0, delta=1e-5)
        self.assertLessEqual(dist(joints[-1], NEAR_RIM), 0.001 * (1 + 1e-6))
        self.assertAlmostEqual(dist(joints[-1], NEAR_RIM), r["distance"], delta=1e-6)

    def test_out_of_reach_is_the_straightening_pass(self):
        (r,) = solve(request(accelerate=True, target=[0, 20, 0]))
        self.assertTrue(r["ok"], r)
        self.assertFalse(r["reachable"])
        self.assertEqual(r["iterations"], 1)

    def test_non_boolean_is_an_error(self):
        bad = [request(accelerate=v) for v in ("yes", 1, 0, None, [True], {"on": True})]
        for value, r in zip(("yes", 1, 0, None, [True], {"on": True}), solve(*bad)):
            with self.subTest(value=value):
                self.assertFalse(r["ok"], r)
                self.assertIn("accelerate", r["error"])

    def test_other_solvers_refuse_it(self):
        r, ok = solve(request(accelerate=True, solver="ccd"), request(accelerate=False, solver="ccd"))
        self.assertFalse(r["ok"], r)
        self.assertIn("fabrik", r["error"])
        self.assertTrue(ok["ok"], ok)

    def test_constrained_request_accepts_it(self):
        cones = [{"joint": j, "type": "ball", "angle": 0.6} for j in range(1, 9)]
        off, on = solve(request(constraints=cones), request(constraints=cones, accelerate=True))
        for r in (off, on):
            self.assertTrue(r["ok"], r)
            self.assertLessEqual(r["max_violation"], 1e-4)
        self.assertLessEqual(on["distance"], off["distance"] + 1e-6)


if __name__ == "__main__":
    unittest.main()
