"""Command-line contract: --help exits 0; every bad option or value exits 2 with one line
naming the problem, before any window opens."""
import os
import sys
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
        ]
        for args, needle in cases:
            with self.subTest(args=args):
                code, out, err = run_demo(args, timeout=30)
                self.assertEqual(code, 2, err)
                lines = [l for l in err.strip().splitlines() if l]
                self.assertEqual(len(lines), 1, err)
                self.assertIn(needle, lines[0])


if __name__ == "__main__":
    unittest.main()
