// character_pop.cpp - the pop limit of Character (character.h; docs/mocap.md: One character,
// Pop limit): how far a limb's joints would move beyond what the clip moves them, and the
// chain (and the turn of the joints below its end) held within the budget.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "ik/best_rotation.h"
#include "mocap/character.h"
#include "mocap/pose_edit.h"

namespace fabrik::mocap {
namespace {

// ExpectedHandTurn's pull towards last frame's turn, as a share of the joints' spread.
constexpr double kExpectedTurnPrior = 0.02;
// The share of the pop budget a pinned foot's knee moves by before the foot is lifted on its
// pin (LiftedPass): a little under the whole, so the knee's move keeps within it.
constexpr float kLiftKneeShare = 0.95f;

}  // namespace

float Character::LimbPop(const Limb& limb, std::span<const glm::vec3> solved,
                         const glm::quat* end_turn, PopParts* parts) const {
  const glm::vec3 root = final_.positions[limb.chain[0]];
  // A joint pops by how much farther it moves than the clip moves it (docs/mocap.md: One
  // character, Pop limit): one held still while the clip jumps does not pop.
  const auto pop = [&](int j, const glm::vec3& p) {
    return std::max(0.0f, glm::distance(p, last_final_[j]) -
                              glm::distance(animated_.positions[j], last_animated_[j]));
  };
  float worst = 0.0f;
  for (std::size_t i = 0; i < solved.size(); ++i)
    worst = std::max(worst, pop(limb.chain[i], root + solved[i]));
  const float chain = worst;
  worst = 0.0f;
  if (end_turn != nullptr) {
    // The joints below the end, carried by it and turned by end_turn from the clip's.
    const int end = limb.end();
    const glm::vec3 p = root + solved.back();
    for (int j = end + 1; j < rig_->clip.subtree_end(end); ++j) {
      worst = std::max(worst,
                       pop(j, p + *end_turn * (animated_.positions[j] - animated_.positions[end])));
    }
  }
  if (parts != nullptr) *parts = {chain, worst};
  return std::max(chain, worst);
}

float Character::PopPass(const Limb& limb, std::span<const glm::vec3> solved, float reach,
                         const glm::quat* end_turn) {
  // Each joint of the chain, from the root down, aimed at its solved place held within
  // `reach` of where last frame's correction puts it, and set that bone's length from the
  // joint before; for two bones, also the end placed first and the middle joint nearest its
  // expected place: whichever moves less. The result in limit_trial_, its pop returned.
  const std::size_t n = solved.size();
  const glm::vec3 root = final_.positions[limb.chain[0]];
  const std::span<glm::vec3> trial(limit_trial_.data(), n);
  const std::span<glm::vec3> alt(limit_alt_.data(), n);
  const auto expected = [&](std::size_t i) {
    const int j = limb.chain[i];
    return animated_.positions[j] + last_final_[j] - last_animated_[j] - root;
  };
  trial[0] = solved[0];
  bool two_bone = false;
  if (n == 3) {
    // Two bones: the end aimed at its solved place held within `reach` of its expected
    // one, the middle joint on its circle about the root-end line nearest to its expected
    // place.
    const float l1 = glm::distance(solved[1], solved[0]);
    const float l2 = glm::distance(solved[2], solved[1]);
    const glm::vec3 e = expected(2) - trial[0];
    glm::vec3 aim = solved[2] - trial[0];
    const float off = glm::distance(aim, e);
    if (off > reach) aim = e + (aim - e) * (reach / off);
    const float d0 = glm::length(aim);
    if (d0 > 1e-6f) {
      const float d = std::clamp(d0, std::fabs(l1 - l2) + 1e-6f, l1 + l2 - 1e-6f);
      const glm::vec3 axis = aim / d0;
      const float a = (l1 * l1 - l2 * l2 + d * d) / (2.0f * d);
      const float h = std::sqrt(std::max(l1 * l1 - a * a, 0.0f));
      glm::vec3 k = expected(1) - trial[0];
      k -= axis * glm::dot(k, axis);
      if (glm::length(k) < 1e-6f) k = solved[1] - axis * glm::dot(solved[1], axis);
      if (glm::length(k) > 1e-6f) {
        two_bone = true;
        alt[0] = trial[0];
        alt[1] = trial[0] + axis * a + glm::normalize(k) * h;
        alt[2] = trial[0] + axis * d;
      }
    }
  }
  for (std::size_t i = 1; i < n; ++i) {
    const glm::vec3 e = expected(i);
    glm::vec3 aim = solved[i];
    const float off = glm::distance(aim, e);
    if (off > reach) aim = e + (aim - e) * (reach / off);
    const glm::vec3 bone = aim - trial[i - 1];
    const float length = glm::distance(solved[i], solved[i - 1]);
    const float along = glm::length(bone);
    trial[i] = along > 1e-9f ? trial[i - 1] + bone * (length / along)
                             : trial[i - 1] + (solved[i] - solved[i - 1]);
  }
  // Chained from the root suits a nearly straight leg, whose knee placing from the end swings.
  float pop = LimbPop(limb, trial, end_turn, &pass_parts_);
  if (two_bone) {
    PopParts parts;
    const float placed = LimbPop(limb, alt, end_turn, &parts);
    if (placed < pop) {
      std::copy(alt.begin(), alt.end(), trial.begin());
      pop = placed;
      pass_parts_ = parts;
    }
  }
  // A pinned foot is lifted rather than slid wherever that keeps within the budget.
  if (lift_ready_) {
    const std::span<const glm::vec3> lift(limit_lift_.data(), n);
    PopParts parts;
    const float lifted = LimbPop(limb, lift, end_turn, &parts);
    if (lifted <= settings_.max_pop_speed * frame_dt_ || lifted < pop) {
      std::copy(lift.begin(), lift.end(), trial.begin());
      pop = lifted;
      pass_parts_ = parts;
    }
  }
  return pop;
}

bool Character::LiftedPass(const Limb& limb, std::span<const glm::vec3> solved) {
  const glm::vec3 root = final_.positions[limb.chain[0]];
  const int j = limb.chain[1];
  const glm::vec3 e = animated_.positions[j] + last_final_[j] - last_animated_[j] - root;
  const float l1 = glm::distance(solved[1], solved[0]);
  const float l2 = glm::distance(solved[2], solved[1]);
  const float off = glm::distance(solved[1], e);
  // The knee at most `r` from its expected place; the ankle's lift above its solved place
  // that then keeps the shin's length (negative: it would have to go down; NaN: none).
  glm::vec3 knee(0.0f);
  const auto lift = [&](float r) {
    glm::vec3 aim = solved[1];
    if (off > r) aim = e + (aim - e) * (r / off);
    const glm::vec3 thigh = aim - solved[0];
    const float t = glm::length(thigh);
    if (!(t > 1e-9f)) return std::numeric_limits<float>::quiet_NaN();
    knee = solved[0] + thigh * (l1 / t);
    const float h2 = (solved[2].x - knee.x) * (solved[2].x - knee.x) +
                     (solved[2].z - knee.z) * (solved[2].z - knee.z);
    if (h2 > l2 * l2) return std::numeric_limits<float>::quiet_NaN();
    return knee.y - std::sqrt(l2 * l2 - h2) - solved[2].y;
  };
  // The knee as near its solved place as the budget lets it be, the ankle lifted as little
  // as that allows; where the ankle would then move beyond the budget, the two moves (the
  // knee's from its expected place, r, and the ankle's from its own) balanced: the larger is
  // least where they meet (the knee's grows with r, the ankle's falls as the ankle nears
  // where its last correction puts it), found by ternary search.
  const int a = limb.chain[2];
  const glm::vec3 ea = animated_.positions[a] + last_final_[a] - last_animated_[a] - root;
  const auto worse = [&](float r) {
    const float y = lift(r);
    if (!(y >= 0.0f)) return std::numeric_limits<float>::infinity();
    return std::max(r, glm::distance(solved[2] + glm::vec3(0.0f, y, 0.0f), ea));
  };
  const float budget = settings_.max_pop_speed * frame_dt_;
  float r = std::min(off, kLiftKneeShare * budget);
  if (!(worse(r) <= budget)) {
    float lo = 0.0f, hi = off;
    for (int round = 0; round < 2 * kPopRounds; ++round) {
      const float m1 = lo + (hi - lo) / 3.0f, m2 = hi - (hi - lo) / 3.0f;
      if (worse(m1) <= worse(m2)) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    r = 0.5f * (lo + hi);
  }
  const float y = lift(r);
  if (!(y >= 0.0f)) return false;
  limit_lift_[0] = solved[0];
  limit_lift_[1] = knee;
  limit_lift_[2] = glm::vec3(solved[2].x, solved[2].y + y, solved[2].z);
  return true;
}

void Character::LimitPop(const Limb& limb, std::span<glm::vec3> solved, glm::quat* end_turn,
                         const glm::quat* last_turn, const glm::quat* still_end) {
  const float budget = settings_.max_pop_speed * frame_dt_;
  if (jumped_ || !(LimbPop(limb, solved, end_turn) > budget)) return;
  std::optional<glm::quat> expected;
  if (last_turn != nullptr) expected = ExpectedHandTurn(limb, *last_turn);
  const glm::quat* expected_turn = expected ? &*expected : nullptr;
  // PopPass at `reach`: with `reach` at the budget nothing moves where the solve is within
  // it, with `reach` 0 the chain follows the clip's motion as closely as its bones allow.
  // With `expected_turn`, the end's turn is chosen too: turned from the expected one towards
  // the wanted one by no more than moves the end's farthest joint by `reach`. The largest
  // reach whose limb stays within the budget is found by bisection (0 when none does). The
  // end then falls short of its target, and a pinned foot slides, by what the budget denies.
  const std::size_t n = solved.size();
  const glm::quat wanted = end_turn != nullptr ? *end_turn : glm::quat(1, 0, 0, 0);
  float radius = 0.0f;
  if (expected_turn != nullptr) {
    const int end = limb.end();
    for (int j = end + 1; j < rig_->clip.subtree_end(end); ++j) {
      radius = std::max(radius, glm::distance(animated_.positions[j], animated_.positions[end]));
    }
  }
  glm::quat turn = wanted, best_turn = wanted;
  const auto pass = [&](float reach) {
    if (expected_turn != nullptr) {
      turn = radius > 1e-6f ? TurnTowards(*expected_turn, wanted, reach / radius) : wanted;
    }
    return PopPass(limb, solved, reach, end_turn != nullptr ? &turn : nullptr);
  };
  const std::span<const glm::vec3> trial(limit_trial_.data(), n);
  // The lifted chain does not depend on the reach: found once.
  lift_ready_ = pop_keep_pin_ && n == 3 && LiftedPass(limb, solved);
  if (expected) {
    // Three turns to hold the end back towards: the fit keeping its joints' last corrections
    // (ExpectedHandTurn), last frame's turn (the joints below the end then move about it as
    // the clip moves them, turned), or the turn keeping the end as it was last frame (the
    // clip's own turn of it undone, `still`): whichever the least move pops least with. The
    // fit suits a hand the clip swings fast (a punch); last frame's turn, fingers the capture
    // spins on their own; the still turn, an end the clip flicks.
    const glm::quat candidates[] = {*expected, *last_turn,
                                    still_end != nullptr ? *still_end : *last_turn};
    float least = std::numeric_limits<float>::infinity();
    int chosen = 0;
    for (int k = 0; k < 3; ++k) {
      if (k == 2 && still_end == nullptr) break;
      expected = candidates[k];
      const float pop = pass(0.0f);
      if (pop < least) least = pop, chosen = k;
    }
    expected = candidates[chosen];
  }
  float lo = 0.0f, hi = budget;
  float best = LimbPop(limb, solved, end_turn);
  std::copy(solved.begin(), solved.end(), limit_best_.begin());
  const float least = pass(0.0f);
  if (least < best) {
    best = least;
    best_turn = turn;
    std::copy(trial.begin(), trial.end(), limit_best_.begin());
  }
  // The joints below the end may pop by as much as the least move leaves them where no
  // move keeps them within the budget: the clip moves them on their own (a glitch turning a
  // thumb half round) or turns the end faster than a turned end can follow. The chain is
  // then still held within the budget, from the least move on, so it never snaps to its
  // solve; otherwise every joint is held to the budget.
  float end_allow = budget;
  if (best > budget && end_turn != nullptr) {
    // The least move's chain and parts are still in limit_trial_ and pass_parts_.
    if (pass_parts_.chain <= budget) {
      end_allow = pass_parts_.end;
      best = pass_parts_.chain;
      best_turn = turn;
      std::copy(trial.begin(), trial.end(), limit_best_.begin());
    }
  }
  for (int round = 0; round < kPopRounds && best <= budget; ++round) {
    const float mid = 0.5f * (lo + hi);
    pass(mid);
    if (pass_parts_.chain <= budget && pass_parts_.end <= end_allow) {
      lo = mid;
      best_turn = turn;
      std::copy(trial.begin(), trial.end(), limit_best_.begin());
    } else {
      hi = mid;
    }
  }
  lift_ready_ = false;
  std::copy(limit_best_.begin(), limit_best_.begin() + static_cast<std::ptrdiff_t>(n),
            solved.begin());
  if (end_turn != nullptr) *end_turn = best_turn;
}

glm::quat Character::ExpectedHandTurn(const Limb& arm, const glm::quat& last_turn) const {
  // Where each joint below the wrist would be, relative to the wrist, with its last frame's
  // correction kept: its last final offset moved as the clip moves it. The turn is the one
  // that best carries the clip's offsets onto those places (least squares, BestRotation),
  // with a light pull (kExpectedTurnPrior of their spread) towards last frame's turn, so that
  // joints on one line (a foot's toe and its tip) keep last frame's twist about it. Every
  // joint counts, by its squared distance. Where the clip moves one on its own and it alone
  // fixes the twist (a thumb flipped half round beside fingers on a line), the fit turns with
  // it; LimitPop then allows the end's joints what the least move leaves them.
  const int w = arm.end(), end = rig_->clip.subtree_end(w);
  glm::dmat3 s(0.0);
  double spread = 0.0;
  for (int j = w + 1; j < end; ++j) {
    const glm::vec3 offset = animated_.positions[j] - animated_.positions[w];
    const glm::vec3 aim = last_final_[j] - last_final_[w] + offset -
                          (last_animated_[j] - last_animated_[w]);
    AddRotationPair(s, offset, aim);
    spread += glm::dot(offset, offset);
  }
  if (!(spread > 1e-12)) return last_turn;
  AddRotationPrior(s, last_turn, kExpectedTurnPrior * spread);
  return BestRotation(s);
}

}  // namespace fabrik::mocap
