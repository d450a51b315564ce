// limbs.cpp - see limbs.h.
#include "mocap/limbs.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace fabrik::mocap {
namespace {

struct Skeleton {
  const Clip& clip;
  std::span<const glm::vec3> rest;
  std::span<const int> parents;
  float eps;  // positions closer than this coincide

  bool IsLeaf(int j) const { return clip.subtree_end(j) == j + 1; }
  bool InSubtree(int j, int root) const { return j >= root && j < clip.subtree_end(root); }
  int CommonAncestor(int a, int b) const {
    while (a != b) {
      if (a > b)
        a = parents[a];
      else
        b = parents[b];  // parents have smaller indices
    }
    return a;
  }
  // Joints on the path from `from` (exclusive) down to `leaf` (inclusive), dropping each joint
  // that coincides with the one kept before it.
  std::vector<int> Path(int from, int leaf) const {
    std::vector<int> up;
    for (int j = leaf; j != from && j >= 0; j = parents[j]) up.push_back(j);
    std::vector<int> path;
    glm::vec3 last = rest[from];
    for (auto it = up.rbegin(); it != up.rend(); ++it) {
      if (glm::distance(rest[*it], last) <= eps) continue;
      path.push_back(*it);
      last = rest[*it];
    }
    return path;
  }
  int NearestDistinctAncestor(int j) const {
    for (int a = parents[j]; a >= 0; a = parents[a]) {
      if (glm::distance(rest[a], rest[j]) > eps) return a;
    }
    return -1;
  }
};

Result<Limb> BuildLeg(const Skeleton& s, int pelvis, int leaf) {
  const std::vector<int> path = s.Path(pelvis, leaf);
  if (path.size() < 3) return MakeError("a leg has fewer than 3 distinct joints");
  const int hip = path[0];
  const float drop = s.rest[hip].y - s.rest[leaf].y;
  std::size_t ankle = 0;
  for (std::size_t k = 2; k < path.size(); ++k) {
    if (s.rest[path[k]].y - s.rest[leaf].y <= 0.15f * drop) {
      ankle = k;
      break;
    }
  }
  if (ankle == 0) return MakeError("a leg has no joint near its lowest point to serve as ankle");
  const glm::vec3 a = s.rest[hip], b = s.rest[path[ankle]];
  const glm::vec3 axis = glm::normalize(b - a);
  std::size_t knee = 1;
  float best = -1.0f;
  for (std::size_t k = 1; k < ankle; ++k) {
    const glm::vec3 v = s.rest[path[k]] - a;
    const float off = glm::length(v - axis * glm::dot(v, axis));
    if (off > best) {
      best = off;
      knee = k;
    }
  }
  if (best < 0.01f * drop) {  // straight rest leg: the joint nearest half way down
    float nearest = 1e30f;
    const float half = 0.5f * glm::distance(a, b);
    for (std::size_t k = 1; k < ankle; ++k) {
      const float d = std::fabs(glm::distance(a, s.rest[path[k]]) - half);
      if (d < nearest) {
        nearest = d;
        knee = k;
      }
    }
  }
  Limb limb;
  limb.chain.assign(path.begin(), path.begin() + ankle + 1);
  limb.middle = static_cast<int>(knee);
  limb.tip = leaf;
  return limb;
}

bool BuildArm(const Skeleton& s, int branch, int leaf, Limb& arm) {
  const std::vector<int> path = s.Path(branch, leaf);
  if (path.size() < 3) return false;
  std::vector<float> along(path.size());
  glm::vec3 last = s.rest[branch];
  float total = 0.0f;
  for (std::size_t k = 0; k < path.size(); ++k) {
    total += glm::distance(last, s.rest[path[k]]);
    last = s.rest[path[k]];
    along[k] = total;
  }
  const auto nearest = [&](std::size_t from, std::size_t to, float fraction) {
    std::size_t best = from;
    for (std::size_t k = from; k < to; ++k) {
      if (std::fabs(along[k] / total - fraction) < std::fabs(along[best] / total - fraction))
        best = k;
    }
    return best;
  };
  const std::size_t wrist = nearest(2, path.size(), 0.82f);
  const std::size_t elbow = nearest(1, wrist, 0.55f);
  const std::size_t shoulder = nearest(0, elbow, 0.2f);
  arm.chain.assign(path.begin() + shoulder, path.begin() + wrist + 1);
  arm.middle = static_cast<int>(elbow - shoulder);
  arm.tip = leaf;
  return true;
}

}  // namespace

Result<Limbs> FindLimbs(const Clip& clip) {
  const float height = clip.rest_height();
  Skeleton s{clip, clip.rest_positions(), clip.parents(), 1e-4f * height};
  const int joints = clip.joint_count();
  const float cx = s.rest[0].x;
  std::vector<int> leaves;
  for (int j = 0; j < joints; ++j) {
    if (s.IsLeaf(j)) leaves.push_back(j);
  }
  const auto lowest_on = [&](float sign) {
    int best = -1;
    for (int j : leaves) {
      if ((s.rest[j].x - cx) * sign <= 0.0f) continue;
      if (best < 0 || s.rest[j].y < s.rest[best].y) best = j;
    }
    return best;
  };
  const int left_leaf = lowest_on(1.0f), right_leaf = lowest_on(-1.0f);
  if (left_leaf < 0 || right_leaf < 0) {
    return MakeError("no legs: the skeleton has no leaf joint on one side of the root");
  }
  Limbs limbs;
  limbs.pelvis = s.CommonAncestor(left_leaf, right_leaf);
  for (int leaf : {left_leaf, right_leaf}) {
    if (s.rest[limbs.pelvis].y - s.rest[leaf].y < 0.25f * height) {
      return MakeError("no legs: the lowest leaf joints (" + clip.name(left_leaf) + ", " +
                       clip.name(right_leaf) + ") do not hang below their common joint " +
                       clip.name(limbs.pelvis));
    }
  }
  for (int side : {kLeft, kRight}) {
    Result<Limb> leg = BuildLeg(s, limbs.pelvis, side == kLeft ? left_leaf : right_leaf);
    if (!leg) return MakeError("no legs: " + leg.error());
    limbs.legs[side] = std::move(leg.value());
  }

  // Head: the highest, most central leaf outside the legs.
  const auto in_leg = [&](int j) {
    return s.InSubtree(j, limbs.legs[kLeft].chain[0]) ||
           s.InSubtree(j, limbs.legs[kRight].chain[0]) ||
           s.InSubtree(j, s.Path(limbs.pelvis, left_leaf)[0]) ||
           s.InSubtree(j, s.Path(limbs.pelvis, right_leaf)[0]);
  };
  int head_leaf = -1;
  for (int j : leaves) {
    if (in_leg(j)) continue;
    const auto score = [&](int k) { return s.rest[k].y - std::fabs(s.rest[k].x - cx); };
    if (head_leaf < 0 || score(j) > score(head_leaf)) head_leaf = j;
  }
  if (head_leaf < 0 || s.rest[head_leaf].y < s.rest[limbs.pelvis].y + 0.2f * height) {
    return limbs;
  }
  const int head = s.NearestDistinctAncestor(head_leaf);
  if (head < 0 || head == limbs.pelvis) return limbs;
  const int neck = s.NearestDistinctAncestor(head);
  limbs.has_head = true;
  limbs.head_tip = head_leaf;
  limbs.head = head;
  limbs.neck = (neck < 0 || neck == limbs.pelvis) ? head : neck;

  // Arms: per side, the leaf farthest out that leaves the head's path below the head.
  std::array<int, 2> arm_leaf{-1, -1};
  for (int j : leaves) {
    if (j == head_leaf || in_leg(j)) continue;
    const int branch = s.CommonAncestor(j, head_leaf);
    if (s.InSubtree(branch, head)) continue;  // jaw, eyes: part of the head
    const float x = s.rest[j].x - cx;
    if (std::fabs(x) < 0.1f * height) continue;
    const int side = x > 0.0f ? kLeft : kRight;
    if (arm_leaf[side] < 0 || std::fabs(x) > std::fabs(s.rest[arm_leaf[side]].x - cx)) {
      arm_leaf[side] = j;
    }
  }
  if (arm_leaf[kLeft] >= 0 && arm_leaf[kRight] >= 0) {
    bool ok = true;
    for (int side : {kLeft, kRight}) {
      ok = ok && BuildArm(s, s.CommonAncestor(arm_leaf[side], head_leaf), arm_leaf[side],
                          limbs.arms[side]);
    }
    limbs.has_arms = ok;
  }
  return limbs;
}

}  // namespace fabrik::mocap
