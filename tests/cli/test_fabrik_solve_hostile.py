#!/usr/bin/env python3
"""Hostile input for fabrik-solve (docs/fabrik-solve.md: Limits, Precision).

Every bad line must get one {"ok": false, "error": ...} line naming the problem (with the
request's id when it had one), the next line must still be answered, and no answer may hold
NaN or inf. Standard library only; the executable comes from FABRIK_SOLVE.
"""
import json
import math
import os
import resource
import subprocess
import tempfile
import unittest

SOLVE = os.environ.get("FABRIK_SOLVE", "")
TIMEOUT = 180  # generous: the sanitizer build on a loaded machine is slow

GOOD = {"joints": [[0, 0, 0], [1, 0, 0], [2, 0, 0]], "target": [1, 1, 0], "tolerance": 0.001,
        "max_iterations": 50, "id": "next"}
# Documented limits (docs/fabrik-solve.md: Limits).
MAX_LINE = 8 << 20
MAX_DEPTH = 64
MAX_WORK = 10_000_000


def limit_memory():
    # 1 GiB of address space: a line must never cost memory in proportion to its length.
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def sanitized():
    """AddressSanitizer reserves terabytes of address space: no RLIMIT_AS for its builds."""
    with open(SOLVE, "rb") as f:
        return b"__asan_init" in f.read()


SANITIZED = sanitized() if SOLVE else False


def run_bytes(data, args=(), memory_limit=False):
    limit = limit_memory if memory_limit and not SANITIZED else None
    proc = subprocess.run([SOLVE, *args], input=data, capture_output=True, timeout=TIMEOUT,
                          preexec_fn=limit)
    return proc


def answers(data, memory_limit=False):
    """Runs fabrik-solve on raw bytes; returns the parsed answers (asserting exit 0)."""
    if isinstance(data, str):
        data = data.encode()
    proc = run_bytes(data, memory_limit=memory_limit)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-500:])
    out = []
    for raw in proc.stdout.splitlines():
        # Strict JSON: NaN and Infinity are refused by the parse_constant hook.
        out.append(json.loads(raw, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c))))
    return out


def line(obj):
    return json.dumps(obj)


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


class HostileCase(unittest.TestCase):
    def expect_refused_then_next(self, bad_line, *fragments, id_=None, memory_limit=False):
        """bad_line (bytes) then a good line: one error naming the problem, then an answer."""
        data = bad_line + b"\n" + line(GOOD).encode() + b"\n"
        got = answers(data, memory_limit=memory_limit)
        self.assertEqual(len(got), 2, got)
        bad, good = got
        self.assertIs(bad["ok"], False, bad)
        self.assertNotIn("\n", bad["error"])
        for fragment in fragments:
            self.assertIn(fragment, bad["error"])
        if id_ is not None:
            self.assertEqual(bad.get("id"), id_)
        self.assertTrue(good["ok"], good)
        self.assertEqual(good["id"], "next")
        return bad["error"]


class Bytes(HostileCase):
    def test_invalid_utf8_anywhere(self):
        request = line(dict(GOOD, id="x")).encode()
        for bad in (request.replace(b'"x"', b'"\xff"'),            # in a string value
                    request.replace(b'"tolerance"', b'"tol\xc3"'),  # a cut sequence in a key
                    request.replace(b'"x"', b'"\xed\xa0\x80"'),     # a UTF-16 surrogate
                    b"\xfe\xff" + request,                          # raw bytes outside JSON
                    b"\x00\x01{"):
            with self.subTest(bad=bad[:40]):
                self.expect_refused_then_next(bad, "")

    def test_deep_nesting(self):
        for depth in (MAX_DEPTH + 1, 100_000):
            with self.subTest(depth=depth):
                self.expect_refused_then_next(b"[" * depth + b"]" * depth, "nested deeper", "64")
                deep_id = b'{"id": ' + b"[" * depth + b"]" * depth + b"}"
                self.expect_refused_then_next(deep_id, "nested deeper")
                unclosed = b'{"a": ' + b"{\"b\": " * depth
                self.expect_refused_then_next(unclosed, "")
        # Up to the limit is fine.
        nested_id = [[]]
        for _ in range(MAX_DEPTH - 3):
            nested_id = [nested_id]
        got = answers(line(dict(GOOD, id=nested_id)))
        self.assertTrue(got[0]["ok"], got[0])
        self.assertEqual(got[0]["id"], nested_id)

    def test_line_longer_than_the_limit(self):
        # 9 MiB and 40 MiB lines under a 1 GiB address-space limit: refused, not parsed.
        for size in (MAX_LINE + 1, 40 << 20):
            with self.subTest(size=size):
                body = b'{"joints": [' + b"[0,0,0]," * (size // 8) + b"[0,0,0]]}"
                self.expect_refused_then_next(body, "longer than", str(MAX_LINE),
                                              memory_limit=True)

    def test_endless_line_at_end_of_input(self):
        got = answers(line(GOOD).encode() + b"\n" + b"x" * (MAX_LINE + 10), memory_limit=True)
        self.assertEqual(len(got), 2, got)
        self.assertTrue(got[0]["ok"])
        self.assertFalse(got[1]["ok"])
        self.assertIn("line 2", got[1]["error"])

    def test_number_too_large_for_a_double(self):
        self.expect_refused_then_next(line(dict(GOOD, id=1)).replace("1,", "1e400,").encode(),
                                      "1e400")
        self.expect_refused_then_next(b'{"id": 1e400, "joints": []}', "1e400", "id")

    def test_duplicate_keys_are_refused(self):
        text = line(GOOD)[:-1] + ', "tolerance": 5}'
        self.expect_refused_then_next(text.encode(), "duplicate key", "tolerance", id_="next")
        text = line(dict(GOOD, id=4)).replace('"target"', '"target": [9, 9, 9], "target"', 1)
        self.expect_refused_then_next(text.encode(), "duplicate key", "target", id_=4)

    def test_null_id_is_echoed(self):
        ok, bad = answers(line(dict(GOOD, id=None)) + "\n" + line(dict(GOOD, id=None, tolerance=0)))
        self.assertIn("id", ok)
        self.assertIsNone(ok["id"])
        self.assertIn("id", bad)
        self.assertIsNone(bad["id"])


class Integers(HostileCase):
    CHAIN = {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0]], "target": [1, 1, 0],
             "tolerance": 0.01, "max_iterations": 10}
    NODES = [{"parent": -1, "position": [0, 0, 0]}, {"parent": 0, "position": [0, 1, 0]},
             {"parent": 1, "position": [0, 2, 0]}]

    def test_joint_index_does_not_wrap(self):
        for joint in ("4294967297", "4294967296", "18446744073709551617", "-4294967296",
                      "9223372036854775808"):
            text = line(dict(self.CHAIN, id=7, constraints=[
                {"joint": 0, "type": "ball", "angle": 0.5}]))
            text = text.replace('"joint": 0', '"joint": ' + joint)
            with self.subTest(joint=joint):
                err = self.expect_refused_then_next(text.encode(), "constraints[0].joint",
                                                    id_=7)
                self.assertIn(joint.lstrip("-")[:5], err.replace(".", ""))

    def test_parent_index_does_not_wrap(self):
        for parent in ("4294967296", "4294967295", "-4294967297", "18446744073709551616"):
            nodes = [dict(n) for n in self.NODES]
            text = line({"nodes": nodes, "targets": {"2": [1, 1, 0]}, "tolerance": 0.01,
                         "max_iterations": 10, "id": 3})
            text = text.replace('"parent": 0', '"parent": ' + parent)
            with self.subTest(parent=parent):
                err = self.expect_refused_then_next(text.encode(), "nodes[1].parent", id_=3)
                self.assertIn(parent.lstrip("-")[:5], err.replace(".", ""))


class Work(unittest.TestCase):
    def test_one_request_has_bounded_work(self):
        # 2000 unit segments in a gentle curl, a tolerance no float can meet and the largest
        # iteration cap: the work bound stops it after MAX_WORK / joints iterations.
        joints, x, y, a = [[0.0, 0.0, 0.0]], 0.0, 0.0, 0.0
        for i in range(1999):
            a += 0.003
            x, y = x + math.cos(a), y + math.sin(a)
            joints.append([x, y, 0.0])
        request = {"joints": joints, "target": [300, 400, 500], "tolerance": 1e-30,
                   "max_iterations": 1000000, "solver": "jacobian_transpose", "id": 1}
        got = answers(line(request) + "\n" + line(GOOD))
        self.assertTrue(got[0]["ok"], got[0])
        self.assertFalse(got[0]["reached"])
        self.assertEqual(got[0]["iterations"], MAX_WORK // 2000)
        self.assertIs(got[0]["work_limited"], True)
        self.assertEqual(got[1]["id"], "next")
        self.assertNotIn("work_limited", got[1])

    def test_too_many_joints(self):
        request = dict(GOOD, joints=[[i, 0, 0] for i in range(100_001)], id=5)
        got = answers(line(request))
        self.assertFalse(got[0]["ok"])
        self.assertIn("at most 100000 joints", got[0]["error"])
        self.assertEqual(got[0]["id"], 5)


class Precision(HostileCase):
    def check_lengths_kept(self, request, answer, rel=1e-5):
        self.assertTrue(answer["ok"], answer)
        for i in range(1, len(request["joints"])):
            want = dist(request["joints"][i], request["joints"][i - 1])
            got = dist(answer["joints"][i], answer["joints"][i - 1])
            self.assertLess(abs(got - want), rel * want, (i, got, want))
        self.assertEqual(answer["joints"][0], [float(c) for c in request["joints"][0]])

    def test_unit_segments_far_from_the_origin(self):
        for root in (1e6, -3e7, 12345.678):
            request = {"joints": [[root + i, 0.0, 0.0] for i in range(5)],
                       "target": [root + 1.5, 2.0, 1.0], "tolerance": 1e-4,
                       "max_iterations": 200}
            with self.subTest(root=root):
                answer = answers(line(request))[0]
                self.check_lengths_kept(request, answer)
                self.assertTrue(answer["reached"], answer)

    def test_chain_too_far_from_the_origin_for_its_size_is_refused(self):
        # Double world coordinates step by 0.002 at 1e13 and by 2 at 1e16: the written joints
        # could not keep unit segments, so the request is refused, never answered "ok".
        for root, step in ((1e13, 4.0), (1e16, 4.0), (1e17, 64.0), (-3e14, 1.0)):
            request = {"joints": [[root + step * i, 0.0, 0.0] for i in range(5)],
                       "target": [root + 1.5, 2.0, 1.0], "tolerance": 1e-4,
                       "max_iterations": 200, "id": "far"}
            with self.subTest(root=root):
                error = self.expect_refused_then_next(line(request).encode(), "too far from the origin",
                                                      id_="far")
                self.assertIn("limits", error)

    def test_chain_just_within_the_precision_bound_keeps_its_lengths(self):
        # A size of 4 allows a root up to about 4 x 2^29 (2.1e9): lengths kept to 1e-6.
        request = {"joints": [[2e9 + i, 0.0, 0.0] for i in range(5)],
                   "target": [2e9 + 1.5, 2.0, 1.0], "tolerance": 1e-4, "max_iterations": 200}
        answer = answers(line(request))[0]
        self.check_lengths_kept(request, answer, rel=1e-6)

    def test_segment_too_short_beside_the_chain_is_refused(self):
        request = dict(GOOD, joints=[[0, 0, 0], [1, 0, 0], [1, 1e-30, 0]], id=2)
        got = answers(line(request))[0]
        self.assertFalse(got["ok"])
        self.assertIn("joints[2]", got["error"])
        self.assertIn("too short", got["error"])
        self.assertEqual(got["id"], 2)

    def test_every_solver_solves_tiny_and_huge_chains(self):
        for scale in (1e-25, 1e25, 1.0):
            for solver in ("fabrik", "ccd", "jacobian_transpose", "dls"):
                request = {"joints": [[0, 0, 0], [scale, 0, 0], [2 * scale, 0, 0],
                                      [3 * scale, 0, 0]],
                           "target": [1.5 * scale, 1.5 * scale, 0.5 * scale],
                           "tolerance": 1e-3 * scale, "max_iterations": 1000, "solver": solver}
                with self.subTest(scale=scale, solver=solver):
                    answer = answers(line(request))[0]
                    self.check_lengths_kept(request, answer)
                    self.assertTrue(answer["reached"], answer)
                    self.assertLessEqual(dist(answer["joints"][-1], request["target"]),
                                         1.0001e-3 * scale)


class Trees(HostileCase):
    NODES = [{"parent": -1, "position": [0, 0, 0]}, {"parent": 0, "position": [0, 1, 0]},
             {"parent": 1, "position": [-0.5, 1.5, 0]}, {"parent": 1, "position": [0.5, 1.5, 0]}]
    TARGETS = {"2": [-0.6, 1.3, 0.2], "3": [0.6, 1.3, 0.2]}

    def tree(self, **fields):
        r = {"nodes": self.NODES, "targets": self.TARGETS, "tolerance": 0.001,
             "max_iterations": 100, "id": "t"}
        r.update(fields)
        return r

    def test_tiny_and_huge_segments_are_solved(self):
        for scale in (1e20, 1e-25):
            nodes = [dict(n, position=[c * scale for c in n["position"]]) for n in self.NODES]
            targets = {k: [c * scale for c in v] for k, v in self.TARGETS.items()}
            request = self.tree(nodes=nodes, targets=targets, tolerance=1e-3 * scale)
            with self.subTest(scale=scale):
                answer = answers(line(request))[0]
                self.assertTrue(answer["ok"], answer)
                self.assertTrue(answer["reached"], answer)
                for i, n in enumerate(nodes[1:], start=1):
                    p = n["parent"]
                    want = dist(n["position"], nodes[p]["position"])
                    got = dist(answer["positions"][i], answer["positions"][p])
                    self.assertLess(abs(got - want), 1e-5 * want)

    def test_many_short_branches_do_not_shrink_one_another(self):
        # 50,000 unit children of the root: each path is one unit long, so every segment is
        # its whole path. The old rule summed all branches (50,000) and refused them.
        nodes = [{"parent": -1, "position": [0, 0, 0]}]
        for i in range(50_000):
            a = 2 * math.pi * i / 50_000
            nodes.append({"parent": 0, "position": [math.cos(a), math.sin(a), 0]})
        request = self.tree(nodes=nodes, targets={"1": [0, 0, 1], "25001": [0, 0.6, 0.8]},
                            tolerance=1e-5)
        answer = answers(line(request))[0]
        self.assertTrue(answer["ok"], answer)
        self.assertTrue(answer["reached"], answer)
        for i in (1, 2, 25001, 50_000):
            self.assertAlmostEqual(dist(answer["positions"][i], [0, 0, 0]), 1.0, delta=1e-6)

    def test_short_segment_is_measured_against_its_own_path(self):
        # A 1e-5 segment at the tip of a 1-unit branch is refused (below 1e-4 of its path);
        # the same segment alone on a 5e-5 branch beside it is accepted.
        short_tip = [{"parent": -1, "position": [0, 0, 0]}, {"parent": 0, "position": [0, 1, 0]},
                     {"parent": 1, "position": [0, 1, 1e-5]}]
        self.expect_refused_then_next(line(self.tree(nodes=short_tip, targets={"2": [0, 1, 0]}))
                                      .encode(), "nodes[2]", "root-to-leaf path", id_="t")
        short_branch = [{"parent": -1, "position": [0, 0, 0]},
                        {"parent": 0, "position": [0, 1, 0]},
                        {"parent": 0, "position": [0, 0, 4e-5]},
                        {"parent": 2, "position": [0, 0, 5e-5]}]
        answer = answers(line(self.tree(nodes=short_branch,
                                        targets={"1": [1, 0, 0], "3": [0, 0, 5e-5]},
                                        tolerance=1e-9)))[0]
        self.assertTrue(answer["ok"], answer)
        self.assertAlmostEqual(dist(answer["positions"][3], answer["positions"][2]), 1e-5,
                               delta=1e-10)

    def test_tree_too_far_from_the_origin_is_refused(self):
        nodes = [dict(n, position=[n["position"][0] + 1e16, *n["position"][1:]])
                 for n in self.NODES]
        targets = {k: [v[0] + 1e16, *v[1:]] for k, v in self.TARGETS.items()}
        nodes = [dict(n, position=[c * 8 if j else c for j, c in enumerate(n["position"])])
                 for n in nodes]
        self.expect_refused_then_next(line(self.tree(nodes=nodes, targets=targets)).encode(),
                                      "tree too far from the origin", id_="t")

    def test_fields_a_tree_cannot_honour_are_refused(self):
        cases = [
            (self.tree(solver="ccd"), "fabrik"),
            (self.tree(pole=[1, 1, 1]), "pole"),
            (self.tree(weights={"3": 1, "7": 2}), "weights"),
            (self.tree(weights={"2": 1, "1": 2}), "weights"),
            (self.tree(weights=[1, 2]), "weights"),
            (self.tree(weights="heavy"), "weights"),
            (self.tree(weights={"2": 0, "3": 0}), "weights"),
            (self.tree(weights={"2": 0}, targets={"2": [-0.6, 1.3, 0.2]}), "weights"),
            (self.tree(targets={"+2": [0, 1, 1]}), "+2"),
            (self.tree(targets={" 2": [0, 1, 1]}), "not a node index"),
            (self.tree(targets={"02": [0, 1, 1]}), "02"),
            (self.tree(targets={"2 ": [0, 1, 1]}), "not a node index"),
            (self.tree(base={"forward": [0, 1, 0], "up": [0, 0, 0]}), "base.up"),
            (self.tree(base={"forward": [0, 1, 0], "up": [0, -3, 0]}), "base.up"),
        ]
        for request, needle in cases:
            with self.subTest(needle=needle, request=request):
                self.expect_refused_then_next(line(request).encode(), needle, id_="t")
        ok = answers(line(self.tree(solver="fabrik", weights={"2": 0, "3": 1})))[0]
        self.assertTrue(ok["ok"], ok)

    def test_hinge_reference_and_base_up_must_give_a_direction(self):
        chain = {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0]], "target": [1, 1, 0],
                 "tolerance": 0.01, "max_iterations": 10, "id": "c"}
        hinge = {"joint": 1, "type": "hinge", "axis": [1, 0, 0], "space": "parent"}
        cases = [
            (dict(chain, constraints=[dict(hinge, reference=[0, 0, 0])]), "reference"),
            (dict(chain, constraints=[dict(hinge, reference=[2, 0, 0])]), "reference"),
            (dict(chain, constraints=[dict(hinge, reference=[-1, 1e-9, 0])]), "reference"),
            (dict(chain, base={"up": [0, 0, 0]}), "base.up"),
            (dict(chain, base={"forward": [1, 0, 0], "up": [2, 0, 0]}), "base.up"),
        ]
        for request, needle in cases:
            with self.subTest(needle=needle):
                self.expect_refused_then_next(line(request).encode(), needle, id_="c")
        nodes = [dict(n) for n in self.NODES]
        nodes[2] = dict(nodes[2], constraint={"type": "hinge", "axis": [0, 0, 1],
                                              "reference": [0, 0, -1]})
        self.expect_refused_then_next(line(self.tree(nodes=nodes)).encode(),
                                      "nodes[2].constraint.reference", id_="t")


class Files(unittest.TestCase):
    def test_directory_argument(self):
        with tempfile.TemporaryDirectory() as d:
            proc = subprocess.run([SOLVE, d], capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stdout, "")
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(d, lines[0])
        self.assertIn("directory", lines[0])


def peak_rss_mb(data, preexec_fn=None):
    """Runs fabrik-solve alone in a child (fork, then exec) and returns (proc, its peak RSS in
    MB): RUSAGE_CHILDREN of a fresh intermediate process holds that one child only."""
    script = (
        "import resource, subprocess, sys\n"
        "p = subprocess.run([sys.argv[1]], input=sys.stdin.buffer.read(), capture_output=True)\n"
        "sys.stdout.buffer.write(p.stdout)\n"
        "sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
        "sys.exit(p.returncode)\n")
    import sys
    proc = subprocess.run([sys.executable, "-c", script, SOLVE], input=data,
                          capture_output=True, timeout=TIMEOUT, preexec_fn=preexec_fn)
    return proc, int(proc.stderr.decode().strip().splitlines()[-1]) / 1024.0


class Memory(unittest.TestCase):
    """Memory per request is bounded (docs/fabrik-solve.md: Limits): 2,000,000 JSON values."""

    @unittest.skipIf(SANITIZED, "AddressSanitizer's own memory would swamp the measure")
    def test_two_lines_of_small_arrays_within_the_line_limit_stay_under_100_mb(self):
        # 8 MiB of [0,0,0] arrays: a million arrays, four million values. Parsed whole, one
        # line took 290 MB.
        # The id comes first: the parse stops at the limit, and an id read by then is echoed.
        big = ('{"id": 1, "joints": [' + ",".join(["[0,0,0]"] * ((MAX_LINE - 60) // 8)) + "]}")
        self.assertLessEqual(len(big), MAX_LINE)
        data = (big + "\n" + big + "\n" + line(GOOD) + "\n").encode()
        proc, peak = peak_rss_mb(data)
        self.assertEqual(proc.returncode, 0)
        out = [json.loads(raw) for raw in proc.stdout.splitlines()]
        self.assertEqual(len(out), 3)
        for answer in out[:2]:
            self.assertFalse(answer["ok"])
            self.assertIn("more than 2000000 JSON values", answer["error"])
            self.assertEqual(answer["id"], 1)
        self.assertTrue(out[2]["ok"])
        self.assertLess(peak, 100.0)

    def test_a_request_just_within_the_value_limit_is_read(self):
        # 499,999 [x, y, z] arrays in "x" (2 + 3 each: 2,499,995 values) is over the limit;
        # 399,999 (1,999,995 values, plus the object, its keys and a few) is just within.
        n = 399_990
        body = ('{"x": [' + ",".join(["[0,0,0]"] * n) + ']}')
        out = answers(body + "\n")
        self.assertFalse(out[0]["ok"])
        self.assertIn("missing field", out[0]["error"])
        body = ('{"x": [' + ",".join(["[0,0,0]"] * (n + 10)) + ']}')
        out = answers(body + "\n")
        self.assertIn("more than 2000000 JSON values", out[0]["error"])

    @unittest.skipIf(SANITIZED, "AddressSanitizer reserves terabytes of address space")
    def test_out_of_memory_answers_that_request_and_goes_on(self):
        # The address space fabrik-solve needs for a small request, then a limit of 24 MiB
        # more: a request of 1,900,000 values (about 70 MB parsed) cannot be held.
        probe = subprocess.Popen([SOLVE], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        try:
            probe.stdin.write((line(GOOD) + "\n").encode())
            probe.stdin.flush()
            self.assertTrue(json.loads(probe.stdout.readline())["ok"])
            with open(f"/proc/{probe.pid}/status") as f:
                size_kb = next(int(l.split()[1]) for l in f if l.startswith("VmPeak:"))
        finally:
            probe.stdin.close()
            probe.wait(timeout=TIMEOUT)
        limit = size_kb * 1024 + (24 << 20)

        def cap():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        big = '{"x": [' + ",".join(["[0,0,0]"] * 380_000) + '], "id": 2}'
        data = (line(GOOD) + "\n" + big + "\n" + line(GOOD) + "\n").encode()
        proc = subprocess.run([SOLVE], input=data, capture_output=True, timeout=TIMEOUT,
                              preexec_fn=cap)
        self.assertEqual(proc.returncode, 0, proc.stderr[-300:])
        out = [json.loads(raw) for raw in proc.stdout.splitlines()]
        self.assertEqual(len(out), 3, proc.stdout)
        self.assertTrue(out[0]["ok"])
        self.assertFalse(out[1]["ok"])
        self.assertIn("out of memory", out[1]["error"])
        self.assertTrue(out[2]["ok"])


class LinearTime(unittest.TestCase):
    """A long array of objects is parsed in one pass. nlohmann's callback parser scanned the
    enclosing array at every object's end: a 100,000-node tree took seconds, and 8 MiB of
    empty objects hours. CPU time is capped far above the linear cost (a safety net that a
    quadratic parse overruns by orders of magnitude), never wall time."""

    def run_capped(self, data):
        def cap():
            resource.setrlimit(resource.RLIMIT_CPU, (120, 120))

        proc = subprocess.run([SOLVE], input=data, capture_output=True, timeout=None,
                              preexec_fn=cap)
        self.assertEqual(proc.returncode, 0, proc.stderr[-300:])
        return [json.loads(raw) for raw in proc.stdout.splitlines()]

    def test_a_chain_shaped_tree_of_100000_nodes_is_refused_in_one_pass(self):
        nodes = [{"parent": i - 1, "position": [0, i, 0]} for i in range(100_000)]
        request = {"nodes": nodes, "targets": {"99999": [0, 5, 0]}, "tolerance": 0.01,
                   "max_iterations": 10, "id": "tree"}
        out = self.run_capped((line(request) + "\n" + line(GOOD) + "\n").encode())
        self.assertFalse(out[0]["ok"])
        self.assertIn("too short beside the length of its longest root-to-leaf path",
                      out[0]["error"])
        self.assertEqual(out[0]["id"], "tree")
        self.assertTrue(out[1]["ok"])

    def test_eight_mib_of_empty_objects(self):
        body = '{"x": [' + ",".join(["{}"] * ((MAX_LINE - 20) // 3)) + "]}"
        out = self.run_capped((body + "\n" + line(GOOD) + "\n").encode())
        self.assertIn("more than 2000000 JSON values", out[0]["error"])
        self.assertTrue(out[1]["ok"])


if __name__ == "__main__":
    unittest.main()
