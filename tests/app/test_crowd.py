"""The crowd scene (docs/mocap.md: The crowd scene) under Xvfb: a small crowd and the largest
one on the hills, checked through the state stream (the count, the feet on the ground, a
drawing capped whatever the count) and a screenshot; `characters N` typed in the console, and
bad counts refused with one error line each and the crowd left as it was; and a hundred
skinned humans on the hills, started with --character and checked on a screenshot."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, all_finite, load_png, read_states, run_demo  # noqa: E402

FAST = ["--msaa", "0", "--no-vsync", "--fixed-dt", "0.016"]
HILLS = ["--scene", "crowd", "--terrain", "assets/terrain/hills.png"]
MAX_CHARACTERS = 5000
# An ankle stands this high at most above the ground under it while its character walks or
# boxes (metres; the CMU clips' ankles are 5 to 10 cm above the floor in contact).
HIGHEST_LOWEST_FOOT = 0.3
SINK = 0.003  # FABRIK's margin below the ground, metres


def crowd_run(n, size, frames=4):
    """Runs the crowd scene with n characters for a few frames; returns (states, screenshot)."""
    d = tempfile.mkdtemp()
    png, state = os.path.join(d, "crowd.png"), os.path.join(d, "crowd.jsonl")
    code, _, err = run_demo(FAST + HILLS + ["--size", size, "--characters", str(n),
                                            "--frames", str(frames), "--screenshot", png,
                                            "--state-out", state])
    if code != 0:
        raise AssertionError("exit %d: %s" % (code, err))
    return read_states(state), png


HUMAN = "/usr/share/assimp/models/X/BCN_Epileptic.X"


def shirt(R, G, B):  # the torso's blue (scenes/mocap/mocap_look.h)
    return B > R + 40 and B > G + 15


def trousers(R, G, B):  # the legs' dark blue-grey
    return max(R, G, B) < 120 and B >= R


class Crowd(unittest.TestCase):
    def check_crowd(self, states, n):
        for s in states:
            self.assertEqual(s["scene"], "crowd")
            self.assertEqual(s["characters"], n)
            self.assertTrue(all_finite(s), s["frame"])
            lowest = s["crowd"]["lowest_foot"]
            self.assertGreaterEqual(lowest, -SINK, s["frame"])
            self.assertLessEqual(lowest, HIGHEST_LOWEST_FOOT, s["frame"])

    def test_small_and_largest_crowds_start_and_draw_a_bounded_amount(self):
        small, png = crowd_run(20, "640x480")
        self.check_crowd(small, 20)
        per_character = small[-1]["drawn_items"] / 20.0
        self.assertGreater(per_character, 10)  # bones, joints and rings of every character
        # Not blank: the characters' shirts show on the hills right of the panel.
        img = load_png(png)
        w, h = img.size
        right = [img.getpixel((x, y)) for x in range(w // 2 + 40, w, 2) for y in range(0, h, 2)]
        shirts = sum(1 for p in right if shirt(*p))
        self.assertGreater(shirts, 40, "too few shirt pixels: %d" % shirts)
        self.assertGreater(len(set(right)), 500)

        big, _ = crowd_run(MAX_CHARACTERS, "200x150", frames=3)
        self.check_crowd(big, MAX_CHARACTERS)
        cap = big[-1]["crowd"]["drawn_cap"]
        self.assertLess(cap, MAX_CHARACTERS)
        for s in big:
            # The cap's characters drawn, not 5,000 (a foot's contact ring comes and goes).
            self.assertLess(s["drawn_items"], 1.3 * cap * per_character, s["frame"])
            self.assertGreater(s["drawn_items"], 0.7 * cap * per_character, s["frame"])

    def test_characters_typed_in_the_console_and_bad_counts_refused(self):
        with LiveDemo(FAST + HILLS + ["--size", "320x240", "--characters", "5"]) as demo:
            s = demo.wait_frames(3)
            self.assertEqual(s["characters"], 5)
            demo.move(500, 100)
            st = demo.run_in_console("characters 12", lambda st: st["characters"] == 12,
                                     "a crowd of 12")
            self.check_crowd([st, demo.wait_frames(1)], 12)
            self.assertEqual(st["console_last"], "characters 12")
            self.assertGreater(st["drawn_items"], s["drawn_items"])
            for bad in ["0", "5001", "nan", "abc"]:
                before = demo.wait_frames(1)
                printed = before["console_printed"]
                after = demo.run_in_console(
                    "characters " + bad,
                    lambda st: st["console_printed"] >= printed + 2,
                    "the error for characters " + bad)
                self.assertEqual(after["console_printed"], printed + 2)  # the echo, one error
                last = after["console_last"]
                self.assertTrue(last.startswith("characters: expected a whole number from 1 "
                                                "to 5000, got '%s'" % bad), last)
                self.assertNotIn("\n", last)
                later = demo.wait_frames(1)
                self.check_crowd([after, later], 12)
                self.assertEqual(later["crowd"]["clips"], before["crowd"]["clips"])
                self.assertEqual(later["console_printed"], printed + 2)

    def test_a_hundred_skinned_humans_on_the_hills(self):
        d = tempfile.mkdtemp()
        png, state = os.path.join(d, "skinned.png"), os.path.join(d, "skinned.jsonl")
        code, _, err = run_demo(FAST + HILLS + [
            "--size", "640x480", "--characters", "100", "--character", HUMAN,
            "--frames", "6", "--screenshot", png, "--state-out", state])
        self.assertEqual(code, 0, err)
        states = read_states(state)
        self.check_crowd(states, 100)
        last = states[-1]
        self.assertEqual(last["character"]["path"], HUMAN)
        self.assertEqual(last["character"]["skinned"], 100)
        self.assertGreater(last["retarget_us"], 0)
        self.assertGreater(last["skin_us"], 0)
        # Drawn skinned: shirts and trousers of the human's meshes right of the panel, and far
        # fewer capsules than the same crowd drawn as capsules.
        img = load_png(png)
        w, h = img.size
        right = [img.getpixel((x, y)) for x in range(w // 2 + 40, w, 2) for y in range(0, h, 2)]
        self.assertGreater(sum(1 for p in right if shirt(*p)), 40)
        self.assertGreater(sum(1 for p in right if trousers(*p)), 40)
        capsules, _ = crowd_run(100, "320x240", frames=2)
        self.assertLess(last["drawn_items"], 0.6 * capsules[-1]["drawn_items"])


if __name__ == "__main__":
    unittest.main()
