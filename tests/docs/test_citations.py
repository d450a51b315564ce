#!/usr/bin/env python3
"""Every file and section that the code and the documentation cite exists.

Scanned: src/, tests/ (not the fuzz corpus), bench/, scripts/, shaders/, the top-level
CMakeLists.txt, README.md and docs/*.md. Three kinds of citation are checked:

(a) repository paths such as `src/ik/fabrik.h`, `tests/cli/solve_client.py`, `docs/state.md`,
    `assets/splines/loop.txt`: the file or folder must exist. A `*` is a glob and `<name>` or
    an upper-case placeholder word (`scene_NAME.h`) stands for any text; either must match at
    least one file. Paths built at run time (holding `$`) are not checked.
(b) Markdown links `[text](path)`, `[text](path#anchor)` and `[text](#anchor)` in .md files:
    the file must exist and the anchor must be one GitHub makes from a heading of it.
(c) named sections: `README "Section"`, `README: Section`, `docs/page.md "Section"`,
    `docs/page.md: Section` (and `page.md` for a page of docs/). The quoted form must name a
    heading exactly (case aside); in the colon form the text after the colon, up to the first
    `,` `;` `)` ` - ` or `. `, must be a heading or begin with one, or begin one. A section
    holding `<` is a placeholder and is not checked.

Standard library only. The matcher first checks itself on fabricated files, so a matcher
that finds nothing fails.
"""
import glob
import os
import re
import sys
import tempfile
import unittest

SOURCE = os.environ.get("FABRIK_SOURCE_DIR",
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

SCANNED_DIRS = ("src", "tests", "bench", "scripts", "shaders")
SCANNED_FILES = ("README.md", "CMakeLists.txt")
SKIPPED_DIRS = ("tests/fuzz/corpus",)
SKIPPED_FILES = ("tests/docs/test_citations.py",)  # its fabricated citations are on purpose
TEXT_SUFFIXES = (".h", ".hpp", ".cpp", ".c", ".py", ".sh", ".txt", ".cmake", ".md", ".vert",
                 ".frag", ".glsl", ".json", ".in")

# Written on another branch and merged with this one; a link to it is checked once it exists.
PENDING = {"docs/architecture.md"}

TOP = r"(?:src|tests|bench|scripts|shaders|docs|assets|third_party)"
PATH_RE = re.compile(r"(?<![\w./$-])(" + TOP + r"/[\w./*<>-]*)")
LINK_RE = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)")
DOC = r"(?<![\w/.-])(README(?:\.md)?|(?:docs/)?[\w-]+\.md)"
NEXT_LINE = r"[ \t]*\n[ \t]*(?://+|#+)?[ \t]*"  # a comment running on to its next line
QUOTED_RE = re.compile(DOC + r"(?:[ \t]+|" + NEXT_LINE + r")\"([^\"]{1,160})\"")
# The section is read inside a lookahead (so a second citation on the same line is still
# seen), with the comment's next line, where a long name runs on.
COLON_RE = re.compile(DOC + r":(?:[ \t]+|" + NEXT_LINE + r")"
                      r"(?=([^\n]*(?:\n[ \t]*(?://+|#+)?[^\n]*)?))")
COMMENT_LEAD_RE = re.compile(r"\n[ \t]*(?://+|#+|\*+|/\*+)?[ \t]*")
PLACEHOLDER_WORD_RE = re.compile(r"(?<![A-Za-z])[A-Z][A-Z_]{2,}(?![a-z])")


C_LIKE = (".h", ".hpp", ".cpp", ".c", ".vert", ".frag", ".glsl")
HASH_COMMENTS = (".py", ".sh", ".cmake", ".txt", ".in")


def blank(text):
    """The text with everything but its newlines turned into spaces (line numbers kept)."""
    return re.sub(r"[^\n]", " ", text)


def comments_only(rel, text):
    """What a code file says in its comments (and, in Python, its docstrings), with all other
    text blanked: a string literal in code is data, not a citation. Markdown is kept whole,
    less its code spans and fenced blocks (examples, not links), for the link and section
    checks; the path check reads Markdown whole."""
    if rel.endswith(".md"):
        text = re.sub(r"(?ms)^```.*?^```", lambda m: blank(m.group(0)), text)
        return re.sub(r"`[^`\n]*`", lambda m: blank(m.group(0)), text)
    if rel.endswith(C_LIKE):
        pattern = (r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"'
                   r"|'(?:\\.|[^'\\\n])*'")
        keep = ("//", "/*")
    elif rel.endswith(".py"):
        pattern = (r'#[^\n]*|"""(?:\\.|[^\\])*?"""|\'\'\'(?:\\.|[^\\])*?\'\'\''
                   r'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
        keep = ("#", '"""', "'''")
    else:  # shell, CMake: comments start with '#' outside quotes
        pattern = r'#[^\n]*|"(?:\\.|[^"\\])*"|\'[^\']*\''
        keep = ("#",)
    out, last = [], 0
    for m in re.finditer(pattern, text, re.S):
        out.append(blank(text[last:m.start()]))
        token = m.group(0)
        out.append(token if token.startswith(keep) else blank(token))
        last = m.end()
    out.append(blank(text[last:]))
    return "".join(out)


def github_anchor(heading):
    """The anchor GitHub gives a heading: its text as rendered, lower-cased, without
    punctuation other than '-' and '_', spaces turned into '-'."""
    text = plain_heading(heading).lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def plain_heading(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = text.replace("`", "")
    text = re.sub(r"(\*+)(\S[^*]*?)\1", r"\2", text)  # emphasis
    return text.strip()


def headings(path):
    """The headings of a Markdown file (outside fenced code), as written."""
    found, fenced = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            m = re.match(r"#{1,6}[ \t]+(.*?)[ \t#]*$", line)
            if m and not fenced:
                found.append(m.group(1))
    return found


def anchors(path):
    seen, result = {}, set()
    for h in headings(path):
        a = github_anchor(h)
        n = seen.get(a, 0)
        seen[a] = n + 1
        result.add(a if n == 0 else f"{a}-{n}")
    return result


def scanned_files(root):
    files = [os.path.join(root, name) for name in SCANNED_FILES]
    files += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    for top in SCANNED_DIRS:
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(folder, root).replace(os.sep, "/")
            dirs[:] = [d for d in dirs if f"{rel}/{d}" not in SKIPPED_DIRS and d != "__pycache__"]
            files += [os.path.join(folder, n) for n in sorted(names)
                      if n.endswith(TEXT_SUFFIXES) or n == "CMakeLists.txt"]
    return [f for f in files if os.path.isfile(f)
            and os.path.relpath(f, root).replace(os.sep, "/") not in SKIPPED_FILES]


def path_exists(root, path):
    if path in PENDING:
        return True
    pattern = re.sub(r"<[^>]*>", "*", path)
    pattern = PLACEHOLDER_WORD_RE.sub("*", pattern)
    if any(c in pattern for c in "*?["):
        return bool(glob.glob(os.path.join(root, pattern)))
    return os.path.exists(os.path.join(root, pattern))


def doc_file(root, name):
    """The repository path a cited document name means: README.md, or a page of docs/."""
    if name in ("README", "README.md"):
        return "README.md"
    return name if name.startswith("docs/") else "docs/" + name


def section_matches(section, titles, colon_form):
    """Whether a cited section names one of the headings `titles`. Quoted: exactly. After a
    colon: the text begins with a heading (then more words), or the text up to its first
    delimiter is a heading or, two words or more, the beginning of one."""
    wanted = plain_heading(section.strip().strip("*")).lower()
    cut = plain_heading(re.split(r"\)|;|,|\s-\s|\.(?:\s|$)", section, maxsplit=1)[0]).lower()
    for title in titles:
        plain = plain_heading(title).lower()
        if wanted == plain:
            return True
        if not colon_form:
            continue
        if wanted.startswith(plain) and not wanted[len(plain)].isalnum():
            return True  # the heading, then more words
        if cut == plain or (len(cut.split()) >= 2 and plain.startswith(cut)
                            and not plain[len(cut)].isalnum()):
            return True  # the heading's first words, up to a delimiter
    return False


def check_text(root, rel, text):
    """Problems in one file's text: a list of 'file:line: message'."""
    problems = []

    def line_of(index):
        return text.count("\n", 0, index) + 1

    def report(index, message):
        problems.append(f"{rel}:{line_of(index)}: {message}")

    said = comments_only(rel, text)

    # (a) repository paths: in a code file's comments, anywhere in Markdown.
    for m in PATH_RE.finditer(text if rel.endswith(".md") else said):
        path = m.group(1).rstrip(".:")
        if path.endswith("/"):
            path = path.rstrip("/")
        if "$" in path or path.count("/") < 1:
            continue
        if not path_exists(root, path):
            report(m.start(), f"cites {path}, which does not exist")

    # (b) Markdown links (in Markdown files only).
    if rel.endswith(".md"):
        here = os.path.dirname(rel)
        for m in LINK_RE.finditer(said):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = os.path.normpath(os.path.join(here, file_part)).replace(os.sep, "/") \
                if file_part else rel
            if linked in PENDING:
                continue
            if not os.path.exists(os.path.join(root, linked)):
                report(m.start(), f"links to {linked}, which does not exist")
            elif anchor and (not linked.endswith(".md")
                             or anchor not in anchors(os.path.join(root, linked))):
                report(m.start(), f"links to {linked}#{anchor}, which has no such heading")

    # (c) named sections; a name may run on over the comment's next line.
    for regex, colon_form in ((QUOTED_RE, False), (COLON_RE, True)):
        for m in regex.finditer(said):
            name = doc_file(root, m.group(1))
            section = COMMENT_LEAD_RE.sub(" ", m.group(2)).strip()
            if "<" in section or name in PENDING:
                continue
            full = os.path.join(root, name)
            if not os.path.isfile(full):
                report(m.start(), f"cites {name}, which does not exist")
                continue
            if colon_form and not re.match(r"[A-Z`\"*]", section):
                continue  # "README: see ..." prose rather than a section name
            if not section_matches(section, headings(full), colon_form):
                report(m.start(), f'cites {name} "{section[:60]}", which has no such heading')
    return problems


def check_tree(root):
    problems = []
    for path in scanned_files(root):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError:
            continue
        problems += check_text(root, rel, text)
    return problems


class MatcherSelfTest(unittest.TestCase):
    """The matcher on fabricated files: it finds what is broken and accepts what is not."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        files = {
            "README.md": "# Front\n\n## The `--state-out` stream\n\n## Limits\n\n## Limits\n",
            "docs/page.md": "# Page title\n\n## Rotations, orientation target and skinning\n"
                            "```\n# not a heading\n```\n",
            "src/core/scene_chain.h": "", "src/core/scene_arm.h": "",
            "assets/splines/loop.txt": "",
        }
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(self.root, rel)), exist_ok=True)
            with open(os.path.join(self.root, rel), "w", encoding="utf-8") as f:
                f.write(text)

    def tearDown(self):
        self.dir.cleanup()

    def problems(self, rel, text):
        return check_text(self.root, rel, text)

    def test_anchors_follow_github(self):
        self.assertEqual(github_anchor("The state stream (`--state-out`)"),
                         "the-state-stream---state-out")
        self.assertEqual(github_anchor("Settings, help and screenshots"),
                         "settings-help-and-screenshots")
        self.assertEqual(anchors(os.path.join(self.root, "README.md")),
                         {"front", "the---state-out-stream", "limits", "limits-1"})

    def test_paths(self):
        good = ("// see src/core/scene_chain.h, src/core/scene_*.h and src/core/scene_NAME.h;\n"
                "# assets/splines/ and assets/splines/loop.txt. docs/page.md\n"
                "x = f\"{root}/src/gone.h\"; y = \"$here/src/gone.h\"\n")
        self.assertEqual(self.problems("src/a.cpp", good), [])
        bad = "// see src/core/scene_gone.h and\n// tests/<name>/x.py and src/core/nope_*.h.\n"
        found = self.problems("src/a.cpp", bad)
        self.assertEqual(len(found), 3, found)
        self.assertIn("src/a.cpp:1: cites src/core/scene_gone.h", found[0])
        self.assertIn("src/a.cpp:2:", found[1])

    def test_only_comments_of_code_are_read(self):
        cpp = ('const char* k = "src/gone.h // README: Nothing";  // but src/gone2.h\n'
               'auto r = R"x(src/gone3.h)x"; /* src/gone4.h\n README "Nothing" */ char c = \'"\';\n')
        found = self.problems("src/a.cpp", cpp)
        self.assertEqual([p.split(" cites ")[1].split(",")[0] for p in found],
                         ["src/gone2.h", "src/gone4.h", "README.md \"Nothing\""], found)
        py = ('"""Docstring: src/gone.h."""\nx = "src/gone2.h"  # src/gone3.h\n')
        found = self.problems("tests/a.py", py)
        self.assertEqual([p.split(":")[1] for p in found], ["1", "2"], found)
        md = "`[a](gone.md)` and\n```\n[b](gone.md)\n```\n[c](gone.md) `src/gone.h`\n"
        found = self.problems("docs/page.md", md)
        self.assertEqual([p.split(":")[1] for p in found], ["5", "5"], found)

    def test_links(self):
        good = ("[a](page.md) [b](page.md#rotations-orientation-target-and-skinning) "
                "[c](#page-title) ![d](../assets/splines/loop.txt) [e](https://x.org/y) "
                "[f](../README.md#limits-1) [g](architecture.md#anything)")
        self.assertEqual(self.problems("docs/page.md", good), [])
        bad = ("[a](gone.md) [b](page.md#not-a-heading) [c](#rotations) "
               "[d](page.md#not-a-heading-1)")
        self.assertEqual(len(self.problems("docs/page.md", bad)), 4)
        # Links are a Markdown matter; the same text in code is only checked for paths.
        self.assertEqual(self.problems("src/a.cpp", "// [b](#nope)"), [])

    def test_sections(self):
        good = ('// README "Limits"; README.md "The --state-out\n'
                '// stream"; docs/page.md "Page title"\n'
                "// (README: Limits, Front). docs/page.md: Rotations, orientation target\n"
                '// docs/page.md: Rotations - why; README "<Section>"; page.md: Page title\n'
                "// see README.md for the options (README:\n// Limits) and (README\n// \"Front\")\n")
        self.assertEqual(self.problems("src/a.cpp", good), [])
        bad = ('// README "Limit"\n// README: Command line\n// docs/gone.md "X"\n'
               '// docs/page.md "not a heading"\n// page.md: Orientation (README:\n// Back page)\n'
               '// (README\n// "Fron")\n')
        found = self.problems("src/a.cpp", bad)
        self.assertEqual(len(found), 8, found)  # docs/gone.md: as a path and as a document
        self.assertEqual(sorted(p.split(":")[1] for p in found),
                         ["1", "2", "3", "3", "4", "5", "5", "7"])


class Citations(unittest.TestCase):
    def test_every_citation_exists(self):
        problems = check_tree(os.path.abspath(SOURCE))
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_the_scan_sees_the_tree(self):
        files = [os.path.relpath(f, SOURCE).replace(os.sep, "/")
                 for f in scanned_files(os.path.abspath(SOURCE))]
        self.assertIn("README.md", files)
        self.assertTrue(any(f.startswith("src/") and f.endswith(".h") for f in files))
        self.assertTrue(any(f.startswith("docs/") for f in files))
        self.assertFalse(any(f.startswith("tests/fuzz/corpus/") for f in files))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[1:])
