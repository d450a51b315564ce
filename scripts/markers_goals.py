#!/usr/bin/env python3
"""Measures fabrik-markers against its goals on a take (docs/markers.md, "Measured").

    python3 scripts/markers_goals.py BUILD/bin/fabrik-markers [TAKE] [--windows N] [--noise MM]

Runs the program on the whole take (residuals, bone lengths, jumps, rejected stretches, solve
time), then N windows of 1 s (at the take's rate) with one marker hidden and N with a whole
hand's or foot's markers hidden, each at a start frame and marker drawn from a fixed seed.
For each case it prints the prediction's mean and worst error, its error against time in the
gap (tenths of the gap), and the two baselines on the same windows: holding the last seen
position, and linear interpolation across the gap (which needs the frame after it).
Standard library only.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

SEGMENTS = {"hand_l": ["LWRA", "LWRB", "LFIN"], "hand_r": ["RWRA", "RWRB", "RFIN"],
            "foot_l": ["LANK", "LHEL", "LTOE", "LMT5"], "foot_r": ["RANK", "RHEL", "RTOE", "RMT5"]}


def solve(program, take, args, folder, name):
    report = os.path.join(folder, name + ".json")
    trc = os.path.join(folder, name + ".trc")
    result = subprocess.run([program, take, *args, "--report", report, "--trc", trc],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{name}: {result.stderr.strip()}")
    with open(report) as f:
        return json.load(f), trc


def read_trc(path):
    """Frames of {name: (x, y, z)} from a TRC the program wrote."""
    with open(path) as f:
        lines = f.read().splitlines()
    names = [n for n in lines[3].split("\t")[2:] if n]
    frames = []
    for line in lines[5:]:
        if not line.strip():
            continue
        v = line.split("\t")[2:]
        frames.append({n: tuple(float(v[3 * i + k]) for k in range(3)) for i, n in enumerate(names)})
    return frames


def distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def baselines(frames, names, start, end):
    """Mean errors (mm) of holding the last position and of linear interpolation."""
    hold = linear = 0.0
    count = 0
    for f in range(start, end + 1):
        t = (f - start + 1) / (end - start + 2)
        for n in names:
            before, after, truth = frames[start - 1][n], frames[end + 1][n], frames[f][n]
            lerp = tuple(b + t * (a - b) for b, a in zip(before, after))
            hold += distance(before, truth)
            linear += distance(lerp, truth)
            count += 1
    return hold / count, linear / count


def windows(program, take, frames, case, count, length, seed, noise, folder):
    rng = random.Random(seed)
    markers = list(frames[0].keys())
    errors, worst, profile, holds, lerps = [], 0.0, [0.0] * 10, [], []
    for i in range(count):
        names = [rng.choice(markers)] if case == "marker" else SEGMENTS[rng.choice(sorted(SEGMENTS))]
        start = rng.randrange(1, len(frames) - length - 1)  # 0-based; the file counts from 1
        args = ["--hide", f"{','.join(names)}:{start + 1}-{start + length}"]
        if noise:
            args += ["--noise", str(noise), "--seed", str(seed + i)]
        report, _ = solve(program, take, args, folder, f"{case}{i}")
        hidden = report["hidden"][0]
        errors.append(hidden["mean_mm"])
        worst = max(worst, hidden["max_mm"])
        per_frame = [e for e in hidden["error_mm"] if e is not None]
        for k in range(10):
            part = per_frame[k * len(per_frame) // 10:(k + 1) * len(per_frame) // 10]
            profile[k] += sum(part) / len(part) / count
        hold, lerp = baselines(frames, names, start, start + length - 1)
        holds.append(hold)
        lerps.append(lerp)
    return {"case": case, "windows": count, "mean_mm": sum(errors) / count,
            "worst_window_mean_mm": max(errors), "worst_mm": worst,
            "by_tenth_of_gap_mm": [round(p, 1) for p in profile],
            "hold_last_mean_mm": sum(holds) / count, "linear_mean_mm": sum(lerps) / count}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("take", nargs="?", default="/usr/share/assimp/models/CSM/ThomasFechten.csm")
    parser.add_argument("--windows", type=int, default=40)
    parser.add_argument("--noise", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=33)
    a = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        args = ["--noise", str(a.noise), "--seed", str(a.seed)] if a.noise else []
        whole, trc = solve(a.program, a.take, args, folder, "whole")
        frames = read_trc(trc)
        length = round(whole["rate"])  # 1 s
        out = {"noise_mm": a.noise, "summary": whole["summary"],
               "rejected": [s for s in whole["rejected"] if s["frames"] >= 60]}
        out["cases"] = [windows(a.program, a.take, frames, case, a.windows, length, a.seed, a.noise, folder)
                        for case in ("marker", "segment")]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
