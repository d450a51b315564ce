// grounding_meter.h - how well a pose stays on the ground, frame by frame: contact share,
// foot skate, penetration and pops (docs/mocap.md: Figures). For benchmarks, tests and live
// readouts; no allocation per frame.
//
// Feed every frame of a clip in order with the clip's own placed pose (Character::animated)
// as the reference and the pose to judge (Character::pose, or the animated pose itself for
// the raw clip's figures). World metres.
//   * contact share: frames with the foot in contact (contacts.h) / frames, per foot;
//   * skate: per contact of a foot, the largest horizontal distance its contact points
//     (heel: the ankle; ball: ContactTrack::ball_joint) move, each from where it was at the
//     first frame of its own contact, while down; mean and worst over the contacts;
//   * penetration: how far the ankle, the ball or the toe tip is below the ground, worst over
//     the clip, and the share of frames with more than 1 cm;
//   * pop: in a frame, how far a joint moves beyond what the reference moves it:
//     |(p_f - p_f-1) - (r_f - r_f-1)| between this frame and the one fed before it, worst over
//     joints and frames; the first frame, a frame whose index is before the last one (a
//     loop), and one in which the character restarted are not compared. Frames may be fed
//     at the clip's rate (every index) or as a scene plays them (indices that skip or repeat).
//     This counts a joint that holds still while the reference jumps (a pinned foot, a hand
//     on a reach, under a capture glitch) as popping by the reference's jump;
//   * outrun: the same frames, how much farther a joint moves than the reference moves it,
//     |p_f - p_f-1| - |r_f - r_f-1| (0 when less): what shows as a pop on screen, a joint
//     moving faster than the clip moves it, whatever the clip does.
#pragma once

#include <array>
#include <vector>

#include "mocap/character.h"

namespace fabrik::mocap {

struct GroundingFigures {
  int frames = 0;
  std::array<double, 2> contact_share{};
  int contacts = 0;
  double skate_mean = 0.0, skate_worst = 0.0;  // metres
  double penetration_worst = 0.0;              // metres
  double penetration_share = 0.0;              // frames more than 1 cm below / frames
  double pop_worst = 0.0;                      // metres
  int pop_frame = -1, pop_joint = -1;
  double outrun_worst = 0.0;  // metres
  int outrun_frame = -1, outrun_joint = -1;
  int restarts = 0;  // frames not compared for pops (see Frame)
};

class GroundingMeter {
 public:
  // `ground` null: flat ground at y = 0. Neither is owned; both must outlive the meter.
  GroundingMeter(const Rig& rig, const Heightmap* ground);
  // `restarted`: the character started afresh this frame (Character::restarted: a time jump
  // or a clip that jumps by itself); its pop is not counted, and restarts are.
  // `frame`: the clip frame the poses are of (its contacts are the clip's, contacts.h).
  void Frame(int frame, const Pose& reference, const Pose& measured, bool restarted = false);
  // The figures so far (contacts still open count with their drift so far).
  GroundingFigures Figures() const;

 private:
  struct Point {
    bool down = false;
    glm::vec3 start{0.0f};
  };
  void CloseContact(int side);

  const Rig& rig_;
  const Heightmap* ground_;
  GroundingFigures fig_;
  int last_frame_ = -2;
  std::vector<glm::vec3> last_reference_, last_measured_;
  std::array<bool, 2> in_contact_{};
  std::array<double, 2> drift_{};
  std::array<std::array<Point, 2>, 2> points_{};  // [foot][heel, ball]
  std::array<int, 2> contact_frames_{};
  double skate_sum_ = 0.0;
  int penetrating_ = 0;
};

}  // namespace fabrik::mocap
