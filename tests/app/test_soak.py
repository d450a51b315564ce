"""Soak: 20,000 frames of random drags, orbits and zooms driven by xdotool. No crash, no NaN
in any state line, resident memory flat (figures printed for the notes)."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, all_finite, dist  # noqa: E402

FRAMES = int(os.environ.get("FABRIK_SOAK_FRAMES", "20000"))


class Soak(unittest.TestCase):
    def test_random_input_for_many_frames(self):
        rng = random.Random(1234)
        args = ["--size", "480x360", "--msaa", "0", "--no-vsync", "--joints", "12"]
        with LiveDemo(args, frames=FRAMES) as demo:
            w, h = demo.latest()["window"]
            rss = []
            while demo.alive():
                n = len(demo.states())
                if n >= FRAMES:
                    break
                # Resident memory at 10 %, 20 %, ... of the run (after warm-up).
                if n >= FRAMES * 0.1 * (len(rss) + 1) and n < FRAMES - 20:
                    rss.append((n, demo.rss_kib()))
                try:
                    action = rng.random()
                    x, y = rng.uniform(-200, w + 200), rng.uniform(-200, h + 200)
                    if action < 0.45:  # a left drag through a few points, sometimes off-window
                        demo.move(rng.uniform(w * 0.4, w), rng.uniform(0, h))
                        demo.down(1)
                        for _ in range(rng.randint(1, 5)):
                            demo.move(rng.uniform(-200, w + 200), rng.uniform(-200, h + 200))
                        demo.up(1)
                    elif action < 0.65:
                        demo.move(x, y)
                        demo.click(rng.choice([4, 5]))
                    elif action < 0.85:  # orbit or pan
                        demo.move(rng.uniform(w * 0.4, w), rng.uniform(0, h))
                        demo.down(rng.choice([2, 3]))
                        demo.move(x, y)
                        demo.up(2)
                        demo.up(3)
                    else:
                        demo.key(rng.choice(["r", "1"]))
                except RuntimeError:
                    # The demo quits on its own after FRAMES frames, possibly while an
                    # action waits for its input to show: only then is that not an error.
                    if demo.alive() or demo.proc.wait(timeout=60) != 0:
                        raise
                    break
            demo.proc.wait(timeout=600)
            self.assertEqual(demo.proc.returncode, 0, demo.stderr())
            states = demo.states()
        self.assertEqual(len(states), FRAMES)
        for s in states:
            self.assertTrue(all_finite(s), s["frame"])
            self.assertEqual(s["joints"][0], [0.0, 0.0, 0.0])
        # Random clicks land on the panel too (joint count and length sliders): whatever the
        # lengths became, the chain keeps them.
        for s in states[::50] + states[-1:]:
            lengths = s["lengths"]
            self.assertEqual(len(lengths) + 1, len(s["joints"]))
            for (a, b), length in zip(zip(s["joints"], s["joints"][1:]), lengths):
                self.assertAlmostEqual(dist(a, b), length, delta=1e-4 * max(1.0, length))
        self.assertGreaterEqual(len(rss), 2)
        growth = rss[-1][1] - rss[0][1]
        print("soak: %d frames, RSS %s KiB (frame, KiB); growth %d KiB"
              % (len(states), rss, growth))
        self.assertLess(growth, 16 * 1024, "resident memory grew by %d KiB" % growth)


if __name__ == "__main__":
    unittest.main()
