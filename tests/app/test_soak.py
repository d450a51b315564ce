"""Soak: one demo process visits every registered scene in turn, several times, for 20,000
frames in all, under random input: left drags (on and off the window, over the panel too),
orbits, pans, zooms, keys, console lines typed with xdotool, and random command lines run by
a script that also switches the scenes. No crash, no NaN in any state line, every scene
visited, the chain keeps its lengths, and resident memory flat: at the end of the last visit
of each scene it is within a small margin of the end of its visit after the warm-up (the
first tour); figures printed."""
import os
import random
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import LiveDemo, all_finite, dist  # noqa: E402
from PIL import Image  # noqa: E402

FRAMES = int(os.environ.get("FABRIK_SOAK_FRAMES", "20000"))
SCENES = ["chain", "arm", "creature", "walker", "field", "mocap", "crowd"]
CYCLES = 3  # visits of every scene; the first one is the warm-up
DT = 0.016  # --fixed-dt: script time is frame x DT, so the visits fall on known frames
# Cheap frames: a small window (the panel is 340 pixels wide; the scene shows right of it),
# small field and crowd scenes (software OpenGL spends its time on their instances), and flat
# ground (a 1 x 1 terrain, drawn as one quad instead of a 257 x 257 grid) for the walker, mocap
# and crowd scenes.
ARGS = ["--size", "480x200", "--msaa", "0", "--no-vsync", "--fixed-dt", str(DT),
        "--joints", "12", "--chains", "4", "--characters", "4"]
MEMORY_MARGIN_KIB = 16 * 1024

# Lines any scene may meet, and the ones that mean something in one scene. None of them
# changes a size that memory depends on (joints, chains, characters), so memory may be
# compared between visits. The script runs good lines only (a script with a bad line is
# refused whole); typed lines may be bad too: each prints its error and changes nothing.
COMMON = ["target 1 2 0.5", "target -2 1 1 30 0 10", "moe 0.01", "moe 0.2", "iterations 8",
          "iterations 40", "camera reset", "accelerate off", "accelerate on", "state", "help",
          "help scene", "echo soak", "clear", "view 2d", "view 3d", "orient off"]
BAD = ["jionts 5", "moe nan", "target 1 2", "iterations 0", "scene moon", "characters abc",
       "chains -1", "terrain load /no/such.png", "spline load /no/such.txt", "look 1 nan 2"]
BY_SCENE = {
    "chain": ["soften 0.9", "soften off", "turn limit 20", "turn limit off", "skin on",
              "skin off", "axes on", "axes off", "root free", "root fixed", "solver ccd",
              "solver dls", "solver fabrik", "spline load assets/splines/loop.txt",
              "spline ik on", "spline ik off"],
    "arm": ["target 0.5 1.5 0.5", "axes on", "axes off"],
    "creature": ["target 1 0.5 1", "axes on", "axes off"],
    "walker": ["walker debug on", "walker debug off", "walker leg 1", "walker leg none"],
    "field": ["target 2 2 2", "target -1 3 0"],
    "mocap": ["reach right 0.3 1.2 0.4", "reach left -0.3 1.1 0.3", "reach left off",
              "reach right off", "look 1 1.5 2", "look off", "ik weight 0.5", "ik weight 1",
              "ghost off", "ghost on", "follow off", "follow on", "mocap speed 2",
              "mocap speed 1", "mocap frame 100", "mocap pause", "mocap play"],
    "crowd": ["ik weight 0.3", "ik weight 1"],
}


def visit_frames():
    return FRAMES // (len(SCENES) * CYCLES)


def write_script(path, rng):
    """The scene visits and random command lines, at times that fall inside each visit."""
    per_visit = visit_frames() * DT
    lines = ["# the soak's scene tour (tests/app/test_soak.py)"]
    for visit in range(len(SCENES) * CYCLES):
        scene = SCENES[visit % len(SCENES)]
        start = visit * per_visit
        lines.append("at %.3f scene %s" % (start, scene))
        lines.append("at %.3f mode drag" % start)
        pool = COMMON + BY_SCENE[scene]
        times = sorted(rng.uniform(start + 0.2, start + per_visit - 0.2) for _ in range(12))
        lines += ["at %.3f %s" % (t, rng.choice(pool)) for t in times]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def inside(rng, low, high):
    """A random coordinate of a pixel in [low, high): the window's pixels are 0 .. size - 1,
    and a press at `size` itself (what rounding uniform(low, size) can give) lands outside
    the window, where the demo never sees it."""
    return rng.uniform(low, high - 1)


def act(demo, rng, w, h):
    """One random input: a drag, a wheel notch, an orbit or pan, a key. Presses always start
    on the window; the moves while a button is held may leave it (the window keeps the
    pointer then)."""
    action = rng.random()
    x, y = rng.uniform(-100, w + 100), rng.uniform(-100, h + 100)
    if action < 0.45:  # a left drag through a few points, sometimes off the window
        demo.move(inside(rng, w * 0.4, w), inside(rng, 0, h))
        demo.down(1)
        for _ in range(rng.randint(1, 4)):
            demo.move(rng.uniform(-100, w + 100), rng.uniform(-100, h + 100))
        demo.up(1)
    elif action < 0.65:
        demo.move(x, y)
        demo.click(rng.choice([4, 5]))
    elif action < 0.85:  # orbit or pan
        demo.move(inside(rng, w * 0.7, w), inside(rng, 0, h))
        button = rng.choice([2, 3])
        demo.down(button)
        demo.move(x, y)
        demo.up(button)
    else:
        demo.key(rng.choice(["r", "1", "F1", "Escape"]))


def type_line(demo, rng, scene):
    """A console line typed with xdotool; then the console is closed again."""
    printed = demo.latest()["console_printed"]
    demo.run_in_console(rng.choice(COMMON + BAD + BY_SCENE[scene]),
                        lambda s: s["console_printed"] > printed, "the typed line's answer")
    demo.key("grave")
    demo.wait_until(lambda s: not s["console_open"], what="the console to close")


class MemorySampler(threading.Thread):
    """Resident memory against the frames written so far, sampled every 20 ms on a thread of
    its own. The main loop's actions wait for the demo's answers (a typed line, a closed
    console), and on a loaded machine whole visits can pass meanwhile; sampling there would
    leave visits without a sample. Frames are counted from the state file's newlines, read
    with an offset of its own (the main loop's reader is not shared)."""

    def __init__(self, demo):
        super().__init__(daemon=True)
        self.demo = demo
        self.samples = []  # (frames so far, resident KiB)
        self.done = threading.Event()

    def run(self):
        frames, offset = 0, 0
        while not self.done.is_set() and self.demo.alive():
            try:
                with open(self.demo.state_path, "rb") as f:
                    f.seek(offset)
                    chunk = f.read()
                offset += len(chunk)
                frames += chunk.count(b"\n")
                kib = self.demo.rss_kib()
                if kib:  # 0: the process has ended (a zombie has no VmRSS line)
                    self.samples.append((frames, kib))
            except OSError:
                pass  # no state file yet, or the process has just ended
            self.done.wait(0.02)


class Soak(unittest.TestCase):
    def test_every_scene_under_random_input(self):
        rng = random.Random(1234)
        work = tempfile.mkdtemp(prefix="fabrik-soak-")
        script = os.path.join(work, "tour.txt")
        write_script(script, rng)
        flat = os.path.join(work, "flat.png")
        Image.new("L", (1, 1), 0).save(flat)
        args = ARGS + ["--terrain", flat, "--script", script, "--mode", "drag",
                       "--screenshot-dir", work]
        per_visit = visit_frames()
        started = time.monotonic()
        with LiveDemo(args, frames=FRAMES) as demo:
            sampler = MemorySampler(demo)
            sampler.start()
            w, h = demo.latest()["window"]
            next_typed = 0
            while demo.alive():
                n = len(demo.states())
                if n >= FRAMES:
                    break
                try:
                    if n >= next_typed and n % per_visit < 0.8 * per_visit:
                        type_line(demo, rng, demo.latest()["scene"])
                        next_typed = n + per_visit
                    else:
                        act(demo, rng, w, h)
                except RuntimeError:
                    # The demo quits on its own after FRAMES frames, possibly while an
                    # action waits for its input to show: only then is that not an error.
                    if demo.alive() or demo.proc.wait(timeout=60) != 0:
                        raise
                    break
            demo.proc.wait(timeout=600)
            sampler.done.set()
            sampler.join()
            self.assertEqual(demo.proc.returncode, 0, demo.stderr())
            states = demo.states()
        seconds = time.monotonic() - started
        self.assertEqual(len(states), FRAMES)
        frames_in = {scene: 0 for scene in SCENES}
        for s in states:
            self.assertTrue(all_finite(s), s["frame"])
            frames_in[s["scene"]] += 1
        for scene, count in frames_in.items():
            # The panel's scene list may be clicked too, so a visit can be cut short; every
            # scene still gets most of its frames.
            self.assertGreater(count, CYCLES * per_visit // 3, (scene, frames_in))
        # Whatever the lines and clicks did to the chain scene's lengths, its chain keeps them.
        for s in states[::25]:
            if s["scene"] != "chain" or s.get("stretch_factor", 1) != 1:
                continue
            lengths = s["lengths"]
            self.assertEqual(len(lengths) + 1, len(s["joints"]))
            for (a, b), length in zip(zip(s["joints"], s["joints"][1:]), lengths):
                self.assertAlmostEqual(dist(a, b), length, delta=1e-4 * max(1.0, length))
        # Resident memory late in each visit: the last sample in its second half.
        rss = {}  # (cycle, scene) -> KiB
        for n, kib in sampler.samples:
            visit = n // per_visit
            if visit < len(SCENES) * CYCLES and n % per_visit >= per_visit // 2:
                rss[(visit // len(SCENES), SCENES[visit % len(SCENES)])] = kib
        # The first tour is the warm-up: memory after it is the baseline.
        growth = {scene: rss[(CYCLES - 1, scene)] - rss[(1, scene)]
                  for scene in SCENES if (1, scene) in rss and (CYCLES - 1, scene) in rss}
        print("soak: %d frames in %.0f s; frames per scene %s; RSS KiB at the end of each "
              "visit %s; growth after the warm-up KiB %s"
              % (len(states), seconds, frames_in,
                 {s: [rss.get((c, s)) for c in range(CYCLES)] for s in SCENES}, growth))
        self.assertGreaterEqual(len(growth), len(SCENES) - 1, rss)
        for scene, grew in growth.items():
            self.assertLess(grew, MEMORY_MARGIN_KIB, "%s: resident memory grew by %d KiB"
                            % (scene, grew))


if __name__ == "__main__":
    unittest.main()
