"""The step view and the solver race, end to end through the state stream."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, all_finite, dist, read_states, run_demo  # noqa: E402

FAST = ["--size", "640x420", "--msaa", "0", "--no-vsync", "--fixed-dt", "0.02"]


class StepAndRace(unittest.TestCase):
    def run_exec(self, lines, extra=(), frames=3):
        d = tempfile.mkdtemp()
        state = os.path.join(d, "s.jsonl")
        args = FAST + ["--frames", str(frames), "--state-out", state] + list(extra)
        for line in lines:
            args += ["--exec", line]
        code, _, err = run_demo(args)
        self.assertEqual(code, 0, err)
        return read_states(state)

    def test_stepping_to_the_end_gives_the_pose_the_solve_returns(self):
        settings = ["--moe", "0.0001", "--max-iterations", "30"]
        stepped = self.run_exec(["step on", "target 2 1 2", "step end"], settings)
        end = stepped[0]
        self.assertEqual(end["step"]["step"], end["step"]["reach_count"])
        self.assertGreater(end["step"]["reach_count"], 8)
        # While stepping, the real chain keeps the start pose and the target is frozen.
        for s in stepped:
            self.assertEqual(s["step"]["chain_joints"], end["step"]["chain_joints"])
            self.assertEqual(s["joints"], end["joints"])
        # The same start, solved for real (the view switched off before the first frame).
        solved = self.run_exec(["step on", "target 2 1 2", "step off"], settings)[0]
        self.assertNotIn("step", solved)
        self.assertEqual(solved["joints"], end["joints"])
        self.assertLessEqual(solved["distance"], 0.0001 + 1e-7)

    def test_each_reach_moves_one_joint_and_keeps_its_segment(self):
        # The textbook passes (accelerate off): the reach-by-reach rules checked below.
        with LiveDemo(FAST + ["--joints", "6", "--moe", "0.0001", "--max-iterations", "20",
                              "--exec", "accelerate off",
                              "--exec", "step on", "--exec", "target -1 3 1.5"]) as demo:
            w, h = demo.latest()["window"]
            demo.move(w * 0.7, h * 0.5)
            seen = [demo.latest()]
            total = seen[0]["step"]["reach_count"]
            self.assertGreaterEqual(total, 24)  # at least two iterations of 6 joints
            last = min(total, 30)
            for k in range(1, last + 1):
                demo.key("Right")
                seen.append(demo.wait_until(lambda st: st["step"]["step"] == k,
                                            what="step %d" % k))
            demo.key("shift+Left")  # back to the start of the current half-pass
            boundary = (last - 1) // 6 * 6
            back = demo.wait_until(lambda st: st["step"]["step"] == boundary,
                                   what="half-pass back")
            self.assertEqual(back["joints"], seen[boundary]["joints"])
            demo.key("Home")
            demo.wait_until(lambda st: st["step"]["step"] == 0, what="Home")
        for a, b in zip(seen, seen[1:]):
            moved = [i for i, (p, q) in enumerate(zip(a["joints"], b["joints"])) if p != q]
            j = b["step"]["joint"]
            self.assertLessEqual(len(moved), 1, moved)
            if moved:
                self.assertEqual(moved, [j])
            # A reach keeps the segment to the joint it reaches towards (except the first
            # reach of a pass, which jumps onto the target or back to the root).
            n = len(b["joints"])
            kind = b["step"]["pass"]
            anchor = j + 1 if kind == "backward" else j - 1
            first = (kind == "backward" and j == n - 1) or (kind == "forward" and j == 0)
            if 0 <= anchor < n and not first:
                self.assertAlmostEqual(dist(b["joints"][j], b["joints"][anchor]), 1.0, places=4)

    def test_race_runs_every_solver_on_the_same_target(self):
        states = self.run_exec(["race on", "target 2.5 2 1"], frames=60)
        last = states[-1]
        self.assertIn("race", last)
        solvers = [r["solver"] for r in last["race"]]
        self.assertEqual(solvers,
                         ["fabrik", "fabrik_accelerated", "ccd", "jacobian_transpose", "dls"])
        for r in last["race"]:
            self.assertTrue(all_finite(r))
        # FABRIK and DLS reach an easy target within the default 10-iteration cap.
        by = {r["solver"]: r for r in last["race"]}
        self.assertTrue(by["fabrik"]["reached"])
        self.assertLess(dist(by["fabrik"]["effector"], [2.5, 2, 1]), 0.011)
        code, _, err = run_demo(["--solver", "dls", "--frames", "3"] + FAST)
        self.assertEqual(code, 0, err)


if __name__ == "__main__":
    unittest.main()
