"""The chain scene's everyday IK tools typed in the console (docs/tools.md: In the demo), under
Xvfb with xdotool, checked through the --state-out stream: two_bone with soften, a refused
stretch, the turn limit, stiffness and spline IK."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, all_finite, dist  # noqa

FAST = ["--size", "640x420", "--msaa", "0", "--no-vsync", "--fixed-dt", "0.02"]


def run(demo, line, until, what):
    return demo.run_in_console(line, until, what)


def answered(prefix):
    """The console's last line starts with `prefix` (the answer, not the echo "> ...")."""
    return lambda s: s.get("console_last", "").startswith(prefix)


def seg(state, i):
    a, b = state["joints"][i], state["joints"][i + 1]
    return [b[k] - a[k] for k in range(3)]


def angle(u, v):
    """Degrees between two vectors."""
    dot = sum(x * y for x, y in zip(u, v))
    cross = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    return math.degrees(math.atan2(math.sqrt(sum(c * c for c in cross)), dot))


class Tools(unittest.TestCase):
    def test_typed_tool_commands_change_the_solve_and_bad_ones_change_nothing(self):
        with LiveDemo(FAST + ["--exec", "joints 3", "--exec", "length 1",
                              "--exec", "target 1.95 0 0"]) as demo:
            demo.wait_until(lambda s: len(s["joints"]) == 3, what="a 3-joint chain")
            st = run(demo, "solver two_bone", lambda s: s["solver"] == "two_bone", "two_bone")
            st = run(demo, "soften 0.8", lambda s: abs(s["soften"] - 0.8) < 1e-6 and s["soft_target"],
                     "soften")
            # The effector eases in short of a target near full reach (ozz's curve).
            st = demo.wait_until(lambda s: s["frame"] > st["frame"] + 40, what="the glide's end")
            want = 1.6 + 0.4 * (1 - math.exp(-0.35 / 0.4))
            self.assertAlmostEqual(dist(st["joints"][-1], [0, 0, 0]), want, places=3)
            self.assertFalse(st["reached"])

            # Refused: one error, nothing changed.
            st = run(demo, "stretch 1.5", answered("stretch: "), "the refusal")
            self.assertIn("stretch: not with soften", st["console_last"])
            self.assertEqual(st["stretch"], 1.0)
            st = run(demo, "turn limit 500", answered("turn limit: "), "the refusal")
            self.assertIn("turn limit: expected an angle", st["console_last"])
            self.assertEqual(st["turn_limit"], 0.0)

            # Stretch past the reach: the drawn pose grows by one factor and reaches.
            run(demo, "soften off", lambda s: s["soften"] == 1.0, "soften off")
            run(demo, "stretch 1.5", lambda s: s["stretch"] == 1.5, "stretch")
            st = run(demo, "target 2.4 0 0",
                     lambda s: abs(s["stretch_factor"] - 1.2) < 1e-5 and s["reached"],
                     "a stretched reach")
            self.assertAlmostEqual(dist(st["joints"][0], st["joints"][1]), 1.2, places=3)

            # Turn limit with the two-bone solver: the chain swings over several frames.
            run(demo, "stretch off", lambda s: s["stretch"] == 1.0, "stretch off")
            run(demo, "turn limit 3", lambda s: s["turn_limit"] == 3.0, "turn limit")
            start = run(demo, "target -1 1 0", lambda s: s["target"][0] < -0.99,
                        "the target jump")
            end = demo.wait_until(lambda s: s["frame"] >= start["frame"] + 20, what="20 frames")
            frames = [s for s in demo.states()
                      if s["turn_limit"] == 3.0 and s["frame"] <= end["frame"]]
            worst, total = 0.0, 0.0
            for a, b in zip(frames, frames[1:]):
                for i in range(2):
                    turn = angle(seg(a, i), seg(b, i))
                    worst, total = max(worst, turn), total + turn
            self.assertGreater(total, 5.0)  # it did swing round
            self.assertLessEqual(worst, 3.0 + 1e-3)
            self.assertTrue(all_finite(end))

            # Stiffness and spline IK on a longer chain.
            run(demo, "turn limit off", lambda s: s["turn_limit"] == 0.0, "turn limit off")
            run(demo, "joints 6", lambda s: len(s["joints"]) == 6 and s["solver"] == "fabrik",
                "6 joints: two_bone hands back")
            st = run(demo, "stiffness 2 1", lambda s: s["stiffness"] and s["stiffness"][2] == 1.0,
                     "stiffness")
            run(demo, "spline load assets/splines/loop.txt",
                lambda s: s.get("spline", {}).get("path", "").endswith("loop.txt"), "a spline")
            run(demo, "mode spline", lambda s: s["mode"] == "spline", "spline mode")
            st = run(demo, "spline ik on", lambda s: s["spline ik"] and s["on_curve"] == 6,
                     "spline ik")
            self.assertLess(dist(st["joints"][-1], st["spline"]["position"]), 1e-3)
            st = run(demo, "spline ik off", lambda s: not s["spline ik"], "spline ik off")
            st = demo.wait_frames(2)
            self.assertLess(dist(st["joints"][0], [0, 0, 0]), 1e-6)

    def test_aim_step_view_and_the_arms_two_bone(self):
        with LiveDemo(FAST + ["--exec", "joints 5", "--exec", "length 1",
                              "--exec", "mode console", "--exec", "target 1 2 0"]) as demo:
            demo.wait_until(lambda s: len(s["joints"]) == 5 and s["reached"], what="a reach")
            # Look-at: the last two joints turn a sideways axis towards the point.
            st = run(demo, "aim 3 5 2 axis 1 0 0 joints 2",
                     lambda s: s["aim"] and s["aim_error_deg"] is not None
                     and s["aim_error_deg"] < 0.5, "the aim")
            self.assertEqual(st["aim"]["joints"], 2)
            st = run(demo, "aim joints 9", answered("aim: "), "the refusal")
            self.assertIn("more than this chain's 4 segments", st["console_last"])
            self.assertEqual(st["aim"]["joints"], 2)

            # The step view ends on the frame's pose, the aim as a step of its own.
            run(demo, "step on", lambda s: "step" in s, "the step view")
            run(demo, "target -2 1 1", lambda s: s["target"][0] < -1.99, "a new target")
            st = run(demo, "step end", lambda s: s["step"]["step"] == s["step"]["step_count"]
                     and s["step"]["step_count"] > 0, "the last step")
            self.assertEqual(st["step"]["tool"], "aim")
            run(demo, "step off", lambda s: "step" not in s, "the step view off")
            # The first frame after the view: its solve started from the pose the view had
            # recorded from (later frames go on solving).
            first = next(s for s in demo.states() if s["frame"] > st["frame"] and "step" not in s)
            for a, b in zip(st["joints"], first["joints"]):
                self.assertLess(dist(a, b), 1e-4)

            # The arm: shoulder, elbow and wrist by two_bone, the hand on the target.
            run(demo, "aim off", lambda s: s["aim"] is None, "aim off")
            run(demo, "scene arm", lambda s: s["scene"] == "arm", "the arm")
            st = run(demo, "solver two_bone", lambda s: s["solver"] == "two_bone", "two_bone")
            st = run(demo, "target 2.5 1.5 -1",
                     lambda s: abs(s["target"][0] - 2.5) < 1e-6 and s["reached"]
                     and s["iterations"] == 1, "the arm's reach")
            self.assertLess(dist(st["joints"][-1], [2.5, 1.5, -1]), 1e-3)
            self.assertTrue(all_finite(st))


if __name__ == "__main__":
    unittest.main()
