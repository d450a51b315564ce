"""The other three target modes, end to end: a spline run whose targets stay on the curve
at constant speed, a script whose targets arrive at the scripted times, a command typed
into the console with real keystrokes, and mode switches that never make the chain jump."""
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (SOURCE_DIR, LiveDemo, all_finite, dist, read_states,  # noqa: E402
                        run_demo)

FAST = ["--size", "640x420", "--msaa", "0", "--no-vsync"]


def read_points(path):
    points, closed = [], False
    with open(path) as f:
        text = f.read()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line == "closed":
            closed = True
        elif line != "open":
            points.append([float(v) for v in line.split()])
    return points, closed


def centripetal_samples(points, per_segment=300):
    """Dense samples of a closed centripetal Catmull-Rom (Barry-Goldman), written here
    independently of the C++ code."""
    n = len(points)
    out = []

    def lerp(a, b, ta, tb, t):
        if tb == ta:
            return a
        return [((tb - t) * a[k] + (t - ta) * b[k]) / (tb - ta) for k in range(3)]

    for i in range(n):
        p0, p1, p2, p3 = (points[(i + j - 1) % n] for j in range(4))
        t0 = 0.0
        t1 = t0 + math.sqrt(dist(p0, p1))
        t2 = t1 + math.sqrt(dist(p1, p2))
        t3 = t2 + math.sqrt(dist(p2, p3))
        for s in range(per_segment):
            t = t1 + (t2 - t1) * s / per_segment
            a1, a2, a3 = lerp(p0, p1, t0, t1, t), lerp(p1, p2, t1, t2, t), lerp(p2, p3, t2, t3, t)
            b1, b2 = lerp(a1, a2, t0, t2, t), lerp(a2, a3, t1, t3, t)
            out.append(lerp(b1, b2, t1, t2, t))
    return out


def segment_distance(p, a, b):
    ab = [b[k] - a[k] for k in range(3)]
    ap = [p[k] - a[k] for k in range(3)]
    den = sum(c * c for c in ab)
    t = 0.0 if den == 0 else max(0.0, min(1.0, sum(ab[k] * ap[k] for k in range(3)) / den))
    return dist(p, [a[k] + ab[k] * t for k in range(3)])


# Keystrokes typed faster than frames are spread over frames (one event per key per frame),
# so after typing a line the tests wait enough frames for it to arrive.
class Modes(unittest.TestCase):
    def test_spline_targets_stay_on_the_curve_at_constant_speed(self):
        path = os.path.join(SOURCE_DIR, "assets", "splines", "loop.txt")
        points, closed = read_points(path)
        self.assertTrue(closed)
        samples = centripetal_samples(points)
        d = tempfile.mkdtemp()
        state = os.path.join(d, "s.jsonl")
        dt, speed = 0.02, 2.0
        code, _, err = run_demo(FAST + ["--spline", path, "--fixed-dt", str(dt), "--frames",
                                        "150", "--state-out", state, "--exec",
                                        "spline speed %g" % speed])
        self.assertEqual(code, 0, err)
        states = read_states(state)
        self.assertTrue(all(s["mode"] == "spline" for s in states))
        for s in states:
            self.assertTrue(all_finite(s))
            off = min(segment_distance(s["target"], a, b)
                      for a, b in zip(samples, samples[1:] + samples[:1]))
            self.assertLess(off, 2e-3, "target off the curve at frame %d" % s["frame"])
            self.assertLessEqual(s["distance"], 0.01 + 1e-6)
        steps = [dist(a["target"], b["target"]) for a, b in zip(states[1:], states[2:])]
        for step in steps:
            # Chords of a curved path are a hair shorter than the arc: allow 2 %.
            self.assertAlmostEqual(step, speed * dt, delta=0.02 * speed * dt)

    def test_script_reaches_its_targets_at_the_scripted_times(self):
        d = tempfile.mkdtemp()
        script = os.path.join(d, "s.txt")
        with open(script, "w") as f:
            f.write("# test script\n"
                    "at 0.2 target 2 3 0          # jump the scripted target\n"
                    "at 0.5 target -2 3 1 over 1  # glide for a second\n"
                    "at 2.0 moe 0.02\n"
                    "at 2.0 iterations 17\n"
                    "at 2.5 joints 12\n"
                    "at 2.5 length 0.4   # both lines of one step count\n")
        state = os.path.join(d, "s.jsonl")
        dt = 0.05
        code, _, err = run_demo(FAST + ["--script", script, "--fixed-dt", str(dt), "--frames",
                                        "70", "--state-out", state])
        self.assertEqual(code, 0, err)
        states = read_states(state)
        by_time = {round(s["script"]["time"], 6): s for s in states}
        self.assertTrue(all(s["mode"] == "script" for s in states))
        # Before 0.2 s the scripted target is not set; at 0.2 s it is (2, 3, 0).
        at = by_time[round(0.2, 6)]
        self.assertLess(dist(at["target"], [2, 3, 0]), 0.02 + 1e-6 + 0.6)  # glide from mode switch
        s_05 = by_time[0.5]
        self.assertLess(dist(s_05["target"], [2, 3, 0]), 1e-5)
        mid = by_time[1.0]
        self.assertLess(dist(mid["target"], [0, 3, 0.5]), 1e-4)  # half way through the glide
        end = by_time[1.5]
        self.assertLess(dist(end["target"], [-2, 3, 1]), 1e-5)
        self.assertLessEqual(end["distance"], 0.01 + 1e-6)
        before = by_time[1.95]
        after = by_time[2.0]
        self.assertAlmostEqual(before["tolerance"], 0.01, places=6)
        self.assertAlmostEqual(after["tolerance"], 0.02, places=6)
        self.assertEqual(after["max_iterations"], 17)
        last = states[-1]
        self.assertTrue(last["script"]["finished"])
        self.assertEqual(len(last["joints"]), 12)
        self.assertEqual(last["lengths"], [0.4000000059604645] * 11)

    def test_typed_console_commands(self):
        with LiveDemo(FAST + ["--fixed-dt", "0.02"]) as demo:
            s = demo.latest()
            w, h = s["window"]
            demo.move(w * 0.7, h * 0.3)
            demo.key("grave")
            demo.wait_until(lambda st: st["console_open"], what="the console to open")
            demo.type("target 1 2 0")
            demo.key("Return")
            st = demo.wait_until(lambda st: st["mode"] == "console"
                                 and dist(st["target"], [1, 2, 0]) < 1e-5,
                                 what="the typed target")
            st = demo.wait_frames(3)
            self.assertLessEqual(st["distance"], 0.01 + 1e-6)
            # The input keeps the keyboard: more lines without clicking.
            demo.type("iterations 33")
            demo.key("Return")
            demo.type("iterations 44")
            demo.key("Return")
            demo.wait_until(lambda st: st["max_iterations"] == 44, what="iterations 44")
            demo.key("Up", "Up", "Return")  # history: back to "iterations 33"
            st = demo.wait_until(lambda st: st["max_iterations"] == 33, what="history recall")
            # A bad line prints an error and changes nothing.
            joints = len(st["joints"])
            for bad, needle in [("joints abc", "joints"), ("target 1 nan 2", "target"),
                                ("moe -1", "moe"), ("frobnicate", "unknown command")]:
                demo.type(bad)
                demo.key("Return")
                after = demo.wait_until(
                    lambda st: needle in st.get("console_last", "")
                    and not st["console_last"].startswith(">"), what="error for " + bad)
                self.assertEqual(len(after["joints"]), joints)
                self.assertEqual(after["max_iterations"], 33)
                self.assertAlmostEqual(after["tolerance"], 0.01, places=6)
                self.assertLess(dist(after["target"], [1, 2, 0]), 1e-5)
                self.assertTrue(all_finite(after))
            # The backtick itself is never typed into the line: "`joints 5" would be an error.
            demo.key("grave")  # closes (the input has the keyboard)...
            demo.wait_until(lambda st: not st["console_open"], what="the console to close")
            demo.key("grave")  # ...and opens again, focused
            demo.wait_until(lambda st: st["console_open"], what="the console to reopen")
            demo.type("joints 5")
            demo.key("Return")
            st = demo.wait_until(lambda st: len(st["joints"]) == 5, what="joints 5")
            self.assertEqual(st["joints"][0], [0.0, 0.0, 0.0])

    def test_switching_modes_while_moving_never_jumps(self):
        loop = os.path.join(SOURCE_DIR, "assets", "splines", "loop.txt")
        dt, speed = 0.02, 2.0
        with LiveDemo(FAST + ["--spline", loop, "--fixed-dt", str(dt), "--exec",
                              "spline speed %g" % speed]) as demo:
            s = demo.latest()
            w, h = s["window"]
            demo.move(w * 0.7, h * 0.3)
            for key, mode in [("3", "console"), ("2", "spline"), ("1", "drag"), ("2", "spline"),
                              ("4", "script")]:
                demo.wait_frames(10)
                demo.key(key)
                demo.wait_until(lambda st: st["mode"] == mode, what="mode " + mode)
                demo.wait_frames(30)  # let the blend towards the new source play out
            states = demo.states()
        # The target never moves more than a little faster than the spline itself.
        for a, b in zip(states, states[1:]):
            self.assertLess(dist(a["target"], b["target"]), 3.5 * speed * dt,
                            "target jumped at frame %d" % b["frame"])
            for p, q in zip(a["joints"], b["joints"]):
                self.assertLess(dist(p, q), 0.6, "joint jumped at frame %d" % b["frame"])

    def test_bad_start_files_exit_2_with_file_and_line(self):
        d = tempfile.mkdtemp()
        bad_spline = os.path.join(d, "bad.txt")
        with open(bad_spline, "w") as f:
            f.write("0 0 0\n1 2\n")
        code, _, err = run_demo(["--spline", bad_spline, "--frames", "1"])
        self.assertEqual(code, 2)
        self.assertIn("bad.txt:2", err)
        bad_script = os.path.join(d, "bad_script.txt")
        with open(bad_script, "w") as f:
            f.write("at 0 target 1 2 3\nat x mode drag\n")
        code, _, err = run_demo(["--script", bad_script, "--frames", "1"])
        self.assertEqual(code, 2)
        self.assertIn("bad_script.txt:2", err)
        code, _, err = run_demo(["--spline", os.path.join(d, "missing.txt"), "--frames", "1"])
        self.assertEqual(code, 2)
        self.assertIn("missing.txt", err)


if __name__ == "__main__":
    unittest.main()
