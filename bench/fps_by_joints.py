#!/usr/bin/env python3
"""Uncapped frames per second of the whole demo (input, solve, render, panel) for several
joint counts, the chain following a spline so every frame solves. Run under a display (or
xvfb-run); prints a Markdown table. Usage:

  xvfb-run -a -s "-screen 0 1600x1000x24" python3 bench/fps_by_joints.py build/bin/fabrik-demo

Each run keeps the chain's reach at 7 units (segment length 7 / (joints - 1)), renders at
1280x800 without vsync and averages the FPS the demo reports over the last half of the run.
"""
import json
import os
import subprocess
import sys
import tempfile

demo = sys.argv[1] if len(sys.argv) > 1 else "build/bin/fabrik-demo"
frames = int(os.environ.get("FPS_FRAMES", "600"))
msaa = os.environ.get("FPS_MSAA", "4")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spline = os.path.join(root, "assets", "splines", "loop.txt")

rows = []
for joints in (5, 20, 200, 1000):
    with tempfile.TemporaryDirectory() as d:
        state = os.path.join(d, "s.jsonl")
        length = 7.0 / (joints - 1)
        # --no-settings: a saved scene, solver or margin would change what is measured.
        subprocess.run([demo, "--joints", str(joints), "--length", "%.6f" % length,
                        "--spline", spline, "--no-settings", "--no-vsync", "--msaa", msaa,
                        "--size", "1280x800", "--frames", str(frames), "--state-out", state],
                       check=True)
        states = [json.loads(l) for l in open(state)]
    tail = states[len(states) // 2:]
    # Mean frame time over the tail, from the per-frame solve and the smoothed fps.
    fps = sum(s["fps"] for s in tail) / len(tail)
    solve = sum(s["solve_us"] for s in tail) / len(tail)
    rows.append((joints, fps, solve, tail[-1]["draw_calls"]))

base = rows[0][1]
print("| joints | FPS | FPS / FPS(5) | solve us | draw calls |")
print("|---:|---:|---:|---:|---:|")
for joints, fps, solve, calls in rows:
    print("| %d | %.0f | %.2f | %.1f | %d |" % (joints, fps, fps / base, solve, calls))
