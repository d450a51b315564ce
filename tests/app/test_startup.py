"""Start the demo headless, run frames, check the state stream and that the screenshot shows
the chain where the state says it is."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import all_finite, dist, load_png, project, read_states, run_demo  # noqa


def is_background(rgb):
    r, g, b = rgb
    return max(r, g, b) < 70 and abs(r - b) < 40


class Startup(unittest.TestCase):
    def run_frames(self, extra, frames=30):
        d = tempfile.mkdtemp(prefix="fabrik-start-")
        png, state = os.path.join(d, "shot.png"), os.path.join(d, "state.jsonl")
        code, _, err = run_demo(["--frames", str(frames), "--fixed-dt", "0.016",
                                 "--screenshot", png, "--state-out", state] + extra)
        self.assertEqual(code, 0, err)
        return load_png(png), read_states(state)

    def test_state_stream_matches_the_contract(self):
        _, states = self.run_frames(["--joints", "6", "--length", "1.5", "--moe", "0.005",
                                     "--max-iterations", "20", "--size", "900x600"])
        self.assertEqual(len(states), 30)
        for i, s in enumerate(states):
            self.assertEqual(s["frame"], i)
            for key in ["time", "mode", "target", "joints", "iterations", "distance", "reached",
                        "reachable", "solve_us", "fps", "view", "projection", "viewport",
                        "window"]:
                self.assertIn(key, s)
            self.assertTrue(all_finite(s))
            self.assertEqual(s["mode"], "drag")
            self.assertEqual(len(s["joints"]), 6)
            self.assertEqual(s["joints"][0], [0.0, 0.0, 0.0])
            self.assertEqual(len(s["view"]), 16)
            self.assertEqual(len(s["projection"]), 16)
            self.assertEqual(s["window"], [900, 600])
            self.assertAlmostEqual(dist(s["joints"][-1], s["target"]), s["distance"], places=4)
            self.assertEqual(s["reached"], s["distance"] <= 0.005 + 1e-7)
            for a, b in zip(s["joints"], s["joints"][1:]):
                self.assertAlmostEqual(dist(a, b), 1.5, places=4)
        self.assertAlmostEqual(states[-1]["time"], 30 * 0.016, places=4)

    def test_screenshot_shows_the_chain(self):
        img, states = self.run_frames(["--size", "1000x700"])
        s = states[-1]
        self.assertEqual(img.size, tuple(s["viewport"]))
        w, h = img.size
        # Not empty: a good share of pixels differ from the background.
        sample = [img.getpixel((x, y)) for x in range(0, w, 7) for y in range(0, h, 7)]
        lit = sum(1 for p in sample if not is_background(p))
        self.assertGreater(lit / len(sample), 0.05)
        # The end effector is drawn orange where the state projects it.
        ex, ey = project(s, s["joints"][-1])
        self.assertTrue(0 <= ex < w and 0 <= ey < h, (ex, ey))
        around = [img.getpixel((int(ex) + dx, int(ey) + dy))
                  for dx in range(-3, 4) for dy in range(-3, 4)]
        orange = sum(1 for (r, g, b) in around if r > 120 and r > b + 50 and r > g)
        self.assertGreater(orange / len(around), 0.5, around)
        # Joints and bones of the chain are not background, and not hidden by the panel.
        for j in s["joints"][1:-1]:
            x, y = project(s, j)
            self.assertGreater(x, 360, "joint hidden behind the panel")
            self.assertFalse(is_background(img.getpixel((int(x), int(y)))), (x, y))

    def test_many_joints_and_unequal_lengths(self):
        _, states = self.run_frames(["--lengths", "1,2,3,1"], frames=5)
        self.assertEqual(len(states[-1]["joints"]), 5)
        _, states = self.run_frames(["--joints", "1000", "--length", "0.01"], frames=5)
        self.assertEqual(len(states[-1]["joints"]), 1000)
        self.assertTrue(all_finite(states[-1]))


if __name__ == "__main__":
    unittest.main()
