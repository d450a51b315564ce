// grounding_meter.cpp - see grounding_meter.h.
#include "mocap/grounding_meter.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace fabrik::mocap {

GroundingMeter::GroundingMeter(const Rig& rig, const Heightmap* ground)
    : rig_(rig), ground_(ground) {
  last_reference_.resize(static_cast<std::size_t>(rig.clip.joint_count()));
  last_measured_.resize(last_reference_.size());
}

void GroundingMeter::CloseContact(int side) {
  skate_sum_ += drift_[side];
  fig_.skate_worst = std::max(fig_.skate_worst, drift_[side]);
  ++fig_.contacts;
  in_contact_[side] = false;
}

void GroundingMeter::Frame(int frame, const Pose& reference, const Pose& measured, bool restarted) {
  const ContactTrack& track = rig_.contacts;
  const int f = std::clamp(frame, 0, rig_.clip.frame_count() - 1);
  ++fig_.frames;
  double below = 0.0;
  for (int side : {kLeft, kRight}) {
    const Limb& leg = rig_.limbs.legs[side];
    const bool contact = track.contact[side][f] != 0;
    const std::array<bool, 2> down{track.heel[side][f] != 0, track.ball[side][f] != 0};
    const std::array<int, 2> joint{leg.end(), track.ball_joint[side]};
    if (contact) {
      ++contact_frames_[side];
      if (!in_contact_[side]) drift_[side] = 0.0;
      in_contact_[side] = true;
      for (int k = 0; k < 2; ++k) {
        const glm::vec3 p = measured.positions[joint[k]];
        Point& point = points_[side][k];
        if (down[k] && !point.down) point.start = p;
        if (down[k]) {
          drift_[side] =
              std::max<double>(drift_[side], std::hypot(p.x - point.start.x, p.z - point.start.z));
        }
        point.down = down[k];
      }
    } else {
      if (in_contact_[side]) CloseContact(side);
      points_[side][0].down = points_[side][1].down = false;
    }
    for (int j : {leg.end(), track.ball_joint[side], leg.tip}) {
      const glm::vec3 p = measured.positions[j];
      const float g = ground_ != nullptr ? ground_->HeightAt(p.x, p.z) : 0.0f;
      below = std::max<double>(below, g - p.y);
    }
  }
  fig_.penetration_worst = std::max(fig_.penetration_worst, below);
  if (below > 0.01) ++penetrating_;
  if (restarted) ++fig_.restarts;
  if (last_frame_ >= 0 && frame >= last_frame_ && !restarted) {
    for (std::size_t j = 0; j < last_reference_.size(); ++j) {
      const glm::vec3 moved = measured.positions[j] - last_measured_[j];
      const glm::vec3 clip_moved = reference.positions[j] - last_reference_[j];
      const double pop = glm::distance(moved, clip_moved);
      const double outrun = double(glm::length(moved)) - double(glm::length(clip_moved));
      if (outrun > fig_.outrun_worst) {
        fig_.outrun_worst = outrun;
        fig_.outrun_frame = frame;
        fig_.outrun_joint = static_cast<int>(j);
      }
      if (pop > fig_.pop_worst) {
        fig_.pop_worst = pop;
        fig_.pop_frame = frame;
        fig_.pop_joint = static_cast<int>(j);
      }
    }
  }
  std::copy(reference.positions.begin(), reference.positions.end(), last_reference_.begin());
  std::copy(measured.positions.begin(), measured.positions.end(), last_measured_.begin());
  last_frame_ = frame;
}

GroundingFigures GroundingMeter::Figures() const {
  GroundingFigures out = fig_;
  double sum = skate_sum_;
  for (int side : {kLeft, kRight}) {
    if (in_contact_[side]) {
      sum += drift_[side];
      out.skate_worst = std::max(out.skate_worst, drift_[side]);
      ++out.contacts;
    }
    out.contact_share[side] =
        fig_.frames > 0 ? static_cast<double>(contact_frames_[side]) / fig_.frames : 0.0;
  }
  out.skate_mean = out.contacts > 0 ? sum / out.contacts : 0.0;
  out.penetration_share = fig_.frames > 0 ? static_cast<double>(penetrating_) / fig_.frames : 0.0;
  return out;
}

}  // namespace fabrik::mocap
