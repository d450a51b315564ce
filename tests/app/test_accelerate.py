"""The accelerated FABRIK in the demo (docs/accelerated-fabrik.md): off by default (the
library's default), the `accelerate on|off` console command and the state line's
`accelerate` field, the race with both FABRIKs, and the step view naming the bend-scale
step."""
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import all_finite, dist, read_states, run_demo  # noqa: E402

FAST = ["--size", "640x420", "--msaa", "0", "--no-vsync", "--fixed-dt", "0.02"]
# Ten joints one unit apart (reach 9); a target at 99% of the reach, where the textbook
# passes crawl; tolerance 0.001 and the default cap of 10 iterations.
CHAIN = ["--joints", "10", "--length", "1", "--moe", "0.001", "--max-iterations", "10"]
NEAR_RIM = [9 * 0.99 * math.cos(1.0), 9 * 0.99 * math.sin(1.0), 0.0]
TARGET = "target %.6f %.6f %.6f" % tuple(NEAR_RIM)


class Accelerate(unittest.TestCase):
    def run_exec(self, lines, frames=3, extra=()):
        d = tempfile.mkdtemp()
        state = os.path.join(d, "s.jsonl")
        args = FAST + CHAIN + ["--frames", str(frames), "--state-out", state] + list(extra)
        for line in lines:
            args += ["--exec", line]
        code, _, err = run_demo(args)
        self.assertEqual(code, 0, err)
        return read_states(state)

    def test_off_by_default_and_the_command_switches_it(self):
        # The default is the library's: the textbook FABRIK (docs/library.md, "Versioning").
        # Near the rim its passes hit the cap of 10 and fall behind the target.
        off = self.run_exec([TARGET], frames=40)
        self.assertTrue(all(s["accelerate"] is False for s in off))
        stalled = [s for s in off if not s["reached"]]
        self.assertTrue(stalled)
        self.assertTrue(all(s["iterations"] == 10 for s in stalled))

        # The typed target glides there in about 30 frames; the chain tracks it warm.
        on = self.run_exec(["accelerate on", TARGET], frames=40)
        self.assertTrue(all(s["accelerate"] is True for s in on))
        self.assertTrue(all(s["reached"] for s in on), [s["distance"] for s in on])
        self.assertLessEqual(max(s["iterations"] for s in on), 4)
        arrived = [s for s in on if dist(s["target"], NEAR_RIM) < 1e-4]
        self.assertTrue(arrived)
        self.assertLessEqual(dist(arrived[0]["joints"][-1], NEAR_RIM), 0.001 + 1e-6)

        again = self.run_exec(["accelerate on", "accelerate off", TARGET], frames=40)
        self.assertEqual([s["joints"] for s in again], [s["joints"] for s in off])
        self.assertEqual([s["iterations"] for s in again], [s["iterations"] for s in off])

    def test_bad_argument_is_refused_with_a_message(self):
        code, _, err = run_demo(FAST + ["--frames", "2", "--exec", "accelerate maybe"])
        self.assertNotEqual(code, 0)
        self.assertIn("accelerate: expected on or off, got 'maybe'", err)

    def test_race_shows_both_fabriks(self):
        states = self.run_exec(["race on", TARGET], frames=40)
        last = states[-1]
        by = {r["solver"]: r for r in last["race"]}
        self.assertEqual([r["solver"] for r in last["race"]],
                         ["fabrik", "fabrik_accelerated", "ccd", "jacobian_transpose", "dls"])
        for r in last["race"]:
            self.assertTrue(all_finite(r))
        # Every frame: the accelerated racer on the target in a few iterations, the textbook
        # one at the cap and behind on some frames near the rim.
        fast = [next(r for r in s["race"] if r["solver"] == "fabrik_accelerated") for s in states]
        slow = [next(r for r in s["race"] if r["solver"] == "fabrik") for s in states]
        self.assertTrue(all(r["reached"] and r["iterations"] <= 4 for r in fast), fast)
        self.assertTrue(any(not r["reached"] and r["iterations"] == 10 for r in slow), slow)
        self.assertLessEqual(dist(by["fabrik_accelerated"]["effector"], NEAR_RIM), 0.001 + 1e-6)

    def test_step_view_names_the_bend_scale_step(self):
        states = self.run_exec(["accelerate on", "step on", TARGET, "step end"])
        end = states[0]["step"]
        self.assertEqual(end["step"], end["reach_count"])
        # backward, forward, then the bend-scale step that lands on the target.
        self.assertEqual(end["half_passes"], 3)
        self.assertEqual(end["pass"], "bend_scale")
        self.assertEqual(end["iteration"], 2)
        self.assertIn("bend-scale step", states[0]["console_last"])


if __name__ == "__main__":
    unittest.main()
