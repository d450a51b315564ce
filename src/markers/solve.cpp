// solve.cpp - the per-frame marker solve (solve.h).
#include "markers/solve.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtx/quaternion.hpp>

namespace fabrik::markers {

namespace {

// A direction to lay each bone along when the tree is first built (any will do: the pose is
// replaced every frame).
glm::vec3 BuildDirection(int node) {
  switch (node) {
    case kShoulderL:
    case kElbowL:
    case kWristL:
    case kHandEndL:
    case kHipL:
      return {1, 0, 0};
    case kShoulderR:
    case kElbowR:
    case kWristR:
    case kHandEndR:
    case kHipR:
      return {-1, 0, 0};
    case kKneeL:
    case kAnkleL:
    case kKneeR:
    case kAnkleR:
      return {0, -1, 0};
    case kFootEndL:
    case kFootEndR:
      return {0, 0, 1};
    default:
      return {0, 1, 0};
  }
}

glm::quat Turn(const glm::vec3& a, const glm::vec3& b) { return SmallestRotation(a, b); }

Pose Relative(const Pose& parent, const Pose& child) {
  const glm::quat inv = glm::inverse(parent.rotation);
  return {inv * child.rotation, inv * (child.translation - parent.translation)};
}

Pose Compose(const Pose& parent, const Pose& relative) {
  return {parent.rotation * relative.rotation, parent.Apply(relative.translation)};
}

}  // namespace

const char* MarkerStateName(MarkerState state) {
  switch (state) {
    case MarkerState::kSeen:
      return "seen";
    case MarkerState::kPredicted:
      return "predicted";
    case MarkerState::kRejected:
      return "rejected";
    case MarkerState::kMissing:
      return "missing";
  }
  return "?";
}

Result<MarkerSolver> MarkerSolver::Create(const Calibration& calibration, int marker_count) {
  if (static_cast<int>(calibration.set.home.size()) != marker_count) {
    return MakeError("the calibration is for another take (marker count differs)");
  }
  std::vector<TreeNodeSpec> nodes(kNodeCount);
  for (int n = 1; n < kNodeCount; ++n) {
    nodes[n].parent = kNodeParents[n];
    nodes[n].position =
        nodes[kNodeParents[n]].position + calibration.bone_length[n] * BuildDirection(n);
  }
  Result<Tree> tree = Tree::Create(nodes);
  if (!tree.ok()) return MakeError("the calibrated skeleton: " + tree.error());
  return MarkerSolver(calibration, std::move(tree).value(), marker_count);
}

MarkerSolver::MarkerSolver(const Calibration& calibration, Tree tree, int marker_count)
    : calibration_(calibration), tree_(std::move(tree)) {
  rejected_.assign(marker_count, 0);
  out_.estimate.assign(marker_count, glm::vec3(0.0f));
  out_.predicted.assign(marker_count, glm::vec3(0.0f));
  out_.state.assign(marker_count, MarkerState::kMissing);
  out_.residual.assign(marker_count, -1.0f);
}

void MarkerSolver::Reset() {
  std::fill(rejected_.begin(), rejected_.end(), 0);
  has_previous_ = false;
}

void MarkerSolver::EstimateSegments(const Take& take, int frame,
                                    std::array<Pose, kSegmentCount>& poses) {
  const Calibration& cal = calibration_;
  out_.carried = 0;
  for (int s = 0; s < kSegmentCount; ++s) {
    const int parent = kSegmentParents[s];
    glm::vec3 joint(0.0f);
    if (parent >= 0) joint = poses[parent].Apply(cal.joint_in_parent[s]);
    const SegmentFit fit =
        FitSegment(cal, s, take, frame, parent >= 0 ? &joint : nullptr, rejected_);
    if (fit.ok && (parent >= 0 || fit.markers_used >= 3)) {
      poses[s] = fit.pose;
      continue;
    }
    out_.carried |= 1u << s;
    if (parent < 0) {
      if (has_previous_) poses[s] = previous_[s];
      continue;
    }
    const Pose relative = has_previous_ ? Relative(previous_[parent], previous_[s])
                                        : Pose{glm::quat(1, 0, 0, 0), cal.joint_in_parent[s]};
    Pose carried = Compose(poses[parent], relative);
    carried.translation = joint;  // the joint is the segment's origin
    // Turned about the joint towards the markers of the segment still seen.
    glm::vec3 predicted_sum(0.0f), seen_sum(0.0f);
    const std::vector<int>& markers = cal.set.segments[s];
    for (std::size_t k = 0; k < markers.size(); ++k) {
      if (!take.is_seen(frame, markers[k]) || rejected_[markers[k]]) continue;
      predicted_sum += carried.Apply(cal.offsets[s][k]) - joint;
      seen_sum += take.position(frame, markers[k]) - joint;
    }
    const glm::quat turn = Turn(predicted_sum, seen_sum);
    carried.rotation = glm::normalize(turn * carried.rotation);
    poses[s] = carried;
  }
}

void MarkerSolver::SolveTreeToTargets(const std::array<glm::vec3, kNodeCount>& targets) {
  std::array<glm::vec3, kNodeCount> placed{};
  const std::span<const glm::vec3> current = tree_.positions();
  for (int n = 1; n < kNodeCount; ++n) {
    const int p = kNodeParents[n];
    glm::vec3 d = targets[n] - targets[kRoot] - placed[p];
    if (!(glm::length(d) > 1e-6f)) d = current[n] - current[p];
    placed[n] = placed[p] + tree_.length(n) * glm::normalize(d);
  }
  (void)tree_.SetPose(placed);
  constexpr int kLeaves[] = {kHeadEnd, kHandEndL, kHandEndR, kFootEndL, kFootEndR};
  std::array<EffectorTarget, 5> effectors{};
  for (int i = 0; i < 5; ++i)
    effectors[i] = {kLeaves[i], targets[kLeaves[i]] - targets[kRoot], 1.0f};
  SolveSettings settings;
  settings.tolerance = kTolerance;
  settings.max_iterations = kMaxIterations;
  const TreeSolveResult result = SolveTree(tree_, effectors, settings);
  out_.iterations = result.ok ? result.iterations : 0;
  for (int n = 0; n < kNodeCount; ++n) out_.joints[n] = tree_.positions()[n] + targets[kRoot];
}

void MarkerSolver::Predict(const Take& take, int frame,
                           const std::array<Pose, kSegmentCount>& fitted) {
  const Calibration& cal = calibration_;
  for (int s = 0; s < kSegmentCount; ++s) {
    const int a = kSegmentProximal[s], b = kSegmentDistal[s];
    const glm::vec3 la = cal.NodeInSegment(a, s), lb = cal.NodeInSegment(b, s);
    const glm::quat turn = Turn(fitted[s].rotation * (lb - la), out_.joints[b] - out_.joints[a]);
    Pose pose;
    pose.rotation = glm::normalize(turn * fitted[s].rotation);
    pose.translation = out_.joints[a] - pose.rotation * la;
    out_.segments[s] = pose;
  }
  double sum = 0.0;
  int count = 0;
  out_.residual_max = 0.0f;
  for (int m = 0; m < take.marker_count(); ++m) {
    const int home = cal.set.home[m];
    const bool seen = take.is_seen(frame, m);
    out_.residual[m] = -1.0f;
    if (home < 0) {
      out_.predicted[m] = glm::vec3(0.0f);
      out_.state[m] = seen ? MarkerState::kSeen : MarkerState::kMissing;
      out_.estimate[m] = seen ? take.position(frame, m) : glm::vec3(0.0f);
      continue;
    }
    const std::vector<int>& list = cal.set.segments[home];
    const std::size_t k =
        static_cast<std::size_t>(std::find(list.begin(), list.end(), m) - list.begin());
    out_.predicted[m] = out_.segments[home].Apply(cal.offsets[home][k]);
    out_.state[m] = !seen ? MarkerState::kPredicted
                          : (rejected_[m] ? MarkerState::kRejected : MarkerState::kSeen);
    out_.estimate[m] =
        out_.state[m] == MarkerState::kSeen ? take.position(frame, m) : out_.predicted[m];
    if (out_.state[m] != MarkerState::kSeen) continue;
    const float r = glm::distance(out_.predicted[m], take.position(frame, m));
    out_.residual[m] = r;
    out_.residual_max = std::max(out_.residual_max, r);
    sum += double(r) * r, ++count;
  }
  out_.residual_rms = count > 0 ? static_cast<float>(std::sqrt(sum / count)) : 0.0f;
}

const FrameSolution& MarkerSolver::Solve(const Take& take, int frame) {
  const Calibration& cal = calibration_;
  std::array<Pose, kSegmentCount> fitted{};
  EstimateSegments(take, frame, fitted);
  std::array<glm::vec3, kNodeCount> targets{};
  targets[kRoot] = fitted[kPelvis].Apply(cal.root_in_pelvis);
  for (int n = 1; n < kNodeCount; ++n) {
    const int joint_of = kNodeJointOf[n];
    if (joint_of >= 0) {
      const int parent = kSegmentParents[joint_of];
      targets[n] = 0.5f * (fitted[parent].Apply(cal.joint_in_parent[joint_of]) +
                           fitted[joint_of].translation);
    } else {
      const int s = kNodeBoneSegment[n];
      targets[n] = fitted[s].Apply(cal.end_local[s]);
    }
  }
  SolveTreeToTargets(targets);
  Predict(take, frame, fitted);
  previous_ = out_.segments;
  has_previous_ = true;
  return out_;
}

}  // namespace fabrik::markers
