// calibrate.cpp - the skeleton measured from the take (calibrate.h).
#include "markers/calibrate.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <limits>

namespace fabrik::markers {

namespace {

constexpr float kConsistent = 0.015f;  // metres from the median distances
constexpr float kGoodFit = 0.010f;     // metres: frames whose fit is this good refine the template
constexpr float kJointWeight = 2.0f;   // in a fit of fewer than 3 markers
constexpr float kJointWeightMany = 0.05f;  // in a fit of 3 or more

bool OnSegment(const BoundSet& set, int segment, int marker) {
  const auto& list = set.segments[segment];
  return std::find(list.begin(), list.end(), marker) != list.end();
}

// The calibration's frames: all, or kCalibrationFrames spread evenly.
std::vector<int> SampleFrames(int frame_count) {
  std::vector<int> frames;
  const int n = std::min(frame_count, kCalibrationFrames);
  for (int i = 0; i < n; ++i) {
    frames.push_back(static_cast<int>(static_cast<long long>(i) * frame_count / n));
  }
  return frames;
}

// Points of a segment in one frame: its markers, then its joint; present[i] when known.
struct Points {
  std::vector<glm::vec3> world;
  std::vector<char> present;
};

// The most common value: the one with the most others within kConsistent / 3 of it (a wrong
// marker's distances spread out, a right one's bunch up, so this holds even when the marker
// is wrong in nearly half the frames, where a median would not).
float Mode(std::vector<float>& values) {
  std::sort(values.begin(), values.end());
  const float window = kConsistent / 3.0f;
  std::size_t best = 0, best_count = 0, lo = 0, hi = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    while (values[i] - values[lo] > window) ++lo;
    while (hi < values.size() && values[hi] - values[i] <= window) ++hi;
    if (hi - lo > best_count) best_count = hi - lo, best = i;
  }
  return values[best];
}

// Per pair of markers, the most common distance over the frames both are seen; then per frame,
// whether every pair seen is within kConsistent of its median.
std::vector<char> ConsistentFrames(const Take& take, const std::vector<int>& markers,
                                   const std::vector<int>& frames) {
  const std::size_t n = markers.size();
  std::vector<float> median(n * n, 0.0f);
  std::vector<float> values;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      values.clear();
      for (int f : frames) {
        if (take.is_seen(f, markers[a]) && take.is_seen(f, markers[b])) {
          values.push_back(
              glm::distance(take.position(f, markers[a]), take.position(f, markers[b])));
        }
      }
      if (values.empty()) continue;
      median[a * n + b] = Mode(values);
    }
  }
  std::vector<char> good(frames.size(), 1);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const int f = frames[i];
    for (std::size_t a = 0; a < n && good[i]; ++a) {
      for (std::size_t b = a + 1; b < n; ++b) {
        if (!take.is_seen(f, markers[a]) || !take.is_seen(f, markers[b])) continue;
        const float d = glm::distance(take.position(f, markers[a]), take.position(f, markers[b]));
        if (std::fabs(d - median[a * n + b]) > kConsistent) {
          good[i] = 0;
          break;
        }
      }
    }
  }
  return good;
}

// The largest distance of a weighted point from where `pose` puts it.
float Worst(const Pose& pose, std::span<const FitPoint> points) {
  float worst = 0.0f;
  for (const FitPoint& p : points) {
    if (p.weight > 0.0f) worst = std::max(worst, glm::distance(pose.Apply(p.local), p.world));
  }
  return worst;
}

// Of the first n points (markers), the one without which the rest, and the joint (the last
// point) counted as a whole point, fit best; -1 when no fit is possible.
int LeastAgreeing(std::span<FitPoint> points, std::size_t n, bool has_joint) {
  int best = -1;
  float best_worst = std::numeric_limits<float>::max();
  FitPoint& joint = points[n];
  const float joint_weight = joint.weight;
  if (has_joint) joint.weight = kJointWeight;
  for (std::size_t i = 0; i < n; ++i) {
    if (points[i].weight <= 0.0f) continue;
    const float weight = points[i].weight;
    points[i].weight = 0.0f;
    const RigidFitResult r = RigidFit(points);
    if (r.ok) {
      const float worst = Worst(r.pose, points);
      if (worst < best_worst) best_worst = worst, best = static_cast<int>(i);
    }
    points[i].weight = weight;
  }
  joint.weight = joint_weight;
  return best;
}

}  // namespace

glm::vec3 Calibration::NodeInSegment(int node, int segment) const {
  if (node == kSegmentProximal[segment])
    return segment == kPelvis ? root_in_pelvis : glm::vec3(0.0f);
  const int joint_of = kNodeJointOf[node];
  if (joint_of >= 0) return joint_in_parent[joint_of];
  return end_local[segment];
}

SegmentFit FitSegment(const Calibration& cal, int segment, const Take& take, int frame,
                      const glm::vec3* joint, std::vector<std::uint8_t>& rejected) {
  const std::vector<int>& markers = cal.set.segments[segment];
  FitPoint points[kMaxMarkersPerSegment + 1];
  const std::size_t n = markers.size();
  for (std::size_t i = 0; i < n; ++i) {
    const int m = markers[i];
    const bool use = take.is_seen(frame, m) && !rejected[m];
    points[i] = {cal.offsets[segment][i], use ? take.position(frame, m) : glm::vec3(0.0f),
                 use ? 1.0f : 0.0f};
  }
  // The joint holds a segment with few markers in place; one with 3 or more is its markers'.
  int seen = 0;
  for (std::size_t i = 0; i < n; ++i) seen += points[i].weight > 0.0f ? 1 : 0;
  const float joint_weight = seen >= 3 ? kJointWeightMany : kJointWeight;
  points[n] = {glm::vec3(0.0f), joint ? *joint : glm::vec3(0.0f), joint ? joint_weight : 0.0f};
  SegmentFit fit;
  const std::span<FitPoint> all(points, n + 1);
  for (;;) {
    int used = 0;
    for (const FitPoint& p : all) used += p.weight > 0.0f ? 1 : 0;
    const RigidFitResult r = used >= 3 ? RigidFit(all) : RigidFitResult{};
    if (!r.ok) return fit;
    fit.ok = true;
    fit.pose = r.pose;
    fit.markers_used = used - (joint ? 1 : 0);
    if (Worst(r.pose, {points, n}) <= kRejectEnter || used <= 3) break;
    // The marker whose leaving makes the others (and the joint) agree best leaves.
    const int out = LeastAgreeing(all, n, joint != nullptr);
    if (out < 0) break;
    rejected[markers[out]] = 1;
    points[out].weight = 0.0f;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const int m = markers[i];
    if (!rejected[m] || !take.is_seen(frame, m) || cal.set.home[m] != segment) continue;
    if (glm::distance(fit.pose.Apply(points[i].local), take.position(frame, m)) < kRejectLeave) {
      rejected[m] = 0;
    }
  }
  return fit;
}

}  // namespace fabrik::markers

namespace fabrik::markers {

namespace {

struct Work {
  std::vector<int> frames;
  std::array<std::vector<Pose>, kSegmentCount> poses;
  std::array<std::vector<char>, kSegmentCount> valid;
};

// The segment's joint with its parent in calibration frame i, when the parent's pose is known.
bool JointAt(const Calibration& cal, const Work& work, int segment, std::size_t i, glm::vec3& out) {
  const int parent = kSegmentParents[segment];
  if (parent < 0 || !work.valid[parent][i]) return false;
  out = work.poses[parent][i].Apply(cal.joint_in_parent[segment]);
  return true;
}

// Steps 1 and 2 of calibrate.h: the template from the consistent frames.
Status BuildTemplate(const Take& take, Calibration& cal, const Work& work, int s, bool use_joint) {
  const std::vector<int>& markers = cal.set.segments[s];
  const std::vector<char> consistent = ConsistentFrames(take, markers, work.frames);
  std::vector<std::size_t> usable;
  for (std::size_t i = 0; i < work.frames.size(); ++i) {
    bool all = consistent[i];
    for (int m : markers) all = all && take.is_seen(work.frames[i], m);
    glm::vec3 joint;
    if (use_joint && !JointAt(cal, work, s, i, joint)) all = false;
    if (all) usable.push_back(i);
  }
  if (usable.size() < 10) {
    return MakeError(take.source + ": segment " + kSegmentNames[s] +
                     ": its markers are seen together, consistently, in fewer than 10 frames");
  }
  const std::size_t n = markers.size();
  auto world_of = [&](std::size_t i, std::size_t k) {
    glm::vec3 joint(0.0f);
    if (k == n) (void)JointAt(cal, work, s, i, joint);
    return k == n ? joint : take.position(work.frames[i], markers[k]);
  };
  // The first usable frame, offsets from the joint (or the markers' centroid).
  glm::vec3 origin(0.0f);
  for (std::size_t k = 0; k < n; ++k) origin += world_of(usable[0], k) / static_cast<float>(n);
  if (use_joint) origin = world_of(usable[0], n);
  cal.offsets[s].assign(n, glm::vec3(0.0f));
  for (std::size_t k = 0; k < n; ++k) cal.offsets[s][k] = world_of(usable[0], k) - origin;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<glm::dvec3> sum(n + 1, glm::dvec3(0.0));
    int count = 0;
    std::vector<FitPoint> points(n + 1);
    for (std::size_t i : usable) {
      for (std::size_t k = 0; k <= n; ++k) {
        points[k] = {k < n ? cal.offsets[s][k] : glm::vec3(0.0f), world_of(i, k),
                     k < n ? 1.0f : (use_joint ? kJointWeight : 0.0f)};
      }
      const RigidFitResult r = RigidFit(points);
      if (!r.ok) continue;
      float worst = 0.0f;
      for (std::size_t k = 0; k < n; ++k) {
        worst = std::max(worst, glm::distance(r.pose.Apply(points[k].local), points[k].world));
      }
      if (worst > kGoodFit) continue;
      for (std::size_t k = 0; k <= n; ++k) sum[k] += glm::dvec3(r.pose.Local(points[k].world));
      ++count;
    }
    if (count == 0) break;
    const glm::vec3 joint = use_joint ? glm::vec3(sum[n] / double(count)) : glm::vec3(0.0f);
    for (std::size_t k = 0; k < n; ++k)
      cal.offsets[s][k] = glm::vec3(sum[k] / double(count)) - joint;
  }
  return Ok{};
}

// Step 3: the segment's pose in every calibration frame.
void FitFrames(const Take& take, const Calibration& cal, Work& work, int s, bool use_joint) {
  std::vector<std::uint8_t> rejected(take.names.size(), 0);
  work.poses[s].assign(work.frames.size(), Pose{});
  work.valid[s].assign(work.frames.size(), 0);
  for (std::size_t i = 0; i < work.frames.size(); ++i) {
    std::fill(rejected.begin(), rejected.end(), 0);
    glm::vec3 joint;
    const bool has_joint = use_joint && JointAt(cal, work, s, i, joint);
    const SegmentFit fit =
        FitSegment(cal, s, take, work.frames[i], has_joint ? &joint : nullptr, rejected);
    work.poses[s][i] = fit.pose;
    work.valid[s][i] = fit.ok && fit.markers_used >= (use_joint ? 2 : 3);
  }
}

// Step 4: the child's joint centre in the parent's frame.
void FitJoint(const Take& take, Calibration& cal, const Work& work, int parent, int child) {
  std::vector<int> own, shared;
  for (int m : cal.set.segments[child]) (OnSegment(cal.set, parent, m) ? shared : own).push_back(m);
  const std::vector<char> consistent = ConsistentFrames(take, own, work.frames);
  std::vector<SphereSample> samples;
  glm::dvec3 shared_sum(0.0), own_sum(0.0);
  int shared_count = 0;
  for (std::size_t i = 0; i < work.frames.size(); ++i) {
    if (!work.valid[parent][i]) continue;
    const int f = work.frames[i];
    for (int m : shared) {
      if (take.is_seen(f, m))
        shared_sum += glm::dvec3(work.poses[parent][i].Local(take.position(f, m))), ++shared_count;
    }
    if (!consistent[i]) continue;
    for (std::size_t k = 0; k < own.size(); ++k) {
      if (!take.is_seen(f, own[k])) continue;
      const glm::vec3 local = work.poses[parent][i].Local(take.position(f, own[k]));
      samples.push_back({local, static_cast<int>(k % kMaxSphereTracks)});
      own_sum += glm::dvec3(local);
    }
  }
  glm::vec3 prior(0.0f);
  if (shared_count > 0) {
    prior = glm::vec3(shared_sum / double(shared_count));
  } else {
    glm::vec3 centre(0.0f);
    for (const glm::vec3& o : cal.offsets[parent]) centre += o / float(cal.offsets[parent].size());
    const glm::vec3 child_mean =
        samples.empty() ? centre : glm::vec3(own_sum / double(samples.size()));
    prior = 0.5f * (centre + child_mean);
  }
  cal.joint_in_parent[child] = SphereFit(samples, prior);
}

// Step 5 of calibrate.h: the joint of `child` (followed by its own markers, its template's
// origin their centroid) as the pair of points, one fixed in each segment, that stay closest
// over the calibration frames: least squares of |P_t c_p - C_t c_c| (the symmetrical centre of
// rotation, Ehrig et al., J. Biomech. 39(15), 2006), pulled towards the sphere fit's centre
// where the motion leaves it undetermined. The child's template is then moved so that the joint
// is its origin.
void RefineJoint(Calibration& cal, const Work& work, int child) {
  const int parent = kSegmentParents[child];
  const glm::vec3 prior_p = cal.joint_in_parent[child];
  std::vector<double> m(36, 0.0), b(6, 0.0);
  glm::dvec3 prior_c(0.0);
  int used = 0;
  for (std::size_t i = 0; i < work.frames.size(); ++i) {
    if (!work.valid[parent][i] || !work.valid[child][i]) continue;
    const Pose& p = work.poses[parent][i];
    const Pose& c = work.poses[child][i];
    const glm::dmat3 rp = glm::mat3_cast(p.rotation), rc = glm::mat3_cast(c.rotation);
    const glm::dvec3 rhs = glm::dvec3(c.translation) - glm::dvec3(p.translation);
    for (int r = 0; r < 3; ++r) {  // row r of [rp, -rc] x = rhs
      double row[6];
      for (int k = 0; k < 3; ++k) row[k] = rp[k][r], row[3 + k] = -rc[k][r];
      for (int a = 0; a < 6; ++a) {
        for (int k = 0; k < 6; ++k) m[a * 6 + k] += row[a] * row[k];
        b[a] += row[a] * rhs[r];
      }
    }
    prior_c += glm::dvec3(c.Local(p.Apply(prior_p)));
    ++used;
  }
  if (used < 10) return;
  prior_c /= used;
  const double lambda = 4e-4 * used;
  for (int k = 0; k < 3; ++k) {
    m[k * 6 + k] += lambda, b[k] += lambda * prior_p[k];
    m[(3 + k) * 6 + 3 + k] += lambda, b[3 + k] += lambda * prior_c[k];
  }
  if (!SolveLinear(m, b, 6)) return;
  cal.joint_in_parent[child] = glm::vec3(b[0], b[1], b[2]);
  const glm::vec3 origin(b[3], b[4], b[5]);
  for (glm::vec3& offset : cal.offsets[child]) offset -= origin;
}

Status MeasureBones(const Take& take, Calibration& cal) {
  for (int s : {kHead, kHandL, kHandR, kFootL, kFootR}) {
    glm::vec3 sum(0.0f);
    int count = 0;
    for (std::size_t k = 0; k < cal.set.segments[s].size(); ++k) {
      if (OnSegment(cal.set, kSegmentParents[s], cal.set.segments[s][k])) continue;
      sum += cal.offsets[s][k], ++count;
    }
    cal.end_local[s] = count > 0 ? sum / float(count) : cal.offsets[s][0];
  }
  cal.root_in_pelvis = 0.5f * (cal.joint_in_parent[kThighL] + cal.joint_in_parent[kThighR]);
  for (int n = 1; n < kNodeCount; ++n) {
    const int s = kNodeBoneSegment[n];
    cal.bone_length[n] =
        glm::distance(cal.NodeInSegment(n, s), cal.NodeInSegment(kNodeParents[n], s));
    if (!(cal.bone_length[n] >= 0.01f && cal.bone_length[n] <= 2.0f)) {
      return MakeError(
          take.source + ": the calibrated bone to " + kNodeNames[n] +
          " is not between 1 cm and 2 m long; the markers may be on the wrong segments");
    }
  }
  return Ok{};
}

}  // namespace

Result<Calibration> Calibrate(const Take& take, const BoundSet& set) {
  Calibration cal;
  cal.set = set;
  Work work;
  work.frames = SampleFrames(take.frame_count);
  cal.frames_used = static_cast<int>(work.frames.size());
  for (int s = 0; s < kSegmentCount; ++s) {
    if (s != kPelvis && cal.set.segments[s].size() >= 3) {
      // Enough markers to follow the segment alone: its joint is the point that moves least
      // between the two segments' frames (step 5).
      if (Status t = BuildTemplate(take, cal, work, s, false); !t.ok()) return MakeError(t.error());
      FitFrames(take, cal, work, s, false);
      RefineJoint(cal, work, s);
    }
    if (Status t = BuildTemplate(take, cal, work, s, s != kPelvis); !t.ok())
      return MakeError(t.error());
    FitFrames(take, cal, work, s, s != kPelvis);
    for (int c = 0; c < kSegmentCount; ++c) {
      if (kSegmentParents[c] == s) FitJoint(take, cal, work, s, c);
    }
  }
  if (Status bones = MeasureBones(take, cal); !bones.ok()) return MakeError(bones.error());
  return cal;
}

}  // namespace fabrik::markers
