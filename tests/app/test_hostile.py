"""Hostile console and script input: every bad line gets one clear error and changes nothing,
and no script or console line can make the demo's memory grow without bound (docs/options.md:
Limits).
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, all_finite, read_states, run_demo  # noqa

FAST = ["--size", "640x480", "--msaa", "0", "--no-vsync", "--hidden"]
MEMORY_LIMIT_MB = 512  # docs/options.md: Limits


def last_state(args, frames=3):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "s.jsonl")
        code, _, err = run_demo(FAST + ["--frames", str(frames), "--state-out", out] + args)
        if code != 0:
            raise AssertionError("demo exited %d: %s" % (code, err))
        return read_states(out)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def run_script(lines, extra=(), frames=4):
    """Runs a script from frame 0 and returns every state line."""
    with tempfile.TemporaryDirectory() as d:
        script = write(os.path.join(d, "s.txt"), "".join(l + "\n" for l in lines))
        return last_state(["--script", script] + list(extra), frames=frames)


class BadLines(unittest.TestCase):
    def test_bad_exec_lines_exit_2_with_one_line(self):
        for line, needle in [("length 1e-40", "expected a length from 0.0001 to 1000"),
                             ("lengths 1 1e-40 1", "length 2: expected a length from 0.0001"),
                             ('target 1"2"3', "a quote inside a word")]:
            code, _, err = run_demo(FAST + ["--frames", "2", "--exec", line])
            self.assertEqual(code, 2, line)
            self.assertIn(needle, err, line)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_lengths_too_small_to_keep_are_refused_and_change_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            # A script checks its lines when it loads, so a bad length stops it at start...
            bad = write(os.path.join(d, "bad.txt"), "at 0 length 1e-40\n")
            code, _, err = run_demo(FAST + ["--frames", "2", "--script", bad])
            self.assertEqual(code, 2)
            self.assertIn("bad.txt:1: length: expected a length from 0.0001 to 1000", err)
        # ...and the smallest length allowed is kept by the chain.
        s = run_script(["at 0 length 0.0001", "at 0 joints 10"])[-1]
        self.assertEqual(len(s["joints"]), 10)
        for a, b in zip(s["joints"], s["joints"][1:]):
            d = sum((a[i] - b[i]) ** 2 for i in range(3)) ** 0.5
            self.assertAlmostEqual(d, 0.0001, delta=1e-6)

    def test_step_and_race_outside_the_chain_scene_say_why(self):
        for line, needle in [("race on", "race: the race works on the chain scene only"),
                             ("step on", "step: the step view works on the chain scene only"),
                             ("step next", "step: the step view works on the chain scene only")]:
            states = run_script(["at 0 " + line], extra=["--scene", "arm"])
            s = states[-1]
            self.assertIn(needle, s["console_last"], line)
            self.assertNotIn("race", s)
            self.assertNotIn("step", s)
            self.assertEqual(s["scene"], "arm")

    def test_state_lines_do_not_nest(self):
        with tempfile.TemporaryDirectory() as d:
            script = write(os.path.join(d, "states.txt"), "at 0 state\n" * 18)
            states = last_state(["--script", script], frames=4)
        self.assertTrue(any("console_last" in s for s in states))
        for s in states:
            self.assertLess(len(json.dumps(s)), 20000, "a state line grew to %d bytes"
                            % len(json.dumps(s)))
            self.assertNotIn("console_last", json.loads(s["console_last"])
                             if s.get("console_last", "").startswith("{") else {})

    def test_a_script_that_loads_too_many_spline_points_is_refused_at_start(self):
        with tempfile.TemporaryDirectory() as d:
            spline = write(os.path.join(d, "big.txt"),
                           "".join("%d %d 0\n" % (i % 97, i // 97) for i in range(10000)))
            script = write(os.path.join(d, "many.txt"), "at 0 spline load %s\n" % spline * 11)
            code, _, err = run_demo(FAST + ["--frames", "2", "--script", script])
        self.assertEqual(code, 2, err)
        self.assertIn("many.txt:11: too many spline points", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)


class MemoryBound(unittest.TestCase):
    def test_resident_memory_stays_under_the_documented_limit(self):
        with tempfile.TemporaryDirectory() as d:
            spline = write(os.path.join(d, "big.txt"),
                           "".join("%d %d 0\n" % (i % 97, i // 97) for i in range(9999)))
            lines = ["at 0 spline load %s" % spline] * 10   # the most spline points allowed
            lines += ["at 0 state"] * 2500                   # more than the console keeps
            # A long chain with the highest cap, then the step view, which records the solve:
            # unbounded, that recording would take 24 GB.
            lines += ["at 0.05 joints 10000", "at 0.05 iterations 100000",
                      "at 0.1 target 2 -3 1", "at 0.2 step on", "at 0.2 step end"]
            script = write(os.path.join(d, "nasty.txt"), "\n".join(lines) + "\n")
            with LiveDemo(FAST + ["--script", script, "--fixed-dt", "0.02"]) as demo:
                st = demo.wait_until(lambda s: "step" in s and len(s["joints"]) == 10000,
                                     timeout=600, what="the step view on the long chain")
                self.assertEqual(len(st["joints"]), 10000)
                demo.wait_frames(2, timeout=600)
                with open("/proc/%d/status" % demo.proc.pid) as f:
                    status = dict(line.split(":", 1) for line in f if ":" in line)
                peak_mb = int(status["VmHWM"].split()[0]) / 1024
                self.assertTrue(demo.alive())
                self.assertTrue(all_finite(demo.latest()))
        self.assertLess(peak_mb, MEMORY_LIMIT_MB)


if __name__ == "__main__":
    unittest.main()
