#!/usr/bin/env python3
"""End-to-end tests of fabrik-solve (docs/fabrik-solve.md), standard library only.

Run as a script; the executable is taken from the FABRIK_SOLVE environment variable (ctest
sets it). Exits non-zero when a test fails.
"""
import json
import math
import os
import selectors
import subprocess
import sys
import tempfile
import unittest

SOLVE = os.environ.get("FABRIK_SOLVE", "")
TIMEOUT = 30  # seconds for any one run or response

CHAIN = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]


def request(**overrides):
    """A valid request, with fields replaced (or removed, when set to ...)."""
    r = {"joints": CHAIN, "target": [1.5, 1.5, 0.5], "tolerance": 0.001, "max_iterations": 50}
    for key, value in overrides.items():
        if value is ...:
            r.pop(key, None)
        else:
            r[key] = value
    return r


def line(obj):
    return json.dumps(obj)


def run(lines, args=(), stdin_text=None):
    """Runs fabrik-solve on the given request lines; returns (responses, completed process)."""
    text = stdin_text if stdin_text is not None else "".join(l + "\n" for l in lines)
    proc = subprocess.run([SOLVE, *args], input=text, capture_output=True, text=True,
                          timeout=TIMEOUT)
    responses = [json.loads(l) for l in proc.stdout.splitlines()]
    return responses, proc


def solve_one(obj_or_text):
    text = obj_or_text if isinstance(obj_or_text, str) else line(obj_or_text)
    responses, proc = run([text])
    assert proc.returncode == 0, proc.stderr
    assert len(responses) == 1, proc.stdout
    return responses[0]


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


class ValidRequests(unittest.TestCase):
    def check_solution(self, req, resp):
        self.assertTrue(resp["ok"], resp)
        joints = resp["joints"]
        self.assertEqual(len(joints), len(req["joints"]))
        self.assertEqual(joints[0], [float(c) for c in req["joints"][0]], "root moved")
        for i in range(1, len(joints)):
            want = dist(req["joints"][i], req["joints"][i - 1])
            got = dist(joints[i], joints[i - 1])
            self.assertLess(abs(got - want), 1e-5 * want + 1e-6, f"segment {i - 1} length")
        for p in joints:
            self.assertTrue(all(math.isfinite(c) for c in p))
        effector_distance = dist(joints[-1], req["target"])
        self.assertAlmostEqual(resp["distance"], effector_distance, delta=1e-5)
        self.assertEqual(resp["reached"], resp["distance"] <= req["tolerance"])
        reach = sum(dist(req["joints"][i], req["joints"][i - 1])
                    for i in range(1, len(req["joints"])))
        self.assertEqual(resp["reachable"], dist(req["target"], req["joints"][0]) <= reach)
        self.assertIsInstance(resp["iterations"], int)
        self.assertLessEqual(resp["iterations"], req["max_iterations"])

    def test_reachable_target_is_reached(self):
        req = request()
        resp = solve_one(req)
        self.check_solution(req, resp)
        self.assertTrue(resp["reached"])
        self.assertTrue(resp["reachable"])
        self.assertGreaterEqual(resp["iterations"], 1)
        self.assertEqual(resp["solver"], "fabrik")
        self.assertGreaterEqual(resp["solve_us"], 0)

    def test_contract_fields_present(self):
        resp = solve_one(request())
        for key in ("ok", "joints", "iterations", "distance", "reached", "reachable"):
            self.assertIn(key, resp)

    def test_unreachable_target_straightens_the_chain(self):
        req = request(target=[0, 10, 0])
        resp = solve_one(req)
        self.check_solution(req, resp)
        self.assertFalse(resp["reachable"])
        self.assertFalse(resp["reached"])
        for p in resp["joints"]:
            self.assertAlmostEqual(p[0], 0, delta=1e-6)
            self.assertAlmostEqual(p[2], 0, delta=1e-6)
        self.assertAlmostEqual(resp["joints"][-1][1], 3.0, delta=1e-5)
        self.assertAlmostEqual(resp["distance"], 7.0, delta=1e-5)

    def test_root_away_from_origin_and_unequal_segments(self):
        req = request(joints=[[5, 5, 5], [6, 5, 5], [6, 7, 5], [6, 7, 8], [7, 7, 8]],
                      target=[6, 8, 6], tolerance=0.0001, max_iterations=200)
        resp = solve_one(req)
        self.check_solution(req, resp)
        self.assertTrue(resp["reached"], resp)

    def test_straight_chain_aimed_at_a_nearer_target_on_its_axis(self):
        req = request(target=[2, 0, 0])
        resp = solve_one(req)
        self.check_solution(req, resp)
        self.assertTrue(resp["reached"], resp)

    def test_already_reached_needs_no_iteration(self):
        resp = solve_one(request(target=[3, 0, 0]))
        self.assertTrue(resp["reached"])
        self.assertEqual(resp["iterations"], 0)
        self.assertEqual(resp["joints"], [[float(c) for c in p] for p in CHAIN])

    def test_iteration_cap_is_respected(self):
        # Segments 1 and 3: nothing nearer the root than 2 can be reached.
        req = request(joints=[[0, 0, 0], [1, 0, 0], [1, 3, 0]], target=[0, 0.5, 0],
                      max_iterations=7)
        resp = solve_one(req)
        self.check_solution(req, resp)
        self.assertEqual(resp["iterations"], 7)
        self.assertFalse(resp["reached"])

    def test_explicit_solver_fabrik(self):
        resp = solve_one(request(solver="fabrik"))
        self.assertTrue(resp["ok"], resp)
        self.assertEqual(resp["solver"], "fabrik")

    def test_integral_float_max_iterations_and_integer_coordinates(self):
        resp = solve_one(request(max_iterations=10.0, tolerance=1))
        self.assertTrue(resp["ok"], resp)

    def test_huge_finite_target(self):
        req = request(target=[1e30, -1e30, 3e38])
        resp = solve_one(req)
        self.assertTrue(resp["ok"], resp)
        self.assertFalse(resp["reachable"])
        self.assertTrue(all(math.isfinite(c) for p in resp["joints"] for c in p))
        self.assertTrue(math.isfinite(resp["distance"]))

    def test_id_is_echoed(self):
        resp = solve_one(request(id={"frame": 3}))
        self.assertEqual(resp["id"], {"frame": 3})
        bad = solve_one(request(tolerance=-1, id="x"))
        self.assertFalse(bad["ok"])
        self.assertEqual(bad["id"], "x")

    def test_floats_are_printed_short(self):
        out, proc = run([line(request(target=[0.1, 0.2, 0.3], tolerance=0.1))])
        self.assertEqual(proc.returncode, 0)
        self.assertNotIn("00000000", proc.stdout)


class InvalidRequests(unittest.TestCase):
    def expect_error(self, text_or_obj, *fragments):
        resp = solve_one(text_or_obj)
        self.assertEqual(resp.get("ok"), False, resp)
        self.assertIsInstance(resp.get("error"), str)
        self.assertTrue(resp["error"])
        for fragment in fragments:
            self.assertIn(fragment, resp["error"])
        self.assertNotIn("joints", {k for k in resp if k != "error"})
        return resp["error"]

    # Malformed lines.
    def test_malformed_json(self):
        self.expect_error('{"joints": [[0,0,0], [1,0,0]], "target": [1,1', "malformed JSON")
        self.expect_error("hello", "malformed JSON")
        self.expect_error("{'joints': []}", "malformed JSON")
        self.expect_error('{"a": 1} trailing', "malformed JSON")

    def test_not_an_object(self):
        self.expect_error("[1, 2, 3]", "JSON object", "array")
        self.expect_error("42", "JSON object")
        self.expect_error('"text"', "JSON object")
        self.expect_error("null", "JSON object")

    # Missing fields.
    def test_missing_fields(self):
        for field in ("joints", "target", "tolerance", "max_iterations"):
            with self.subTest(field=field):
                self.expect_error(request(**{field: ...}), "missing", field)

    # Ill-typed fields.
    def test_ill_typed_joints(self):
        self.expect_error(request(joints="abc"), "joints", "array")
        self.expect_error(request(joints={"a": 1}), "joints", "array")
        self.expect_error(request(joints=[[0, 0, 0], [1, 0]]), "joints[1]", "[x, y, z]")
        self.expect_error(request(joints=[[0, 0, 0], [1, 0, 0, 0]]), "joints[1]")
        self.expect_error(request(joints=[[0, 0, 0], 5]), "joints[1]")
        self.expect_error(request(joints=[[0, 0, 0], [1, "0", 0]]), "joints[1][1]", "number")
        self.expect_error(request(joints=[[0, 0, 0], [1, None, 0]]), "joints[1][1]", "number")
        self.expect_error(request(joints=[[0, 0, 0], [1, True, 0]]), "joints[1][1]", "number")

    def test_ill_typed_target(self):
        self.expect_error(request(target=[1, 2]), "target", "[x, y, z]")
        self.expect_error(request(target="up"), "target")
        self.expect_error(request(target=[1, 2, "3"]), "target[2]", "number")

    def test_ill_typed_tolerance(self):
        self.expect_error(request(tolerance="0.1"), "tolerance", "number")
        self.expect_error(request(tolerance=[0.1]), "tolerance", "number")
        self.expect_error(request(tolerance=None), "tolerance", "number")

    def test_ill_typed_max_iterations(self):
        self.expect_error(request(max_iterations="10"), "max_iterations", "integer")
        self.expect_error(request(max_iterations=2.5), "max_iterations", "integer")
        self.expect_error(request(max_iterations=False), "max_iterations", "integer")

    def test_ill_typed_solver(self):
        self.expect_error(request(solver=3), "solver", "string")

    # Geometry.
    def test_fewer_than_two_joints(self):
        self.expect_error(request(joints=[]), "at least 2 joints", "got 0")
        self.expect_error(request(joints=[[0, 0, 0]]), "at least 2 joints", "got 1")

    def test_zero_length_segment(self):
        err = self.expect_error(request(joints=[[0, 0, 0], [1, 0, 0], [1, 0, 0], [2, 0, 0]]))
        self.assertEqual(err, "joints[2] coincides with joints[1]: zero-length segment")
        err = self.expect_error(request(joints=[[1, 1, 1], [1, 1, 1]]))
        self.assertEqual(err, "joints[1] coincides with joints[0]: zero-length segment")

    # NaN and inf: JSON has no literal for them, so a line using one is malformed; numbers
    # too large for a double (1e999) overflow in the parser; numbers too large for the
    # solver's single precision (1e300) are rejected by name.
    def test_nan_and_infinity_literals(self):
        for literal in ("NaN", "Infinity", "-Infinity", "nan", "inf"):
            with self.subTest(literal=literal):
                text = line(request()).replace('"target": [1.5', '"target": [' + literal)
                self.expect_error(text, "malformed JSON")

    def test_overflowing_numbers(self):
        base = line(request())
        cases = [base.replace('"target": [1.5', '"target": [1e999'),
                 base.replace('[[0, 0, 0], [1, 0, 0]', '[[0, 0, 0], [-1e999, 0, 0]'),
                 base.replace('"tolerance": 0.001', '"tolerance": 1e999'),
                 base.replace('"max_iterations": 50', '"max_iterations": 1e999')]
        for text in cases:
            with self.subTest(text=text):
                self.assertIn("1e999", text)
                self.expect_error(text, "not finite")

    def test_out_of_single_precision(self):
        self.expect_error(request(target=[1e300, 0, 0]), "target[0]", "not finite")
        self.expect_error(request(joints=[[0, 0, 0], [0, -1e39, 0]]), "joints[1][1]", "not finite")
        self.expect_error(request(tolerance=1e40), "tolerance", "not finite")

    def test_chain_too_large(self):
        self.expect_error(request(joints=[[-3e38, 0, 0], [3e38, 0, 0]]), "too large")

    def test_tolerance_not_positive(self):
        self.expect_error(request(tolerance=0), "tolerance", "> 0")
        self.expect_error(request(tolerance=-0.5), "tolerance", "> 0")
        self.expect_error(request(tolerance=1e-50), "tolerance", "> 0")

    def test_max_iterations_below_one(self):
        self.expect_error(request(max_iterations=0), "max_iterations", ">= 1")
        self.expect_error(request(max_iterations=-3), "max_iterations", ">= 1")

    def test_max_iterations_too_large(self):
        self.expect_error(request(max_iterations=10**12), "max_iterations", "<=")

    def test_unknown_solver(self):
        err = self.expect_error(request(solver="magic"), "unknown solver", "magic")
        self.assertIn("fabrik", err)  # lists the known names
        self.expect_error(request(solver=""), "unknown solver")
        self.expect_error(request(solver="FABRIK"), "unknown solver")


class Streaming(unittest.TestCase):
    def test_continues_after_bad_lines_in_order(self):
        lines = []
        expect_ok = []
        for i in range(30):
            kind = i % 5
            if kind == 0:
                lines.append(line(request(id=i)))
                expect_ok.append(True)
            elif kind == 1:
                lines.append("{broken " + str(i))
                expect_ok.append(False)
            elif kind == 2:
                lines.append(line(request(id=i, tolerance=-1)))
                expect_ok.append(False)
            elif kind == 3:
                lines.append(line(request(id=i, target=[0, 0, 2.5 + i / 100])))
                expect_ok.append(True)
            else:
                lines.append(line(request(id=i, joints=[[0, 0, 0], [0, 0, 0]])))
                expect_ok.append(False)
        responses, proc = run(lines)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(responses), len(lines))
        self.assertEqual([r["ok"] for r in responses], expect_ok)
        for i, r in enumerate(responses):
            if i % 5 != 1:  # malformed lines cannot carry an id
                self.assertEqual(r["id"], i)
        # Order: the ok answers aim at their own targets.
        self.assertAlmostEqual(responses[3]["joints"][-1][2], 2.53, delta=2e-3)
        self.assertAlmostEqual(responses[28]["joints"][-1][2], 2.78, delta=2e-3)

    def test_blank_lines_are_skipped(self):
        text = "\n" + line(request(id=1)) + "\n   \n\t\n\n" + line(request(id=2)) + "\n\n"
        responses, proc = run([], stdin_text=text)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual([r["id"] for r in responses], [1, 2])

    def test_crlf_line_endings(self):
        text = line(request(id=1)) + "\r\n" + line(request(id=2)) + "\r\n"
        responses, _ = run([], stdin_text=text)
        self.assertEqual([(r["ok"], r["id"]) for r in responses], [(True, 1), (True, 2)])

    def test_last_line_without_newline(self):
        responses, _ = run([], stdin_text=line(request(id=9)))
        self.assertEqual([r["id"] for r in responses], [9])

    def test_empty_input(self):
        responses, proc = run([], stdin_text="")
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(responses, [])

    def test_many_requests(self):
        lines = [line(request(id=i, target=[1, 1 + (i % 10) / 10, 0])) for i in range(2000)]
        responses, proc = run(lines)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual([r["id"] for r in responses], list(range(2000)))
        self.assertTrue(all(r["ok"] and r["reached"] for r in responses))

    def test_co_process(self):
        """One request at a time: each answer must arrive before the next request is sent."""
        proc = subprocess.Popen([SOLVE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, bufsize=1)
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        try:
            joints = CHAIN
            for i in range(20):
                text = line(request(id=i, joints=joints, target=[2, 1 + i / 20, 0.5])) \
                    if i % 4 != 3 else "not json"
                proc.stdin.write(text + "\n")
                proc.stdin.flush()
                self.assertTrue(selector.select(timeout=TIMEOUT),
                                f"no answer to request {i} within {TIMEOUT}s (not flushed?)")
                resp = json.loads(proc.stdout.readline())
                if i % 4 == 3:
                    self.assertFalse(resp["ok"])
                    continue
                self.assertEqual(resp["id"], i)
                self.assertTrue(resp["reached"], resp)
                joints = resp["joints"]  # warm start: feed the answer back
            proc.stdin.close()
            self.assertEqual(proc.wait(timeout=TIMEOUT), 0)
            self.assertEqual(proc.stdout.read(), "")
        finally:
            selector.close()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()


class CommandLine(unittest.TestCase):
    def test_file_argument(self):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write(line(request(id="a")) + "\n\nbad line\n" + line(request(id="b")) + "\n")
            path = f.name
        try:
            responses, proc = run([], args=[path], stdin_text="")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual([r["ok"] for r in responses], [True, False, True])
            self.assertEqual(responses[0]["id"], "a")
            self.assertEqual(responses[2]["id"], "b")
        finally:
            os.unlink(path)

    def test_dash_means_stdin(self):
        responses, proc = run([line(request(id=5))], args=["-"])
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(responses[0]["id"], 5)

    def test_missing_file(self):
        _, proc = run([], args=["/nonexistent/requests.jsonl"], stdin_text="")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("/nonexistent/requests.jsonl", proc.stderr)
        self.assertEqual(proc.stdout, "")

    def test_help(self):
        proc = subprocess.run([SOLVE, "--help"], capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 0)
        self.assertIn("Usage", proc.stdout)
        self.assertIn("max_iterations", proc.stdout)

    def test_bad_option(self):
        proc = subprocess.run([SOLVE, "--no-such-option"], capture_output=True, text=True,
                              timeout=TIMEOUT, input="")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--no-such-option", proc.stderr)


if __name__ == "__main__":
    if not SOLVE or not os.path.exists(SOLVE):
        print(f"FABRIK_SOLVE must name the fabrik-solve executable (got {SOLVE!r})",
              file=sys.stderr)
        sys.exit(2)
    unittest.main(verbosity=2)
