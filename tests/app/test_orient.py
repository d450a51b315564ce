"""Rotations and the orientation target, end to end (docs/rotations.md): a spline run streams
valid `rotations` (unit quaternions turning +Y onto each segment, with no twist jump between
frames); `target X Y Z YAW PITCH ROLL` reaches the orientation; in drag mode Shift + wheel
turns the target's yaw."""
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, read_states, run_demo, xdotool  # noqa


def rotate(q, v):
    """Quaternion [w, x, y, z] applied to vector v."""
    w, x, y, z = q
    # v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z)
    ux = (y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0])
    uux = (y * ux[2] - z * ux[1], z * ux[0] - x * ux[2], x * ux[1] - y * ux[0])
    return [v[i] + 2 * w * ux[i] + 2 * uux[i] for i in range(3)]


def angle_between_quats(a, b):
    d = abs(sum(x * y for x, y in zip(a, b)))
    return 2 * math.acos(min(1.0, d))


def angle_between(u, v):
    nu = math.sqrt(sum(x * x for x in u))
    nv = math.sqrt(sum(x * x for x in v))
    c = sum(x * y for x, y in zip(u, v)) / (nu * nv)
    return math.acos(max(-1.0, min(1.0, c)))


def direction(a, b):
    d = [y - x for x, y in zip(a, b)]
    n = math.sqrt(sum(x * x for x in d))
    return [x / n for x in d]


class Rotations(unittest.TestCase):
    def run_states(self, args, frames=60):
        d = tempfile.mkdtemp(prefix="fabrik-orient-")
        state = os.path.join(d, "state.jsonl")
        code, _, err = run_demo(["--frames", str(frames), "--fixed-dt", "0.05", "--state-out",
                                 state] + args, timeout=300)
        self.assertEqual(code, 0, err)
        return read_states(state)

    def test_a_spline_run_streams_valid_rotations_without_twist_jumps(self):
        states = self.run_states(["--joints", "30", "--length", "0.2",
                                  "--spline", "assets/splines/word.txt", "--exec", "skin on"])
        self.assertGreater(len(states), 50)
        previous = None
        for s in states:
            joints, rots = s["joints"], s["rotations"]
            self.assertEqual(len(rots), len(joints) - 1)
            for k, q in enumerate(rots):
                self.assertAlmostEqual(math.sqrt(sum(c * c for c in q)), 1.0, delta=1e-5)
                y = rotate(q, [0.0, 1.0, 0.0])
                seg = direction(joints[k], joints[k + 1])
                self.assertLess(max(abs(a - b) for a, b in zip(y, seg)), 1e-4, (s["frame"], k))
            if previous is not None:
                # A bone's frame turns no more than the bones up to it changed direction,
                # plus the settle rate (0.002 rad per frame) and rounding.
                summed = 0.0
                for k, q in enumerate(rots):
                    summed += angle_between(direction(previous["joints"][k],
                                                      previous["joints"][k + 1]),
                                            direction(joints[k], joints[k + 1]))
                    turned = angle_between_quats(previous["rotations"][k], q)
                    self.assertLessEqual(turned, summed + 0.002 + 2e-3, (s["frame"], k))
            previous = s
        self.assertTrue(states[-1]["target_rotation"] is None)
        self.assertTrue(states[-1]["orient_error_deg"] is None)

    def test_target_with_angles_reaches_the_orientation(self):
        states = self.run_states(["--exec", "iterations 100",
                                  "--exec", "target 2 3 1 30 -40 20"], frames=80)
        last = states[-1]
        self.assertEqual(last["target"], [2, 3, 1])
        self.assertTrue(last["reached"])
        self.assertLessEqual(last["orient_error_deg"], 2.0)
        self.assertEqual(last["target_euler_deg"], [30, -40, 20])
        # The effector bone points along the wanted frame's +Y.
        want_y = rotate(last["target_rotation"], [0.0, 1.0, 0.0])
        got = direction(last["joints"][-2], last["joints"][-1])
        self.assertLess(math.degrees(angle_between(want_y, got)), 2.0)

    def test_shift_wheel_turns_the_yaw_in_drag_mode(self):
        with LiveDemo(["--size", "1000x700", "--exec", "orient 0 0 0"]) as demo:
            demo.wait_until(lambda s: s["target_euler_deg"] == [0, 0, 0],
                            what="the orientation set")
            self.assertEqual(demo.latest()["mode"], "drag")
            demo.move(700, 350)
            xdotool("keydown", "shift")
            try:
                xdotool("click", "4")
                s = demo.wait_until(lambda s: s["target_euler_deg"][0] != 0,
                                    what="the yaw turned")
            finally:
                xdotool("keyup", "shift")
            self.assertEqual(abs(s["target_euler_deg"][0]), 5)
            self.assertEqual(s["target_euler_deg"][1:], [0, 0])


if __name__ == "__main__":
    unittest.main()
