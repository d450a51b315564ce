"""The walker scene's skinned quadruped (docs/walker.md: The skinned quadruped): started with
--walker-model, it walks to a point dragged on the hills with its planted feet on the ground,
and an F12 screenshot shows its fur where the state line puts its body."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, cursor_ray, distance_to_ray,  # noqa: E402
                        drag_walker_goal, load_png, project)

QUADRUPED = "/usr/share/assimp/models/X/Testwuson.X"
FAST = ["--size", "800x560", "--msaa", "0", "--no-vsync"]
# Coarse fixed frames: the walker advances in fixed steps of its own (src/walker/walker.h).
MODEL = ["--walker-model", QUADRUPED, "--fixed-dt", "0.05"]


def hdist(a, b):
    return ((a[0] - b[0]) ** 2 + (a[2] - b[2]) ** 2) ** 0.5


def share(img, x, y, test, r=2):
    px = [img.getpixel((int(x) + dx, int(y) + dy)) for dx in range(-r, r + 1)
          for dy in range(-r, r + 1)
          if 0 <= int(x) + dx < img.width and 0 <= int(y) + dy < img.height]
    return sum(1 for p in px if test(*p)) / max(len(px), 1)


def fur(R, G, B):  # the creature's warm brown, lit; the hills are green, the grid pale
    return R > B + 30 and R > G + 12


def bone(state, name):
    c = state["character"]
    return c["joints"][c["names"].index(name)]


@unittest.skipUnless(os.path.exists(QUADRUPED), QUADRUPED + " is missing (assimp-testmodels)")
class WalkerModel(unittest.TestCase):
    def test_drag_makes_the_quadruped_walk_there_feet_on_the_ground(self):
        with LiveDemo(FAST + MODEL) as demo:
            s = demo.wait_frames(3)
            self.assertEqual(s["scene"], "walker")
            self.assertEqual(s["walker_model"], QUADRUPED)
            self.assertEqual(s["character"]["bones"], 38)
            b = s["body"]["position"]
            ground_y = min(leg["foot_target"][1] for leg in s["legs"])
            held, x, y = drag_walker_goal(demo, s, (-3, -3), (-4, -5))
            self.assertTrue(held["dragging"])
            goal = held["target"]
            self.assertLess(distance_to_ray(cursor_ray(held, x, y), goal), 0.02)
            self.assertGreater(hdist(goal, b), 4.0)
            st = demo.wait_until(lambda st: st["arrived"] and hdist(st["body"]["position"],
                                                                      goal) < 0.05,
                                 timeout=240, what="the quadruped to arrive at the dragged goal")
            states = demo.states()

            # F12: the creature's fur where the state line puts its back and shoulders.
            demo.key("F12")
            shot = demo.wait_until(lambda s: s.get("last_screenshot"), what="the screenshot")
            img = load_png(shot["last_screenshot"])
            self.assertGreater(len(img.getcolors(1 << 20) or []), 200)
            for name in ("Spine_Back01", "Spine_Front02"):
                p = project(shot, bone(shot, name))
                self.assertGreater(share(img, *p, fur), 0.5, name)
            far = project(shot, [st["body"]["position"][0] + 4, ground_y,
                                 st["body"]["position"][2] + 4])
            self.assertLess(share(img, *far, fur), 0.5)

        walked = [s for s in states if s.get("character")]
        self.assertGreater(len(walked), 20)
        self.assertLess(hdist(walked[-1]["body"]["position"], goal),
                        hdist(walked[0]["body"]["position"], goal) - 4.0)
        for s in walked:
            self.assertTrue(all_finite(s))
            self.assertGreater(s["ik_us"], 0)
            self.assertGreater(s["skin_us"], 0)
            for leg in s["legs"]:
                if not leg["planted"]:
                    continue
                # The foot stands its own height above its target on the ground.
                foot = leg["joints"][-1]
                self.assertLess(dist3(foot, leg["foot_goal"]), 0.01, s["frame"])
                self.assertAlmostEqual(leg["foot_goal"][1] - leg["foot_target"][1],
                                       leg["foot_height"], delta=1e-4)


def dist3(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


if __name__ == "__main__":
    unittest.main()
