"""Settings that persist, the help overlay and the screenshot key, end to end under Xvfb with
real keys (docs/settings.md)."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import DEMO, LiveDemo, load_png, read_states, run_demo  # noqa: E402

FAST = ["--msaa", "0", "--no-vsync", "--fixed-dt", "0.02"]
SIZE = ["--size", "640x420"]


def png_size(path):
    """(width, height) from a PNG's IHDR chunk, after checking its signature."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise AssertionError(path + " is not a PNG")
    return struct.unpack(">II", head[16:24])


class HelpOverlay(unittest.TestCase):
    def test_f1_opens_and_closes_escape_closes(self):
        with LiveDemo(FAST + SIZE) as demo:
            self.assertFalse(demo.wait_frames(2)["help_open"])
            demo.key("F1")
            demo.wait_until(lambda s: s["help_open"], what="help_open after F1")
            demo.key("F1")
            demo.wait_until(lambda s: not s["help_open"], what="help closed after F1")
            demo.key("F1")
            demo.wait_until(lambda s: s["help_open"], what="help_open after F1 again")
            demo.key("Escape")
            demo.wait_until(lambda s: not s["help_open"], what="help closed after Escape")
            # Escape with the help closed changes nothing else.
            self.assertTrue(demo.alive())

    def test_the_overlay_covers_the_scene_centre(self):
        with LiveDemo(FAST + SIZE + ["--exec", "target 1 4 0"]) as demo:
            demo.wait_frames(20)
            before = self.grab(demo)
            demo.key("F1")
            demo.wait_until(lambda s: s["help_open"], what="help_open")
            demo.wait_frames(3)
            after = self.grab(demo)
        # The scene's centre (right of the 340-pixel panel) changed under the overlay.
        w, h = before.size
        box = (340 + (w - 340) // 2 - 60, h // 2 - 40, 340 + (w - 340) // 2 + 60, h // 2 + 40)
        diff = sum(1 for a, b in zip(before.crop(box).getdata(), after.crop(box).getdata())
                   if max(abs(x - y) for x, y in zip(a, b)) > 40)
        self.assertGreater(diff, 500)

    @staticmethod
    def grab(demo):
        from PIL import ImageGrab
        x, y = demo.origin
        w, h = demo.latest()["window"]
        return ImageGrab.grab(bbox=(x, y, x + w, y + h),
                              xdisplay=os.environ.get("DISPLAY")).convert("RGB")


class ScreenshotKey(unittest.TestCase):
    def test_f12_writes_a_png_of_the_window_and_names_it(self):
        shots = tempfile.mkdtemp(prefix="fabrik-shots-")
        with LiveDemo(FAST + SIZE + ["--screenshot-dir", shots]) as demo:
            self.assertIsNone(demo.wait_frames(2)["last_screenshot"])
            demo.key("F1")  # the overlay is left out of the picture
            demo.wait_until(lambda s: s["help_open"], what="help_open")
            demo.key("F12")
            state = demo.wait_until(lambda s: s["last_screenshot"] is not None,
                                    what="last_screenshot")
            path = state["last_screenshot"]
            self.assertEqual(os.path.dirname(path), shots)
            self.assertRegex(os.path.basename(path),
                             r"^fabrik-\d{4}-\d\d-\d\d-\d{6}(-\d+)?\.png$")
            self.assertIn(path, state.get("console_last", ""))
            self.assertTrue(state["help_open"])
            # A second shot within the second gets a name of its own.
            demo.key("F12")
            second = demo.wait_until(lambda s: s["last_screenshot"] not in (None, path),
                                     what="a second screenshot")["last_screenshot"]
            window = state["viewport"]
        self.assertEqual(png_size(path), tuple(window))
        self.assertEqual(sorted(os.listdir(shots)),
                         sorted([os.path.basename(path), os.path.basename(second)]))
        image = load_png(path)
        self.assertEqual(image.size, tuple(window))

    def test_a_bad_screenshot_dir_is_refused_at_start(self):
        code, _, err = run_demo(["--screenshot-dir", "/nonexistent/shots", "--frames", "1"])
        self.assertEqual(code, 2)
        self.assertIn("--screenshot-dir", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)


class Settings(unittest.TestCase):
    def run_with(self, config, args, frames=3, cwd=None):
        out = os.path.join(tempfile.mkdtemp(), "s.jsonl")
        code, _, err = run_demo(FAST + ["--frames", str(frames), "--state-out", out] + args,
                                config_dir=config, cwd=cwd)
        self.assertEqual(code, 0, err)
        return read_states(out)[-1], err

    def test_settings_persist_across_runs_and_not_with_no_settings(self):
        config = tempfile.mkdtemp(prefix="fabrik-config-")
        work = tempfile.mkdtemp(prefix="fabrik-cwd-")
        self.run_with(config, ["--size", "700x500", "--exec", "moe 0.0042", "--exec",
                               "iterations 77", "--exec", "solver ccd"], cwd=work)
        folder = os.path.join(config, "fabrik-demo")
        self.assertTrue(os.path.isfile(os.path.join(folder, "settings.json")))
        self.assertTrue(os.path.isfile(os.path.join(folder, "imgui.ini")))
        self.assertEqual(os.listdir(work), [])  # nothing in the working directory
        with open(os.path.join(folder, "settings.json")) as f:
            saved_text = f.read()
        saved = json.loads(saved_text)
        self.assertEqual(saved["max_iterations"], 77)
        self.assertEqual(saved["window"]["size"], [700, 500])

        state, _ = self.run_with(config, [])
        self.assertAlmostEqual(state["tolerance"], 0.0042, places=6)
        self.assertEqual(state["max_iterations"], 77)
        self.assertEqual(state["solver"], "ccd")
        self.assertEqual(state["window"], [700, 500])

        # Options and --exec lines win over the saved settings.
        state, _ = self.run_with(config, ["--moe", "0.3", "--exec", "iterations 5"])
        self.assertAlmostEqual(state["tolerance"], 0.3, places=6)
        self.assertEqual(state["max_iterations"], 5)
        self.assertEqual(state["solver"], "ccd")

        # --no-settings: the defaults, and the file is left as it was.
        with open(os.path.join(folder, "settings.json"), "w") as f:
            f.write(saved_text)
        state, _ = self.run_with(config, ["--no-settings", "--exec", "moe 0.5"])
        self.assertAlmostEqual(state["tolerance"], 0.5, places=6)  # --exec, not saved on exit
        self.assertEqual(state["max_iterations"], 10)
        self.assertEqual(state["window"], [1280, 800])
        self.assertEqual(state["solver"], "fabrik")
        with open(os.path.join(folder, "settings.json")) as f:
            self.assertEqual(f.read(), saved_text)

    def test_the_saved_window_size_and_place_are_used(self):
        config = tempfile.mkdtemp(prefix="fabrik-config-")
        os.makedirs(os.path.join(config, "fabrik-demo"))
        with open(os.path.join(config, "fabrik-demo", "settings.json"), "w") as f:
            json.dump({"window": {"size": [520, 400], "position": [37, 51]}}, f)
        with LiveDemo(FAST, config_dir=config) as demo:
            self.assertEqual(demo.wait_frames(2)["window"], [520, 400])
            self.assertEqual(demo.window_origin(), (37, 51))
        with open(os.path.join(config, "fabrik-demo", "settings.json")) as f:
            self.assertEqual(json.load(f)["window"], {"size": [520, 400], "position": [37, 51]})

    def test_sigterm_closes_like_the_window_and_saves(self):
        config = tempfile.mkdtemp(prefix="fabrik-config-")
        with LiveDemo(FAST + SIZE + ["--exec", "iterations 55"], config_dir=config) as demo:
            demo.wait_frames(3)
            demo.key("F1")  # the help is not a saved setting, but the keys still arrive
            demo.wait_until(lambda s: s["help_open"], what="help_open")
        with open(demo.err_path) as f:
            self.assertEqual(demo.proc.returncode, 0, f.read())
        with open(os.path.join(config, "fabrik-demo", "settings.json")) as f:
            self.assertEqual(json.load(f)["max_iterations"], 55)

    def test_a_killed_demo_keeps_what_it_saved_while_running(self):
        config = tempfile.mkdtemp(prefix="fabrik-config-")
        path = os.path.join(config, "fabrik-demo", "settings.json")

        def saved_iterations():
            try:
                with open(path) as f:
                    return json.load(f).get("max_iterations")
            except (OSError, ValueError):
                return None

        with LiveDemo(FAST + SIZE + ["--exec", "iterations 66"], config_dir=config) as demo:
            demo.wait_until(lambda s: s["max_iterations"] == 66, what="iterations 66 applied")
            demo.wait_until(lambda s: saved_iterations() == 66, what="settings saved while running")
            demo.proc.kill()  # SIGKILL: no exit path runs
            demo.proc.wait(timeout=30)
        state, _ = self.run_with(config, [])
        self.assertEqual(state["max_iterations"], 66)

    def test_a_corrupt_settings_file_is_one_line_and_ignored(self):
        config = tempfile.mkdtemp(prefix="fabrik-config-")
        folder = os.path.join(config, "fabrik-demo")
        os.makedirs(folder)
        for text in ['{"moe": 0.5,', '{"moe": NaN}', "[" * 50000, '{"max_iterations": -4}']:
            with open(os.path.join(folder, "settings.json"), "w") as f:
                f.write(text)
            state, err = self.run_with(config, SIZE)
            lines = [l for l in err.splitlines() if "settings:" in l]
            self.assertEqual(len(lines), 1, err)
            self.assertAlmostEqual(state["tolerance"], 0.01, places=6)
            self.assertEqual(state["max_iterations"], 10)
        # The exit wrote a good file over the bad one.
        with open(os.path.join(folder, "settings.json")) as f:
            self.assertEqual(json.load(f)["max_iterations"], 10)

    def test_a_home_folder_that_does_not_exist_is_never_created(self):
        # No XDG_CONFIG_HOME and a $HOME that does not exist: the demo runs, says once that
        # settings are neither read nor saved, and creates no home folder of its own.
        base = tempfile.mkdtemp(prefix="fabrik-home-")
        home = os.path.join(base, "no", "such", "home")
        env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
        env["HOME"] = home
        out = os.path.join(base, "s.jsonl")
        proc = subprocess.run([DEMO] + FAST + SIZE + ["--frames", "3", "--state-out", out,
                                                      "--exec", "moe 0.0042"],
                              capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(read_states(out)[-1]["frame"], 2)
        self.assertFalse(os.path.exists(os.path.join(base, "no")), os.listdir(base))
        lines = [l for l in proc.stderr.splitlines() if "settings:" in l]
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(home, lines[0])


if __name__ == "__main__":
    unittest.main()
