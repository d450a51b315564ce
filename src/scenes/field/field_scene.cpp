#include "scenes/field/field_scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"
#include "core/startup.h"
#include "lang/command.h"

namespace fabrik {
namespace {

const glm::vec3 kUp(0.0f, 1.0f, 0.0f);

// A fixed integer hash (Wang's) mapped to [0, 1): the per-chain height variation, the same on
// every run and every machine.
float Hash01(std::uint32_t x) {
  x = (x ^ 61u) ^ (x >> 16);
  x *= 9u;
  x ^= x >> 4;
  x *= 0x27d4eb2du;
  x ^= x >> 15;
  return static_cast<float>(x >> 8) / 16777216.0f;
}

}  // namespace

glm::vec3 FieldTarget(const glm::vec3& root, float reach, const glm::vec3& target) {
  const glm::vec3 d = target - root;
  const float dist = glm::length(d);
  const float lean = kFieldLean * reach;
  // Within the lean radius the chain reaches for the target itself: a bouquet of tips meets
  // there.
  if (!(dist > lean)) return target;
  // Beyond it: lean out to `lean` along a direction between up and the target, weighted
  // sqrt(lean / dist) towards the target. At dist == lean the weight is 1, so the chain's
  // target is the shared one and the rule is continuous; far chains stand nearly upright.
  const float w = std::sqrt(lean / dist);
  const glm::vec3 dir = (1.0f - w) * kUp + w * (d / dist);
  const float l = glm::length(dir);
  // Target straight below a chain with w = 1/2: up and down cancel; stand upright.
  if (!(l > 1e-6f)) return root + kUp * lean;
  return root + dir * (lean / l);
}

bool FieldScene::Enter(AppState& state) {
  const FieldConfig& config = state.scene.configs.Get<FieldConfig>();
  if (config.chains < kFieldMinChains || config.chains > kFieldMaxChains) {
    SetMessage(state,
               "field: chains must be from " + std::to_string(kFieldMinChains) + " to " +
                   std::to_string(kFieldMaxChains) + ", not " + std::to_string(config.chains),
               true);
    return false;
  }
  if (config.joints < 2 || config.joints > kMaxJoints) {
    SetMessage(state, "field: joints per chain must be from 2 to " + std::to_string(kMaxJoints),
               true);
    return false;
  }
  if (static_cast<long>(config.chains) * config.joints > kFieldMaxTotalJoints) {
    SetMessage(state,
               "field: " + std::to_string(config.chains) + " chains x " +
                   std::to_string(config.joints) + " joints is more than " +
                   std::to_string(kFieldMaxTotalJoints) + " joints",
               true);
    return false;
  }
  const std::size_t n = static_cast<std::size_t>(config.chains);
  const std::size_t segments = static_cast<std::size_t>(config.joints) - 1;
  columns_ = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  rows_ = static_cast<int>((n + static_cast<std::size_t>(columns_) - 1) / columns_);
  std::vector<Chain> chains;
  chains.reserve(n);
  roots_.resize(n);
  reach_.resize(n);
  std::vector<float> lengths(segments);
  for (std::size_t c = 0; c < n; ++c) {
    const int col = static_cast<int>(c % static_cast<std::size_t>(columns_));
    const int row = static_cast<int>(c / static_cast<std::size_t>(columns_));
    roots_[c] = glm::vec3((col - 0.5f * (columns_ - 1)) * kFieldSpacing, 0.0f,
                          (row - 0.5f * (rows_ - 1)) * kFieldSpacing);
    const float reach = kFieldReach * (0.85f + 0.3f * Hash01(static_cast<std::uint32_t>(c)));
    std::fill(lengths.begin(), lengths.end(), reach / static_cast<float>(segments));
    auto chain = Chain::Straight(roots_[c], kUp, lengths);
    if (!chain) {
      SetMessage(state, "field: " + chain.error(), true);
      return false;
    }
    chains.push_back(std::move(chain).value());
    reach_[c] = chains.back().total_length();
  }
  auto batch = ChainBatch::FromChains(chains);
  if (!batch) {
    SetMessage(state, "field: " + batch.error(), true);
    return false;
  }
  batch_.emplace(std::move(batch).value());
  targets_.assign(n, glm::vec3(0.0f));
  poses_.resize(n * static_cast<std::size_t>(config.joints));
  batch_->CopyAllPoses(poses_);
  centre_ = NearestChain(0.0f, 0.0f);
  lead_ = centre_;
  last_ = {};
  PlaceTarget(state, glm::vec3(1.0f, kFieldReach * 0.55f, 0.5f));
  return true;
}

std::size_t FieldScene::NearestChain(float x, float z) const {
  auto cell = [](float v, int count) {
    const float i = std::round(v / kFieldSpacing + 0.5f * (count - 1));
    return std::isfinite(i) ? static_cast<int>(std::clamp(i, 0.0f, count - 1.0f)) : 0;
  };
  const std::size_t n = roots_.size();
  if (n == 0) return 0;
  const int col = cell(x, columns_);
  int row = cell(z, rows_);
  // The last row may be short: step up to a row that has this column.
  while (row > 0 && static_cast<std::size_t>(row) * columns_ + col >= n) --row;
  return std::min(n - 1, static_cast<std::size_t>(row) * columns_ + col);
}

OrbitCamera::Home FieldScene::CameraHome(const AppState&) const {
  OrbitCamera::Home home;
  const float width = std::max(columns_, rows_) * kFieldSpacing;
  home.pivot = glm::vec3(0.0f, kFieldReach * 0.3f, 0.0f);
  home.yaw = 0.5f;
  home.pitch = 0.55f;
  // Fit the field's diagonal in the 45-degree view, with a little margin.
  home.distance = std::clamp(width * 1.35f + kFieldReach * 3.0f, 4.0f, OrbitCamera::kMaxDistance);
  return home;
}

void FieldScene::Solve(AppState& state) {
  if (!batch_) return;
  const auto start = std::chrono::steady_clock::now();
  const glm::vec3 target = state.target();
  for (std::size_t c = 0; c < roots_.size(); ++c) {
    targets_[c] = FieldTarget(roots_[c], reach_[c], target);
  }
  const BatchSolveResult r = SolveFabrikBatch(*batch_, targets_, state.settings);
  RecordSolveTime(state, start);
  if (!r.ok) {
    SetMessage(state, std::string("solve rejected: ") + r.error, true);
    return;
  }
  last_ = r;
  batch_->CopyAllPoses(poses_);
  // The lead chain stands for the field in the chain fields of the state line.
  lead_ = NearestChain(target.x, target.z);
  const std::size_t j = batch_->joint_count();
  const glm::vec3 tip = poses_[lead_ * j + j - 1];
  state.last = {};
  state.last.iterations = r.max_iterations_run;
  state.last.distance = glm::length(tip - target);
  state.last.reached = state.last.distance <= state.settings.tolerance;
  state.last.reachable = glm::length(target - roots_[lead_]) <= reach_[lead_];
}

std::span<const glm::vec3> FieldScene::Pose(const AppState& state) const {
  if (!batch_) return state.chain.joints();
  const std::size_t j = batch_->joint_count();
  return std::span<const glm::vec3>(poses_).subspan(lead_ * j, j);
}

void FieldScene::Handles(const AppState& state, std::vector<Handle>& out) const {
  out.push_back({state.target(), {Grab::Kind::kTarget, -1}});
}

double FieldScene::reached_share() const {
  if (last_.reachable_count == 0) return 1.0;
  return static_cast<double>(last_.reached_reachable_count) /
         static_cast<double>(last_.reachable_count);
}

void FieldScene::WriteState(nlohmann::json& j) const {
  j["chains"] = chain_count();
  j["field_joints"] = joint_count();
  j["reached_share"] = state_json::Num(reached_share());
  j["lead_chain"] = lead_;
  j["lane_utilisation"] = state_json::Num(last_.lane_utilisation);
  j["batch_us"] = state_json::Num(last_.seconds * 1e6);
  nlohmann::json samples = nlohmann::json::array();
  const std::size_t jc = joint_count();
  for (int k = 0; k < 2 && batch_; ++k) {
    const std::size_t c = sample(k);
    nlohmann::json joints = nlohmann::json::array();
    for (std::size_t i = 0; i < jc; ++i) joints.push_back(state_json::Vec(poses_[c * jc + i]));
    samples.push_back({{"chain", c}, {"joints", std::move(joints)}});
  }
  j["samples"] = std::move(samples);
}

// Its registry line (scenes/registry.h).
namespace {
// Its option (docs/options.md); the field's chains take --joints as the chain does.
constexpr SceneOption kFieldOptionRows[] = {
    {"--chains", "chains in the field scene (1..100000, default 10000)", SceneOptionKind::kWhole,
     kFieldMinChains, kFieldMaxChains}};

// The field's shape from --chains and --joints (or --lengths' count), each when given.
void StartField(AppState& state, const StartOptions& options) {
  FieldConfig& config = state.scene.configs.Get<FieldConfig>();
  config.chains = static_cast<int>(options.scene_options.Number("--chains", config.chains));
  config.joints = FieldJointsGiven(options.given, options.joints, config.joints);
}
}  // namespace

SceneEntry FieldSceneEntry() {
  return {.make = MakeSceneOf<FieldScene>,
          .commands = FieldCommandEntries,
          .options = kFieldOptionRows,
          .start = StartField};
}

}  // namespace fabrik
