// solve.h - the per-frame solve: markers in, a skeleton fitted with FABRIK out
// (docs/markers.md, "The solve").
//
// Solve(take, t) uses frame t of the take and what the solver kept from the frames before it,
// never a later frame (causal). Each call, in order:
//  1. Segments, from the pelvis outwards: each segment's pose is fitted (calibrate.h,
//     FitSegment) to its seen markers and its joint with its parent; a marker farther than
//     kRejectEnter from its segment's fit of the others is rejected and stays so until it comes
//     back within kRejectLeave. A segment with too few points (fewer than 3 with the joint, or
//     on one line) is carried: its pose relative to its parent is kept from the previous frame,
//     turned about its joint towards any marker of it still seen; the pelvis is held.
//  2. Joint-centre targets: each joint half way between where its two segments put it (the
//     shoulders where the upper arms put them: the shoulder girdle moves over the thorax); the
//     root and the end points from their segments.
//  3. FABRIK: the calibrated tree (root-relative, bone lengths constant) is laid along the
//     targets from the root outwards (each node one bone length from its parent towards its
//     target), then SolveTree (ik/tree.h) brings the head, hands and feet to their targets
//     (tolerance kTolerance, at most kMaxIterations iterations).
//  4. Every segment's pose is turned onto its solved bone (the smallest rotation), then about
//     the bone to the twist that fits its seen markers best (least squares), and every seen
//     marker is predicted from its home segment with its calibrated offset: the residual.
//  5. Markers not seen (missing, hidden or rejected) are predicted from the rigid relation with
//     their segment's seen markers (Aristidou & Lasenby, "Real-time marker prediction and CoR
//     estimation in optical motion capture", The Visual Computer 29, 2013): each marker keeps a
//     running offset in its segment's frame, updated (time constant kTrackSeconds) in frames
//     where all of the segment's markers are seen, 3 or more; each frame the segment's pose is
//     fitted (fit.h, RigidFit) to its seen markers' running offsets, with its pose relative to
//     its parent's from the frame before (weight kPriorWeight a marker) holding what they
//     leave free, and, with fewer than 3 seen, the skeleton's joint (kJointPointWeight). A
//     segment with no marker seen keeps that pose relative to its parent. A marker on two
//     segments is predicted from the one seeing more of its markers.
// The residual (step 4) is the skeleton's: calibrated offsets, never the running ones.
// Allocates only in Create; Solve allocates nothing.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ik/result.h"
#include "ik/tree.h"
#include "markers/calibrate.h"

namespace fabrik::markers {

inline constexpr float kTolerance = 1e-4f;  // metres, the tree solve's margin
inline constexpr int kMaxIterations = 10;
// Step 5: the running offsets' time constant (seconds), the held pose's weight a marker when
// not all of a segment's markers are seen, the skeleton's joint's with fewer than 3 seen.
inline constexpr float kTrackSeconds = 0.1f;
inline constexpr float kPriorWeight = 0.01f;
inline constexpr float kJointPointWeight = 0.1f;

enum class MarkerState : std::uint8_t {
  kSeen,       // recorded this frame and used
  kPredicted,  // not recorded (missing or hidden): the estimate is the prediction
  kRejected,   // recorded but disagreeing with its segment: left out, predicted instead
  kMissing,    // not recorded and on no segment of the set: no estimate
};
const char* MarkerStateName(MarkerState state);

struct FrameSolution {
  std::array<glm::vec3, kNodeCount> joints{};  // world metres, +Y up
  std::array<Pose, kSegmentCount> segments{};  // each segment's final pose
  std::vector<glm::vec3> estimate;  // per take marker: recorded when seen, else predicted
  // Per take marker: for a seen one, from its home segment (step 4), else the prediction
  // (step 5); 0 on no segment.
  std::vector<glm::vec3> predicted;
  std::vector<MarkerState> state;  // per take marker
  std::vector<float> residual;     // per take marker: |recorded - predicted| when kSeen, else -1
  float residual_rms = 0.0f;       // over the kSeen markers on a segment, metres
  float residual_max = 0.0f;
  int iterations = 0;         // SolveTree's
  std::uint32_t carried = 0;  // bit s: segment s was carried, not fitted
};

class MarkerSolver {
 public:
  static Result<MarkerSolver> Create(const Calibration& calibration, int marker_count);

  // See the header comment. `take` must have the marker count given to Create; frames are
  // expected in order (a frame out of order is solved, but from the last frame's memory).
  const FrameSolution& Solve(const Take& take, int frame);
  // Forgets the previous frames (poses, rejections).
  void Reset();

  const Calibration& calibration() const { return calibration_; }
  const Tree& tree() const { return tree_; }

 private:
  MarkerSolver(const Calibration& calibration, Tree tree, int marker_count);
  void EstimateSegments(const Take& take, int frame, std::array<Pose, kSegmentCount>& poses);
  void SolveTreeToTargets(const std::array<glm::vec3, kNodeCount>& targets);
  void Predict(const Take& take, int frame, const std::array<Pose, kSegmentCount>& fitted);
  void PredictUnseen(const Take& take, int frame);
  glm::quat BestTwist(const Take& take, int frame, int s, const Pose& pose, const glm::vec3& pivot,
                      const glm::vec3& axis) const;

  Calibration calibration_;
  // Step 5: per segment, per marker of it, its running offset in the segment's frame; each
  // segment's pose fitted to them in the last frame.
  std::array<std::vector<glm::vec3>, kSegmentCount> running_;
  std::array<Pose, kSegmentCount> tracked_{};
  // Per take marker: the segments carrying it (home first; -1 when none) and its index there.
  std::vector<std::array<int, 2>> carriers_, carrier_index_;
  Tree tree_;
  std::vector<std::uint8_t> rejected_;
  std::array<Pose, kSegmentCount> previous_{};
  bool has_previous_ = false;
  FrameSolution out_;
};

}  // namespace fabrik::markers
