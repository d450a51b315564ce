"""Exporting the mocap scene's clip with the IK baked in (docs/mocap.md: Exporting from the
demo): `--export OUT` headless (no display at all: exit 0 and a file the demo loads again, or
exit 2 with one error line and no file), and `mocap export PATH` typed in the console of a
running demo, followed through the state line to done, then the file loaded and played."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, open_console_and_run,  # noqa: E402
                        run_demo)

FAST = ["--size", "640x480", "--msaa", "0", "--no-vsync", "--fixed-dt", "0.016"]
CLIP = "/usr/share/assimp/models/BVH/01_01.bvh"
FRAMES = 240


def short_clip(folder, frames=FRAMES):
    """The first `frames` frames of the packaged clip 01_01, as a BVH file in `folder`."""
    with open(CLIP) as f:
        lines = f.read().splitlines()
    motion = next(i for i, line in enumerate(lines) if line.strip() == "MOTION")
    head = lines[:motion + 1] + ["Frames: %d" % frames, lines[motion + 2]]
    body = lines[motion + 3:motion + 3 + frames]
    path = os.path.join(folder, "short.bvh")
    with open(path, "w") as f:
        f.write("\n".join(head + body) + "\n")
    return path


def frame_count(path):
    with open(path) as f:
        for line in f:
            if line.startswith("Frames:"):
                return int(line.split()[1])
    return None


def headless(args):
    """Runs the demo with no display at all: a window could not open."""
    env_display = os.environ.pop("DISPLAY", None)
    try:
        return run_demo(args, timeout=120)
    finally:
        if env_display is not None:
            os.environ["DISPLAY"] = env_display


class HeadlessExport(unittest.TestCase):
    def test_export_writes_the_file_and_exits_0(self):
        d = tempfile.mkdtemp()
        clip, out = short_clip(d), os.path.join(d, "out.bvh")
        code, stdout, err = headless(["--bvh", clip, "--terrain", "assets/terrain/hills.png",
                                      "--exec", "look 1 1.5 2", "--export", out])
        self.assertEqual(code, 0, err)
        self.assertIn("wrote " + out + " (%d frames)" % FRAMES, stdout)
        self.assertEqual(frame_count(out), FRAMES)
        self.assertEqual(sorted(os.listdir(d)), ["out.bvh", "short.bvh"])
        # The demo reads it back (exit 0: the clip loads and rigs).
        code, _, err = headless(["--bvh", out, "--export", os.path.join(d, "again.bvh")])
        self.assertEqual(code, 0, err)
        self.assertEqual(frame_count(os.path.join(d, "again.bvh")), FRAMES)

    def test_bad_exports_exit_2_with_one_line_and_no_file(self):
        d = tempfile.mkdtemp()
        clip = short_clip(d, 30)
        fifo = os.path.join(d, "fifo.bvh")
        os.mkfifo(fifo)
        cases = [
            (["--bvh", clip, "--export", d], "is a directory"),
            (["--bvh", clip, "--export", fifo], "not a regular file"),
            (["--bvh", clip, "--export", os.path.join(d, "no", "out.bvh")], "does not exist"),
            (["--bvh", clip, "--export", clip], "is the file --bvh reads"),
            (["--scene", "chain", "--export", os.path.join(d, "c.bvh")],
             "chain scene has nothing to export"),
            (["--bvh", os.path.join(d, "missing.bvh"), "--export", os.path.join(d, "m.bvh")],
             "--bvh"),
            (["--bvh", clip, "--exec", "look nan 1 1", "--export", os.path.join(d, "n.bvh")],
             "--exec"),
        ]
        for args, needle in cases:
            code, _, err = headless(args)
            self.assertEqual(code, 2, args)
            lines = err.strip().splitlines()
            self.assertEqual(len(lines), 1, err)
            self.assertIn(needle, lines[0])
        self.assertEqual(sorted(os.listdir(d)), ["fifo.bvh", "short.bvh"])


class ConsoleExport(unittest.TestCase):
    def test_typed_export_reaches_done_and_plays(self):
        d = tempfile.mkdtemp()
        clip, out = short_clip(d), os.path.join(d, "typed.bvh")
        with LiveDemo(FAST + ["--bvh", clip]) as demo:
            st = open_console_and_run(
                demo, "mocap export " + out,
                lambda s: s.get("mocap", {}).get("export", {}).get("state") == "done",
                "the export to finish")
            self.assertEqual(st["mocap"]["export"]["progress"], 1.0)
            self.assertEqual(st["mocap"]["export"]["frames"], FRAMES)
            progress = [s["mocap"]["export"]["progress"] for s in demo.states() if "mocap" in s]
            self.assertGreater(len(set(progress)), 2)  # spread over frames
            self.assertEqual(progress, sorted(progress))
            self.assertEqual(frame_count(out), FRAMES)
            open_console_and_run(demo, "mocap load " + out,
                                 lambda s: s["clip"]["path"] == out, "the export loaded")
            st = open_console_and_run(demo, "ik weight 0", lambda s: s["ik_weight"] == 0.0,
                                      "IK weight 0")
            later = demo.wait_until(lambda s: s["clip"]["frame"] > st["clip"]["frame"] + 10,
                                    what="the exported clip to play")
            self.assertEqual(later["clip"]["frames"], FRAMES)
            self.assertTrue(all_finite(later["skeleton"]["joints"]))


if __name__ == "__main__":
    unittest.main()
