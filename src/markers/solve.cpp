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

// The weight of a new frame in the running offsets: a time constant of kTrackSeconds.
float TrackWeight(float rate) {
  return 1.0f - std::exp(-1.0f / (kTrackSeconds * std::max(rate, 1.0f)));
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
  running_ = calibration_.offsets;
  carriers_.assign(marker_count, {-1, -1});
  carrier_index_.assign(marker_count, {0, 0});
  for (int s = 0; s < kSegmentCount; ++s) {  // a marker is on at most two segments
    const std::vector<int>& list = calibration_.set.segments[s];
    for (std::size_t k = 0; k < list.size(); ++k) {
      const int slot = s == calibration_.set.home[list[k]] ? 0 : 1;
      carriers_[list[k]][slot] = s;
      carrier_index_[list[k]][slot] = static_cast<int>(k);
    }
  }
}

void MarkerSolver::Reset() {
  std::fill(rejected_.begin(), rejected_.end(), 0);
  running_ = calibration_.offsets;
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

// The rotation about `axis` (through `pivot`) that brings the segment's seen home markers, as
// `pose` puts them, closest to where they were recorded (least squares; closed form).
glm::quat MarkerSolver::BestTwist(const Take& take, int frame, int s, const Pose& pose,
                                  const glm::vec3& pivot, const glm::vec3& axis) const {
  const float length = glm::length(axis);
  if (!(length > 1e-6f)) return glm::quat(1, 0, 0, 0);
  const glm::vec3 u = axis / length;
  double sin_sum = 0.0, cos_sum = 0.0;
  const std::vector<int>& markers = calibration_.set.segments[s];
  for (std::size_t k = 0; k < markers.size(); ++k) {
    const int m = markers[k];
    if (calibration_.set.home[m] != s || !take.is_seen(frame, m) || rejected_[m]) continue;
    glm::vec3 p = pose.Apply(calibration_.offsets[s][k]) - pivot;
    glm::vec3 q = take.position(frame, m) - pivot;
    p -= glm::dot(p, u) * u, q -= glm::dot(q, u) * u;
    sin_sum += glm::dot(glm::cross(p, q), u);
    cos_sum += glm::dot(p, q);
  }
  if (!(sin_sum * sin_sum + cos_sum * cos_sum > 1e-12)) return glm::quat(1, 0, 0, 0);
  return glm::angleAxis(static_cast<float>(std::atan2(sin_sum, cos_sum)), u);
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
    // Then turned about the bone to fit its markers best.
    const glm::quat twist =
        BestTwist(take, frame, s, pose, out_.joints[a], out_.joints[b] - out_.joints[a]);
    pose.rotation = glm::normalize(twist * pose.rotation);
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

void MarkerSolver::PredictUnseen(const Take& take, int frame) {
  // Step 5 of solve.h. Each segment's pose as its seen markers' running offsets put it; what
  // they leave free is held from the frame before relative to the parent (whose pose is
  // already fitted: parents come first) and, with fewer than 3 seen, taken from the joint.
  std::array<Pose, kSegmentCount> next{};
  std::array<int, kSegmentCount> seen_count{};
  std::array<bool, kSegmentCount> update{};
  for (int s = 0; s < kSegmentCount; ++s) {
    const std::vector<int>& markers = calibration_.set.segments[s];
    const std::size_t n = markers.size();
    FitPoint points[2 * kMaxMarkersPerSegment + 1];
    int seen = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const int m = markers[k];
      const bool use = take.is_seen(frame, m) && !rejected_[m];
      points[k] = {running_[s][k], use ? take.position(frame, m) : glm::vec3(0.0f),
                   use ? 1.0f : 0.0f};
      seen += use ? 1 : 0;
    }
    const bool complete = seen == static_cast<int>(n) && seen >= 3;
    const int parent = kSegmentParents[s];
    const Pose prior = !has_previous_ ? out_.segments[s]
                       : parent < 0
                           ? tracked_[s]
                           : Compose(next[parent], Relative(tracked_[parent], tracked_[s]));
    const float prior_weight = complete ? 0.0f : kPriorWeight;
    for (std::size_t k = 0; k < n; ++k)
      points[n + k] = {running_[s][k], prior.Apply(running_[s][k]), prior_weight};
    const int a = kSegmentProximal[s];
    points[2 * n] = {calibration_.NodeInSegment(a, s), out_.joints[a],
                     seen < 3 ? kJointPointWeight : 0.0f};
    const RigidFitResult fit = seen > 0 ? RigidFit({points, 2 * n + 1}) : RigidFitResult{};
    next[s] = fit.ok ? fit.pose : prior;
    seen_count[s] = fit.ok ? seen : 0;
    update[s] = complete && fit.ok;
  }
  // Markers not seen: from the carrying segment that sees the most.
  for (int m = 0; m < take.marker_count(); ++m) {
    if (out_.state[m] == MarkerState::kSeen || carriers_[m][0] < 0) continue;
    int slot = 0;
    if (carriers_[m][1] >= 0 && seen_count[carriers_[m][1]] > seen_count[carriers_[m][0]]) slot = 1;
    const int s = carriers_[m][slot];
    const glm::vec3 p = next[s].Apply(running_[s][carrier_index_[m][slot]]);
    out_.predicted[m] = p;
    out_.estimate[m] = p;
  }
  // The running offsets follow the markers in the frame their own fit gives, only when all are
  // seen (3 or more): a fit with the held pose in it would turn the frame away from them.
  const float w = TrackWeight(take.rate);
  for (int s = 0; s < kSegmentCount; ++s) {
    if (!update[s]) continue;
    const std::vector<int>& markers = calibration_.set.segments[s];
    for (std::size_t k = 0; k < markers.size(); ++k) {
      const int m = markers[k];
      if (!take.is_seen(frame, m) || rejected_[m]) continue;
      running_[s][k] += w * (next[s].Local(take.position(frame, m)) - running_[s][k]);
    }
  }
  tracked_ = next;
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
      // The shoulder girdle moves over the thorax, so the shoulder is where the arm puts it.
      const float w = n == kShoulderL || n == kShoulderR ? 1.0f : 0.5f;
      targets[n] = (1.0f - w) * fitted[parent].Apply(cal.joint_in_parent[joint_of]) +
                   w * fitted[joint_of].translation;
    } else {
      const int s = kNodeBoneSegment[n];
      targets[n] = fitted[s].Apply(cal.end_local[s]);
    }
  }
  SolveTreeToTargets(targets);
  Predict(take, frame, fitted);
  PredictUnseen(take, frame);
  previous_ = out_.segments;
  has_previous_ = true;
  return out_;
}

}  // namespace fabrik::markers
