"""Fatal start-up problems give a clear message and exit code 1, never a crash: a shader
that does not compile, a missing shader file, no OpenGL 3.3."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fabrik_app import DEMO, SOURCE_DIR, demo_env  # noqa: E402


def run(env_extra, args=("--frames", "3")):
    env = dict(demo_env(), **env_extra)
    p = subprocess.run([DEMO] + list(args), capture_output=True, text=True, timeout=60, env=env)
    return p.returncode, p.stderr


class Failures(unittest.TestCase):
    def data_dir_copy(self):
        d = tempfile.mkdtemp()
        shutil.copytree(os.path.join(SOURCE_DIR, "shaders"), os.path.join(d, "shaders"))
        shutil.copytree(os.path.join(SOURCE_DIR, "assets"), os.path.join(d, "assets"))
        return d

    def test_shader_that_does_not_compile(self):
        d = self.data_dir_copy()
        with open(os.path.join(d, "shaders", "line.frag"), "a") as f:
            f.write("\nthis is not GLSL;\n")
        code, err = run({"FABRIK_DATA_DIR": d})
        self.assertEqual(code, 1, err)
        self.assertIn("line.frag", err)
        self.assertIn("failed to compile", err)

    def test_missing_shader_file(self):
        d = self.data_dir_copy()
        os.remove(os.path.join(d, "shaders", "background.frag"))
        code, err = run({"FABRIK_DATA_DIR": d})
        self.assertEqual(code, 1, err)
        self.assertIn("background.frag", err)

    def test_no_opengl_3_3(self):
        # Mesa can be told to offer only OpenGL 2.1: the window cannot get a 3.3 context.
        code, err = run({"MESA_GL_VERSION_OVERRIDE": "2.1", "MESA_GLSL_VERSION_OVERRIDE": "120"})
        self.assertEqual(code, 1, err)
        self.assertIn("OpenGL 3.3", err)

    def test_runs_from_any_working_directory(self):
        d = tempfile.mkdtemp()
        p = subprocess.run([os.path.abspath(DEMO), "--frames", "2", "--spline",
                            "assets/splines/loop.txt"], capture_output=True, text=True,
                           timeout=60, cwd=d, env=demo_env())
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
