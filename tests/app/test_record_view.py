"""Record and replay with a real mouse drag (docs/settings.md: Record and replay), and the 2D
view (docs/scenes.md: The 2D view), under Xvfb with xdotool. Checked through the --state-out
stream and a screenshot."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, dist, load_png, project, read_states,  # noqa
                        run_demo)

DT = 0.02
FAST = ["--size", "800x560", "--msaa", "0", "--no-vsync", "--fixed-dt", str(DT)]
LEAD_IN = 1.0      # seconds before a recording's motion starts in its script
TOLERANCE = 0.001  # the recorder's: a dropped sample is this close to its glide


def open_console_and_run(demo, line, until, what):
    return demo.run_in_console(line, until, what)


class RecordReplay(unittest.TestCase):
    def test_a_real_drag_is_recorded_and_replayed_along_the_same_path(self):
        path = os.path.join(tempfile.mkdtemp(), "drag.txt")
        with LiveDemo(FAST + ["--exec", "record start " + path]) as demo:
            s = demo.wait_until(lambda st: st["recording"] == path, what="recording")
            ex, ey = project(s, s["joints"][-1])
            demo.move(ex, ey)
            demo.down()
            w, h = s["window"]
            for i in range(1, 16):
                demo.move(ex - i * 12, ey + i * 6)
                demo.wait_frames(1)
            demo.up()
            stop = open_console_and_run(demo, "record stop",
                                        lambda st: st["recording"] is None, "record stop")
            recorded = [st for st in demo.states()
                        if st["recording"] == path and st["frame"] < stop["frame"]]
            self.assertGreater(len(recorded), 30)
            t0 = recorded[0]["time"]
            by_time = {round(st["time"] - t0, 6): st["target"] for st in recorded}
            moved = max(dist(st["target"], recorded[0]["target"]) for st in recorded)
            self.assertGreater(moved, 0.3)  # the drag really moved the target
            with open(path) as f:
                text = f.read()
            self.assertIn(" over ", text)
            self.assertLess(text.count("\n"), len(recorded))  # held still: few lines

            open_console_and_run(demo, "script run " + path,
                                 lambda st: st["mode"] == "script", "script run")
            end = demo.wait_until(lambda st: st.get("script", {}).get("finished"),
                                  what="the replay to finish", timeout=120)
            replay = [st for st in demo.states() if st["frame"] <= end["frame"]
                      and st.get("script", {}).get("path", "").endswith("drag.txt")
                      and st["mode"] == "script"]
            compared, worst = 0, 0.0
            for st in replay:
                key = round(st["script"]["time"] - LEAD_IN, 6)
                if key in by_time:
                    worst = max(worst, dist(st["target"], by_time[key]))
                    compared += 1
            self.assertGreater(compared, len(recorded) * 0.9)
            self.assertLessEqual(worst, TOLERANCE * 1.01 + 1e-6)
            self.assertTrue(all_finite(end))

    def test_the_file_is_completed_when_the_demo_exits(self):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "exit.txt")
        code, _, err = run_demo(FAST + ["--exec", "record start " + path, "--exec",
                                        "target 2 3 0.5", "--frames", "60"])
        self.assertEqual(code, 0, err)
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if l and not l.startswith("#")]
        self.assertTrue(lines[0].startswith("at 0 target "), lines[0])
        # The last glide ends where the target stopped, (2, 3, 0.5): the file was finished.
        last = lines[-1].split()
        self.assertEqual(last[2], "target")
        self.assertEqual(last[6], "over")
        self.assertLess(dist([float(v) for v in last[3:6]], [2, 3, 0.5]), 1e-4)
        # ...and it runs to the last frame (59 frames after the first sample): the hold after
        # the target arrived, which only finishing the file writes.
        self.assertAlmostEqual(float(last[1]) + float(last[7]), LEAD_IN + 59 * DT, places=4)

    def test_recording_while_a_script_plays_is_refused(self):
        square = os.path.join(os.environ.get("FABRIK_SOURCE_DIR", "."), "assets", "scripts",
                              "square.txt")
        path = os.path.join(tempfile.mkdtemp(), "refused.txt")
        with LiveDemo(FAST + ["--script", square]) as demo:
            st = open_console_and_run(
                demo, "record start " + path,
                lambda s: "script" in s.get("console_last", "")
                and not s["console_last"].startswith(">"), "the refusal")
            self.assertIsNone(st["recording"])
            self.assertFalse(os.path.exists(path))


class View2d(unittest.TestCase):
    def test_view_2d_is_an_orthographic_view_down_minus_z(self):
        d = tempfile.mkdtemp()
        png, state = os.path.join(d, "v.png"), os.path.join(d, "v.jsonl")
        code, _, err = run_demo(FAST + ["--exec", "target 2 3 1.5", "--exec", "view 2d",
                                        "--frames", "40", "--screenshot", png,
                                        "--state-out", state])
        self.assertEqual(code, 0, err)
        last = read_states(state)[-1]
        self.assertEqual(last["view_mode"], "2d")
        p, v = last["projection"], last["view"]
        self.assertEqual(p[11], 0.0)  # no perspective divide
        self.assertEqual(p[15], 1.0)
        self.assertAlmostEqual(v[10], 1.0, places=6)  # world Z is the eye's Z: looking down -Z
        self.assertAlmostEqual(v[5], 1.0, places=6)   # +Y up on screen
        self.assertAlmostEqual(v[0], 1.0, places=6)   # +X right
        self.assertEqual(last["camera"]["pivot"][2], 0.0)
        self.assertEqual(last["target"][2], 0.0)
        for j in last["joints"]:
            self.assertEqual(j[2], 0.0)
        # The screenshot: every bone's middle is drawn (not background) where the
        # orthographic matrices put it, and the background far from the chain is not.
        img = load_png(png)
        bg = img.getpixel((img.size[0] - 5, 5))

        def differs(px):
            return sum(abs(a - b) for a, b in zip(px, bg)) > 60

        joints = last["joints"]
        hits = 0
        for a, b in zip(joints, joints[1:]):
            x, y = project(last, [(a[i] + b[i]) / 2 for i in range(3)])
            hits += differs(img.getpixel((int(x), int(y))))
        self.assertGreaterEqual(hits, len(joints) - 2)

    def test_a_real_drag_in_2d_stays_at_z_zero_under_the_cursor(self):
        with LiveDemo(FAST + ["--exec", "view 2d"]) as demo:
            s = demo.wait_until(lambda st: st["view_mode"] == "2d", what="view 2d")
            ex, ey = project(s, s["joints"][-1])
            demo.move(ex, ey)
            demo.down()
            x, y = demo.move(ex - 60, ey + 40)
            st = demo.wait_frames(3)
            demo.up()
            self.assertTrue(st["dragging"])
            self.assertEqual(st["target"][2], 0.0)
            px, py = project(st, st["target"])
            self.assertLess(abs(px - x), 1.0)
            self.assertLess(abs(py - y), 1.0)
            # Right drag does not orbit in 2D: the view still looks down -Z.
            demo.move(400, 300)
            demo.down(3)
            demo.move(480, 340)
            after = demo.wait_frames(3)
            demo.up(3)
            self.assertAlmostEqual(after["view"][10], 1.0, places=6)
            self.assertEqual(after["camera"]["pivot"][2], 0.0)


if __name__ == "__main__":
    unittest.main()
