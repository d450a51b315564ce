"""Helpers for the headless app tests: run fabrik-demo under Xvfb, drive it with xdotool,
read its --state-out stream and its screenshots. Standard library plus PIL only."""
import json
import math
import os
import signal
import subprocess
import tempfile
import time

DEMO = os.environ.get("FABRIK_DEMO", "build/bin/fabrik-demo")
SOURCE_DIR = os.environ.get("FABRIK_SOURCE_DIR", ".")


def demo_env(config_dir=None):
    """The demo's environment: its own settings folder (docs/settings.md "Settings, help and
    screenshots"), fresh for each run unless `config_dir` is given, so no run sees the
    settings an earlier run saved and none writes outside its temporary folders."""
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = config_dir or tempfile.mkdtemp(prefix="fabrik-config-")
    return env


def run_demo(args, timeout=120, config_dir=None, cwd=None):
    """Runs the demo to completion; returns (exit code, stdout, stderr)."""
    proc = subprocess.run([DEMO] + list(args), capture_output=True, text=True, timeout=timeout,
                          env=demo_env(config_dir), cwd=cwd)
    return proc.returncode, proc.stdout, proc.stderr


def read_states(path):
    """All complete state lines written so far."""
    states = []
    with open(path) as f:
        for line in f:
            if line.endswith("\n"):
                states.append(json.loads(line))
    return states


def all_finite(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(all_finite(v) for v in value)
    if isinstance(value, dict):
        return all(all_finite(v) for v in value.values())
    return value is not None or True


# --- 4x4 column-major matrix math, matching glm -----------------------------------------

def mat_mul(a, b):
    """a * b for column-major 16-float lists."""
    out = [0.0] * 16
    for c in range(4):
        for r in range(4):
            out[c * 4 + r] = sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4))
    return out


def mat_vec(m, v):
    return [sum(m[c * 4 + r] * v[c] for c in range(4)) for r in range(4)]


def mat_inverse(m):
    """Gauss-Jordan inverse of a column-major 4x4 (as row-major rows of the transpose)."""
    rows = [[m[c * 4 + r] for c in range(4)] + [1.0 if r == k else 0.0 for k in range(4)]
            for r in range(4)]
    for col in range(4):
        pivot = max(range(col, 4), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        p = rows[col][col]
        rows[col] = [x / p for x in rows[col]]
        for r in range(4):
            if r != col:
                f = rows[r][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[col])]
    inv_rows = [row[4:] for row in rows]
    return [inv_rows[r][c] for c in range(4) for r in range(4)]


def project(state, p):
    """World point -> window coordinates (top-left origin), using the state's matrices."""
    vp = mat_mul(state["projection"], state["view"])
    clip = mat_vec(vp, [p[0], p[1], p[2], 1.0])
    ndc = [clip[i] / clip[3] for i in range(3)]
    w, h = state["window"]
    return ((ndc[0] + 1) * 0.5 * w, (1 - ndc[1]) * 0.5 * h)


def cursor_ray(state, x, y):
    """Window coordinates -> (origin, unit direction) through the state's matrices."""
    w, h = state["window"]
    nx, ny = 2.0 * x / w - 1.0, 1.0 - 2.0 * y / h
    inv = mat_inverse(mat_mul(state["projection"], state["view"]))
    a = mat_vec(inv, [nx, ny, -1.0, 1.0])
    b = mat_vec(inv, [nx, ny, 1.0, 1.0])
    a = [a[i] / a[3] for i in range(3)]
    b = [b[i] / b[3] for i in range(3)]
    d = [b[i] - a[i] for i in range(3)]
    n = math.sqrt(sum(c * c for c in d))
    return a, [c / n for c in d]


def distance_to_ray(ray, p):
    o, d = ray
    v = [p[i] - o[i] for i in range(3)]
    t = sum(v[i] * d[i] for i in range(3))
    q = [v[i] - d[i] * t for i in range(3)]
    return math.sqrt(sum(c * c for c in q))


def dist(a, b):
    return math.sqrt(sum((a[i] - b[i]) ** 2 for i in range(3)))


def summary(state, limit=1500):
    """A state line for a failure message: big fields left out, the rest cut to `limit`."""
    small = {k: v for k, v in state.items()
             if k not in ("view", "projection", "joints", "lengths", "step", "race")}
    text = json.dumps(small)
    return text if len(text) <= limit else text[:limit] + "..."


# --- a running demo, driven with xdotool ------------------------------------------------

def xdotool(*args):
    return subprocess.run(["xdotool"] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=30).stdout.strip()


def xdotool_shell(*args):
    """Runs an xdotool query with --shell and returns its KEY=value lines as a dict; raises
    RuntimeError naming xdotool's own message when it printed none (a query about a window
    that has just closed fails inside xdotool with an X error)."""
    run = subprocess.run(["xdotool"] + [str(a) for a in args] + ["--shell"],
                         capture_output=True, text=True, timeout=30)
    vals = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    if not vals:
        raise RuntimeError("xdotool %s failed (exit %d): %s"
                           % (" ".join(str(a) for a in args), run.returncode,
                              run.stderr.strip() or "no output"))
    return vals


class LiveDemo:
    """Starts the demo in the background with a state stream; use as a context manager."""

    def __init__(self, args=(), frames=10_000_000, config_dir=None):
        self.dir = tempfile.mkdtemp(prefix="fabrik-app-")
        self.config_dir = config_dir
        self.state_path = os.path.join(self.dir, "state.jsonl")
        self.args = list(args) + ["--state-out", self.state_path, "--frames", str(frames)]
        self.proc = None
        self.window = None
        self._states = []
        self._offset = 0
        self._partial = ""

    def __enter__(self):
        self.err_path = os.path.join(self.dir, "stderr.txt")
        self.err_file = open(self.err_path, "w")
        self.proc = subprocess.Popen([DEMO] + self.args, stdout=subprocess.DEVNULL,
                                     stderr=self.err_file, text=True,
                                     env=demo_env(self.config_dir))
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("demo exited early: " + self.stderr())
            wid = xdotool("search", "--name", "^FABRIK$")
            if wid and len(self.states()) > 3:
                self.window = wid.split()[0]
                break
            time.sleep(0.2)
        if not self.window:
            raise RuntimeError("the demo window did not appear")
        # Without a window manager, give the window the keyboard focus explicitly.
        xdotool("windowfocus", "--sync", self.window)
        self.origin = self.window_origin()
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err_file.close()
        return False

    def stderr(self):
        self.err_file.flush()
        with open(self.err_path) as f:
            return f.read()

    def window_origin(self):
        out = xdotool("getwindowgeometry", "--shell", self.window)
        vals = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        return int(vals.get("X", 0)), int(vals.get("Y", 0))

    def alive(self):
        return self.proc.poll() is None

    def states(self):
        """Every complete state line so far, read incrementally."""
        if os.path.exists(self.state_path):
            with open(self.state_path) as f:
                f.seek(self._offset)
                chunk = f.read()
                self._offset = f.tell()
            text = self._partial + chunk
            lines = text.split("\n")
            self._partial = lines.pop()
            self._states.extend(json.loads(l) for l in lines if l)
        return self._states

    def latest(self):
        return self.states()[-1]

    def wait_frames(self, n, timeout=60):
        """Waits until n more frames have been written; returns the newest state."""
        start = len(self.states())
        deadline = time.time() + timeout
        while time.time() < deadline:
            s = self.states()
            if len(s) >= start + n:
                return s[-1]
            if not self.alive():
                raise RuntimeError("demo died: " + self.stderr())
            time.sleep(0.05)
        raise RuntimeError("demo stopped producing frames")

    def wait_until(self, predicate, timeout=60, what="condition"):
        """Waits until predicate(latest state) holds; returns that state."""
        deadline = time.time() + timeout
        seen = len(self.states())
        while time.time() < deadline:
            states = self.states()
            for s in states[seen:]:
                if predicate(s):
                    return s
            seen = len(states)
            if not self.alive():
                raise RuntimeError("demo died: " + self.stderr())
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + what + "; last state: "
                             + summary(self.latest()))

    def move(self, x, y):
        """Moves the cursor to window coordinates (x, y); they may lie outside the window.
        Returns once a frame has seen the pointer there (the state line's `cursor`), so the
        next state already reflects the move."""
        sx, sy = int(round(self.origin[0] + x)), int(round(self.origin[1] + y))
        xdotool("mousemove", "--sync", sx, sy)
        # The pointer lands on whole pixels and stays on the screen: return where it really
        # is, in window coordinates.
        try:
            vals = xdotool_shell("getmouselocation")
        except RuntimeError as failure:
            # The demo may have just quit on its own (--frames), taking its window away
            # while xdotool looked for the window under the pointer: say that, not xdotool.
            # Its window goes before its process does, so wait for the process to end.
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                raise failure from None  # the demo still runs: xdotool's own failure
            raise RuntimeError("demo exited (%d) while the pointer moved: %s"
                               % (self.proc.returncode, self.stderr()))
        wx, wy = int(vals["X"]) - self.origin[0], int(vals["Y"]) - self.origin[1]
        state = self.wait_until(lambda s: s.get("cursor") is not None
                                and abs(s["cursor"][0] - wx) < 0.5
                                and abs(s["cursor"][1] - wy) < 0.5,
                                what="the cursor at (%d, %d)" % (wx, wy))
        self.pointer = (wx, wy, state["window"])
        return wx, wy

    def _button(self, action, button, pressed):
        if pressed and getattr(self, "pointer", None) is not None:
            # A press outside the window goes to the root window: the demo never sees it,
            # and waiting for it would only time out. Say so at once.
            x, y, (w, h) = self.pointer
            if not (0 <= x < w and 0 <= y < h):
                raise AssertionError("pressing button %s at (%d, %d), outside the %dx%d window"
                                     % (button, x, y, w, h))
        xdotool(action, button)
        index = {1: 0, 3: 1, 2: 2}.get(int(button))
        if index is not None:
            self.wait_until(lambda s: s.get("buttons", [None] * 3)[index] == pressed,
                            what="button %s %s" % (button, "down" if pressed else "up"))

    def down(self, button=1):
        """Presses a mouse button and returns once a frame has seen it held."""
        self._button("mousedown", button, True)

    def up(self, button=1):
        """Releases a mouse button and returns once a frame has seen it released."""
        self._button("mouseup", button, False)

    def click(self, button):
        xdotool("click", button)

    def key(self, *keys):
        xdotool("key", "--clearmodifiers", *keys)

    def type(self, text):
        xdotool("type", "--delay", 30, text)

    def run_in_console(self, line, until, what):
        """Opens the console if needed, types `line` once its input line has the keyboard
        (after opening, and again after the Enter of the previous line: the state field
        console_ready), presses Enter and waits for `until`; returns that state."""
        if not self.latest()["console_open"]:
            self.key("grave")
        self.wait_until(lambda s: s["console_open"] and s["console_ready"],
                        what="the console's input line to take the keyboard")
        self.type(line)
        self.key("Return")
        return self.wait_until(until, what=what)

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


def drag_walker_goal(demo, state, start_offset, end_offset):
    """Drags the walker scene's goal on the ground from `start_offset` to `end_offset` (x, z
    metres from the body, at the height of its lowest foot target) in five steps, waiting a
    frame after each. Returns (the state while held, after the button is released; the
    cursor's last x, y)."""
    b = state["body"]["position"]
    ground_y = min(leg["foot_target"][1] for leg in state["legs"])
    start = project(state, [b[0] + start_offset[0], ground_y, b[2] + start_offset[1]])
    end = project(state, [b[0] + end_offset[0], ground_y, b[2] + end_offset[1]])
    demo.move(*start)
    demo.wait_frames(2)
    demo.down()
    x, y = start
    for i in range(1, 6):
        x, y = demo.move(start[0] + (end[0] - start[0]) * i / 5,
                         start[1] + (end[1] - start[1]) * i / 5)
        demo.wait_frames(1)
    held = demo.wait_frames(3)
    demo.up()
    return held, x, y


def open_console_and_run(demo, line, until, what):
    """LiveDemo.run_in_console as a function (the tests written before it call this)."""
    return demo.run_in_console(line, until, what)


def load_png(path):
    from PIL import Image
    return Image.open(path).convert("RGB")
