#!/usr/bin/env python3
"""The layers of src/ link one way, and the app's core names no scene
(docs/architecture.md "Layers" and "Scenes").

Three rules, checked on every .h and .cpp under src/:

(a) A layer includes only itself and the layers listed for it in USES (the "uses" column
    of docs/architecture.md's layer table): `#include "walker/..."` in src/terrain/ fails.
(b) src/core, src/lang and src/targets include nothing from src/scenes, except that the core's
    registry (core/scene_registry.cpp) expands the one list, scenes/registry.h.
(c) A scene's classes and structs (those its folder's headers define) and its name as a
    string literal ("walker") appear nowhere in src/ outside its folder and
    scenes/registry.h. The chain scene is the one the app starts in: its name may appear
    where the start-up and the scene switch fall back to it. Scenes that share one folder's
    pieces are listed in SHARED_SCENES. The libraries below the core (LOWER, but the language
    and the targets, which know scene names as the console does) and the programs
    outside the app (solve_cli, markers_cli) are left out of this rule: rule (a) already keeps
    them from seeing any scene, and a word of their own may be a scene's name too (the
    markers library's reports say "markers", the markers scene's name).

KNOWN lists what is still to be moved behind the Scene interface: each entry is a file and
the scene word it still names. A new occurrence fails, and so does an entry that no longer
occurs (remove it), so the list only shrinks.

Standard library only. The checker first runs on fabricated trees, so a checker that finds
nothing fails.
"""
import os
import re
import sys
import tempfile
import unittest

SOURCE = os.environ.get("FABRIK_SOURCE_DIR",
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Each layer (folder of src/) and the layers it may include, besides itself. The scenes'
# shell files (*_shell.cpp, *_draw.*, *_panel.*) go into the app and may include what the
# app includes; a scene's other files go into the core.
LOWER = ("ik", "io", "skin", "camera", "lang", "targets", "terrain", "walker", "mocap", "markers",
         "character")
USES = {
    "ik": set(),
    "io": {"ik"},
    "skin": {"ik"},
    "camera": set(),
    "lang": {"ik"},
    "targets": {"lang", "ik", "camera"},
    "solve_cli": {"ik"},
    "terrain": {"ik"},
    "walker": {"ik", "terrain"},
    # io: the BVH writer's atomic file writes; lang: text.h's byte-order mark (header only)
    "mocap": {"ik", "io", "lang", "terrain"},
    # walker, terrain: the quadruped walks on the walker's gait (character/quadruped.h)
    "character": {"ik", "skin", "mocap", "walker", "terrain"},
    "core": set(LOWER),
    # character: model.h's plain vertex and mesh types for the GPU skinning (header only)
    "render": {"ik", "io", "skin", "camera", "character"},
    "app": set(LOWER) | {"core", "render", "scenes"},
    "scenes": set(LOWER) | {"core"},
    "scenes_shell": set(LOWER) | {"core", "render", "app"},
}
NO_SCENES = ("core", "lang", "targets")
# Below the scenes or outside the app: rule (c) does not apply (see the docstring).
NO_SCENE_WORDS = (set(LOWER) - set(NO_SCENES)) | {"solve_cli", "markers_cli"}
SCENE_LIST = "scenes/registry.h"
# The scene the app starts in (scenes/registry.h: "chain" stays first).
START_SCENE = "chain"
# Scenes that use each other's pieces: the crowd is many mocap characters (docs/mocap.md),
# drawn and loaded as the mocap scene's.
SHARED_SCENES = {("crowd", "mocap"), ("mocap", "crowd")}
SHELL_FILE = re.compile(r"_(shell|draw|panel|look)\.(cpp|h)$")

# Still to move behind the Scene interface: (file, scene word).
KNOWN = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_0-9]+)/([^"]+)"', re.M)
DEFINITION = re.compile(r"^(?:class|struct)\s+([A-Z][A-Za-z0-9_]*)\b[^;]*$", re.M)
ANY_TYPE = re.compile(r"\b(?:class|struct|enum class|enum)\s+([A-Z][A-Za-z0-9_]*)\b")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def sources(root):
    for folder, _, files in os.walk(os.path.join(root, "src")):
        for name in sorted(files):
            if name.endswith((".h", ".cpp")):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, os.path.join(root, "src")).replace(os.sep, "/")


def read(root, rel):
    with open(os.path.join(root, "src", rel), encoding="utf-8") as f:
        return f.read()


def layer_of(rel):
    parts = rel.split("/")
    if parts[0] == "scenes" and len(parts) > 2:
        return "scenes_shell" if SHELL_FILE.search(parts[-1]) else "scenes"
    return parts[0]


def scene_of(rel):
    parts = rel.split("/")
    return parts[1] if parts[0] == "scenes" and len(parts) > 2 else None


def scene_words(root):
    """{scene: set of class names its headers define}."""
    words = {}
    scenes_dir = os.path.join(root, "src", "scenes")
    for scene in sorted(os.listdir(scenes_dir)) if os.path.isdir(scenes_dir) else []:
        folder = os.path.join(scenes_dir, scene)
        if not os.path.isdir(folder):
            continue
        names = set()
        for name in os.listdir(folder):
            if name.endswith(".h"):
                text = COMMENT.sub("", read(root, "scenes/%s/%s" % (scene, name)))
                names.update(m.group(1) for m in DEFINITION.finditer(text))
        words[scene] = names
    # A type name another layer defines too (cmd::Playback beside the mocap scene's Playback)
    # is ambiguous as a word: not checked.
    elsewhere = set()
    for rel in sources(root):
        if not rel.startswith("scenes/"):
            elsewhere.update(m.group(1) for m in ANY_TYPE.finditer(COMMENT.sub("", read(root, rel))))
    return {scene: names - elsewhere for scene, names in words.items()}


def problems(root, known=frozenset()):
    """The rule breaks under root/src, as (file, word, message); those in `known` are left
    out, and a `known` entry that does not occur is one more problem."""
    found = []
    words = scene_words(root)
    for rel in sources(root):
        text = read(root, rel)
        layer = layer_of(rel)
        allowed = USES.get(layer)
        own = scene_of(rel)
        for m in INCLUDE.finditer(text):
            target = m.group(1)
            if allowed is None or target == rel.split("/")[0]:
                continue
            if target == "scenes" and layer in NO_SCENES:
                if not (layer == "core" and m.group(0).endswith(SCENE_LIST + '"')):
                    found.append((rel, m.group(2).split("/")[0],
                                  "%s includes %s/%s" % (rel, target, m.group(2))))
                continue
            if target not in allowed:
                found.append((rel, target, "%s (layer %s) includes %s/%s" %
                              (rel, layer, target, m.group(2))))
        if rel == SCENE_LIST or layer in NO_SCENE_WORDS:
            continue
        code = COMMENT.sub("", text)
        for scene, classes in words.items():
            if scene == own or (own, scene) in SHARED_SCENES:
                continue
            named = sorted(c for c in classes if re.search(r"\b%s\b" % re.escape(c), code))
            if scene != START_SCENE and re.search(r'"%s"' % re.escape(scene), code):
                named.append('"%s"' % scene)
            for word in named:
                found.append((rel, word, "%s names the %s scene's %s" % (rel, scene, word)))
    out = [p for p in found if (p[0], p[1]) not in known]
    occurring = {(p[0], p[1]) for p in found}
    out += [(f, w, "KNOWN lists %s naming %s, which no longer occurs: remove it" % (f, w))
            for f, w in sorted(known - occurring)]
    return out


def write(root, rel, text):
    path = os.path.join(root, "src", rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class CheckerChecksItself(unittest.TestCase):
    """The checker on fabricated trees: each rule catches its break."""

    def tree(self, files):
        root = tempfile.mkdtemp()
        base = {"scenes/registry.h": "X(tower)\n",
                "scenes/tower/tower_scene.h": "class TowerScene final : public Scene {\n};\n",
                "scenes/tower/tower_scene.cpp": '#include "core/frame.h"\nname() "tower"\n',
                "core/scene_registry.cpp": '#include "scenes/registry.h"\n'}
        base.update(files)
        for rel, text in base.items():
            write(root, rel, text)
        return root

    def test_clean_tree_passes(self):
        self.assertEqual(problems(self.tree({})), [])

    def test_upward_include_fails(self):
        found = problems(self.tree({"terrain/map.cpp": '#include "walker/walker.h"\n'}))
        self.assertEqual([(f, w) for f, w, _ in found], [("terrain/map.cpp", "walker")])

    def test_core_including_a_scene_fails(self):
        found = problems(self.tree({"core/orient.cpp": '#include "scenes/tower/tower_scene.h"\n'}))
        self.assertIn(("core/orient.cpp", "tower"), [(f, w) for f, w, _ in found])

    def test_lang_including_the_core_fails(self):
        found = problems(self.tree({"lang/command.cpp": '#include "core/frame.h"\n'}))
        self.assertEqual([(f, w) for f, w, _ in found], [("lang/command.cpp", "core")])

    def test_scene_class_outside_its_folder_fails(self):
        found = problems(self.tree({"core/orient.cpp": "As<TowerScene>();\n"}))
        self.assertEqual([(f, w) for f, w, _ in found], [("core/orient.cpp", "TowerScene")])

    def test_scene_name_outside_its_folder_fails(self):
        found = problems(self.tree({"app/options.cpp": 'if (scene == "tower") {}\n'}))
        self.assertEqual([(f, w) for f, w, _ in found], [("app/options.cpp", '"tower"')])

    def test_scene_name_in_a_lower_layer_passes(self):
        self.assertEqual(problems(self.tree({"terrain/map.cpp": 'key = "tower";\n'})), [])

    def test_comments_do_not_count(self):
        self.assertEqual(problems(self.tree({"core/a.cpp": "// TowerScene, \"tower\"\n"})), [])

    def test_known_entries_pass_and_stale_ones_fail(self):
        root = self.tree({"core/orient.cpp": "As<TowerScene>();\n"})
        self.assertEqual(problems(root, {("core/orient.cpp", "TowerScene")}), [])
        stale = problems(root, {("core/orient.cpp", "TowerScene"), ("core/x.cpp", "Y")})
        self.assertEqual([(f, w) for f, w, _ in stale], [("core/x.cpp", "Y")])


class Repository(unittest.TestCase):
    def test_layers_and_scenes(self):
        found = problems(SOURCE, KNOWN)
        self.assertEqual([m for _, _, m in found], [])


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
