#!/usr/bin/env python3
"""No function in src/ or python/ is longer than 100 lines (docs/architecture.md "Layers"),
except one whose comment right above it says why it is longer ("longer than 100 lines"):
the SIMD kernels, whose passes share registers that a split would spill.

A C++ function is counted from the line of its opening brace to the line of its closing
one; lambdas and local classes count as part of the function they are in. A Python
function is counted from its `def` line to its last indented line.

Standard library only. The checker first runs on fabricated sources, so a checker that
finds nothing fails.
"""
import os
import re
import sys
import unittest

SOURCE = os.environ.get("FABRIK_SOURCE_DIR",
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LIMIT = 100
EXCUSE = "longer than 100 lines"
CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|try)\b[^;{}]*$")
HEADER_END = re.compile(r"\)\s*(?:const\b|noexcept\b|override\b|final\b|mutable\b|->[^;{}]*|"
                        r"&&|&|\s)*$")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^;{}()]*$|extern\s*\"C\"\s*$")


def blank_out(text):
    """Comments, string and character literals and preprocessor lines replaced by spaces,
    newlines kept, so line numbers and braces in code stay where they are."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = text.find("\n", i)
            while j != -1 and text[j - 1] == "\\":
                j = text.find("\n", j + 1)
            j = n if j == -1 else j
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        line_start = c == "\n"
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j == -1 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end == -1 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def cpp_functions(text):
    """(name line, first line, last line) of each function body at namespace or class scope."""
    code = blank_out(text)
    stack = []  # per open brace: True when it opens a function body
    found = []
    last_stop = 0
    for i, c in enumerate(code):
        if c in ";":
            last_stop = i + 1
        elif c == "{":
            header = code[last_stop:i]
            in_function = any(kind for kind, _ in stack)
            is_function = (not in_function and HEADER_END.search(header) is not None
                           and not CONTROL.search(header) and not SCOPE.search(header)
                           and "=" not in header.split("(")[0])
            stack.append((is_function, code.count("\n", 0, i) + 1))
            last_stop = i + 1
        elif c == "}":
            if stack:
                kind, first = stack.pop()
                if kind:
                    found.append((first, code.count("\n", 0, i) + 1))
            last_stop = i + 1
    return found


def python_functions(text):
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"(\s*)(?:async\s+)?def\s", line)
        if not m:
            continue
        indent = len(m.group(1))
        last = i
        for j in range(i + 1, len(lines)):
            s = lines[j]
            if not s.strip():
                continue
            if len(s) - len(s.lstrip()) <= indent:
                break
            last = j
        found.append((i + 1, last + 1))
    return found


def excused(lines, first):
    """Whether the comment lines just above line `first` (1-based; the header may span a few
    lines) say why the function is long."""
    k = first - 2
    while k >= 0 and not lines[k].lstrip().startswith(("//", "#", "*", "/*")) and first - k < 8:
        k -= 1
    comment = []
    while k >= 0 and lines[k].lstrip().startswith(("//", "#", "*", "/*")):
        comment.append(lines[k])
        k -= 1
    return EXCUSE in " ".join(comment).lower()


def long_functions(path, text):
    lines = text.split("\n")
    spans = python_functions(text) if path.endswith(".py") else cpp_functions(text)
    problems = []
    for first, last in spans:
        length = last - first + 1
        if length > LIMIT and not excused(lines, first):
            problems.append("%s:%d: a function of %d lines (at most %d, or a comment above it "
                            "saying why it is %s)" % (path, first, length, LIMIT, EXCUSE))
    return problems


def scan(root):
    problems = []
    for top in ("src", "python"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".py")):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                problems += long_functions(os.path.relpath(path, root), text)
    return problems


def body(n):
    return "\n".join("  x += %d;" % i for i in range(n))


class Checker(unittest.TestCase):
    def test_finds_a_long_function_and_spares_a_short_one(self):
        text = ("namespace a {\nint Short() {\n" + body(10) + "\n}\n"
                "struct S {\n  int Long(int y) const {\n" + body(120) + "\n  }\n};\n}\n")
        problems = long_functions("x.cpp", text)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("x.cpp:15:", problems[0])

    def test_control_blocks_lambdas_and_strings_belong_to_their_function(self):
        text = ("void F() {\n  auto g = [&](int k) {\n" + body(60) + "\n  };\n"
                "  if (true) {\n" + body(50) + "\n  }\n  const char* s = \"{ not a brace\";\n}\n")
        self.assertEqual(len(long_functions("y.cpp", text)), 1)

    def test_a_comment_saying_why_excuses_it(self):
        text = ("// A kernel: longer than 100 lines because the passes share registers.\n"
                "void K() {\n" + body(150) + "\n}\n")
        self.assertEqual(long_functions("k.cpp", text), [])

    def test_python_functions_too(self):
        text = "def f():\n" + "\n".join("    x = %d" % i for i in range(120)) + "\n\ndef g():\n    pass\n"
        problems = long_functions("m.py", text)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("m.py:1:", problems[0])


class Repository(unittest.TestCase):
    def test_no_function_is_longer_than_100_lines(self):
        problems = scan(SOURCE)
        self.assertEqual(problems, [], "\n" + "\n".join(problems))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[1:])
