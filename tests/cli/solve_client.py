"""What the fabrik-solve tests share: the executable (from the FABRIK_SOLVE environment
variable, which ctest sets), one run answering a batch of requests, and a distance."""
import json
import math
import os
import subprocess

SOLVE = os.environ.get("FABRIK_SOLVE", "build/bin/fabrik-solve")
TIMEOUT = 60  # seconds for one run; generous for the sanitizer build on a loaded machine


def solve(*requests):
    """Sends each request as one JSON line to one fabrik-solve run; returns its answers, one
    per request, after checking that it exited 0 and answered every line."""
    text = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([SOLVE], input=text, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    responses = [json.loads(l) for l in proc.stdout.splitlines()]
    assert len(responses) == len(requests), proc.stdout
    return responses


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
