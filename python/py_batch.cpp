// fabrik.solve_batch: N chains through SolveFabrikPacked with the GIL released.
//
// The joints are read straight from the caller's float32 buffer and written back into it
// (in place) or into a fresh copy; glm::vec3 is three packed floats, so an (N, n+1, 3)
// C-contiguous float32 array is N x (n+1) vec3s with no repacking.
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ik/batch_fabrik.h"
#include "ik/chain_measure.h"
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

// "threads": None (all cores) or an int from 1 to kMaxThreads; any other int (2**63 too) is
// a ValueError naming the range.
constexpr long long kMaxThreads = 4096;
int ReadThreads(const pb::object& threads) {
  if (threads.is_none()) return 0;
  if (PyBool_Check(threads.ptr()) || !PyIndex_Check(threads.ptr())) {
    throw pb::value_error("threads must be None or an integer >= 1, got " +
                          std::string(pb::str(pb::type::handle_of(threads).attr("__name__"))));
  }
  const pb::object index = pb::reinterpret_steal<pb::object>(PyNumber_Index(threads.ptr()));
  if (!index) throw pb::error_already_set();
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0 || n < 1 || n > kMaxThreads) {
    throw pb::value_error("threads must be None or between 1 and " + IntText(kMaxThreads) +
                          ", got " + std::string(pb::str(index)));
  }
  return static_cast<int>(n);
}

// The memory of the arrays being solved in place right now, by any thread. Two calls writing
// one array at once would mix their chains' joints (a chain's segments change length), and a
// call reading an array another one is writing would read half-solved chains: an array that
// shares memory with one being solved in place is refused (docs/library.md).
struct InPlaceSolves {
  std::mutex mutex;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> spans;  // [begin, end) byte ranges
};
InPlaceSolves& TheInPlaceSolves() {
  static InPlaceSolves solves;
  return solves;
}

// The bytes an array's elements occupy, [begin, end) (any strides; empty for no elements).
std::pair<std::uintptr_t, std::uintptr_t> ByteSpan(const pb::array& a) {
  auto low = reinterpret_cast<std::uintptr_t>(a.data());
  std::uintptr_t high = low;
  if (a.size() == 0) return {low, low};
  for (pb::ssize_t d = 0; d < a.ndim(); ++d) {
    const pb::ssize_t reach = (a.shape(d) - 1) * a.strides(d);
    if (reach < 0)
      low -= static_cast<std::uintptr_t>(-reach);
    else
      high += static_cast<std::uintptr_t>(reach);
  }
  return {low, high + static_cast<std::uintptr_t>(a.itemsize())};
}

// Refuses `value` (an argument named `name`) when it is a NumPy array sharing memory with an
// array some call is solving in place.
void RefuseIfBeingSolved(const pb::object& value, const char* name) {
  if (!pb::isinstance<pb::array>(value)) return;
  const auto span = ByteSpan(pb::reinterpret_borrow<pb::array>(value));
  InPlaceSolves& solves = TheInPlaceSolves();
  std::lock_guard lock(solves.mutex);
  for (const auto& busy : solves.spans) {
    if (span.first < busy.second && busy.first < span.second) {
      throw pb::value_error(std::string(name) +
                            " shares memory with an array another solve_batch call is solving "
                            "in place (two threads on one array): refused, nothing written");
    }
  }
}

// Marks an array as being solved in place for the object's life.
class InPlaceMark {
 public:
  explicit InPlaceMark(const pb::array& a) : span_(ByteSpan(a)) {
    InPlaceSolves& solves = TheInPlaceSolves();
    std::lock_guard lock(solves.mutex);
    solves.spans.push_back(span_);
  }
  ~InPlaceMark() {
    InPlaceSolves& solves = TheInPlaceSolves();
    std::lock_guard lock(solves.mutex);
    const auto it = std::find(solves.spans.begin(), solves.spans.end(), span_);
    if (it != solves.spans.end()) solves.spans.erase(it);
  }
  InPlaceMark(const InPlaceMark&) = delete;
  InPlaceMark& operator=(const InPlaceMark&) = delete;

 private:
  std::pair<std::uintptr_t, std::uintptr_t> span_;
};

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

// The first chain Chain::FromJoints would refuse, as "joints[c]: why" (the lowest c), or
// nothing. Runs without the GIL, before anything is solved: the chains are then solved in
// blocks, and a refusal found by a later block would come after earlier blocks were written.
std::optional<std::string> FirstBadChain(const Work& w) {
  const auto* poses = reinterpret_cast<const glm::vec3*>(w.poses);
  std::vector<float> lengths(w.joints);
  for (std::size_t c = 0; c < w.chains; ++c) {
    const std::span<const glm::vec3> chain(poses + c * w.joints, w.joints);
    if (detail::PlainJoints(chain, w.joints)) continue;
    const Result<detail::JointMeasure> m = detail::MeasureJoints(chain, lengths.data(), 1);
    if (!m) return "joints[" + IntText(static_cast<long long>(c)) + "]: " + m.error();
  }
  return std::nullopt;
}

// Chains [first, first + count) solved by SolveFabrikPacked straight in the float32 buffer,
// the outcomes written straight into the result arrays; runs without the GIL. Returns an
// error message or nothing.
std::optional<std::string> SolveChains(Work& w, std::size_t first, std::size_t count) {
  const PackedOutcomes out{{w.iterations + first, count},
                           {w.distance + first, count},
                           {w.reached + first, count},
                           {w.reachable + first, count}};
  const Result<BatchSolveResult> solved = SolveFabrikPacked(
      std::span<glm::vec3>(reinterpret_cast<glm::vec3*>(w.poses) + first * w.joints,
                           count * w.joints),
      w.joints, std::span<const glm::vec3>(w.targets).subspan(first, count), w.settings, out,
      BatchThreads::kAll);
  if (!solved) return Renamed(solved.error());
  return std::nullopt;
}

// Joint-iterations one block of chains may cost before the GIL is taken back to look for
// Ctrl-C (a fraction of a second on two cores). Chains are independent (each lane of the SIMD
// solver is one chain), so the blocks change no result; a block of kBatchBlockLanes chains
// or more is a whole number of them, as the solver groups its lanes.
constexpr double kBlockWork = 1e8;
std::size_t ChainsPerBlock(const Work& w) {
  const double chain_work = static_cast<double>(w.joints) * w.settings.max_iterations;
  const double chains = std::max(1.0, std::min(std::floor(kBlockWork / chain_work), 1e12));
  const auto block = static_cast<std::size_t>(chains);
  return block < kBatchBlockLanes ? block : block - block % kBatchBlockLanes;
}

// Everything after the arguments were read: the chains checked, then solved block by block
// with the GIL released, Python's signal handlers run between blocks (Ctrl-C raises
// KeyboardInterrupt there; the chains solved so far keep their new pose). Returns an error
// message or nothing.
std::optional<std::string> Run(Work& w) {
  std::optional<tbb::task_arena> arena;
  if (w.threads > 0) arena.emplace(w.threads);
  const auto released = [&](auto&& work) {
    pb::gil_scoped_release release;
    if (arena) return arena->execute(work);
    return work();
  };
  std::optional<GateVisit> gate;
  std::optional<std::string> error = released([&] {
    gate.emplace();
    return FirstBadChain(w);
  });
  const std::size_t block = ChainsPerBlock(w);
  for (std::size_t first = 0; !error && first < w.chains; first += block) {
    const std::size_t count = std::min(block, w.chains - first);
    error = released([&] { return SolveChains(w, first, count); });
    if (PyErr_CheckSignals() != 0) throw pb::error_already_set();
  }
  return error;
}

}  // namespace

pb::dict SolveBatch(const pb::object& joints, const pb::object& targets,
                    const pb::object& tolerance, const pb::object& max_iterations,
                    const pb::object& accelerate, const pb::object& threads) {
  RefuseIfBeingSolved(joints, "joints");
  RefuseIfBeingSolved(targets, "targets");
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
    throw pb::value_error("targets must have shape (" + IntText(static_cast<long long>(w.chains)) +
                          ", 3), one per chain, got " + ShapeText(target_array));
  }
  CheckSingleRange(target_array, "targets");
  w.settings = ReadSettings(tolerance, max_iterations, accelerate);
  // The work bound per chain, as solve has it (docs/limits.md).
  w.settings.max_iterations = CappedIterations(w.joints, w.settings.max_iterations);
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

  // Solved in place (the caller's own array): marked, so that no other call writes or reads it
  // meanwhile.
  std::optional<InPlaceMark> mark;
  if (poses.ptr() == joints.ptr()) mark.emplace(poses);
  if (const std::optional<std::string> error = Run(w)) throw pb::value_error(*error);
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
