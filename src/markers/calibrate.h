// calibrate.h - a subject's skeleton and marker offsets, measured from the take itself
// (docs/markers.md, "Calibration").
//
// Segments are calibrated from the pelvis outwards, on at most kCalibrationFrames frames spread
// evenly over the take:
//  1. A segment's points are its markers plus, for every segment but the pelvis, its joint with
//     its parent (known once the parent is calibrated). Frames in which every point is seen
//     and the markers' distances to each other are within 15 mm of their most common values over
//     the take are "consistent"; the first of them gives the first template (the points' offsets,
//     world-aligned, from the joint, or from their centroid for the pelvis).
//  2. The template is refined twice: fitted (fit.h, RigidFit) to every consistent frame, the
//     points' offsets in the fitted frame are averaged over the frames fitted within 10 mm.
//  3. The segment's pose in each calibration frame is fitted as the solver does (solve.h:
//     markers that disagree with the rest by more than 30 mm are left out).
//  4. Each child's joint centre is the centre of rotation of the child's own markers seen in
//     this segment's frame (fit.h, SphereFit, over the frames where the child's markers are
//     consistent), pulled towards a prior where the motion leaves it undetermined: the
//     markers shared by the two segments, else half way between the two segments' markers.
// The root is half way between the hip centres; each end point (head, hands, feet) is the
// centroid of that segment's markers not shared with its parent. A bone's length is the
// distance between its two nodes in the segment that holds both, so it is constant.
// Fails, naming the segment, when a segment's points are never seen consistently together in
// 10 calibration frames.
#pragma once

#include <array>
#include <glm/vec3.hpp>
#include <vector>

#include "ik/result.h"
#include "markers/fit.h"
#include "markers/marker_set.h"
#include "markers/skeleton.h"
#include "markers/take.h"

namespace fabrik::markers {

inline constexpr int kCalibrationFrames = 2000;
inline constexpr float kRejectEnter = 0.030f;  // metres from the segment's fit: rejected
inline constexpr float kRejectLeave = 0.020f;  // a rejected marker back within this: accepted

struct Calibration {
  BoundSet set;
  // Per segment, per marker of set.segments[s]: its offset in the segment's frame (metres).
  std::array<std::vector<glm::vec3>, kSegmentCount> offsets;
  // Per segment but the pelvis: its joint with its parent, in the parent's frame. A segment's
  // own frame has its joint at the origin; the pelvis's has the root at root_in_pelvis.
  std::array<glm::vec3, kSegmentCount> joint_in_parent{};
  glm::vec3 root_in_pelvis{0.0f};
  // End points of the head, hands and feet in their segment's frame (other segments: 0).
  std::array<glm::vec3, kSegmentCount> end_local{};
  std::array<float, kNodeCount> bone_length{};  // parent -> node, metres; 0 for the root
  int frames_used = 0;

  // Where node n sits in segment s's frame, for the nodes s holds (its proximal node, its
  // children's joints, its end point).
  glm::vec3 NodeInSegment(int node, int segment) const;
};

Result<Calibration> Calibrate(const Take& take, const BoundSet& set);

// The pose of one segment fitted to a frame's markers (shared by the calibration and the
// solve). `rejected` holds a flag per take marker: markers flagged are left out of the fit,
// and the fit flags (kRejectEnter) or clears (kRejectLeave, only in the marker's home
// segment) them. `joint`, when given, is the segment's joint with its parent in world space,
// a point of the fit with weight 2. ok = false when fewer than 3 points remain or they lie on
// a line.
struct SegmentFit {
  bool ok = false;
  Pose pose;
  int markers_used = 0;
};
SegmentFit FitSegment(const Calibration& calibration, int segment, const Take& take, int frame,
                      const glm::vec3* joint, std::vector<std::uint8_t>& rejected);

}  // namespace fabrik::markers
