#!/usr/bin/env python3
"""Speed of the Python module fabrik (docs/library.md, "Performance"). Run by hand:

    cmake --build build --target fabrik_python bench_batch_python
    PYTHONPATH=build/python python3 bench/bench_python.py [--bench build/bin/bench_batch_python]

Prints:
  * the call overhead of fabrik.solve on a 10-joint chain whose effector is already on the
    target (0 iterations: argument checks, the chain built, the answer made) and the time of
    a cold solve (target uniform in the reach, tolerance 1e-3, cap 100);
  * solve_batch on 100,000 10-joint chains with cold targets (tolerance 1e-3, cap 100,
    textbook FABRIK, all cores) against a Python loop of solve over the same chains, and the
    same with the module's defaults (accelerate=False, tolerance 0.01, cap 10);
  * with --bench, bench_batch_python's C++ figures on the same workload (SolveFabrikPacked:
    the same work as solve_batch after reading its arguments), for the ratio;
  * with --cpu instead, CPU time (time.process_time) per chain on one thread (threads=1) of
    solve_batch (textbook and accelerated at tolerance 1e-3, cap 100, the defaults, and a cap
    of 1: its fixed cost) and of a Python loop of solve, and solve's call overhead: figures a
    busy machine disturbs far less than wall time; with --bench too, the C++ CPU times of the
    same four cases on one thread.
Medians of several runs; the machine's other load shows in the spread.
"""
import argparse
import json
import statistics
import subprocess
import time

import numpy as np

import fabrik

CHAINS, JOINTS = 100_000, 10


def workload(seed=1):
    rng = np.random.default_rng(seed)
    poses = np.zeros((CHAINS, JOINTS, 3), np.float32)
    poses[:, :, 0] = 3.0 * np.arange(CHAINS, dtype=np.float32)[:, None]
    poses[:, :, 1] = np.arange(JOINTS, dtype=np.float32)[None, :]
    d = rng.normal(size=(CHAINS, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    targets = poses[:, 0, :] + d * (JOINTS - 1) * rng.uniform(size=(CHAINS, 1)) ** (1 / 3)
    return poses, targets


def median_time(fn, repeats, clock=time.perf_counter):
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times), min(times), max(times)


def median_cpu(fn, repeats):
    return median_time(fn, repeats, clock=time.process_time)[0]


CASE_NAMES = ["textbook", "accelerated", "defaults", "cap 1"]  # bench_batch_python's cases


def cpp_medians(bench, repeats, threads):
    """bench_batch_python's medians for one thread (CPU ms) or all cores (wall ms):
    {(benchmark, case name): ms}."""
    done = subprocess.run([bench, "--benchmark_format=json",
                           f"--benchmark_filter=threads:{threads}(/|$)",
                           f"--benchmark_repetitions={repeats}",
                           "--benchmark_report_aggregates_only=true"],
                          capture_output=True, text=True, check=True)
    out = {}
    for b in json.loads(done.stdout)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name, case = b["run_name"].split("/")[:2]
        out[(name, CASE_NAMES[int(case.split(":")[1])])] = (
            b["cpu_time"] if threads == 1 else b["real_time"])
    return out


def cpu_figures(poses, targets, repeats, bench):
    work = poses.copy()
    copy = median_cpu(lambda: work.__setitem__(Ellipsis, poses), repeats)
    cases = [("textbook", dict(tolerance=1e-3, max_iterations=100, accelerate=False)),
             ("accelerated", dict(tolerance=1e-3, max_iterations=100, accelerate=True)),
             ("defaults", {}),
             ("cap 1", dict(tolerance=1e-3, max_iterations=1, accelerate=False))]
    batch_ns = {}
    for name, kw in cases:
        def batch():
            work[...] = poses
            fabrik.solve_batch(work, targets, threads=1, **kw)
        batch_ns[name] = (median_cpu(batch, repeats) - copy) / CHAINS * 1e9
        print(f"solve_batch (threads=1), {name}: {batch_ns[name]:.0f} cpu ns/chain")
    if bench:
        cpp = cpp_medians(bench, repeats, 1)
        for name, _ in cases:
            packed = cpp[("BM_Packed", name)] * 1e6 / CHAINS
            alone = cpp[("BM_SolveOnly", name)] * 1e6 / CHAINS
            print(f"  C++, {name}: SolveFabrikPacked {packed:.0f} cpu ns/chain (solve_batch / "
                  f"C++ = {batch_ns[name] / packed:.2f}); SolveFabrikBatch alone {alone:.0f}")
    loop_chains = 10_000
    for name, kw in cases[:3]:
        def loop():
            for c in range(loop_chains):
                fabrik.solve(poses[c], targets[c], **kw)
        ns = median_cpu(loop, 3) / loop_chains * 1e9
        print(f"Python loop of solve, {name}: {ns:.0f} cpu ns/chain -> solve_batch is "
              f"{ns / batch_ns[name]:.0f}x")
    chain = poses[0].astype(np.float64)
    on_target = chain[-1].copy()
    calls = 20_000
    us = median_cpu(lambda: [fabrik.solve(chain, on_target) for _ in range(calls)],
                    repeats) / calls * 1e6
    print(f"solve call overhead: {us:.2f} cpu us/call")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", help="the built bench_batch_python, for the C++ figures")
    parser.add_argument("--cpu", action="store_true", help="CPU-time figures, one thread")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    poses, targets = workload()
    if args.cpu:
        cpu_figures(poses, targets, args.repeats, args.bench)
        return
    settings = dict(tolerance=1e-3, max_iterations=100, accelerate=False)

    chain = poses[0].astype(np.float64)
    on_target = chain[-1].copy()
    calls = 20_000
    t, lo, hi = median_time(lambda: [fabrik.solve(chain, on_target) for _ in range(calls)],
                            args.repeats)
    print(f"solve, 10 joints, 0 iterations (call overhead): {t / calls * 1e6:.2f} us/call "
          f"(min {lo / calls * 1e6:.2f}, max {hi / calls * 1e6:.2f})")

    loop_chains = 20_000  # the Python loop is timed on a fifth and scaled
    def python_loop():
        for c in range(loop_chains):
            fabrik.solve(poses[c], targets[c], **settings)
    t_loop, lo, hi = median_time(python_loop, 3)
    per_chain_loop = t_loop / loop_chains
    iters = [fabrik.solve(poses[c], targets[c], **settings)[1]["iterations"]
             for c in range(2000)]
    print(f"solve, 10 joints, cold (mean {np.mean(iters):.1f} iterations): "
          f"{per_chain_loop * 1e6:.2f} us/call")

    work = poses.copy()
    def batch():
        work[...] = poses
        return fabrik.solve_batch(work, targets, **settings)
    # The reset copy (12 MB) is timed too; measure it alone and take it off.
    t_copy, _, _ = median_time(lambda: work.__setitem__(Ellipsis, poses), args.repeats)
    t_batch, lo, hi = median_time(batch, args.repeats)
    t_batch -= t_copy
    out = batch()
    print(f"solve_batch, {CHAINS} chains x {JOINTS} joints, cold: {t_batch * 1e3:.1f} ms "
          f"({t_batch / CHAINS * 1e9:.0f} ns/chain; {out['reached'].mean():.1%} reached, "
          f"{out['iterations'].mean():.1f} iterations a chain)")
    print(f"  Python loop of solve on the same chains: {per_chain_loop * CHAINS * 1e3:.0f} ms "
          f"-> solve_batch is {per_chain_loop * CHAINS / t_batch:.0f}x faster")

    # The module's defaults: accelerate=False, tolerance 0.01, cap 10.
    def default_loop():
        for c in range(loop_chains):
            fabrik.solve(poses[c], targets[c])
    t_dloop, _, _ = median_time(default_loop, 3)
    def default_batch():
        work[...] = poses
        return fabrik.solve_batch(work, targets)
    t_dbatch = median_time(default_batch, args.repeats)[0] - t_copy
    out = default_batch()
    print(f"defaults (accelerate=False, tolerance 0.01, cap 10): solve_batch "
          f"{t_dbatch * 1e3:.1f} ms ({out['reached'].mean():.1%} reached), Python loop "
          f"{t_dloop / loop_chains * CHAINS * 1e3:.0f} ms -> "
          f"{t_dloop / loop_chains * CHAINS / t_dbatch:.0f}x")

    if args.bench:
        cpp = cpp_medians(args.bench, args.repeats, 0)
        for name, python_ms in (("textbook", t_batch * 1e3), ("defaults", t_dbatch * 1e3)):
            ms = cpp[("BM_Packed", name)]
            print(f"C++ SolveFabrikPacked, {name}, all cores: {ms:.1f} ms -> solve_batch / C++ = "
                  f"{python_ms / ms:.2f}")

if __name__ == "__main__":
    main()
