#!/usr/bin/env python3
"""The installed tree and the Debian package, as a user gets them (docs/library.md, "Install").

usage: test_install.py headers|examples|demo|deb BUILD_DIR

  headers   cmake --install into a temporary prefix; every installed header compiles on its
            own (a file holding only its #include <fabrik/ik/...>) with -Wall -Wextra -Werror
            and nothing on the include path but -I<prefix>/include; none includes another as
            "ik/..." or "fabrik/..." (they include their siblings by file name); pkg-config's
            flags for fabrik-ik and the CMake target fabrik::ik name only <prefix>/include.
  examples  the same install; examples/cpp built with CMake (find_package(fabrik)) and with
            pkg-config, and run; examples/python run against the installed module (the plot
            must be a PNG).
  demo      (under an X server: tests/app/xvfb_test.py) the installed fabrik-demo, started
            from another working directory, finds its shaders and assets in share/fabrik and
            draws frames; without share/fabrik it fails and says so.
  deb       cpack -G DEB in BUILD_DIR; the package's Depends are installed Debian packages and
            include the runtime libraries; dpkg -x into a scratch root, whose fabrik-solve
            answers a request, whose library builds examples/cpp (pkg-config) and whose
            Python module solves a chain.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYTHON = sys.executable


def run(args, **kw):
    print("$", " ".join(args), flush=True)
    return subprocess.run(args, check=True, text=True, **kw)


def project_version():
    """The version project(fabrik VERSION ...) in CMakeLists.txt states."""
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        found = re.search(r"project\(fabrik VERSION (\d+\.\d+\.\d+)", f.read())
    assert found, "no project(fabrik VERSION ...) in CMakeLists.txt"
    return found.group(1)


def install(build, prefix):
    run(["cmake", "--install", build, "--prefix", prefix], stdout=subprocess.DEVNULL)


def pkg_env(prefix):
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
    return env


def python_dir(prefix):
    return os.path.join(prefix, "lib", "python3", "dist-packages")


def check_headers(build, work):
    prefix = os.path.join(work, "prefix")
    install(build, prefix)
    flags = run(["pkg-config", "--cflags", "fabrik-ik"], env=pkg_env(prefix),
                capture_output=True).stdout.split()
    root = os.path.join(prefix, "include")
    own = [f for f in flags if f.startswith("-I") and f[2:].startswith(prefix)]
    assert [os.path.normpath(f[2:]) for f in own] == [root], flags
    with open(os.path.join(prefix, "lib", "cmake", "fabrik", "fabrikTargets.cmake")) as f:
        targets = f.read()
    assert 'INTERFACE_INCLUDE_DIRECTORIES "${_IMPORT_PREFIX}/include"' in targets, targets
    headers = sorted(os.path.relpath(os.path.join(d, f), root)
                     for d, _, files in os.walk(root) for f in files if f.endswith(".h"))
    assert "fabrik/ik/fabrik.h" in headers and "fabrik/ik/batch_fabrik.h" in headers, headers
    assert "fabrik/ik/version.h" in headers
    # They reach each other by file name (found next to the including header), never through
    # a folder that only an extra -I<prefix>/include/fabrik would make visible.
    for header in headers:
        with open(os.path.join(root, header)) as f:
            text = f.read()
        nested = re.findall(r'#include\s*[<"](?:ik|fabrik)/[^>"]*', text)
        assert not nested, (header, nested)
        # The public surface is only public: no SIMD or threading library in it, and none of
        # the solvers' internal helpers.
        foreign = re.findall(r'#include\s*<(?:hwy|tbb|oneapi)/[^>]*>', text)
        assert not foreign, (header, foreign)
        internal = re.findall(r'\b(?:SafeNormalize|AnyPerpendicular|detail::)', text)
        assert not internal, (header, internal)
    failed = []
    for header in headers:
        unit = os.path.join(work, "unit.cpp")
        with open(unit, "w") as f:
            f.write(f"#include <{header}>\n")
        # Only -I<prefix>/include: GLM is in the system's include path.
        done = subprocess.run(["c++", "-std=c++20", "-Wall", "-Wextra", "-Werror",
                               "-fsyntax-only", f"-I{root}", unit], capture_output=True,
                              text=True)
        if done.returncode != 0:
            failed.append(f"{header}:\n{done.stderr}")
    print(f"{len(headers)} headers, {len(failed)} failed")
    assert not failed, "\n".join(failed)


def check_examples(build, work):
    prefix = os.path.join(work, "prefix")
    install(build, prefix)
    example = os.path.join(SOURCE, "examples", "cpp")
    # CMake: find_package(fabrik) against the installed tree only.
    cmake_build = os.path.join(work, "cmake-build")
    run(["cmake", "-S", example, "-B", cmake_build, "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_PREFIX_PATH={prefix}"], stdout=subprocess.DEVNULL)
    run(["cmake", "--build", cmake_build], stdout=subprocess.DEVNULL)
    out = run([os.path.join(cmake_build, "fabrik_example")], capture_output=True).stdout
    print(out)
    version = run(["pkg-config", "--modversion", "fabrik-ik"], env=pkg_env(prefix),
                  capture_output=True).stdout.strip()
    assert out.splitlines()[0] == f"fabrik {version}", (out, version)
    assert version == project_version(), (version, project_version())
    # pkg-config.
    flags = run(["pkg-config", "--cflags", "--libs", "fabrik-ik"], env=pkg_env(prefix),
                capture_output=True).stdout.split()
    program = os.path.join(work, "fabrik_example_pc")
    run(["c++", "-std=c++20", "-O2", "-Wall", "-Wextra", "-Werror",
         os.path.join(example, "main.cpp"), *flags, "-o", program])
    assert run([program], capture_output=True).stdout == out
    # Python, when the module was built.
    if not os.path.isdir(python_dir(prefix)):
        print("no Python module installed: the Python examples are skipped")
        return
    env = dict(os.environ, PYTHONPATH=python_dir(prefix), MPLCONFIGDIR=work)
    examples = os.path.join(SOURCE, "examples", "python")
    for name in ("solve_one.py", "solve_many.py"):
        print(run([PYTHON, os.path.join(examples, name)], env=env, cwd=work,
                  capture_output=True).stdout)
    png = os.path.join(work, "iterations.png")
    run([PYTHON, os.path.join(examples, "plot_iterations.py"), png], env=env, cwd=work)
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def check_demo(build, work):
    prefix = os.path.join(work, "prefix")
    install(build, prefix)
    demo = os.path.join(prefix, "bin", "fabrik-demo")
    env = {k: v for k, v in os.environ.items() if k != "FABRIK_DATA_DIR"}
    elsewhere = os.path.join(work, "elsewhere")
    os.makedirs(elsewhere)
    shot = os.path.join(work, "shot.png")
    run([demo, "--frames", "3", "--no-settings", "--screenshot", shot], cwd=elsewhere, env=env)
    assert os.path.getsize(shot) > 0
    # Without its data the installed demo does not fall back on the source tree.
    shutil.rmtree(os.path.join(prefix, "share", "fabrik"))
    done = subprocess.run([demo, "--frames", "1", "--no-settings"], cwd=elsewhere, env=env,
                          capture_output=True, text=True)
    print(done.stderr)
    assert done.returncode != 0 and "shaders" in done.stderr, done


def check_deb(build, work):
    for name in list(os.listdir(build)):
        if name.endswith(".deb"):
            os.remove(os.path.join(build, name))
    run(["cpack", "-G", "DEB", "-B", os.path.join(work, "packages")], cwd=build,
        stdout=subprocess.DEVNULL)
    debs = [os.path.join(work, "packages", n) for n in os.listdir(os.path.join(work, "packages"))
            if n.endswith(".deb")]
    assert len(debs) == 1, debs
    deb = debs[0]
    version = run(["dpkg-deb", "-f", deb, "Version"], capture_output=True).stdout.strip()
    assert version == project_version(), (version, project_version())
    assert os.path.basename(deb) == f"fabrik_{version}_amd64.deb", deb
    depends = run(["dpkg-deb", "-f", deb, "Depends"], capture_output=True).stdout.strip()
    print("Depends:", depends)
    names = [alt.split()[0] for part in depends.split(",") for alt in part.split("|")[:1]]
    for needed in ("libtbb12", "libhwy1", "libstdc++6", "libglfw3", "python3-numpy"):
        assert needed in names, (needed, names)
    for name in names:  # each a real Debian package (installed here, where it was built)
        state = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name],
                               capture_output=True, text=True).stdout
        assert "install ok installed" in state, (name, state)
    root = os.path.join(work, "root")
    run(["dpkg", "-x", deb, root])
    solve = os.path.join(root, "usr", "bin", "fabrik-solve")
    request = {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0]], "target": [1, 1, 0],
               "tolerance": 0.001, "max_iterations": 20, "accelerate": True}
    answer = json.loads(run([solve], input=json.dumps(request) + "\n",
                            capture_output=True).stdout)
    print(answer)
    assert answer["ok"] and answer["reached"]
    for path in ("usr/bin/fabrik-demo", "usr/share/fabrik/shaders/mesh.vert",
                 "usr/include/fabrik/ik/fabrik.h", "usr/lib/cmake/fabrik/fabrikConfig.cmake",
                 "usr/lib/pkgconfig/fabrik-ik.pc", "usr/lib/libfabrik-ik.a"):
        assert os.path.exists(os.path.join(root, path)), path
    # The packaged static library kept its symbols (the package strips programs only).
    usr = os.path.join(root, "usr")
    flags = run(["pkg-config", "--cflags", "--libs", "fabrik-ik"],
                env=pkg_env(usr), capture_output=True).stdout.split()
    program = os.path.join(work, "example_from_deb")
    run(["c++", "-std=c++20", "-O1", os.path.join(SOURCE, "examples", "cpp", "main.cpp"),
         *flags, "-o", program])
    print(run([program], capture_output=True).stdout)
    module_dir = os.path.join(root, "usr", "lib", "python3", "dist-packages")
    if os.path.isdir(module_dir):
        code = ("import fabrik; j, i = fabrik.solve([[0,0,0],[0,1,0],[0,2,0]], [1,1,0]); "
                f"assert i['reached']; assert fabrik.__version__ == '{version}', "
                "fabrik.__version__; print('python', fabrik.__version__, i)")
        print(run([PYTHON, "-c", code], env=dict(os.environ, PYTHONPATH=module_dir),
                  capture_output=True, cwd=work).stdout)


def main():
    mode, build = sys.argv[1], os.path.abspath(sys.argv[2])
    checks = {"headers": check_headers, "examples": check_examples, "demo": check_demo,
              "deb": check_deb}
    with tempfile.TemporaryDirectory(prefix=f"fabrik-{mode}-") as work:
        checks[mode](build, work)
    print(f"{mode}: ok")


if __name__ == "__main__":
    main()
