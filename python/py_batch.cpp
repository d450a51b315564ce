// fabrik.solve_batch: N chains through SolveFabrikPacked with the GIL released.
//
// The joints are read straight from the caller's float32 buffer and written back into it
// (in place) or into a fresh copy; glm::vec3 is three packed floats, so an (N, n+1, 3)
// C-contiguous float32 array is N x (n+1) vec3s with no repacking.
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ik/batch_fabrik.h"
#include "ik/fabrik.h"
#include "py_api.h"
#include "py_convert.h"

namespace fabrik::py {

static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "vec3 must be three packed floats");

namespace {

// The test gate (py_api.h).
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  int count = 0;   // solves to wait for; 0: off
  int inside = 0;  // solves inside the GIL-released part now
  int max_inside = 0;
};
Gate& TheGate() {
  static Gate gate;
  return gate;
}

class GateVisit {
 public:
  GateVisit() {
    Gate& g = TheGate();
    std::unique_lock lock(g.mutex);
    ++g.inside;
    g.max_inside = std::max(g.max_inside, g.inside);
    g.changed.notify_all();
    if (g.count > 1) {
      // The minute is a safety net only: a test passes when the count is met, never by time.
      g.changed.wait_for(lock, std::chrono::minutes(1),
                         [&g] { return g.count <= 1 || g.max_inside >= g.count; });
    }
  }
  ~GateVisit() {
    Gate& g = TheGate();
    std::lock_guard lock(g.mutex);
    --g.inside;
  }
  GateVisit(const GateVisit&) = delete;
  GateVisit& operator=(const GateVisit&) = delete;
};

// "threads": None (all cores) or an int >= 1.
int ReadThreads(const pb::object& threads) {
  if (threads.is_none()) return 0;
  if (PyBool_Check(threads.ptr()) || !PyIndex_Check(threads.ptr())) {
    throw pb::value_error("threads must be None or an integer >= 1, got " +
                          std::string(pb::str(pb::type::handle_of(threads).attr("__name__"))));
  }
  const long long n = pb::int_(threads).cast<long long>();
  if (n < 1 || n > 4096) {
    throw pb::value_error("threads must be None or between 1 and 4096, got " + std::to_string(n));
  }
  return static_cast<int>(n);
}

// The float32 (N, n+1, 3) array to solve: the caller's own when it is C-contiguous, float32
// and writeable (solved in place), otherwise a converted copy. Refuses what cannot convert.
pb::array_t<float> BatchArray(const pb::object& joints) {
  if (pb::isinstance<pb::array>(joints)) {
    const auto a = pb::reinterpret_borrow<pb::array>(joints);
    const char kind = a.dtype().kind();
    if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
      throw pb::value_error("joints must hold real numbers, got dtype " +
                            std::string(pb::str(joints.attr("dtype"))));
    }
    if (a.dtype().is(pb::dtype::of<float>()) && (a.flags() & pb::array::c_style) && a.writeable()) {
      return pb::reinterpret_borrow<pb::array_t<float>>(joints);
    }
  }
  auto converted = pb::array_t<float, pb::array::c_style | pb::array::forcecast>::ensure(joints);
  if (!converted) {
    throw pb::value_error("joints must be an array of real numbers, got " +
                          std::string(pb::str(pb::type::handle_of(joints).attr("__name__"))));
  }
  if (converted.ptr() == joints.ptr() || !converted.writeable()) {
    // The caller's read-only array: solve a copy.
    pb::array_t<float> copy(
        std::vector<pb::ssize_t>(converted.shape(), converted.shape() + converted.ndim()));
    std::memcpy(copy.mutable_data(), converted.data(), sizeof(float) * converted.size());
    return copy;
  }
  return converted;
}

struct Work {
  std::size_t chains = 0;
  std::size_t joints = 0;
  float* poses = nullptr;  // chains x joints x 3
  std::vector<glm::vec3> targets;
  SolveSettings settings;
  int threads = 0;  // 0: all cores
  std::int32_t* iterations = nullptr;
  float* distance = nullptr;
  bool* reached = nullptr;
  bool* reachable = nullptr;
};

// The module's name for chain c is joints[c], after its argument.
std::string Renamed(std::string message) {
  if (message.rfind("chains[", 0) == 0) message.replace(0, 6, "joints");
  return message;
}

// Everything after the arguments were read; runs without the GIL. The chains are solved
// straight in the float32 buffer, the outcomes written straight into the result arrays
// (SolveFabrikPacked: nothing is written unless every chain was accepted). Returns an error
// message or nothing.
std::optional<std::string> Run(Work& w) {
  GateVisit gate;
  const PackedOutcomes out{{w.iterations, w.chains},
                           {w.distance, w.chains},
                           {w.reached, w.chains},
                           {w.reachable, w.chains}};
  const Result<BatchSolveResult> solved = SolveFabrikPacked(
      std::span<glm::vec3>(reinterpret_cast<glm::vec3*>(w.poses), w.chains * w.joints), w.joints,
      w.targets, w.settings, out, BatchThreads::kAll);
  if (!solved) return Renamed(solved.error());
  return std::nullopt;
}

}  // namespace

pb::dict SolveBatch(const pb::object& joints, const pb::object& targets,
                    const pb::object& tolerance, const pb::object& max_iterations,
                    const pb::object& accelerate, const pb::object& threads) {
  pb::array_t<float> poses = BatchArray(joints);
  if (poses.ndim() != 3 || poses.shape(2) != 3 || poses.shape(1) < 2 || poses.shape(0) < 1) {
    throw pb::value_error("joints must have shape (N, n+1, 3) with N >= 1 and n >= 1, got " +
                          ShapeText(poses));
  }
  Work w;
  w.chains = static_cast<std::size_t>(poses.shape(0));
  w.joints = static_cast<std::size_t>(poses.shape(1));
  const pb::array_t<double> target_array = RealArray(targets, "targets", 2);
  if (target_array.shape(0) != poses.shape(0) || target_array.shape(1) != 3) {
    throw pb::value_error("targets must have shape (" + std::to_string(w.chains) +
                          ", 3), one per chain, got " + ShapeText(target_array));
  }
  CheckSingleRange(target_array, "targets");
  w.settings = ReadSettings(tolerance, max_iterations, accelerate);
  w.threads = ReadThreads(threads);
  w.targets = Points(target_array);
  w.poses = poses.mutable_data();

  const auto n = static_cast<pb::ssize_t>(w.chains);
  pb::array_t<std::int32_t> iterations(n);
  pb::array_t<float> distance(n);
  pb::array_t<bool> reached(n);
  pb::array_t<bool> reachable(n);
  w.iterations = iterations.mutable_data();
  w.distance = distance.mutable_data();
  w.reached = reached.mutable_data();
  w.reachable = reachable.mutable_data();

  std::optional<std::string> error;
  {
    pb::gil_scoped_release release;
    if (w.threads == 0) {
      error = Run(w);
    } else {
      tbb::task_arena arena(w.threads);
      arena.execute([&] { error = Run(w); });
    }
  }
  if (error) throw pb::value_error(*error);
  pb::dict out;
  out["joints"] = poses;
  out["iterations"] = iterations;
  out["distance"] = distance;
  out["reached"] = reached;
  out["reachable"] = reachable;
  return out;
}

void SetSolveGate(int count) {
  Gate& g = TheGate();
  std::lock_guard lock(g.mutex);
  g.count = count;
  g.max_inside = g.inside;
  g.changed.notify_all();
}

pb::tuple SolveGateState() {
  Gate& g = TheGate();
  std::lock_guard lock(g.mutex);
  return pb::make_tuple(g.inside, g.max_inside);
}

}  // namespace fabrik::py
