"""Real mouse input with xdotool: grab the end effector, drag it, release; drag off the
window; wild zooms and orbits. Checked through the --state-out stream."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, all_finite, cursor_ray, dist, distance_to_ray, project  # noqa

ARGS = ["--size", "800x560", "--msaa", "0", "--no-vsync", "--moe", "0.001",
        "--max-iterations", "50"]


class Drag(unittest.TestCase):
    def test_drag_the_effector_puts_the_target_on_the_cursor_ray(self):
        with LiveDemo(ARGS) as demo:
            s = demo.latest()
            ex, ey = project(s, s["joints"][-1])
            demo.move(ex, ey)
            demo.wait_frames(3)
            demo.down()
            # Drag in small steps towards a point nearer the root, inside the reach.
            root_x, root_y = project(s, [0.0, 2.0, 0.0])
            steps = 12
            for i in range(1, steps + 1):
                x = ex + (root_x - ex) * 0.5 * i / steps
                y = ey + (root_y - ey) * 0.5 * i / steps
                x, y = demo.move(x, y)
                demo.wait_frames(1)
            final = demo.wait_frames(4)
            self.assertTrue(final["dragging"])
            demo.up()
            after = demo.wait_frames(3)
            self.assertFalse(after["dragging"])
            # The target lies on the ray through the final cursor pixel...
            ray = cursor_ray(final, x, y)
            self.assertLess(distance_to_ray(ray, final["target"]), 1e-3)
            # ...it moved, and the effector followed it within tolerance.
            self.assertGreater(dist(final["target"], s["target"]), 0.5)
            self.assertTrue(final["reachable"])
            self.assertLessEqual(dist(final["joints"][-1], final["target"]), 0.001 + 1e-6)
            # Lengths kept, root fixed.
            self.assertEqual(final["joints"][0], [0.0, 0.0, 0.0])
            for a, b in zip(final["joints"], final["joints"][1:]):
                self.assertAlmostEqual(dist(a, b), 1.0, places=4)
            # Releasing leaves the target where it was.
            self.assertEqual(after["target"], final["target"])

    def test_drag_that_leaves_the_window(self):
        with LiveDemo(ARGS) as demo:
            s = demo.latest()
            ex, ey = project(s, s["joints"][-1])
            demo.move(ex, ey)
            demo.wait_frames(2)
            demo.down()
            w, h = s["window"]
            for (x, y) in [(w * 0.9, h * 0.5), (w + 150, h * 0.5), (w + 700, h + 300),
                           (w * 0.5, h + 400)]:
                x, y = demo.move(x, y)
                st = demo.wait_frames(3)
                self.assertTrue(all_finite(st), st)
                self.assertTrue(st["dragging"])
                # Outside the window the target still follows the cursor's ray.
                self.assertLess(distance_to_ray(cursor_ray(st, x, y), st["target"]),
                                1e-3 * max(1.0, dist(st["target"], [0, 0, 0])))
            far = demo.wait_frames(2)
            self.assertFalse(far["reachable"])  # stretched towards a far target
            demo.up()
            end = demo.wait_frames(3)
            self.assertTrue(demo.alive())
            self.assertTrue(all_finite(end))
            for a, b in zip(end["joints"], end["joints"][1:]):
                self.assertAlmostEqual(dist(a, b), 1.0, places=3)

    def test_wild_zoom_and_orbit_never_produce_nan(self):
        with LiveDemo(ARGS) as demo:
            s = demo.latest()
            w, h = s["window"]
            demo.move(w * 0.7, h * 0.5)
            for _ in range(60):
                demo.click(4)  # wheel up: zoom in
            st = demo.wait_until(lambda st: st["camera"]["distance"] < s["camera"]["distance"],
                                 what="the camera to zoom in")
            self.assertTrue(all_finite(st))
            near = st["camera"]["distance"]
            for _ in range(150):
                demo.click(5)  # wheel down: zoom out
            st = demo.wait_until(lambda st: st["camera"]["distance"] > near,
                                 what="the camera to zoom out")
            self.assertTrue(all_finite(st))
            # Orbit with the right button, far beyond the window and back.
            demo.down(3)
            for (x, y) in [(w + 500, -50), (-100, h + 300), (w * 0.5, h * 0.5), (5000, 5000)]:
                demo.move(x, y)
            demo.up(3)
            st = demo.wait_frames(3)
            self.assertTrue(all_finite(st))
            self.assertLessEqual(abs(st["camera"]["pitch"]), 1.5 + 1e-6)
            # Reset with the R key.
            demo.key("r")
            st = demo.wait_until(
                lambda st: abs(st["camera"]["distance"] - s["camera"]["distance"]) < 1e-3,
                what="the camera reset")
            self.assertAlmostEqual(st["camera"]["pitch"], s["camera"]["pitch"], places=4)
            self.assertTrue(demo.alive())


if __name__ == "__main__":
    unittest.main()
