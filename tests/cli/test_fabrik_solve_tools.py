#!/usr/bin/env python3
"""fabrik-solve's everyday IK tools (docs/tools.md): the two-bone solver with its pole and
soften, soften on FABRIK chains, and clear refusals of bad values. Standard library only;
the executable is taken from the FABRIK_SOLVE environment variable (ctest sets it)."""
import math
import unittest

from solve_client import dist, solve

ARM = [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]  # upper 1, lower 1, bent in XY
CHAIN = [[0.0, float(i), 0.0] for i in range(5)]  # four unit segments up +Y


def request(joints=ARM, **fields):
    r = {"joints": joints, "target": [1.2, 0.9, 0.3], "tolerance": 1e-6, "max_iterations": 20}
    r.update(fields)
    return r


def norm(v):
    return math.sqrt(sum(x * x for x in v))


class TwoBone(unittest.TestCase):
    def test_reachable_targets_are_hit_exactly_with_lengths_kept(self):
        targets = [[1.2, 0.9, 0.3], [-0.5, 0.2, 1.1], [0.0, -1.9, 0.0], [0.3, 0.3, 0.3]]
        answers = solve(*[request(solver="two_bone", target=t, id=i) for i, t in enumerate(targets)])
        for i, (t, r) in enumerate(zip(targets, answers)):
            self.assertTrue(r["ok"], r)
            self.assertEqual(r["id"], i)
            self.assertEqual(r["solver"], "two_bone")
            self.assertEqual(r["iterations"], 1)
            self.assertTrue(r["reached"] and r["reachable"], r)
            self.assertLess(dist(r["joints"][2], t), 1e-6)
            self.assertEqual(r["joints"][0], ARM[0])
            j = r["joints"]
            self.assertAlmostEqual(dist(j[0], j[1]), 1.0, places=6)
            self.assertAlmostEqual(dist(j[1], j[2]), 1.0, places=6)

    def test_pole_picks_the_side_of_the_elbow(self):
        for pole, side in (([0, 0, 5], 1), ([0, 0, -5], -1)):
            (r,) = solve(request(solver="two_bone", target=[1.5, 0.0, 0.0], pole=pole))
            self.assertTrue(r["ok"] and r["reached"], r)
            self.assertGreater(r["joints"][1][2] * side, 0.5)
            self.assertAlmostEqual(r["joints"][1][1], 0.0, places=5)  # in the root-target-pole plane

    def test_out_of_reach_lays_the_arm_straight(self):
        (r,) = solve(request(solver="two_bone", target=[0.0, 0.0, 10.0]))
        self.assertTrue(r["ok"], r)
        self.assertFalse(r["reachable"] or r["reached"])
        self.assertAlmostEqual(r["joints"][2][2], 2.0, places=5)


class Soften(unittest.TestCase):
    def sweep(self, **fields):
        """The effector for targets moving along +X through and beyond the reach (2 for the
        arm, 4 for the chain)."""
        joints = fields.pop("joints", ARM)
        reach = 2.0 if joints is ARM else 4.0
        xs = [reach * (0.5 + 0.002 * k) for k in range(500)]
        answers = solve(*[request(joints=joints, target=[x, 0.0, 0.0], **fields) for x in xs])
        for r in answers:
            self.assertTrue(r["ok"], r)
        return xs, [r["joints"][-1] for r in answers], answers

    def test_two_bone_soften_approaches_the_reach_without_a_jump(self):
        xs, effectors, answers = self.sweep(solver="two_bone", soften=0.9)
        steps = [dist(a, b) for a, b in zip(effectors, effectors[1:])]
        self.assertLessEqual(max(steps), (xs[1] - xs[0]) * 1.001)
        for x, e, r in zip(xs, effectors, answers):
            if x < 1.8 - 1e-9:
                self.assertTrue(r["reached"], (x, r))
                self.assertNotIn("soft_target", r)
            else:
                self.assertLess(norm(e), 2.0)
                if x > 1.8 + 1e-6:
                    self.assertFalse(r["reached"])
                    self.assertLess(norm(r["soft_target"]), x)
        self.assertGreater(norm(effectors[-1]), 1.99)
        # Without soften the arm snaps straight at the reach.
        _, hard, _ = self.sweep(solver="two_bone")
        self.assertAlmostEqual(norm(hard[-1]), 2.0, places=5)

    def test_fabrik_chains_are_softened_too(self):
        xs, effectors, answers = self.sweep(joints=CHAIN, soften=0.8, tolerance=1e-5,
                                            max_iterations=200, accelerate=True)
        for x, e, r in zip(xs, effectors, answers):
            self.assertEqual(r["solver"], "fabrik")
            self.assertLess(norm(e), 4.0)
            if x > 3.2 + 1e-6:
                soft = r["soft_target"]
                self.assertLess(dist(e, soft), 1e-4)  # FABRIK reached the softened target
        steps = [dist(a, b) for a, b in zip(effectors, effectors[1:])]
        self.assertLessEqual(max(steps), (xs[1] - xs[0]) * 1.01)


def turn(a0, a1, b0, b1):
    """Angle in degrees between segment a0->a1 and segment b0->b1."""
    u = [y - x for x, y in zip(a0, a1)]
    v = [y - x for x, y in zip(b0, b1)]
    c = sum(x * y for x, y in zip(u, v)) / (norm(u) * norm(v))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def bend(joints, i):
    """Bend angle in degrees at inner joint i."""
    return turn(joints[i - 1], joints[i], joints[i], joints[i + 1])


class Stretch(unittest.TestCase):
    def test_targets_up_to_s_times_the_reach_are_reached_by_one_factor(self):
        cases = [(3.0, 1.0), (5.0, 1.25), (6.0, 1.5), (9.0, 1.5)]  # reach 4, stretch 1.5
        answers = solve(*[request(joints=CHAIN, target=[0.0, 0.0, x], stretch=1.5,
                                  tolerance=1e-5, max_iterations=100) for x, _ in cases])
        for (x, factor), r in zip(cases, answers):
            self.assertTrue(r["ok"], r)
            self.assertAlmostEqual(r["stretch"], factor, places=6)
            j = r["joints"]
            self.assertEqual(j[0], CHAIN[0])
            for a, b in zip(j, j[1:]):
                self.assertAlmostEqual(dist(a, b), factor, places=5)
            self.assertEqual(r["reached"], x <= 6.0, r)
            self.assertEqual(r["reachable"], x <= 6.0)
            if x > 6.0:
                self.assertAlmostEqual(r["distance"], x - 6.0, places=5)

    def test_two_bone_stretches_too(self):
        (r,) = solve(request(solver="two_bone", target=[0.0, 0.0, 2.5], stretch=2))
        self.assertTrue(r["ok"] and r["reached"], r)
        self.assertAlmostEqual(r["stretch"], 1.25, places=6)


class TurnLimit(unittest.TestCase):
    def test_no_segment_turns_more_than_the_limit_and_calls_converge(self):
        joints = CHAIN
        target = [2.0, -1.0, 1.5]
        for call in range(60):
            (r,) = solve(request(joints=joints, target=target, max_turn_deg=10,
                                 tolerance=1e-3, max_iterations=50))
            self.assertTrue(r["ok"], r)
            new = r["joints"]
            for i in range(len(new) - 1):
                self.assertLessEqual(turn(joints[i], joints[i + 1], new[i], new[i + 1]), 10.0 + 1e-3)
                self.assertAlmostEqual(dist(new[i], new[i + 1]), 1.0, places=5)
            joints = new
            if r["reached"]:
                break
        self.assertTrue(r["reached"])
        self.assertGreater(call, 2)  # the target was too far round for one call


class Stiffness(unittest.TestCase):
    def test_a_stiff_joint_keeps_its_angle_while_the_others_reach(self):
        bent = [[0, 0, 0], [0, 1, 0], [0.7071, 1.7071, 0], [0.7071, 2.7071, 0], [0.7071, 3.7071, 0]]
        for target in ([1.0, 0.5, 1.2], [-1.2, 0.8, -0.6], [0.3, 2.5, -1.0]):
            (r,) = solve(request(joints=bent, target=target, stiffness=[0, 1, 0, 0, 0],
                                 tolerance=1e-3, max_iterations=300))
            self.assertTrue(r["ok"] and r["reached"], r)
            self.assertAlmostEqual(bend(r["joints"], 1), bend(bent, 1), delta=0.5)
        (free,) = solve(request(joints=bent, target=[-1.2, 0.8, -0.6], tolerance=1e-3,
                                max_iterations=300))
        self.assertGreater(abs(bend(free["joints"], 1) - bend(bent, 1)), 0.5)  # it would move


def catmull_points(curve, n=4000):
    """Dense points of the centripetal Catmull-Rom curve through `curve` (open, end points
    reflected), computed here independently of the solver: Barry and Goldman's pyramid."""
    pts = [list(map(float, p)) for p in curve]
    ext = [[2 * a - b for a, b in zip(pts[0], pts[1])]] + pts + \
          [[2 * a - b for a, b in zip(pts[-1], pts[-2])]]
    out = []
    per = max(1, n // (len(pts) - 1))
    for i in range(len(pts) - 1):
        p0, p1, p2, p3 = ext[i], ext[i + 1], ext[i + 2], ext[i + 3]
        t0 = 0.0
        t1 = t0 + math.sqrt(dist(p0, p1))
        t2 = t1 + math.sqrt(dist(p1, p2))
        t3 = t2 + math.sqrt(dist(p2, p3))

        def lerp(a, b, ta, tb, t):
            return [((tb - t) * x + (t - ta) * y) / (tb - ta) for x, y in zip(a, b)]
        for k in range(per + 1):
            t = t1 + (t2 - t1) * k / per
            a1, a2, a3 = lerp(p0, p1, t0, t1, t), lerp(p1, p2, t1, t2, t), lerp(p2, p3, t2, t3, t)
            b1, b2 = lerp(a1, a2, t0, t2, t), lerp(a2, a3, t1, t3, t)
            out.append(lerp(b1, b2, t1, t2, t))
    return out


def distance_to(points, p):
    return min(dist(p, q) for q in points)


SNAKE = [[float(i), 0.0, 0.0] for i in range(6)]  # five unit segments along +X
PATH = [[0, 0, 0], [2, 1, 0], [4, -1, 1], [6, 0, 2], [8, 1, 1]]


class SplineIk(unittest.TestCase):
    def test_every_joint_on_the_curve_from_its_start_with_lengths_kept(self):
        (r,) = solve({"joints": SNAKE, "curve": PATH, "id": "s"})
        self.assertTrue(r["ok"], r)
        self.assertEqual(r["solver"], "spline_ik")
        self.assertEqual(r["id"], "s")
        self.assertEqual(r["on_curve"], 6)
        j = r["joints"]
        self.assertEqual(j[0], PATH[0])
        for a, b in zip(j, j[1:]):
            self.assertAlmostEqual(dist(a, b), 1.0, places=5)
        dense = catmull_points(PATH)
        for p in j:
            self.assertLess(distance_to(dense, p), 5e-3)  # the sampling's own spacing
        self.assertLess(r["covered"], r["curve_length"])
        self.assertNotIn("fit_scale", r)

    def test_fit_stretch_covers_the_whole_curve(self):
        (r,) = solve({"joints": SNAKE, "curve": PATH, "fit": "stretch"})
        self.assertTrue(r["ok"], r)
        scale = r["fit_scale"]
        self.assertGreater(scale, 1.5)
        j = r["joints"]
        self.assertLess(dist(j[-1], PATH[-1]), 1e-4)
        for a, b in zip(j, j[1:]):
            self.assertAlmostEqual(dist(a, b), scale, places=4)

    def test_a_chain_longer_than_the_curve_goes_straight_on(self):
        (r,) = solve({"joints": SNAKE, "curve": [[0, 0, 0], [1, 1, 0], [2, 0, 0]]})
        self.assertTrue(r["ok"], r)
        self.assertLess(r["on_curve"], 6)
        for a, b in zip(r["joints"], r["joints"][1:]):
            self.assertAlmostEqual(dist(a, b), 1.0, places=5)


class Aim(unittest.TestCase):
    def test_the_last_bone_points_at_the_point_shared_by_three_joints(self):
        joints = [[0.0, float(i), 0.0] for i in range(4)]
        at = [10.0, 5.0, 3.0]
        (r,) = solve({"joints": joints, "aim": {"axis": [0, 1, 0], "at": at, "joints": 3,
                                                 "weights": [0.2, 0.3, 0.5]}, "id": 3})
        self.assertTrue(r["ok"] and r["reached"], r)
        self.assertEqual(r["solver"], "aim")
        self.assertLessEqual(r["aim_error_deg"], 0.5)
        j = r["joints"]
        self.assertEqual(j[0], joints[0])
        # Measured here: the last bone's direction against the direction to the point.
        self.assertLess(turn(j[2], j[3], j[3], at), 0.5)
        for a, b in zip(j, j[1:]):
            self.assertAlmostEqual(dist(a, b), 1.0, places=5)

    def test_a_side_axis_with_two_joints(self):
        joints = [[0.0, float(i), 0.0] for i in range(4)]
        (r,) = solve({"joints": joints, "aim": {"axis": [1, 0, 0], "at": [-10, 5, 3], "joints": 3}})
        self.assertTrue(r["ok"] and r["reached"], r)
        self.assertEqual(r["joints"][:1], joints[:1])


class Refusals(unittest.TestCase):
    def test_bad_values_are_refused_with_a_reason(self):
        cases = [
            (request(soften=0), "0 < soften <= 1"),
            (request(soften=1.5), "0 < soften <= 1"),
            (request(soften=-0.5), "0 < soften <= 1"),
            (request(soften="0.5"), "soften must be a number"),
            (request(joints=CHAIN, solver="two_bone"), "exactly 3 joints, got 5"),
            (request(solver="two_bone", accelerate=True), "accelerate"),
            (request(soften=0.5, pole=[0, 0, 1]), "pole"),
            (request(soften=0.5, constraints=[]), "\"constraints\""),
            (request(solver="two_bone", free_root=True), "free_root"),
            (request(solver="two_bone", pole=[0, "x", 0]), "pole[1]"),
            (request(solver="bogus"), "two_bone"),
            (request(stretch=0.9), "stretch >= 1"),
            (request(stretch=[2]), "stretch must be a number"),
            (request(stretch=2, soften=0.9), "cannot be combined"),
            (request(max_turn_deg=-5), "0 < max_turn_deg <= 180"),
            (request(max_turn_deg=0), "0 < max_turn_deg <= 180"),
            (request(max_turn_deg=None), "max_turn_deg must be a number"),
            (request(stiffness=[0, 0.5]), "one number in 0..1 per joint (3), got 2 entries"),
            (request(stiffness=[0, 1.5, 0]), "stiffness[1] must be a number with 0 <= value <= 1"),
            (request(stiffness=[0, -0.1, 0]), "stiffness[1]"),
            (request(stiffness=[0, "a", 0]), "stiffness[1]"),
            (request(stiffness={"1": 1}), "got object"),
            (request(stiffness=[0, 1, 0], solver="ccd"), "no other solver"),
            (request(stiffness=[0, 1, 0], stretch=2), "cannot be combined"),
            (request(max_turn_deg=5, nodes=[]), "\"nodes\""),
            (request(curve=[[0, 0, 0]]), "at least 2 points, got 1"),
            (request(curve=[]), "at least 2 points, got 0"),
            (request(curve=[[0, 0, 0], [1, 0, 0], [1, 0, 0]]), "curve[2] coincides with curve[1]"),
            (request(curve=[[0, 0, 0], [1, 0, "x"]]), "curve[1][2]"),
            (request(curve="x"), "must be an array"),
            (request(curve=[[0, 0, 0], [1e30, 0, 0]]), "too far"),
            (request(curve=[[0, 0, 0], [1, 0, 0]], fit="squash"), "fit must be"),
            (request(curve=[[0, 0, 0], [1, 0, 0]], soften=0.5), "\"soften\" cannot be combined"),
            (request(curve=[[0, 0, 0], [1, 0, 0]], solver="two_bone"), "\"solver\""),
            (request(aim={"axis": [0, 0, 0], "at": [1, 1, 1]}), "aim.axis must be non-zero"),
            (request(aim={"axis": [0, 1, 0]}), "needs \"axis\" and \"at\""),
            (request(aim={"axis": [0, 1, 0], "at": [1, 1, 1], "joints": 3}), "aim.joints = 3 is out of range"),
            (request(aim={"axis": [0, 1, 0], "at": [1, 1, 1], "joints": 2, "weights": [0, 0]}),
             "must not all be 0"),
            (request(aim={"axis": [0, 1, 0], "at": [1, 1, 1], "joints": 2, "weights": [1, -1]}),
             "aim.weights[1] must be >= 0"),
            (request(aim=[1, 2]), "must be an object"),
            (request(aim={"axis": [0, 1, 0], "at": [1, 1, 1]}, soften=0.5), "\"soften\" cannot be combined"),
        ]
        answers = solve(*[c[0] for c in cases] + [request(solver="two_bone")])
        for (req, expected), answer in zip(cases, answers):
            self.assertFalse(answer["ok"], (req, answer))
            self.assertIn(expected, answer["error"])
            self.assertNotIn("joints", answer)
        self.assertTrue(answers[-1]["ok"])  # and the next line is answered as usual


if __name__ == "__main__":
    unittest.main()
