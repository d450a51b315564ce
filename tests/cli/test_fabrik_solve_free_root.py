#!/usr/bin/env python3
"""fabrik-solve's "free_root" field (docs/fabrik-solve.md): the chain is pulled by its
head with the root free (one backward pass), lengths kept, head on the target; bad uses are
refused with a reason. Standard library only; the executable is taken from the FABRIK_SOLVE
environment variable (ctest sets it)."""
import unittest

from solve_client import dist, solve

CHAIN = [[0.0, float(i), 0.0] for i in range(5)]  # four unit segments up +Y


def request(**fields):
    r = {"joints": CHAIN, "target": [6.0, 1.0, 2.0], "tolerance": 0.001, "max_iterations": 10}
    r.update(fields)
    return r


class FreeRoot(unittest.TestCase):
    def test_the_head_lands_on_a_far_target_and_the_root_follows(self):
        target = [60.0, -5.0, 8.0]  # far beyond the reach of 4
        (r,) = solve(request(free_root=True, target=target, id=7))
        self.assertTrue(r["ok"], r)
        self.assertTrue(r["free_root"])
        self.assertTrue(r["reached"])
        self.assertTrue(r["reachable"])
        self.assertEqual(r["iterations"], 1)
        self.assertEqual(r["id"], 7)
        joints = r["joints"]
        self.assertEqual(len(joints), len(CHAIN))
        self.assertLessEqual(dist(joints[-1], target), 1e-5 * 64)
        for a, b in zip(joints, joints[1:]):
            self.assertAlmostEqual(dist(a, b), 1.0, delta=1e-5)
        # The root came along: it trails within the rope's length (4) behind the head, nearly
        # straight (each joint reaches from where it was, so the rope keeps a slight curve).
        self.assertGreater(joints[0][0], 55.0)
        self.assertLessEqual(dist(joints[0], target), 4.0 + 1e-5)
        self.assertGreater(dist(joints[0], target), 3.9)

    def test_off_is_the_fixed_root_solve(self):
        plain, off = solve(request(), request(free_root=False))
        self.assertEqual(plain["joints"], off["joints"])
        self.assertNotIn("free_root", off)
        self.assertEqual(off["joints"][0], CHAIN[0])
        self.assertFalse(off["reachable"])

    def test_bad_uses_are_refused_with_a_reason(self):
        cases = [
            (request(free_root="yes"), "free_root must be true or false"),
            (request(free_root=True, solver="ccd"), "free_root"),
            (request(free_root=True, accelerate=True), "accelerate"),
            (request(free_root=True, pole=[1, 1, 1]), "\"pole\""),
            (request(free_root=True, constraints=[]), "\"constraints\""),
            (request(free_root=True, target=[1e30, 0, 0]), "2^20"),
        ]
        answers = solve(*[c[0] for c in cases] + [request(free_root=True)])
        for (req, expected), answer in zip(cases, answers):
            self.assertFalse(answer["ok"], (req, answer))
            self.assertIn(expected, answer["error"])
        self.assertTrue(answers[-1]["ok"])  # and the next line is answered as usual


if __name__ == "__main__":
    unittest.main()
