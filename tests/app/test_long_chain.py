"""Frames with the longest chain finish whatever its pose. A 10,000-joint chain standing
upright under its target once stalled the first frame for minutes: every joint's ground
shadow grew with its height until each blob covered the screen (docs/performance.md: Rendering
cost).
Each case renders a bounded number of frames and must exit with every state line written;
the ctest TIMEOUT is the only clock."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import all_finite, dist, read_states, run_demo  # noqa: E402

FRAMES = 6
# The accelerated FABRIK brings a 10,000-joint chain to a target near its reach in a frame or
# two (the textbook passes would need thousands of iterations): the pose under test is drawn.
FAST = "at 0 accelerate on"


class LongChain(unittest.TestCase):
    def run_script(self, lines, msaa=0):
        d = tempfile.mkdtemp(prefix="fabrik-long-")
        script, state = os.path.join(d, "pose.txt"), os.path.join(d, "state.jsonl")
        with open(script, "w") as f:
            f.write("\n".join(lines) + "\n")
        code, _, err = run_demo(["--hidden", "--frames", str(FRAMES), "--msaa", str(msaa),
                                 "--script", script, "--fixed-dt", "0.02", "--state-out", state,
                                 "--size", "640x480"], timeout=None)
        self.assertEqual(code, 0, err)
        states = read_states(state)
        self.assertEqual([s["frame"] for s in states], list(range(FRAMES)))
        for s in states:
            self.assertTrue(all_finite(s))
        self.assertEqual(len(states[-1]["joints"]), 10000)
        return states

    def test_upright_chain_with_its_target_near_the_tip(self):
        states = self.run_script([FAST, "at 0 target 0 9990 1", "at 0 joints 10000"])
        last = states[-1]
        # The chain stands up to its target: the pose the stall needed was really drawn.
        self.assertLess(dist(last["joints"][-1], last["target"]), 1.0)
        self.assertGreater(last["joints"][5000][1], 4000.0)

    def test_chain_lying_along_the_ground_through_the_camera(self):
        states = self.run_script([FAST, "at 0 target 9990 0 1", "at 0 joints 10000"])
        self.assertLess(dist(states[-1]["joints"][-1], states[-1]["target"]), 1.0)

    def test_tiny_links_piled_up_in_front_of_the_camera(self):
        self.run_script(["at 0 target 0 3 1", "at 0 length 0.001", "at 0 joints 10000"],
                        msaa=4)


if __name__ == "__main__":
    unittest.main()
