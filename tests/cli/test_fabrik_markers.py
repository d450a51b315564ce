#!/usr/bin/env python3
"""fabrik-markers end to end (docs/markers.md: The program, The report).

The packaged fencer take solved with a marker hidden: the report's fields, the hidden
marker's prediction errors, the defective stretches rejected, the TRC and BVH written; and
bad input: one error line, exit 2, nothing written. Standard library only; the executable
comes from FABRIK_MARKERS.
"""
import json
import os
import subprocess
import tempfile
import unittest

MARKERS = os.environ.get("FABRIK_MARKERS", "")
SOURCE = os.environ.get("FABRIK_SOURCE_DIR", "")
TAKE = "/usr/share/assimp/models/CSM/ThomasFechten.csm"
TIMEOUT = 600  # generous: the sanitizer build on a loaded machine is slow


def run(*args):
    return subprocess.run([MARKERS, *args], capture_output=True, text=True, timeout=TIMEOUT)


@unittest.skipUnless(MARKERS and os.path.exists(TAKE), "needs FABRIK_MARKERS and assimp-testmodels")
class FencerReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        d = cls.dir.name
        cls.paths = {k: os.path.join(d, "out." + k) for k in ("json", "trc", "bvh")}
        cls.result = run(TAKE, "--hide", "LWRA:600-719", "--hide", "LHEL,LTOE,LMT5:1500-1619",
                         "--report", cls.paths["json"], "--trc", cls.paths["trc"],
                         "--bvh", cls.paths["bvh"])
        with open(cls.paths["json"]) as f:
            cls.report = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_exits_zero_with_one_summary_line(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(len(self.result.stdout.splitlines()), 1)

    def test_report_has_every_frame_and_the_skeleton(self):
        r = self.report
        self.assertEqual(r["frame_count"], 2439)
        self.assertEqual(len(r["frames"]), 2439)
        self.assertEqual(len(r["markers"]), 43)
        self.assertEqual(len(r["skeleton"]["names"]), 20)
        self.assertEqual(r["skeleton"]["parents"][0], -1)
        first = r["frames"][0]
        for key in ("frame", "residual_rms_mm", "residual_max_mm", "solve_us", "predicted", "rejected"):
            self.assertIn(key, first)
        self.assertEqual(first["frame"], 1)
        s = r["summary"]
        self.assertLess(s["bone_length_change_max_mm"], 0.01)
        self.assertLess(s["residual_rms_mean_mm"], 20.0)

    def test_hidden_markers_are_predicted_and_measured(self):
        hidden = self.report["hidden"]
        self.assertEqual([h["markers"] for h in hidden], [["LWRA"], ["LHEL", "LTOE", "LMT5"]])
        for h in hidden:
            self.assertEqual(len(h["error_mm"]), 120)
            self.assertGreater(h["samples"], 0)
        self.assertLess(hidden[0]["mean_mm"], 10.0)
        self.assertLess(hidden[1]["mean_mm"], 60.0)
        frame = self.report["frames"][650]
        self.assertIn("LWRA", frame["predicted"])

    def test_the_defective_stretches_are_rejected(self):
        stretches = {(s["marker"], s["from"] < 120, s["frames"]) for s in self.report["rejected"]}
        self.assertTrue(any(m == "RANK" and early and n > 900 for m, early, n in stretches))
        self.assertTrue(any(m == "STRN" and early and n > 400 for m, early, n in stretches))

    def test_trc_has_every_marker_in_every_frame(self):
        with open(self.paths["trc"]) as f:
            lines = f.read().splitlines()
        self.assertTrue(lines[0].startswith("PathFileType"))
        data = [l for l in lines[5:] if l.strip()]
        self.assertEqual(len(data), 2439)
        for line in data[::97]:
            fields = line.split("\t")
            self.assertEqual(len(fields), 2 + 3 * 43)
            self.assertTrue(all(fields[2:]), line[:80])

    def test_bvh_is_written(self):
        with open(self.paths["bvh"]) as f:
            text = f.read()
        self.assertTrue(text.startswith("HIERARCHY\nROOT root"))
        self.assertIn("Frames: 2439", text)


@unittest.skipUnless(MARKERS, "needs FABRIK_MARKERS")
class BadInput(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name, text=None):
        p = os.path.join(self.dir.name, name)
        if text is not None:
            with open(p, "w") as f:
                f.write(text)
        return p

    def refuse(self, args, expected):
        report = self.path("report.json")
        result = run(*args, "--report", report)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertIn(expected, result.stderr)
        self.assertFalse(os.path.exists(report))

    def test_missing_file(self):
        self.refuse([self.path("nope.trc")], "no such file")

    def test_not_a_marker_file(self):
        self.refuse([self.path("x.txt", "hello\n")], "neither a TRC file")

    def test_a_hundred_million_frame_claim(self):
        text = "$FirstFrame 1\n$LastFrame 100000000\n$Rate 120\n$Order\nA B C\n$Points\n1 1 2 3 4 5 6 7 8 9\n"
        self.refuse([self.path("huge.csm", text)], "above the limit")

    def test_a_set_naming_markers_the_take_lacks(self):
        text = "$FirstFrame 1\n$LastFrame 1\n$Rate 120\n$Order\nA B C\n$Points\n1 1 2 3 4 5 6 7 8 9\n"
        self.refuse([self.path("small.csm", text)], "lacks: LFWT")

    @unittest.skipUnless(os.path.exists(TAKE), "needs assimp-testmodels")
    def test_bad_hide_options(self):
        self.refuse([TAKE, "--hide", "NOPE:1-10"], "no marker NOPE")
        self.refuse([TAKE, "--hide", "LFHD:10-1"], "FROM is after TO")
        self.refuse([TAKE, "--hide", "LFHD:1-99999"], "outside")

    def test_seed_without_noise(self):
        self.refuse([self.path("nope.trc"), "--seed", "3"], "--seed needs --noise")

    @unittest.skipUnless(os.path.exists(TAKE), "needs assimp-testmodels")
    def test_a_bad_marker_set_file(self):
        self.refuse([TAKE, "--set", self.path("set.txt", "tail: A B C\n")], "unknown segment")


if __name__ == "__main__":
    unittest.main()
