#!/usr/bin/env python3
"""Turns bench_peers' JSON output into the Markdown tables of docs/peers.md.

Usage:
  build/bin/bench_peers --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
      --benchmark_out=peers.json --benchmark_out_format=json
  python3 bench/peers_table.py peers.json

One table per chain kind (ball, hinge): a row per solver, a column per joint count and
tolerance; each cell is "success % / time per solve / mean iterations", from the medians of
the repetitions (or the single run when there were none). A second list names the cases where
the solver's own claim of success differs from the verified one.
"""
import json
import re
import sys

NAME = re.compile(r"^(ball|hinge)/joints:(\d+)/tol:([0-9e-]+)/([a-z0-9_]+)")


def fmt_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def tol_label(negated):
    """1e-3 for a column key's -0.001."""
    mantissa, exponent = f"{-negated:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def fmt_share(share):
    return "100 %" if share >= 1.0 else f"{100.0 * share:.1f} %"


def main(path):
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    medians = [r for r in runs if r.get("aggregate_name") == "median"]
    rows = medians or [r for r in runs if r.get("run_type", "iteration") == "iteration"]
    cells, solvers, columns = {}, {}, {}
    for r in rows:
        m = NAME.match(r["run_name"] if "run_name" in r else r["name"])
        if not m:
            continue
        kind, joints, tol, solver = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        column = (joints, -float(tol))
        columns.setdefault(kind, set()).add(column)
        solvers.setdefault(kind, [])
        if solver not in solvers[kind]:
            solvers[kind].append(solver)
        cells[(kind, solver, column)] = r
    notes = []
    for kind in ("ball", "hinge"):
        if kind not in columns:
            continue
        cols = sorted(columns[kind])
        print(f"\n{kind.capitalize()} chains: success / time per solve / mean iterations\n")
        print("| solver | " + " | ".join(f"{j} joints, tol {tol_label(t)}" for j, t in cols) + " |")
        print("|---|" + "---|" * len(cols))
        for solver in solvers[kind]:
            out = []
            for col in cols:
                r = cells.get((kind, solver, col))
                if r is None:
                    out.append("-")
                    continue
                out.append(f"{fmt_share(r['success'])} / {fmt_time(r['per_solve'])} / "
                           f"{r['iter']:.3g}")
                if abs(r["claimed"] - r["success"]) > 1e-9:
                    notes.append(f"{kind}, {col[0]} joints, tol {tol_label(col[1])}, {solver}: claimed "
                                 f"{fmt_share(r['claimed'])}, verified {fmt_share(r['success'])}, "
                                 f"within 1.01 x tolerance {fmt_share(r['success_1pct'])}")
            print(f"| {solver} | " + " | ".join(out) + " |")
    if notes:
        print("\nClaimed against verified success:\n")
        for n in notes:
            print(f"- {n}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: peers_table.py BENCH_PEERS_JSON")
    main(sys.argv[1])
