"""The mocap scene (docs/mocap.md: The mocap scene): a packaged clip on the hills with its
ghost, reach and look typed in the console, a drag of the right hand's target, and clip files
that cannot be used, each checked through the state stream and a screenshot."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, dist, load_png,  # noqa: E402
                        open_console_and_run, project, read_states, run_demo)

FAST = ["--size", "640x480", "--msaa", "0", "--no-vsync", "--fixed-dt", "0.016"]
HILLS = ["--scene", "mocap", "--terrain", "assets/terrain/hills.png"]
CLIP = "/usr/share/assimp/models/BVH/01_01.bvh"


def share(img, x, y, test, r=2):
    px = [img.getpixel((int(x) + dx, int(y) + dy)) for dx in range(-r, r + 1)
          for dy in range(-r, r + 1)]
    return sum(1 for p in px if test(*p)) / len(px)


def shirt(R, G, B):  # the torso's blue
    return B > R + 40 and B > G + 15


def feet_on_ground(state):
    sk = state["skeleton"]
    for foot in sk["feet"]:
        ankle = sk["joints"][foot["joint"]]
        if ankle[1] < foot["ground"] - 0.003:
            return False
    return True


class Mocap(unittest.TestCase):
    def test_clip_on_hills_grounded_and_drawn(self):
        d = tempfile.mkdtemp()
        png, state = os.path.join(d, "m.png"), os.path.join(d, "m.jsonl")
        code, _, err = run_demo(FAST + HILLS + ["--frames", "60", "--screenshot", png,
                                                "--state-out", state])
        self.assertEqual(code, 0, err)
        states = read_states(state)
        self.assertTrue(all(all_finite(s) for s in states))
        for s in states:
            self.assertEqual(s["scene"], "mocap")
            self.assertTrue(feet_on_ground(s), s["frame"])
        last = states[-1]
        self.assertEqual(last["clip"]["path"], CLIP)
        self.assertGreater(last["clip"]["time"], 0.5)
        self.assertTrue(last["mocap_view"]["ghost"])
        # The torso (the middle joint on the path from the head down to the root) is drawn in
        # the shirt's blue.
        sk = last["skeleton"]
        path = [sk["head"]["joint"]]
        while sk["parents"][path[-1]] >= 0:
            path.append(sk["parents"][path[-1]])
        mid = sk["joints"][path[len(path) // 2]]
        img = load_png(png)
        self.assertGreater(share(img, *project(last, mid), shirt), 0.5)
        # ...and the hills well beside the character are not.
        root = sk["joints"][0]
        for dx, dz in [(1.0, 0), (0, 1.0), (-0.8, -0.8)]:
            ground = [root[0] + dx, sk["feet"][0]["ground"], root[2] + dz]
            self.assertLess(share(img, *project(last, ground), shirt), 0.5, (dx, dz))

    def test_reach_and_look_typed_in_the_console(self):
        with LiveDemo(FAST + HILLS + ["--exec", "mocap pause"]) as demo:
            s = demo.wait_frames(3)
            w, h = s["window"]
            demo.move(w * 0.8, h * 0.2)
            sk = s["skeleton"]
            wrist = sk["joints"][sk["hands"][1]["joint"]]
            goal = [wrist[0] + 0.1, wrist[1] + 0.2, wrist[2] + 0.15]
            line = "reach right %.3f %.3f %.3f" % tuple(goal)
            st = open_console_and_run(
                demo, line,
                lambda st: st["skeleton"]["hands"][1]["blend"] >= 1.0
                and dist(st["skeleton"]["joints"][st["skeleton"]["hands"][1]["joint"]],
                         goal) < 0.003,
                "the right hand on its target")
            self.assertTrue(feet_on_ground(st))
            look = [wrist[0] + 2.0, wrist[1] + 0.5, wrist[2] + 3.0]
            st = open_console_and_run(
                demo, "look %.3f %.3f %.3f" % tuple(look),
                lambda st: st["skeleton"]["head"]["look"] is not None, "the look point")
            self.assertLess(dist(st["skeleton"]["head"]["look"], look), 1e-3)

    def test_drag_the_right_hands_target(self):
        with LiveDemo(FAST + HILLS + ["--exec", "mocap pause", "--exec", "follow off"]) as demo:
            s = demo.wait_frames(3)
            sk = s["skeleton"]
            wrist = sk["joints"][sk["hands"][1]["joint"]]
            self.assertLess(dist(s["target"], wrist), 1e-4)  # the target rides on the hand
            sx, sy = project(s, wrist)
            demo.move(sx, sy)
            demo.down()
            for i in range(1, 6):
                demo.move(sx + 4 * i, sy - 3 * i)
                demo.wait_frames(1)
            held = demo.wait_frames(2)
            self.assertTrue(held["dragging"])
            st = demo.wait_until(
                lambda st: st["skeleton"]["hands"][1]["blend"] >= 1.0
                and st["playback"]["right_follows_target"], what="the hand to take the target")
            demo.up()
            st = demo.wait_frames(3)
            sk = st["skeleton"]
            target = sk["hands"][1]["target"]
            self.assertEqual(target, st["target"])
            self.assertGreater(dist(target, wrist), 0.02)  # the drag moved it
            self.assertLess(dist(sk["joints"][sk["hands"][1]["joint"]], target), 0.003)
            self.assertTrue(feet_on_ground(st))

    def test_clip_files_that_cannot_be_used(self):
        d = tempfile.mkdtemp()
        with open(CLIP) as f:
            text = f.read()
        cut = os.path.join(d, "cut.bvh")
        with open(cut, "w") as f:
            f.write(text[:len(text) // 3])
        # At start: a bad option, exit 2, the file named.
        code, _, err = run_demo(FAST + ["--bvh", d, "--frames", "2"])
        self.assertEqual(code, 2)
        self.assertIn("directory", err)
        with LiveDemo(FAST + ["--scene", "mocap", "--exec", "mocap pause"]) as demo:
            demo.wait_frames(3)
            demo.move(500, 100)
            for bad, needle in [("mocap load " + d, "directory"),
                                ("mocap load " + cut, "cut.bvh"),
                                ("mocap load /no/such.bvh", "no such file")]:
                before = demo.wait_frames(2)
                after = open_console_and_run(
                    demo, bad, lambda st: needle in st.get("console_last", "")
                    and st["console_last"].startswith("mocap load:"), "the error for " + bad)
                self.assertEqual(after["clip"], before["clip"])
                self.assertEqual(after["skeleton"]["joints"], before["skeleton"]["joints"])


if __name__ == "__main__":
    unittest.main()
