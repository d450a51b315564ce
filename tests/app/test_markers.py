"""The markers scene under Xvfb (docs/markers.md, "The markers scene"): started with
--markers on the packaged fencer, a marker hidden by a real left click on it (the state line
then says it is predicted), the skeleton exported from the console and read back by the
mocap scene's loader, and a screenshot that shows the markers and the skeleton."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, load_png, project, run_demo)  # noqa: E402

FENCER = "/usr/share/assimp/models/CSM/ThomasFechten.csm"
FAST = ["--size", "1024x640", "--msaa", "0", "--no-vsync", "--fixed-dt", "0.016"]
SEEN_COLOUR = (77, 217, 242)  # markers_draw.h: kMarkerSeenColor, lit


def marker_on_screen(state, panel_right):
    """A seen marker at least 14 px from every other marker on screen and clear of the panel:
    (name, (x, y)); None when there is none."""
    w, h = state["window"]
    m = state["markers"]
    points = [project(state, p) if p is not None else None for p in m["positions"]]
    for i, (name, st, p) in enumerate(zip(m["names"], m["state"], points)):
        if st != "seen" or p is None:
            continue
        x, y = p
        if not (panel_right + 20 < x < w - 20 and 20 < y < h - 20):
            continue
        others = [q for j, q in enumerate(points) if j != i and q is not None]
        if all((q[0] - x) ** 2 + (q[1] - y) ** 2 > 14 ** 2 for q in others):
            return name, (x, y)
    return None


def state_of(state, name):
    return state["markers"]["state"][state["markers"]["names"].index(name)]


class Markers(unittest.TestCase):
    def test_click_hides_a_marker_export_and_screenshot(self):
        d = tempfile.mkdtemp()
        with LiveDemo(FAST + ["--markers", FENCER, "--screenshot-dir", d,
                              "--exec", "markers frame 1500", "--exec", "markers pause"]) as demo:
            s = demo.wait_until(lambda s: s["scene"] == "markers" and
                                not s["playback"]["playing"], what="the markers scene, paused")
            self.assertEqual(s["take"]["path"], FENCER)
            self.assertEqual(len(s["markers"]["names"]), 43)
            self.assertEqual(len(s["skeleton"]["joints"]), 20)
            self.assertTrue(all_finite(s["skeleton"]["joints"]))
            self.assertLess(s["residual_rms"], 0.03)

            # A real click on a marker: pressed and released over it.
            s = demo.wait_frames(2)
            picked = marker_on_screen(s, panel_right=380)
            self.assertIsNotNone(picked, "no marker clear of the others on screen")
            name, (x, y) = picked
            demo.move(x, y)
            demo.down()
            demo.up()
            st = demo.wait_until(lambda s: state_of(s, name) == "predicted",
                                 what=name + " predicted after the click")
            self.assertIn(name, st["markers"]["hidden"])
            self.assertIn("markers hide " + name, st["console_last"])

            # F12: the screenshot shows the scene, not a blank window.
            demo.key("F12")
            st = demo.wait_until(lambda s: s.get("last_screenshot"), what="the screenshot")
            img = load_png(st["last_screenshot"])
            self.assertGreater(len(img.getcolors(1 << 20) or []), 200)
            # Markers drawn in the seen colour near where the state line puts them.
            hits = 0
            for p, mst in zip(st["markers"]["positions"], st["markers"]["state"]):
                if mst != "seen" or p is None:
                    continue
                px, py = project(st, p)
                near = [img.getpixel((int(px) + dx, int(py) + dy))
                        for dx in (-2, 0, 2) for dy in (-2, 0, 2)
                        if 0 <= int(px) + dx < img.width and 0 <= int(py) + dy < img.height]
                if any(abs(c[0] - SEEN_COLOUR[0]) + abs(c[1] - SEEN_COLOUR[1]) +
                       abs(c[2] - SEEN_COLOUR[2]) < 150 and c[2] > c[0] + 60 for c in near):
                    hits += 1
            self.assertGreater(hits, 10)

            # The skeleton exported from the console, atomically.
            out = os.path.join(d, "fencer.bvh")
            # The work is spread over frames: the state line shows it running, then done.
            demo.run_in_console("markers export bvh " + out,
                                lambda s: "export" in s["markers"],
                                "the export started")
            done = demo.wait_until(lambda s: s["markers"]["export"]["state"] != "running",
                                   timeout=300, what="the export finished")
            self.assertEqual(done["markers"]["export"]["state"], "done", done["markers"])
            self.assertEqual(done["markers"]["export"]["frames_done"], 2439)
            self.assertIn("wrote " + out + " (2439 frames)", done["console_last"])
            self.assertEqual(sorted(f for f in os.listdir(d) if f.endswith(".bvh")),
                             ["fencer.bvh"])

        # The mocap scene's loader reads the exported skeleton (headless bake of it).
        again = os.path.join(d, "again.bvh")
        code, stdout, err = run_demo(["--bvh", out, "--export", again], timeout=300)
        self.assertEqual(code, 0, err)
        self.assertIn("(2439 frames)", stdout)


if __name__ == "__main__":
    unittest.main()
