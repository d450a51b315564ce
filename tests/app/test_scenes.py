"""Scenes: each starts and renders; the robot arm's hinge limits hold while the hand and the
pole are dragged with the mouse; a creature's secondary effector is dragged for real."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import (LiveDemo, all_finite, cursor_ray, dist, distance_to_ray,  # noqa: E402
                        load_png, project, read_states, run_demo)

FAST = ["--size", "800x560", "--msaa", "0", "--no-vsync"]


def orange_share(img, x, y, r=3):
    px = [img.getpixel((int(x) + dx, int(y) + dy)) for dx in range(-r, r + 1)
          for dy in range(-r, r + 1)]
    return sum(1 for (R, G, B) in px if R > 120 and R > B + 50 and R > G) / len(px)


def drag(demo, start, end, steps=10):
    demo.move(*start)
    demo.wait_frames(2)
    demo.down()
    x, y = start
    for i in range(1, steps + 1):
        x, y = demo.move(start[0] + (end[0] - start[0]) * i / steps,
                         start[1] + (end[1] - start[1]) * i / steps)
        demo.wait_frames(1)
    held = demo.wait_frames(3)
    demo.up()
    return (x, y), held


class Scenes(unittest.TestCase):
    def test_each_scene_starts_and_renders(self):
        for scene in ["chain", "arm", "creature"]:
            with self.subTest(scene=scene):
                d = tempfile.mkdtemp()
                png, state = os.path.join(d, "s.png"), os.path.join(d, "s.jsonl")
                code, _, err = run_demo(FAST + ["--scene", scene, "--frames", "20", "--fixed-dt",
                                                "0.03", "--screenshot", png, "--state-out",
                                                state])
                self.assertEqual(code, 0, err)
                states = read_states(state)
                last = states[-1]
                self.assertEqual(last["scene"], scene)
                self.assertTrue(all(all_finite(s) for s in states))
                img = load_png(png)
                if scene == "creature":
                    self.assertEqual(len(last["effectors"]), 5)
                    for e in last["effectors"]:
                        self.assertGreater(orange_share(img, *project(last, e["position"])), 0.4)
                else:
                    self.assertGreater(orange_share(img, *project(last, last["joints"][-1])), 0.4)
                # The console switches scenes too.
                code, _, err = run_demo(FAST + ["--frames", "3", "--exec", "scene " + scene])
                self.assertEqual(code, 0, err)

    def test_robot_arm_limits_hold_while_dragging_hand_and_pole(self):
        with LiveDemo(FAST + ["--scene", "arm", "--max-iterations", "40"]) as demo:
            s = demo.latest()
            self.assertEqual(s["scene"], "arm")
            w, h = s["window"]
            # Drag the hand about the workspace.
            hand = project(s, s["joints"][-1])
            (x, y), held = drag(demo, hand, (hand[0] - 40, hand[1] - 30))
            self.assertEqual(held["grab"], "target")
            self.assertLess(distance_to_ray(cursor_ray(held, x, y), held["target"]), 1e-3)
            after = demo.wait_frames(5)
            self.assertTrue(after["reached"], after["distance"])

            def pole_side(st):
                """> 0 when the elbow bends towards the pole, off the shoulder-wrist line."""
                j, pole = st["joints"], st["pole"]
                a, b, e = j[1], j[3], j[2]
                ab = [b[i] - a[i] for i in range(3)]
                n2 = sum(c * c for c in ab)
                def off(p):
                    t = sum((p[i] - a[i]) * ab[i] for i in range(3)) / n2
                    return [p[i] - a[i] - ab[i] * t for i in range(3)]
                oe, op = off(e), off(pole)
                return sum(oe[i] * op[i] for i in range(3))
            # Reached, with the elbow bent towards the pole high above.
            self.assertGreater(pole_side(after), 0)
            # Drag the pole far below the ground: the elbow swings down (or the limits stop it).
            pole = project(after, after["pole"])
            (x, y), held = drag(demo, pole, (pole[0], h * 0.98), steps=12)
            self.assertEqual(held["grab"], "pole")
            self.assertLess(distance_to_ray(cursor_ray(held, x, y), held["pole"]), 1e-3)
            moved = demo.wait_frames(5)
            self.assertLess(moved["pole"][1], after["pole"][1] - 1.0)
            # Now the elbow follows the pole down, unless the shoulder's limit forbids it.
            self.assertTrue(pole_side(moved) > 0 or moved["limited"],
                            (pole_side(moved), moved["limited"]))
            states = demo.states()
        for st in states:
            self.assertTrue(all_finite(st))
            # Hinge limits hold after every solve (float rounding only).
            self.assertLess(st["max_violation"], 1e-3, st["frame"])
            for (a, b), length in zip(zip(st["joints"], st["joints"][1:]), st["lengths"]):
                self.assertAlmostEqual(dist(a, b), length, places=3)
            self.assertEqual(st["joints"][0], [0.0, 0.0, 0.0])

    def test_drag_a_secondary_effector_of_the_creature(self):
        with LiveDemo(FAST + ["--scene", "creature", "--max-iterations", "30"]) as demo:
            s = demo.latest()
            effectors = s["effectors"]
            primary = [e for e in effectors if e["primary"]][0]
            # The effector drawn leftmost on screen that is not the primary one.
            secondary = min((e for e in effectors if not e["primary"]),
                            key=lambda e: project(s, e["position"])[0])
            k = effectors.index(secondary)
            start = project(s, secondary["position"])
            # Towards the body (and up a little): a reachable place for that limb.
            (x, y), held = drag(demo, start, (start[0] + 45, start[1] - 25))
            self.assertEqual(held["grab"], "effector")
            self.assertEqual(held["grab_index"], k)
            target = held["effectors"][k]["target"]
            self.assertLess(distance_to_ray(cursor_ray(held, x, y), target), 1e-3)
            self.assertGreater(dist(target, secondary["target"]), 0.2)
            settled = demo.wait_frames(10)
            e = settled["effectors"][k]
            self.assertTrue(e["distance"] <= 0.01 + 1e-6 or settled["limited"]
                            or not settled["reachable"], e)
            # Either way it went after its new target.
            self.assertLess(e["distance"], dist(target, secondary["position"]))
            # The primary effector's target did not move.
            self.assertEqual(settled["effectors"][effectors.index(primary)]["target"],
                             primary["target"])
            self.assertTrue(all_finite(settled))


if __name__ == "__main__":
    unittest.main()
