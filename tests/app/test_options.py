"""Command-line contract: --help exits 0; every bad option or value exits 2 with one line
naming the problem, before any window opens."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import run_demo  # noqa: E402


class Options(unittest.TestCase):
    def test_help_lists_the_contract_options(self):
        code, out, _ = run_demo(["--help"])
        self.assertEqual(code, 0)
        for option in ["--mode", "--spline", "--script", "--joints", "--length", "--lengths",
                       "--moe", "--max-iterations", "--size", "--no-vsync", "--fixed-dt",
                       "--frames", "--screenshot", "--state-out", "--scene", "--solver"]:
            self.assertIn(option, out)
        # The scenes' own options (declared in their folders) are listed too, each once.
        for option in ["--chains", "--walker-model", "--bvh", "--bvh-scale", "--character",
                       "--characters", "--markers"]:
            self.assertEqual(out.count("  " + option + " "), 1, option)

    def test_bad_options_exit_2_with_one_clear_line(self):
        cases = [
            (["--joints", "1"], "--joints"),
            (["--joints", "abc"], "--joints"),
            (["--joints", "100001"], "--joints"),
            (["--length", "0"], "--length"),
            (["--length", "nan"], "--length"),
            (["--length", "-2"], "--length"),
            (["--lengths", "1,2,x"], "--lengths"),
            (["--lengths", "1,0,2"], "--lengths"),
            (["--lengths", "1,inf"], "--lengths"),
            (["--lengths", "1,2", "--joints", "5"], "--joints"),
            (["--moe", "0"], "--moe"),
            (["--moe", "inf"], "--moe"),
            (["--max-iterations", "0"], "--max-iterations"),
            (["--size", "12x"], "--size"),
            (["--size", "100000x800"], "--size"),
            (["--size", "800by600"], "--size"),
            (["--fixed-dt", "-1"], "--fixed-dt"),
            (["--frames", "0"], "--frames"),
            (["--mode", "teleport"], "--mode"),
            (["--scene", "zoo"], "--scene"),
            (["--solver", "magic"], "--solver"),
            (["--no-such-option"], "no-such-option"),
            (["--state-out", "/nonexistent-dir/x.jsonl", "--frames", "1"], "state-out"),
            # A clip that cannot be used is refused at start whatever the scene, and the
            # message names --bvh, not --scene.
            (["--scene", "chain", "--bvh", "/nonexistent.bvh", "--frames", "1"], "--bvh"),
            (["--bvh", "/nonexistent.bvh", "--frames", "1"], "--bvh"),
            (["--scene", "mocap", "--bvh", "/nonexistent.bvh", "--frames", "1"], "--bvh"),
            # The same for a marker take.
            (["--scene", "chain", "--markers", "/nonexistent.csm", "--frames", "1"], "--markers"),
            (["--markers", "/nonexistent.csm", "--frames", "1"], "--markers"),
            (["--markers", "/dev/null", "--frames", "1"], "--markers"),
        ]
        for args, needle in cases:
            with self.subTest(args=args):
                code, out, err = run_demo(args, timeout=30)
                self.assertEqual(code, 2, err)
                lines = [l for l in err.strip().splitlines() if l]
                self.assertEqual(len(lines), 1, err)
                self.assertIn(needle, lines[0])


    def test_an_output_that_is_an_input_is_refused_and_the_input_kept(self):
        # Writing the state stream over the script (or the screenshot over the spline) would
        # destroy the file the run was to read; a symlink to it is the same file.
        with tempfile.TemporaryDirectory() as d:
            script = os.path.join(d, "tour.txt")
            spline = os.path.join(d, "curve.txt")
            with open(script, "w") as f:
                f.write("at 0 target 1 1 1\n")
            with open(spline, "w") as f:
                f.write("0 0 0\n1 1 0\n2 0 0\n3 1 0\n")
            link = os.path.join(d, "link.txt")
            os.symlink(script, link)
            cases = [
                (["--script", script, "--state-out", script], "--state-out", script),
                (["--script", script, "--state-out", link], "--state-out", script),
                (["--spline", spline, "--screenshot", spline], "--screenshot", spline),
                (["--state-out", spline, "--screenshot", spline], "--screenshot", spline),
            ]
            for args, needle, kept in cases:
                with self.subTest(args=args):
                    with open(kept) as f:
                        before = f.read()
                    code, _, err = run_demo(args + ["--frames", "1"], timeout=30)
                    self.assertEqual(code, 2, err)
                    lines = [l for l in err.strip().splitlines() if l]
                    self.assertEqual(len(lines), 1, err)
                    self.assertIn(needle, lines[0])
                    with open(kept) as f:
                        self.assertEqual(f.read(), before)

    def test_hostile_values_exit_2_with_one_line_before_any_window(self):
        # No --hidden and no --frames: had any of these opened a window, the run would hang
        # until the timeout instead of exiting 2.
        with tempfile.TemporaryDirectory() as d:
            read_only = os.path.join(d, "ro")
            os.mkdir(read_only)
            os.chmod(read_only, 0o500)
            cases = [
                (["--size", "4294968576x800"], "--size", "out of range"),
                (["--size", "1280x4294967446"], "--size", "out of range"),
                (["--joints", "4294967298"], "--joints", "out of range"),
                (["--joints", "0x10"], "--joints", "0x10"),
                (["--lengths", "1,2,"], "--lengths", "empty"),
                (["--lengths", ""], "--lengths", ""),
                (["--lengths", "0x1p3"], "--lengths", "0x1p3"),
                (["--lengths", "1, 2"], "--lengths", ""),
                (["--length", "0x1p-2"], "--length", "0x1p-2"),
                (["--length", "1e-7"], "--length", "0.0001 to 1000"),
                (["--moe", "101"], "--moe", "> 0 and <= 100"),
                (["--moe", "0"], "--moe", "> 0 and <= 100"),
                (["--moe", "1e-50"], "--moe", "out of range"),
                (["--frames", "1e3"], "--frames", "1e3"),
                (["--screenshot", d], "--screenshot", "directory"),
                (["--screenshot", os.path.join(d, "no", "such", "x.png")], "--screenshot", ""),
                (["--screenshot", os.path.join(d, "name", "")], "--screenshot", ""),
                (["--state-out", d], "--state-out", "directory"),
                (["--state-out", "/etc/hostname/x.jsonl"], "--state-out", ""),
                (["--exec", "joints 5\nexit"], "--exec", "joints 5\\nexit"),
                (["--exec", "move\x01 \x1b[31m"], "--exec", "\\x01"),
                (["--spline", "a\rb"], "--spline", "\\r"),
                (["--solver", "a\nb"], "--solver", "\\n"),
                # Every number through the strict reader: no hex, sign, NaN or exponent in a
                # whole number, and ranges stated as the checks apply them.
                (["--chains", "0x10"], "--chains", "not a whole number"),
                (["--chains", "+5"], "--chains", "not a whole number"),
                (["--chains", "1e3"], "--chains", "not a whole number"),
                (["--chains", "0"], "--chains", "1 to 100000"),
                (["--terrain-size", "nan"], "--terrain-size", "0.001 to 100000"),
                (["--terrain-size", "0.0005"], "--terrain-size", "0.001 to 100000"),
                (["--terrain-size", "+5"], "--terrain-size", "decimal number"),
                (["--terrain-height", "nan"], "--terrain-height", "0 to 10000"),
                (["--terrain-height", "inf"], "--terrain-height", "0 to 10000"),
            ]
            if os.geteuid() != 0:  # root may write anywhere
                cases.append((["--state-out", os.path.join(read_only, "s.jsonl")], "--state-out",
                              ""))
            for args, option, needle in cases:
                with self.subTest(args=args):
                    code, _, err = run_demo(args, timeout=30)
                    self.assertEqual(code, 2, err)
                    self.assertTrue(err.endswith("\n"), repr(err))
                    lines = err.splitlines()
                    self.assertEqual(len(lines), 1, repr(err))
                    self.assertIn(option, lines[0])
                    self.assertIn(needle, lines[0])
                    self.assertFalse(any(ord(c) < 32 for c in lines[0]), repr(lines[0]))
            self.assertEqual(os.listdir(d), ["ro"], "a check created a file")

    def test_smallest_documented_values_are_accepted(self):
        with tempfile.TemporaryDirectory() as d:
            shot = os.path.join(d, "shot.png")
            code, _, err = run_demo(["--length", "0.0001", "--lengths", "0.0001,1000",
                                     "--moe", "1e-8", "--frames", "2", "--hidden",
                                     "--fixed-dt", "0.01", "--screenshot", shot])
            self.assertEqual(code, 0, err)
            self.assertTrue(os.path.getsize(shot) > 0)


if __name__ == "__main__":
    unittest.main()
