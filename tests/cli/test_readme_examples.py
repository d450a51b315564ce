#!/usr/bin/env python3
"""The documented fabrik-solve examples are real: every request line followed by "-> {...}"
in docs/fabrik-solve.md is run, and each field the page shows must match the actual response
(numbers to 1e-6 of their size, fields the page leaves out not checked).
"""
import json
import os
import subprocess
import unittest

SOLVE = os.environ.get("FABRIK_SOLVE", "")
SOURCE = os.environ.get("FABRIK_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def examples():
    text = open(os.path.join(SOURCE, "docs", "fabrik-solve.md"), encoding="utf-8").read()
    found = []
    for block in text.split("```")[1::2]:
        request, answer = None, None
        for line in block.splitlines() + ["{"]:
            if line.startswith("{") or not line.strip():
                if request is not None and answer is not None:
                    found.append((request, json.loads(answer)))
                request, answer = (line if line.startswith("{") else None), None
            elif line.startswith("-> "):
                answer = line[3:]
            elif answer is not None:
                answer += line
    return found


class DocumentedExamples(unittest.TestCase):
    def assert_matches(self, shown, actual, where):
        if isinstance(shown, dict):
            self.assertIsInstance(actual, dict, where)
            for key, value in shown.items():
                self.assertIn(key, actual, where)
                self.assert_matches(value, actual[key], where + "." + key)
        elif isinstance(shown, list):
            self.assertEqual(len(shown), len(actual), where)
            for i, (a, b) in enumerate(zip(shown, actual)):
                self.assert_matches(a, b, f"{where}[{i}]")
        elif isinstance(shown, bool) or isinstance(shown, str) or shown is None:
            self.assertEqual(shown, actual, where)
        else:
            self.assertAlmostEqual(shown, actual, delta=1e-6 * max(1.0, abs(shown)), msg=where)

    def test_every_example_matches(self):
        cases = examples()
        self.assertGreaterEqual(len(cases), 4)
        text = "".join(request + "\n" for request, _ in cases)
        proc = subprocess.run([SOLVE], input=text, capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        answers = [json.loads(line) for line in proc.stdout.splitlines()]
        self.assertEqual(len(answers), len(cases))
        for (request, shown), actual in zip(cases, answers):
            with self.subTest(request=request[:60]):
                self.assert_matches(shown, actual, "response")


if __name__ == "__main__":
    unittest.main()
