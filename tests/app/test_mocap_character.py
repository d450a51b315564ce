"""The mocap scene's skinned character (docs/mocap.md: The skinned character): the packaged
human playing CMU's 01_01 on the hills, started with --character, checked through the state
stream and a screenshot; --character alone starting the scene; and switched in the console, a
bad file refused, capsules back."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, dist, load_png,  # noqa: E402
                        open_console_and_run, project, read_states, run_demo)

FAST = ["--size", "960x640", "--msaa", "0", "--no-vsync", "--fixed-dt", "0.016"]
HILLS = ["--scene", "mocap", "--terrain", "assets/terrain/hills.png"]
HUMAN = "/usr/share/assimp/models/X/BCN_Epileptic.X"


def bone(state, name):
    c = state["character"]
    return c["joints"][c["names"].index(name)]


def joint(state, name):
    sk = state["clip_skeleton"]  # with a character "skeleton" is the character's own
    return sk["joints"][sk["names"].index(name)]


def share(img, x, y, test, r=2):
    px = [img.getpixel((int(x) + dx, int(y) + dy)) for dx in range(-r, r + 1)
          for dy in range(-r, r + 1)]
    return sum(1 for p in px if test(*p)) / len(px)


def shirt(R, G, B):  # the torso's blue
    return B > R + 40 and B > G + 15


def trousers(R, G, B):  # dark blue-grey
    return max(R, G, B) < 120 and B >= R


class MocapCharacter(unittest.TestCase):
    def test_human_plays_the_clip_on_the_hills(self):
        d = tempfile.mkdtemp()
        png, state = os.path.join(d, "c.png"), os.path.join(d, "c.jsonl")
        code, _, err = run_demo(FAST + HILLS + [
            "--character", HUMAN, "--exec", "ghost off", "--frames", "90",
            "--screenshot", png, "--state-out", state])
        self.assertEqual(code, 0, err)
        states = [s for s in read_states(state) if s.get("character")]
        self.assertGreater(len(states), 60)
        self.assertTrue(all(all_finite(s) for s in states))
        first, last = states[0], states[-1]
        self.assertEqual(last["character"]["path"], HUMAN)
        self.assertEqual(last["character"]["bones"], 54)
        self.assertEqual(last["character"]["vertices"], 3014)
        self.assertGreater(last["retarget_us"], 0)
        self.assertGreater(last["skin_us"], 0)
        # The skeleton is the character's own (its bones, its ankles and wrists); the clip's
        # is clip_skeleton.
        sk = last["skeleton"]
        self.assertEqual(sk["names"], last["character"]["names"])
        self.assertEqual([sk["names"][f["joint"]] for f in sk["feet"]],
                         ["B_Ankle_Left", "B_Ankle_Right"])
        self.assertEqual([sk["names"][h["joint"]] for h in sk["hands"]],
                         ["B_Hand_Left", "B_Hand_Right"])
        self.assertIn("Hips", last["clip_skeleton"]["names"])
        # The skinned pose follows the clip over the frames: its pelvis is the clip's after
        # the IK, its ankles at the clip's, and it moves with the clip.
        for s in states:
            self.assertLess(dist(bone(s, "B_LowerPelvis"), joint(s, "Hips")), 1e-3)
            for side in ("Left", "Right"):
                self.assertLess(dist(bone(s, "B_Ankle_" + side), joint(s, side + "Foot")),
                                0.05, (s["frame"], side))
        self.assertGreater(dist(bone(last, "B_LowerPelvis"), bone(first, "B_LowerPelvis")),
                           0.05)
        # The screenshot: the figure where the state line says, upright (head above pelvis
        # above feet on screen), lit in its colours; the hills beside it are not.
        img = load_png(png)
        colours = set(img.getpixel((x, y)) for x in range(0, 960, 16) for y in range(0, 640, 16))
        self.assertGreater(len(colours), 20)  # not blank
        head = project(last, bone(last, "B_Eye_Left"))
        chest = project(last, bone(last, "B_Spine3"))
        pelvis = project(last, bone(last, "B_LowerPelvis"))
        ankle = project(last, bone(last, "B_Ankle_Left"))
        self.assertLess(head[1], chest[1])
        self.assertLess(chest[1], pelvis[1])
        self.assertLess(pelvis[1], ankle[1])
        self.assertGreater(ankle[1] - head[1], 60)  # the right size: a good share of the view
        self.assertGreater(share(img, *chest, shirt), 0.5)
        thigh = [(a + b) / 2 for a, b in zip(bone(last, "B_Hip_Left"),
                                             bone(last, "B_Knee_Left"))]
        self.assertGreater(share(img, *project(last, thigh), trousers), 0.5)
        # The sleeves: the human's forearms are in its shirt (the capsules' are skin).
        sleeves = [share(img, *project(last, [(a + b) / 2 for a, b in zip(
            bone(last, "B_ForeArm_" + side), bone(last, "B_Hand_" + side))]), shirt)
            for side in ("Left", "Right")]
        self.assertGreater(max(sleeves), 0.5, sleeves)
        root = bone(last, "B_LowerPelvis")
        ground = last["skeleton"]["feet"][0]["ground"]
        for dx, dz in [(0.6, 0), (0, -0.6), (-0.8, -0.8)]:
            beside = project(last, [root[0] + dx, ground, root[2] + dz])
            # In the view, right of the panel (whose widgets are blue too).
            self.assertTrue(400 < beside[0] < 955 and 5 < beside[1] < 635, beside)
            self.assertLess(share(img, *beside, shirt), 0.5, (dx, dz))

    def test_switched_in_the_console(self):
        with LiveDemo(FAST + ["--scene", "mocap", "--exec", "mocap pause"]) as demo:
            before = demo.wait_frames(3)
            self.assertIsNone(before["character"])
            demo.move(500, 100)
            st = open_console_and_run(
                demo, "character " + HUMAN,
                lambda st: st["character"] is not None, "the human loaded")
            self.assertEqual(st["character"]["bones"], 54)
            self.assertLess(dist(bone(st, "B_LowerPelvis"), joint(st, "Hips")), 1e-3)
            loaded = demo.wait_frames(2)
            after = open_console_and_run(
                demo, "character /no/such.x",
                lambda st: "no such file" in st.get("console_last", "")
                and st["console_last"].startswith("character:"), "the error")
            self.assertEqual(after["character"]["path"], HUMAN)
            self.assertEqual(after["clip"], loaded["clip"])
            st = open_console_and_run(demo, "character capsules",
                                      lambda st: st["character"] is None, "capsules back")
            self.assertEqual(st["clip"]["scale"], before["clip"]["scale"])

    def test_the_option_alone_starts_the_mocap_scene(self):
        # --character dresses the mocap scene's clip: given without --scene it starts that
        # scene (docs/options.md), as --bvh does; --scene still decides when given.
        d = tempfile.mkdtemp()
        state = os.path.join(d, "s.jsonl")
        code, _, err = run_demo(FAST + ["--character", HUMAN, "--frames", "2",
                                        "--state-out", state])
        self.assertEqual(code, 0, err)
        last = read_states(state)[-1]
        self.assertEqual(last["scene"], "mocap")
        self.assertEqual(last["character"]["path"], HUMAN)
        code, _, err = run_demo(FAST + ["--scene", "chain", "--character", HUMAN,
                                        "--frames", "2", "--state-out", state])
        self.assertEqual(code, 0, err)
        self.assertEqual(read_states(state)[-1]["scene"], "chain")


if __name__ == "__main__":
    unittest.main()
