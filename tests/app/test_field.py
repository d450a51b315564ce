"""The field scene (docs/field.md "The field scene"): 10,000 chains render, the sampled chains show
where the state line says they are, a console target moves the field, bad --chains exit 2."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, dist, load_png, project,  # noqa: E402
                        read_states, run_demo)

FAST = ["--size", "800x560", "--msaa", "0", "--no-vsync"]


def pink_near(img, x, y, r=3):
    """Pixels within r of (x, y) in the sampled chains' pink (lit or shaded)."""
    w, h = img.size
    px = [img.getpixel((int(x) + dx, int(y) + dy)) for dx in range(-r, r + 1)
          for dy in range(-r, r + 1) if 0 <= int(x) + dx < w and 0 <= int(y) + dy < h]
    return sum(1 for (R, G, B) in px if R > 90 and R > G + 30 and B > G + 15)


def check_state(test, s, chains, joints):
    test.assertEqual(s["scene"], "field")
    test.assertEqual(s["chains"], chains)
    test.assertEqual(s["field_joints"], joints)
    test.assertGreater(s["solve_us"], 0.0)
    test.assertGreaterEqual(s["reached_share"], 0.0)
    test.assertLessEqual(s["reached_share"], 1.0)
    test.assertEqual(len(s["samples"]), 2)
    for sample in s["samples"]:
        test.assertTrue(0 <= sample["chain"] < chains)
        test.assertEqual(len(sample["joints"]), joints)
        test.assertEqual(sample["joints"][0][1], 0.0)  # rooted on the ground


class Field(unittest.TestCase):
    def test_ten_thousand_chains_render_with_the_samples_where_the_state_says(self):
        d = tempfile.mkdtemp()
        png, state = os.path.join(d, "f.png"), os.path.join(d, "f.jsonl")
        code, _, err = run_demo(FAST + ["--scene", "field", "--frames", "40", "--fixed-dt",
                                        "0.03", "--screenshot", png, "--state-out", state])
        self.assertEqual(code, 0, err)
        states = read_states(state)
        self.assertTrue(all(all_finite(s) for s in states))
        last = states[-1]
        check_state(self, last, 10000, 10)
        self.assertGreaterEqual(last["reached_share"], 0.99)
        img = load_png(png)
        # Both sampled chains are drawn in pink through their joints (the middle of each bone).
        for sample in last["samples"]:
            j = sample["joints"]
            hits = 0
            for a, b in zip(j[:-1], j[1:]):
                mid = [(a[i] + b[i]) / 2 for i in range(3)]
                hits += pink_near(img, *project(last, mid)) >= 2
            self.assertGreaterEqual(hits, len(j) // 2, sample["chain"])
        # And the field covers much of the image with chains (not the background alone).
        w, h = img.size
        greenish = sum(1 for x in range(0, w, 8) for y in range(0, h, 8)
                       if (lambda p: p[1] > p[2] + 10 and p[1] > p[0])(img.getpixel((x, y))))
        self.assertGreater(greenish, 200)

    def test_a_console_target_moves_the_field(self):
        with LiveDemo(FAST + ["--scene", "field", "--chains", "2500", "--joints", "8"]) as demo:
            first = demo.wait_frames(2)
            check_state(self, first, 2500, 8)
            centre = first["samples"][1]
            demo.key("grave")
            demo.wait_frames(2)
            demo.type("target 3 1 -2")
            demo.key("Return")
            s = demo.wait_until(lambda s: s["mode"] == "console" and dist(s["target"], [3, 1, -2])
                                < 1e-4 and s["reached"], what="the field at the typed target")
            check_state(self, s, 2500, 8)
            # The lead chain (rooted under the target) touches it; the centre chain leans.
            self.assertLess(dist(s["joints"][-1], [3, 1, -2]), 0.011)
            self.assertLess(dist(s["joints"][0], [3, 0, -2]), 0.5)
            moved = s["samples"][1]
            self.assertEqual(moved["chain"], centre["chain"])
            self.assertGreater(dist(moved["joints"][-1], centre["joints"][-1]), 0.1)
            s = demo.wait_frames(3)
            self.assertGreaterEqual(s["reached_share"], 0.99)

    def test_bad_chain_counts_exit_2_with_one_line(self):
        for args in (["--chains", "0"], ["--chains", "100001"], ["--chains", "many"],
                     ["--chains", "100000", "--joints", "50"]):
            with self.subTest(args=args):
                code, out, err = run_demo(["--scene", "field", "--frames", "1"] + args)
                self.assertEqual(code, 2, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn("--chains", err)


if __name__ == "__main__":
    unittest.main()
