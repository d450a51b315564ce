"""The skinned tentacle renders: with `skin on` (given by --exec), the chain scene draws a tube
skinned on the GPU; its colour covers the middle of every segment, where the state stream puts
the bones, at 5 and at 200 joints, while the spline drives the chain. Without it, the bones are
drawn and there is no tube."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import load_png, project, read_states, run_demo  # noqa


def is_tube(rgb):
    # The tube is rose with a paler belly: red above green and blue everywhere on it (by 13 or
    # more under this lighting), where the bones drawn without it are neutral grey (within 3).
    r, g, b = rgb
    return r > 60 and r >= g + 8 and r >= b + 6


class SkinnedTentacle(unittest.TestCase):
    def shot(self, joints, length, skin=True):
        d = tempfile.mkdtemp(prefix="fabrik-skin-")
        png, state = os.path.join(d, "shot.png"), os.path.join(d, "state.jsonl")
        extra = ["--exec", "skin on"] if skin else []
        code, _, err = run_demo(["--frames", "40", "--fixed-dt", "0.05", "--size", "1000x700",
                                 "--joints", str(joints), "--length", str(length),
                                 "--spline", "assets/splines/word.txt",
                                 "--screenshot", png, "--state-out", state] + extra, timeout=300)
        self.assertEqual(code, 0, err)
        last = read_states(state)[-1]
        self.assertEqual(last["skin"], skin)
        return load_png(png), last

    def tube_share(self, img, s):
        """Share of segment midpoints (right of the panel) drawn in the tube's colour."""
        hits = total = 0
        w, h = img.size
        for a, b in zip(s["joints"], s["joints"][1:]):
            mid = [(x + y) / 2 for x, y in zip(a, b)]
            x, y = project(s, mid)
            if not (360 < x < w and 0 <= y < h):
                continue
            total += 1
            hits += is_tube(img.getpixel((int(x), int(y))))
        self.assertGreater(total, 0)
        return hits / total

    def test_tube_covers_the_bones_at_5_and_200_joints(self):
        for joints, length in [(5, 1.5), (200, 0.03)]:
            img, s = self.shot(joints, length)
            self.assertGreater(self.tube_share(img, s), 0.9, joints)

    def test_without_skin_there_is_no_tube(self):
        img, s = self.shot(5, 1.5, skin=False)
        self.assertLess(self.tube_share(img, s), 0.5)


if __name__ == "__main__":
    unittest.main()
