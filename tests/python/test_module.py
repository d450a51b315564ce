"""fabrik.solve and fabrik.solve_request give what fabrik-solve gives on the same requests;
solve_batch gives what solve gives, chain for chain."""
import os
import re

import numpy as np
import pytest

import fabrik
from fabrik_test_util import random_chain, random_target, run_fabrik_solve, straight_batch


def test_version_is_semantic():
    parts = fabrik.__version__.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts)


def test_version_agrees_everywhere():
    """CMake's project version, the generated C++ header, fabrik.__version__ and
    docs/library.md state one version (the .deb's is checked by package.deb)."""
    source = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(source, "CMakeLists.txt")) as f:
        version = re.search(r"project\(fabrik VERSION (\d+\.\d+\.\d+)", f.read()).group(1)
    assert fabrik.__version__ == version
    major, minor, patch = version.split(".")
    build = os.path.dirname(os.path.dirname(os.path.abspath(fabrik.__file__)))
    with open(os.path.join(build, "generated", "ik", "version.h")) as f:
        header = f.read()
    assert f'#define FABRIK_VERSION_STRING "{version}"' in header
    for name, value in (("MAJOR", major), ("MINOR", minor), ("PATCH", patch)):
        assert f"#define FABRIK_VERSION_{name} {value}\n" in header, name
    with open(os.path.join(source, "docs", "library.md")) as f:
        docs = f.read()
    assert f"currently {version}." in docs
    assert f"fabrik_{version}_amd64.deb" in docs
    stated = set(re.findall(r"fabrik_(\d+\.\d+\.\d+)_amd64\.deb", docs))
    assert stated == {version}, stated


def test_solve_reads_float32_as_float64():
    """A float32 chain (read without conversion) solves exactly as the same values in float64,
    C-contiguous or not."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        joints = random_chain(rng, 6).astype(np.float32)
        target = random_target(rng, 1.0).astype(np.float32)
        want, want_info = fabrik.solve(joints.astype(np.float64), target.astype(np.float64))
        for chain in (joints, np.asfortranarray(joints)):
            got, info = fabrik.solve(chain, target)
            np.testing.assert_array_equal(got, want)
            assert info == want_info


def test_defaults_are_fabrik_solves():
    """With nothing said, solve and solve_batch run what fabrik-solve runs for a request
    without "accelerate" (the library's one default: the textbook FABRIK), and differ from
    the accelerated FABRIK on targets near the rim, where the two take different steps."""
    rng = np.random.default_rng(11)
    requests = []
    for i in range(40):
        joints = random_chain(rng, 8)
        reach = float(np.sum(np.linalg.norm(np.diff(joints, axis=0), axis=1)))
        direction = rng.normal(size=3)
        target = joints[0] + direction / np.linalg.norm(direction) * reach * 0.98
        # fabrik-solve needs these two; they are the module's defaults too.
        requests.append({"joints": joints.tolist(), "target": target.tolist(), "id": i,
                         "tolerance": 0.01, "max_iterations": 10})
    answers = run_fabrik_solve(requests)
    differs = 0
    for request, answer in zip(requests, answers):
        assert answer["ok"], answer
        chain = np.array(request["joints"])
        joints, info = fabrik.solve(chain, request["target"])
        np.testing.assert_array_equal(joints, np.array(answer["joints"], np.float32))
        assert info["iterations"] == answer["iterations"]
        batch = chain[None].astype(np.float32)
        out = fabrik.solve_batch(batch, np.array([request["target"]], np.float32))
        np.testing.assert_array_equal(out["joints"][0], joints)
        accelerated, _ = fabrik.solve(chain, request["target"], accelerate=True)
        differs += not np.array_equal(accelerated, joints)
    assert differs > 0


CASES = [(solver, accelerate) for solver in fabrik.SOLVERS for accelerate in (False, True)
         if solver == "fabrik" or not accelerate]


@pytest.mark.parametrize("solver,accelerate", CASES)
def test_solve_equals_fabrik_solve(solver, accelerate):
    rng = np.random.default_rng(7)
    requests = []
    for i in range(60):
        joints = random_chain(rng, int(rng.integers(1, 12)))
        target = random_target(rng, 1.2)  # some beyond the reach of 0.9
        requests.append({"joints": joints.tolist(), "target": target.tolist(),
                         "tolerance": 1e-3, "max_iterations": 100, "solver": solver,
                         "accelerate": accelerate, "id": i})
    answers = run_fabrik_solve(requests)
    worked = 0
    for request, answer in zip(requests, answers):
        assert answer["ok"], answer
        joints, info = fabrik.solve(np.array(request["joints"]), request["target"],
                                    tolerance=1e-3, max_iterations=100, accelerate=accelerate,
                                    solver=solver)
        assert joints.dtype == np.float32 and joints.shape == (len(request["joints"]), 3)
        np.testing.assert_array_equal(joints, np.array(answer["joints"], np.float32))
        assert info["iterations"] == answer["iterations"]
        assert info["reached"] == answer["reached"]
        assert info["reachable"] == answer["reachable"]
        assert info["distance"] == pytest.approx(answer["distance"], rel=1e-5, abs=1e-7)
        worked += info["iterations"] >= 2
    assert worked > 20  # most cases make the solver work


EXTENDED = [
    {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0]], "target": [1.5, 1.5, 0.5],
     "tolerance": 0.01, "max_iterations": 50,
     "constraints": [{"joint": 1, "type": "ball", "angle": 0.6},
                     {"joint": 2, "type": "hinge", "axis": [1, 0, 0], "min": -1.0, "max": 1.0}],
     "pole": [0, 2, 3]},
    {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0]], "target": [0.5, 1.0, 0.2],
     "tolerance": 0.01, "max_iterations": 20, "base": {"forward": [0, 1, 0], "up": [0, 0, -1]},
     "constraints": [{"joint": 0, "type": "ball", "up": 0.5, "down": 0.3, "left": 0.4,
                      "right": 0.2}]},
    {"nodes": [{"parent": -1, "position": [0, 0, 0]}, {"parent": 0, "position": [0, 1, 0]},
               {"parent": 1, "position": [-0.5, 1.8, 0]}, {"parent": 1, "position": [0.5, 1.8, 0]},
               {"parent": 3, "position": [0.9, 2.6, 0],
                "constraint": {"type": "ball", "angle": 0.6}}],
     "targets": {"2": [-1, 1.5, 0.5], "4": [1, 2, 0.5]}, "weights": {"4": 2.0},
     "tolerance": 0.01, "max_iterations": 50},
    {"joints": [[0, 0, 0], [0, 1, 0], [0, 2, 0]], "target": [4, 1, 0], "tolerance": 0.01,
     "max_iterations": 10, "free_root": True},
    {"joints": [[1e6, 0, 0], [1e6, 1, 0], [1e6, 2, 0]], "target": [1e6 + 1, 1, 0],
     "tolerance": 0.001, "max_iterations": 10, "solver": "dls"},
]


@pytest.mark.parametrize("index", range(len(EXTENDED)))
def test_solve_request_equals_fabrik_solve(index):
    request = EXTENDED[index]
    [expected] = run_fabrik_solve([request])
    got = fabrik.solve_request(request)
    assert expected["ok"], expected
    for answer in (expected, got):
        answer.pop("solve_us", None)
    assert got == expected
    # A JSON string is the same request.
    import json
    again = fabrik.solve_request(json.dumps(request))
    again.pop("solve_us", None)
    assert again == expected


def test_solve_request_error_is_fabrik_solves():
    request = {"joints": [[0, 0, 0], [0, 1, 0], [0, 1, 0]], "target": [1, 1, 0],
               "tolerance": 0.01, "max_iterations": 10}
    [expected] = run_fabrik_solve([request])
    assert not expected["ok"]
    with pytest.raises(ValueError) as caught:
        fabrik.solve_request(request)
    assert str(caught.value) == expected["error"]


# The batched solver gives every chain what a single solve gives it, textbook or accelerated.
@pytest.mark.parametrize("accelerate", [False, True])
def test_solve_batch_equals_solve_chain_for_chain(accelerate):
    rng = np.random.default_rng(11)
    chains, joints = 300, 8
    batch = straight_batch(chains, joints)
    targets = batch[:, 0, :] + np.array([random_target(rng, 8.0) for _ in range(chains)])
    start = batch.copy()
    out = fabrik.solve_batch(batch, targets, tolerance=1e-3, max_iterations=40,
                             accelerate=accelerate)
    for c in range(chains):
        one, info = fabrik.solve(start[c], targets[c], tolerance=1e-3, max_iterations=40,
                                 accelerate=accelerate)
        assert out["iterations"][c] == info["iterations"], c
        assert out["reached"][c] == info["reached"], c
        assert out["reachable"][c] == info["reachable"], c
        np.testing.assert_allclose(batch[c], one, rtol=0, atol=1e-5)
        assert out["distance"][c] == pytest.approx(info["distance"], rel=1e-4, abs=1e-6)
    assert out["reached"].sum() > chains // 2
