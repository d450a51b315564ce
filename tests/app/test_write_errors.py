#!/usr/bin/env python3
"""What the demo writes fails honestly (docs/limits.md, "Files the demo writes"): a FIFO is
refused at the start instead of blocking it, a full disk is reported and leaves no half file,
a symlinked settings file is written through, and SIGHUP saves the settings."""
import json
import os
import resource
import signal
import subprocess
import tempfile
import time
import unittest

from fabrik_app import DEMO, demo_env, run_demo

TIMEOUT = 120


def caught_signals(pid):
    """The set of signal numbers the process has handlers for (from /proc)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                mask = int(line.split()[1], 16)
                return {n for n in range(1, 65) if mask & (1 << (n - 1))}
    return set()


class Fifos(unittest.TestCase):
    def test_screenshot_and_state_out_on_a_fifo_are_refused_at_start(self):
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "pipe")
            os.mkfifo(fifo)
            for option in ("--screenshot", "--state-out"):
                with self.subTest(option=option):
                    # Nobody reads the FIFO: a demo that opened it would block here.
                    code, _, err = run_demo([option, fifo, "--frames", "2"], timeout=TIMEOUT)
                    self.assertEqual(code, 2, err)
                    self.assertIn(fifo, err)
                    self.assertIn("not a regular file", err)


class AddressSpace(unittest.TestCase):
    def test_a_limit_too_tight_for_software_opengl_is_one_line_not_a_crash(self):
        # Mesa's software renderer crashes (SIGSEGV) compiling shaders when `ulimit -v` leaves
        # it too little room (docs/limits.md); the demo refuses before its first shader.
        def tight(limit):
            return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))

        for kib in (400000, 600000):
            with self.subTest(kib=kib):
                proc = subprocess.run([DEMO, "--frames", "3", "--no-settings"],
                                      capture_output=True, text=True, timeout=TIMEOUT,
                                      env=demo_env(), preexec_fn=tight(kib * 1024))
                self.assertEqual(proc.returncode, 1, proc.stderr)  # not -11 (SIGSEGV)
                self.assertIn("ulimit -v %d" % kib, proc.stderr)
                self.assertIn("software OpenGL", proc.stderr)
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        # From the documented minimum the demo runs.
        proc = subprocess.run([DEMO, "--frames", "3", "--no-settings"], capture_output=True,
                              text=True, timeout=TIMEOUT, env=demo_env(),
                              preexec_fn=tight(786432 * 1024))
        self.assertEqual(proc.returncode, 0, proc.stderr)


class FullDisk(unittest.TestCase):
    def test_a_screenshot_that_does_not_fit_is_reported_and_leaves_no_file(self):
        with tempfile.TemporaryDirectory() as d:
            shot = os.path.join(d, "shot.png")

            def small_files():  # a file-size limit fails writes as a full disk does
                resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))

            proc = subprocess.run([DEMO, "--screenshot", shot, "--frames", "3", "--no-settings"],
                                  capture_output=True, text=True, timeout=TIMEOUT,
                                  env=demo_env(), preexec_fn=small_files)
            self.assertGreaterEqual(proc.returncode, 0, proc.stderr)  # not killed by SIGXFSZ
            self.assertIn("cannot write " + shot, proc.stderr)
            self.assertIn(os.strerror(27), proc.stderr)  # EFBIG: "File too large"
            self.assertNotIn("Success", proc.stderr)
            self.assertEqual(os.listdir(d), [])  # no PNG, whole or half, no temporary file


class Settings(unittest.TestCase):
    def test_a_symlinked_settings_file_is_written_through(self):
        with tempfile.TemporaryDirectory() as config:
            folder = os.path.join(config, "fabrik-demo")
            os.makedirs(folder)
            real = os.path.join(config, "dotfiles-settings.json")
            with open(real, "w") as f:
                f.write("{}\n")
            link = os.path.join(folder, "settings.json")
            os.symlink(real, link)
            code, _, err = run_demo(["--frames", "3", "--exec", "moe 0.0042"], timeout=TIMEOUT,
                                    config_dir=config)
            self.assertEqual(code, 0, err)
            self.assertTrue(os.path.islink(link))
            with open(real) as f:
                self.assertAlmostEqual(json.load(f)["moe"], 0.0042, places=6)

    def test_sighup_saves_the_settings(self):
        with tempfile.TemporaryDirectory() as config:
            err = open(os.path.join(config, "stderr.txt"), "w")
            proc = subprocess.Popen([DEMO, "--frames", "10000000", "--exec", "moe 0.0037"],
                                    stdout=subprocess.DEVNULL, stderr=err,
                                    env=demo_env(config))
            try:
                # Wait for the demo to catch SIGHUP (a state, not a time): before that, the
                # signal's default action would end any program.
                deadline = time.monotonic() + 60
                while signal.SIGHUP not in caught_signals(proc.pid):
                    self.assertIsNone(proc.poll(), "the demo ended early")
                    self.assertLess(time.monotonic(), deadline, "SIGHUP is never caught")
                    time.sleep(0.001)
                proc.send_signal(signal.SIGHUP)
                self.assertEqual(proc.wait(timeout=TIMEOUT), 0)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                err.close()
            with open(os.path.join(config, "fabrik-demo", "settings.json")) as f:
                self.assertAlmostEqual(json.load(f)["moe"], 0.0037, places=6)


if __name__ == "__main__":
    unittest.main()
