// libFuzzer target: the demo's command line (docs/options.md). The input is split at
// NUL bytes into arguments after the program name. Checks: no crash; an accepted command line
// gives options inside every documented range; a refused one exits 2 with one printable line
// that names an option or argument.
//
// The file checks of --screenshot and --state-out look at real paths, so the fuzzer runs in
// an empty scratch folder and skips inputs with absolute paths or "..".
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app/options.h"
#include "ik/solver.h"

namespace {

// At most this many joints in all when the "field" scene starts (this fuzzer's own rule,
// standing for a scene's check of the options).
constexpr long kFieldJoints = 2000000;

std::string CheckField(const fabrik::Options& o) {
  const double chains = o.scene_options.Number("--chains", 10000);
  bool joints_given = false;
  for (const std::string& name : o.given) joints_given |= name == "--joints" || name == "--lengths";
  return chains * (joints_given ? o.joints : 10) > kFieldJoints ? "--chains: too many" : "";
}

// The scenes --scene accepts here (the app passes its registry's): ones with options of their
// own, some started by an option when --scene is not given, one with a check of its own.
using Kind = fabrik::SceneOptionKind;
constexpr fabrik::SceneOption kFieldOptions[] = {
    {"--chains", "chains", Kind::kWhole, 1, 100000}};
constexpr fabrik::SceneOption kMocapOptions[] = {
    {"--bvh", "clip", Kind::kInput, 0, 0, true},
    {"--bvh-scale", "scale", Kind::kDecimal, 1e-6f, 1e3f},
    {"--character", "model", Kind::kInput, 0, 0, true},
    {"--characters", "crowd", Kind::kWhole, 1, 5000}};
constexpr fabrik::SceneOption kMarkersOptions[] = {{"--markers", "take", Kind::kInput, 0, 0, true}};
constexpr fabrik::SceneOption kWalkerOptions[] = {
    {"--walker-model", "model", Kind::kInput, 0, 0, true}};
const fabrik::OptionScene kScenes[] = {{"chain"},
                                       {"arm"},
                                       {"creature"},
                                       {"field", kFieldOptions, CheckField},
                                       {"walker", kWalkerOptions},
                                       {"mocap", kMocapOptions},
                                       {"markers", kMarkersOptions}};

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_options: broken promise: %s\n", what);
    std::abort();
  }
}

bool Printable(const std::string& s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

void CheckAccepted(const fabrik::Options& o) {
  Check(o.joints >= 2 && o.joints <= 10000, "joints out of range");
  Check(o.lengths.empty() || o.lengths.size() + 1 == static_cast<std::size_t>(o.joints),
        "lengths disagree with joints");
  for (float l : o.lengths) {
    Check(std::isfinite(l) && l >= fabrik::kMinLength && l <= fabrik::kMaxLength,
          "a --lengths item out of range");
  }
  Check(std::isfinite(o.length) && o.length >= fabrik::kMinLength && o.length <= fabrik::kMaxLength,
        "length out of range");
  Check(fabrik::kMoeRange.Contains(o.moe), "moe out of range");
  Check(o.max_iterations >= 1 && o.max_iterations <= 100000, "max_iterations out of range");
  Check(o.width >= 200 && o.width <= 4096 && o.height >= 150 && o.height <= 4096,
        "size out of range");
  Check(o.fixed_dt == 0.0 || (o.fixed_dt >= 1e-6 && o.fixed_dt <= 1.0), "fixed_dt out of range");
  Check(o.frames >= 0 && o.frames <= 1000000000L, "frames out of range");
  Check(o.msaa == 0 || o.msaa == 2 || o.msaa == 4 || o.msaa == 8, "msaa not 0, 2, 4 or 8");
  bool known_scene = false;
  for (const fabrik::OptionScene& s : kScenes) known_scene = known_scene || o.scene == s.name;
  Check(known_scene, "unknown scene");
  Check(o.scene != "field" || CheckField(o).empty(), "a field larger than its check allows");
  Check(fabrik::ParseSolverKind(o.solver).has_value(), "unknown solver");
  for (const std::string& line : o.exec) Check(Printable(line), "--exec with a control character");
  Check(Printable(o.spline_path) && Printable(o.script_path) && Printable(o.screenshot_path) &&
            Printable(o.state_out_path),
        "a path with a control character");
  for (const fabrik::SceneOptionValue& v : o.scene_options.all()) {
    Check(Printable(v.text), "a scene's path with a control character");
    Check(v.name != "--chains" || (v.number >= 1 && v.number <= 100000), "chains out of range");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char scratch[] = "/tmp/fuzz_options.XXXXXX";
  if (::mkdtemp(scratch) == nullptr || ::chdir(scratch) != 0) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args{"fabrik-demo"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  if (size > 0) args.push_back(current);
  for (const std::string& a : args) {
    if (a.find("..") != std::string::npos || a.find('/') != std::string::npos) return 0;
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const fabrik::ParsedOptions parsed =
      fabrik::ParseOptions(static_cast<int>(args.size()), argv.data(), kScenes);
  if (!parsed.exit_code) {
    CheckAccepted(parsed.options);
  } else if (*parsed.exit_code == 2) {
    Check(!parsed.error.empty(), "exit 2 without a message");
    Check(Printable(parsed.error), "message with a control character (not one line)");
  } else {
    Check(*parsed.exit_code == 0, "exit code neither 0 nor 2");
  }
  return 0;
}
