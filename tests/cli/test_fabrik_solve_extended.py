"""fabrik-solve's constrained-chain and tree requests, end to end."""
import math
import unittest

from solve_client import dist, solve


class Constrained(unittest.TestCase):
    def test_world_hinge_keeps_the_chain_in_its_plane_and_within_limits(self):
        joints = [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0]]
        constraints = [{"joint": j, "type": "hinge", "axis": [0, 0, 1], "space": "world",
                        "reference": [0, 1, 0], "min": -1.0, "max": 1.0} for j in range(3)]
        for target in ([1.5, 1.5, 0.0], [1.0, 2.0, 0.8], [-2.0, 1.0, 0.0], [0.0, -2.5, 0.0]):
            with self.subTest(target=target):
                r = solve({"joints": joints, "target": target, "tolerance": 0.01,
                           "max_iterations": 100, "constraints": constraints})[0]
                self.assertTrue(r["ok"], r)
                self.assertLess(r["max_violation"], 1e-3)
                for p in r["joints"]:
                    self.assertAlmostEqual(p[2], 0.0, places=4)  # in the hinge plane
                for a, b in zip(r["joints"], r["joints"][1:]):
                    self.assertAlmostEqual(dist(a, b), 1.0, places=4)
                    angle = math.atan2(-(b[0] - a[0]), b[1] - a[1])  # from +Y about +Z
                    self.assertLessEqual(abs(angle), 1.0 + 1e-3)
                self.assertEqual(r["joints"][0], [0.0, 0.0, 0.0])
                if target[2] != 0.0 or target == [0.0, -2.5, 0.0]:
                    # Off the plane, or behind the limits: reachable by distance, not reached.
                    self.assertFalse(r["reached"])
                    self.assertTrue(r["limited"])

    def test_pole_decides_which_way_the_elbow_bends(self):
        arm = [[0, 0, 0], [0, 1, 0], [0, 2, 0]]
        for pole, side in (([5, 1, 0], 1), ([-5, 1, 0], -1)):
            r = solve({"joints": arm, "target": [0, 1.2, 0.0], "tolerance": 0.001,
                       "max_iterations": 50, "pole": pole})[0]
            self.assertTrue(r["ok"] and r["reached"], r)
            elbow = r["joints"][1]
            self.assertGreater(elbow[0] * side, 0.5)  # bent towards the pole
            self.assertAlmostEqual(elbow[2], 0.0, places=3)  # in the root-target-pole plane

    def test_bad_constraint_requests_say_what_is_wrong(self):
        base = {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0]], "target": [1, 1, 0],
                "tolerance": 0.01, "max_iterations": 10}
        cases = [
            ({"constraints": [{"joint": 5, "type": "ball", "angle": 1}]}, "constraints[0]"),
            ({"constraints": [{"joint": 0, "type": "hinge"}]}, "axis"),
            ({"constraints": [{"joint": 0, "type": "cone"}]}, "constraints[0]"),
            ({"constraints": [{"type": "ball"}]}, "joint"),
            ({"constraints": {"joint": 0}}, "array"),
            ({"pole": [1, 2]}, "pole"),
            ({"base": {"forward": [0, 0, 0]}}, "base"),
            ({"constraints": [], "solver": "ccd"}, "fabrik"),
        ]
        requests = [dict(base, **extra, id=i) for i, (extra, _) in enumerate(cases)]
        responses = solve(*requests)
        self.assertEqual(len(responses), len(cases))
        for (extra, needle), r in zip(cases, responses):
            with self.subTest(extra=extra):
                self.assertFalse(r["ok"])
                self.assertIn(needle, r["error"])


class Trees(unittest.TestCase):
    NODES = [{"parent": -1, "position": [0, 0, 0]},
             {"parent": 0, "position": [0, 1, 0]},
             {"parent": 1, "position": [0, 2, 0]},
             {"parent": 2, "position": [-0.7, 2.7, 0]},
             {"parent": 2, "position": [0.7, 2.7, 0]}]

    def test_two_effectors_converge_on_reachable_targets(self):
        # Targets taken from a bent pose of the same tree, so both are reachable together.
        c, s = math.cos(0.4), math.sin(0.4)
        def rot(p):  # rotate about Z by 0.4 rad, about the root
            return [c * p[0] - s * p[1], s * p[0] + c * p[1], p[2]]
        targets = {"3": rot([-0.7, 2.7, 0]), "4": rot([0.7, 2.7, 0])}
        r = solve({"nodes": self.NODES, "targets": targets, "tolerance": 0.005,
                   "max_iterations": 200})[0]
        self.assertTrue(r["ok"], r)
        self.assertTrue(r["reached"], r)
        for key, t in targets.items():
            self.assertLess(dist(r["positions"][int(key)], t), 0.005 + 1e-6)
            self.assertLessEqual(r["distances"][key], 0.005 + 1e-6)
        for i, n in enumerate(self.NODES[1:], start=1):
            parent = self.NODES[n["parent"]]["position"]
            self.assertAlmostEqual(dist(r["positions"][i], r["positions"][n["parent"]]),
                                   dist(n["position"], parent), places=4)
        self.assertEqual(r["positions"][0], [0.0, 0.0, 0.0])

    def test_weights_favour_the_heavier_effector_when_both_cannot_be_reached(self):
        far = {"3": [-3.0, 1.5, 0.0], "4": [3.0, 1.5, 0.0]}
        light = solve({"nodes": self.NODES, "targets": far, "weights": {"3": 1, "4": 1},
                       "tolerance": 0.001, "max_iterations": 100})[0]
        heavy = solve({"nodes": self.NODES, "targets": far, "weights": {"3": 10, "4": 1},
                       "tolerance": 0.001, "max_iterations": 100})[0]
        self.assertTrue(light["ok"] and heavy["ok"])
        self.assertLess(heavy["distances"]["3"], light["distances"]["3"])

    def test_bad_tree_requests(self):
        ok = {"nodes": self.NODES, "targets": {"3": [0, 3, 0]}, "tolerance": 0.01,
              "max_iterations": 10}
        cases = [
            (dict(ok, targets={"1": [0, 3, 0]}), "not a leaf"),
            (dict(ok, targets={"x": [0, 3, 0]}), "not a node index"),
            (dict(ok, targets={}), "targets"),
            (dict(ok, nodes=[{"parent": -1, "position": [0, 0, 0]},
                             {"parent": 5, "position": [0, 1, 0]}]), "1"),
            (dict(ok, nodes=[{"parent": -1, "position": [0, 0, 0]},
                             {"parent": 0, "position": [0, 0, 0]}]), "1"),
            (dict(ok, tolerance=0), "tolerance"),
            (dict(ok, max_iterations=0.5), "max_iterations"),
            (dict(ok, weights={"3": -1}), "weights"),
            (dict(ok, nodes="tree"), "nodes"),
        ]
        responses = solve(*[c for c, _ in cases])
        for (request, needle), r in zip(cases, responses):
            with self.subTest(needle=needle):
                self.assertFalse(r["ok"], r)
                self.assertIn(needle, r["error"])


if __name__ == "__main__":
    unittest.main()
