#!/usr/bin/env python3
"""Runs one app test under an X server of its own: `xvfb_test.py PROGRAM [ARGS...]`.

Why not xvfb-run: the server it starts resets itself whenever its last client disconnects,
so a demo started right after another one could meet a server in the middle of a reset and
fail with "Failed to open display". Here the server runs with -noreset, and the test starts
only once the server itself has said it is ready (-displayfd writes the display number when
it accepts connections, and picks a free number, so tests may run side by side).

The server runs with keyboard auto-repeat off (-r): xdotool presses and releases each key it
types, and on a busy machine it can be descheduled between the two for longer than the
server's repeat delay (660 ms), which then types the key again ("soften" arrived as
"soooften"). A test that wants a held key holds it with keydown and keyup itself.

Each test also gets its own HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR and TMPDIR under a fresh
temporary folder, removed afterwards, so no test sees another's files or settings.
The exit code is the test's; a server that fails to start is exit code 1 with its log.
"""
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

SCREEN = "1600x1000x24"
START_TIMEOUT = 60.0  # seconds for the server to report its display; it normally takes <1 s


def start_server(log_path):
    read_fd, write_fd = os.pipe()
    log = open(log_path, "w")
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-noreset", "-nolisten", "tcp", "-r",
         "-screen", "0", SCREEN, "+extension", "GLX"],
        pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    os.close(write_fd)
    log.close()
    text = b""
    deadline = time.monotonic() + START_TIMEOUT
    while not text.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or server.poll() is not None:
            break
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_fd, 64)
        if not chunk:
            break
        text += chunk
    os.close(read_fd)
    if not text.strip().isdigit():
        server.kill()
        server.wait()
        with open(log_path) as f:
            raise RuntimeError("Xvfb did not start: " + f.read().strip())
    return server, ":" + text.strip().decode()


def main(argv):
    if len(argv) < 2:
        print("usage: xvfb_test.py PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    home = tempfile.mkdtemp(prefix="fabrik-test-")
    try:
        env = dict(os.environ)
        for name, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"),
                          ("XDG_RUNTIME_DIR", "runtime"), ("TMPDIR", "tmp")):
            path = os.path.join(home, sub)
            os.makedirs(path, mode=0o700)
            env[name] = path
        env.pop("WAYLAND_DISPLAY", None)
        env.setdefault("LIBGL_ALWAYS_SOFTWARE", "1")
        try:
            server, display = start_server(os.path.join(home, "xvfb.log"))
        except RuntimeError as e:
            print(e, file=sys.stderr)
            return 1
        env["DISPLAY"] = display
        try:
            return subprocess.call(argv[1:], env=env)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
