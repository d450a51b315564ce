"""The walker scene (docs/walker.md: The walker scene): it renders where its state says, walks to a
target typed in the console and to a point dragged on the hills, and refuses bad terrain
files with a clear message and its state unchanged."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, cursor_ray, distance_to_ray,  # noqa: E402
                        drag_walker_goal, load_png, project, read_states, run_demo)

FAST = ["--size", "800x560", "--msaa", "0", "--no-vsync"]
# The walking tests check where the walker goes, not pixels: a coarser frame time (the walker
# advances in fixed steps of its own, src/walker/walker.h) and, where nothing is dragged past
# the panel, a small window keep them short.
WALK = ["--scene", "walker", "--fixed-dt", "0.05"]
SMALL = ["--size", "400x280", "--msaa", "0", "--no-vsync"]


def hdist(a, b):
    return ((a[0] - b[0]) ** 2 + (a[2] - b[2]) ** 2) ** 0.5


def share(img, x, y, test, r=2):
    px = [img.getpixel((int(x) + dx, int(y) + dy)) for dx in range(-r, r + 1)
          for dy in range(-r, r + 1)]
    return sum(1 for p in px if test(*p)) / len(px)


def bluish(R, G, B):  # the body
    return B > R + 25 and B > G


def bone(R, G, B):  # legs: neutral grey-white; the ground is green (G well above R and B)
    return max(R, G, B) - min(R, G, B) < 22 and R > 60 and R >= G - 3


class Walker(unittest.TestCase):
    def test_renders_where_the_state_says(self):
        d = tempfile.mkdtemp()
        png, state = os.path.join(d, "w.png"), os.path.join(d, "w.jsonl")
        code, _, err = run_demo(FAST + ["--scene", "walker", "--frames", "30", "--fixed-dt",
                                        "0.016", "--screenshot", png, "--state-out", state])
        self.assertEqual(code, 0, err)
        states = read_states(state)
        self.assertTrue(all(all_finite(s) for s in states))
        last = states[-1]
        self.assertEqual(last["scene"], "walker")
        self.assertEqual(last["terrain"]["path"], "assets/terrain/hills.png")
        self.assertEqual(len(last["legs"]), 4)
        img = load_png(png)
        self.assertGreater(share(img, *project(last, last["body"]["position"]), bluish), 0.6)
        for leg in last["legs"]:
            j = leg["joints"]
            # The middle of the thigh bone (hip to knee) is drawn in leg colours.
            mid = [(a + b) / 2 for a, b in zip(j[1], j[2])]
            self.assertGreater(share(img, *project(last, mid), bone, r=1), 0.5, leg)
        # ...and the ground well beside the walker is not.
        b = last["body"]["position"]
        ground_y = min(leg["foot_target"][1] for leg in last["legs"])
        for dx, dz in [(4, 0), (0, 4), (-4, -4)]:
            p = project(last, [b[0] + dx, ground_y, b[2] + dz])
            self.assertLess(share(img, *p, bone, r=1), 0.5, (dx, dz))

    def test_console_target_makes_it_walk_and_stop(self):
        with LiveDemo(SMALL + WALK) as demo:
            s = demo.latest()
            w, h = s["window"]
            start = s["body"]["position"]
            demo.move(w * 0.7, h * 0.3)
            demo.key("grave")
            demo.wait_until(lambda st: st["console_open"], what="the console to open")
            demo.type("target 4 0 -3")
            demo.key("Return")
            demo.wait_until(lambda st: st["mode"] == "console", what="console mode")
            st = demo.wait_until(lambda st: st["arrived"] and hdist(st["body"]["position"],
                                                                      [4, 0, -3]) < 0.05,
                                 timeout=240, what="the walker to arrive")
            self.assertGreater(hdist(start, st["body"]["position"]), 4.0)
            states = demo.states()
        for st in states:
            self.assertTrue(all_finite(st))
            planted = sum(1 for leg in st["legs"] if leg["planted"])
            self.assertGreaterEqual(planted * 2, len(st["legs"]), st["frame"])

    def test_drag_on_the_hills_makes_it_walk_there(self):
        with LiveDemo(FAST + WALK) as demo:
            s = demo.wait_frames(3)
            b = s["body"]["position"]
            held, x, y = drag_walker_goal(demo, s, (-4, -4), (-5, -6))
            self.assertTrue(held["dragging"])
            goal = held["target"]
            # The target is on the hills under the cursor (the ray meets the ground there).
            self.assertLess(distance_to_ray(cursor_ray(held, x, y), goal), 0.02)
            self.assertGreater(hdist(goal, b), 5.0)
            st = demo.wait_until(lambda st: st["arrived"] and hdist(st["body"]["position"],
                                                                      goal) < 0.05,
                                 timeout=240, what="the walker to arrive at the dragged goal")
            self.assertTrue(all_finite(st))

    def test_bad_terrain_files_refused_with_state_unchanged(self):
        d = tempfile.mkdtemp()
        junk = os.path.join(d, "junk.png")
        with open(junk, "w") as f:
            f.write("not a png at all\n")
        # A bad --terrain is a bad option: exit code 2 and a message naming the file.
        code, _, err = run_demo(FAST + ["--scene", "walker", "--frames", "3", "--terrain", junk])
        self.assertEqual(code, 2)
        self.assertIn("junk.png", err)
        # In the console: an error, the terrain and the planted feet untouched.
        with LiveDemo(SMALL + WALK) as demo:
            s = demo.wait_frames(10)
            w, h = s["window"]
            demo.move(w * 0.7, h * 0.3)
            demo.key("grave")
            demo.wait_until(lambda st: st["console_open"], what="the console to open")
            for bad, needle in [("terrain load " + junk, "junk.png"),
                                ("terrain load /no/such.png", "cannot find"),
                                ("terrain load assets/terrain/hills.png 0 3", "terrain load S")]:
                before = demo.wait_frames(3)  # the input has settled after the last line
                demo.type(bad)
                demo.key("Return")
                after = demo.wait_until(
                    lambda st: needle in st.get("console_last", "")
                    and not st["console_last"].startswith(">"), what="error for " + bad)
                self.assertEqual(after["terrain"], before["terrain"])
                self.assertEqual(after["scene"], "walker")
                for a, b in zip(before["legs"], after["legs"]):
                    if a["planted"] and b["planted"]:
                        self.assertEqual(a["foot_target"], b["foot_target"])
            # A good one works.
            demo.wait_frames(3)
            demo.type("terrain load assets/terrain/hills.png 30 2")
            demo.key("Return")
            st = demo.wait_until(lambda st: st["terrain"]["size"] == 30, what="the new terrain")
            self.assertEqual(st["terrain"]["height"], 2)


if __name__ == "__main__":
    unittest.main()
