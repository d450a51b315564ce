#include "ik/tree.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <string>

#include "ik/constrained_passes.h"
#include "ik/fabrik.h"
#include "ik/line_pose.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

std::string NodeLabel(std::size_t i) { return "nodes[" + std::to_string(i) + "]"; }

// Frames of every node's incoming segment for the current pose; frames[0] is the base frame.
void ComputeFrames(const Tree& tree, std::span<const glm::vec3> p, std::span<Frame> frames) {
  frames[0] = MakeFrame(tree.base());
  for (std::size_t i = 1; i < p.size(); ++i) {
    const Frame& pf = frames[static_cast<std::size_t>(tree.parent(i))];
    frames[i] = TransportFrame(
        pf, SafeNormalize(p[i] - p[static_cast<std::size_t>(tree.parent(i))], pf.forward));
  }
}

float MaxViolationWith(const Tree& tree, std::span<const Frame> frames, int* worst_node) {
  float worst = 0.0f;
  int worst_index = -1;
  std::span<const glm::vec3> p = tree.positions();
  for (std::size_t i = 1; i < p.size(); ++i) {
    const JointConstraint& c = tree.constraint(i);
    if (!IsConstrained(c)) continue;
    const Frame& pf = frames[static_cast<std::size_t>(tree.parent(i))];
    const float v = ViolationAngle(c, pf, frames[i].forward);
    if (v > worst) {
      worst = v;
      worst_index = static_cast<int>(i);
    }
  }
  if (worst_node) *worst_node = worst_index;
  return worst;
}

int AtLimitWith(const Tree& tree, std::span<const Frame> frames, std::span<std::uint8_t> out,
                float epsilon) {
  int count = 0;
  for (std::size_t i = 0; i < tree.node_count(); ++i) {
    bool limited = false;
    if (i > 0) {
      const JointConstraint& c = tree.constraint(i);
      limited = IsConstrained(c) && IsAtLimit(c, frames[static_cast<std::size_t>(tree.parent(i))],
                                              frames[i].forward, epsilon);
    }
    if (i < out.size()) out[i] = limited ? 1 : 0;
    count += limited ? 1 : 0;
  }
  return count;
}

const char* ValidateTargets(const Tree& tree, std::span<const EffectorTarget> targets,
                            std::span<int> target_of) {
  if (targets.empty()) return "at least one effector target is needed";
  std::fill(target_of.begin(), target_of.end(), -1);
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const EffectorTarget& t = targets[k];
    if (t.node < 0 || static_cast<std::size_t>(t.node) >= tree.node_count()) {
      return "target node index out of range";
    }
    if (!tree.is_effector(static_cast<std::size_t>(t.node))) {
      return "target node is not an effector (a leaf)";
    }
    if (target_of[static_cast<std::size_t>(t.node)] >= 0) return "two targets for one effector";
    if (!IsFinite(t.position)) return "target is not finite (NaN or inf)";
    if (!std::isfinite(t.weight) || t.weight < 0.0f) return "target weight must be finite and >= 0";
    target_of[static_cast<std::size_t>(t.node)] = static_cast<int>(k);
  }
  return nullptr;
}

// The straight-chain trap for trees: if every node is on one line through the root, the
// reaches keep them there. Bend each segment a little (so deeper nodes further), keeping
// lengths; children are placed after their parent (index order), so a moved parent drags
// them along.
void UnbendIfCollinear(Tree& tree) {
  std::span<glm::vec3> p = tree.pose_for_solver();
  const glm::vec3 root = p[0];
  glm::vec3 axis(0.0f);
  for (std::size_t i = 1; i < p.size() && axis == glm::vec3(0.0f); ++i) {
    axis = SafeNormalize(p[i] - root, glm::vec3(0.0f));
  }
  if (axis == glm::vec3(0.0f) || !JointsOnLine(p, axis, 1e-5f * tree.max_reach())) return;
  BendOffLine(
      p, [&](std::size_t i) { return static_cast<std::size_t>(tree.parent(i)); },
      [&](std::size_t i) { return tree.length(i); }, [](std::size_t) { return 0.2f; }, axis,
      AnyPerpendicular(axis));
}

// Every segment straight on from its parent's (the root's children along the base axis), moved
// into its limit; fills `frames` for that pose. Always inside the limits.
void RestPose(const Tree& tree, std::span<glm::vec3> p, std::span<Frame> frames) {
  frames[0] = MakeFrame(tree.base());
  for (std::size_t i = 1; i < p.size(); ++i) {
    const auto par = static_cast<std::size_t>(tree.parent(i));
    const glm::vec3 d = RestDirection(tree.constraint(i), frames[par]);
    p[i] = p[par] + d * tree.length(i);
    frames[i] = TransportFrame(frames[par], d);
  }
}

}  // namespace

std::span<const int> Tree::children(std::size_t node) const {
  const auto b = static_cast<std::size_t>(child_begin_[node]);
  const auto e = static_cast<std::size_t>(child_begin_[node + 1]);
  return std::span<const int>(child_list_).subspan(b, e - b);
}

Result<Tree> Tree::Create(std::span<const TreeNodeSpec> nodes, const BaseFrame& base) {
  if (nodes.size() < 2) {
    return MakeError("a tree needs at least 2 nodes, got " + std::to_string(nodes.size()));
  }
  if (const char* e = ValidateBaseFrame(base)) return MakeError(e);
  Tree t;
  const std::size_t n = nodes.size();
  t.base_ = base;
  t.positions_.reserve(n);
  t.parents_.reserve(n);
  t.lengths_.assign(n, 0.0f);
  t.reach_.assign(n, 0.0f);
  t.constraints_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const TreeNodeSpec& s = nodes[i];
    if (!IsFinite(s.position)) return MakeError(NodeLabel(i) + ": position is not finite");
    if (i == 0) {
      if (s.parent != -1) return MakeError("nodes[0] is the root: its parent must be -1");
      if (IsConstrained(s.constraint)) {
        return MakeError(
            "nodes[0] is the root: it has no segment to limit (constrain its "
            "children; their limits are measured against the base frame)");
      }
    } else {
      if (s.parent < 0 || static_cast<std::size_t>(s.parent) >= i) {
        return MakeError(NodeLabel(i) + ": parent " + std::to_string(s.parent) +
                         " must be an earlier node (0.." + std::to_string(i - 1) + ")");
      }
      const glm::vec3 from = nodes[static_cast<std::size_t>(s.parent)].position;
      // In double: in float the squares overflow past ~1.8e19 and underflow below ~1e-19,
      // which would call a long or a tiny segment "zero-length".
      const double ld = glm::length(glm::dvec3(s.position) - glm::dvec3(from));
      if (!(ld > 0.0)) {
        return MakeError(NodeLabel(i) + " coincides with its parent nodes[" +
                         std::to_string(s.parent) + "]: zero-length segment");
      }
      if (!(ld <= double(std::numeric_limits<float>::max()))) {
        return MakeError(NodeLabel(i) + ": segment too long for single precision (above 3.4e38)");
      }
      if (ld < double(std::numeric_limits<float>::min())) {
        return MakeError(NodeLabel(i) +
                         ": segment shorter than 1.2e-38, too short for single "
                         "precision");
      }
      const auto l = static_cast<float>(ld);
      if (const char* e = ValidateJointConstraint(s.constraint)) {
        return MakeError(NodeLabel(i) + ": " + e);
      }
      t.lengths_[i] = l;
      t.reach_[i] = t.reach_[static_cast<std::size_t>(s.parent)] + l;
      t.total_length_ += l;
      t.max_reach_ = std::max(t.max_reach_, t.reach_[i]);
    }
    t.positions_.push_back(s.position);
    t.parents_.push_back(s.parent);
    t.constraints_.push_back(s.constraint);
  }
  if (!std::isfinite(t.total_length_)) return MakeError("total tree length overflows");

  // Children lists (compressed: counts, prefix sums, fill).
  t.child_begin_.assign(n + 1, 0);
  for (std::size_t i = 1; i < n; ++i) ++t.child_begin_[static_cast<std::size_t>(t.parents_[i]) + 1];
  for (std::size_t i = 0; i < n; ++i) t.child_begin_[i + 1] += t.child_begin_[i];
  t.child_list_.assign(n - 1, 0);
  std::vector<int> fill(t.child_begin_.begin(), t.child_begin_.end() - 1);
  for (std::size_t i = 1; i < n; ++i) {
    t.child_list_[static_cast<std::size_t>(fill[static_cast<std::size_t>(t.parents_[i])]++)] =
        static_cast<int>(i);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (t.is_effector(i)) t.effectors_.push_back(static_cast<int>(i));
  }

  t.scratch_.backward.assign(n, glm::vec3(0.0f));
  t.scratch_.sum.assign(n, glm::dvec3(0.0));
  t.scratch_.weight.assign(n, 0.0);
  t.scratch_.frames.assign(n, Frame{});
  t.scratch_.back_frames.assign(n, Frame{});
  t.scratch_.target_of.assign(n, -1);
  t.scratch_.kept.assign(n, glm::vec3(0.0f));
  return t;
}

std::vector<TreeNodeSpec> Tree::Specs() const {
  std::vector<TreeNodeSpec> specs(node_count());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    specs[i] = {parents_[i], positions_[i], constraints_[i]};
  }
  return specs;
}

Status Tree::SetPose(std::span<const glm::vec3> pose) {
  if (pose.size() != positions_.size()) {
    return MakeError("pose has " + std::to_string(pose.size()) + " nodes, tree has " +
                     std::to_string(positions_.size()));
  }
  if (pose[0] != positions_[0]) return MakeError("pose moves the root");
  for (std::size_t i = 0; i < pose.size(); ++i) {
    if (!IsFinite(pose[i])) return MakeError("pose[" + std::to_string(i) + "] is not finite");
    if (i == 0) continue;
    const float l = glm::length(pose[i] - pose[static_cast<std::size_t>(parents_[i])]);
    if (std::fabs(l - lengths_[i]) > 1e-4f * lengths_[i]) {
      return MakeError("pose changes the length of the segment into node " + std::to_string(i));
    }
  }
  std::copy(pose.begin(), pose.end(), positions_.begin());
  return Ok{};
}

Status Tree::SetConstraint(std::size_t node, const JointConstraint& constraint) {
  if (node >= node_count()) return MakeError("node " + std::to_string(node) + " does not exist");
  if (node == 0 && IsConstrained(constraint)) {
    return MakeError("nodes[0] is the root: it has no segment to limit");
  }
  if (const char* e = ValidateJointConstraint(constraint)) {
    return MakeError(NodeLabel(node) + ": " + e);
  }
  constraints_[node] = constraint;
  return Ok{};
}

namespace {

// The iterations of one tree solve (SolveTree): the backward pass (effectors to their
// targets, sub-bases to the weighted centroid of their branches' proposals) and the forward
// pass (root fixed, every node towards its backward position, within its limits).
class TreeIterations {
 public:
  TreeIterations(Tree& tree, std::span<const EffectorTarget> targets, const SolveSettings& settings,
                 TreeObserver* observer, TreeSolveResult& r)
      : tree_(tree),
        s_(tree.scratch_for_solver()),
        p_(tree.pose_for_solver()),
        n_(p_.size()),
        root_(p_[0]),
        targets_(targets),
        settings_(settings),
        observer_(observer),
        r_(r),
        noise_(1e-7f * tree.max_reach()) {}

  bool AllReached() const {
    for (const EffectorTarget& t : targets_) {
      if (RobustLength(p_[static_cast<std::size_t>(t.node)] - t.position) > settings_.tolerance) {
        return false;
      }
    }
    return true;
  }

  // How far the targets are, for choosing between two attempts: sum of weight x distance^2.
  double Miss() const {
    double sum = 0.0;
    for (const EffectorTarget& t : targets_) {
      const double d = RobustLength(p_[static_cast<std::size_t>(t.node)] - t.position);
      sum += static_cast<double>(t.weight) * d * d;
    }
    return sum;
  }

  // Iterations first..max_iterations from the current pose (frames in s_.frames).
  PassAttempt Iterate(int first) {
    PassAttempt a;
    for (int iteration = first; iteration <= settings_.max_iterations; ++iteration) {
      Backward(iteration);
      a.active = 0;
      const float moved = Forward(a.active);
      r_.iterations = iteration;
      if (observer_) observer_->OnHalfPass(PassKind::kForward, iteration, p_);
      if (AllReached()) break;
      float worst = 0.0f;
      for (const EffectorTarget& t : targets_) {
        worst = std::max(worst, RobustLength(p_[static_cast<std::size_t>(t.node)] - t.position));
      }
      // Nothing moved more than a thousandth of the largest remaining distance.
      if (NoProgress(moved, worst, noise_)) {
        a.stalled = true;
        break;
      }
    }
    return a;
  }

 private:
  // Where node i's backward position comes from; false when nothing below it pulls (then the
  // forward pass drags it along).
  bool PlaceBackward(std::size_t i) {
    const int k = s_.target_of[i];
    if (k >= 0 && targets_[static_cast<std::size_t>(k)].weight > 0.0f) {
      s_.backward[i] = targets_[static_cast<std::size_t>(k)].position;
      s_.weight[i] = targets_[static_cast<std::size_t>(k)].weight;
    } else if (s_.weight[i] > 0.0) {
      s_.backward[i] = glm::vec3(s_.sum[i] / s_.weight[i]);
    } else {
      s_.backward[i] = p_[i];
      return false;
    }
    return true;
  }

  // The direction of the segment parent -> i in the backward pass, from the parent's current
  // position, limited by the limits of i's pulling children seen from below (MirroredLimit)
  // and by its own fixed limit. The segment's frame is carried inwards from its heaviest
  // pulling child (from its own old frame at an effector), so that, as in a chain, "child
  // inside its limit" and "this segment inside the mirrored limit" are the same statement.
  glm::vec3 BackwardDirection(std::size_t i, std::size_t par) {
    glm::vec3 d = SafeNormalize(s_.backward[i] - p_[par], s_.frames[i].forward);
    const Frame* from = &s_.frames[i];
    double heaviest = 0.0;
    for (int c : tree_.children(i)) {
      const auto ci = static_cast<std::size_t>(c);
      if (s_.weight[ci] <= 0.0) continue;
      d = MirroredLimit(tree_.constraint(ci), i, s_.back_frames[ci], d);
      if (s_.weight[ci] > heaviest) {
        heaviest = s_.weight[ci];
        from = &s_.back_frames[ci];
      }
    }
    d = FixedLimit(tree_.constraint(i), par, s_.frames[0], d);
    s_.back_frames[i] = TransportFrame(*from, d);
    return d;
  }

  void Backward(int iteration) {
    std::fill(s_.sum.begin(), s_.sum.end(), glm::dvec3(0.0));
    std::fill(s_.weight.begin(), s_.weight.end(), 0.0);
    for (std::size_t i = n_; i-- > 1;) {
      if (!PlaceBackward(i)) continue;
      const auto par = static_cast<std::size_t>(tree_.parent(i));
      const glm::vec3 proposal = s_.backward[i] - BackwardDirection(i, par) * tree_.length(i);
      s_.sum[par] += glm::dvec3(proposal) * s_.weight[i];
      s_.weight[par] += s_.weight[i];
      if (observer_) {
        observer_->OnProposal(iteration, static_cast<int>(par), static_cast<int>(i), proposal,
                              static_cast<float>(s_.weight[i]));
      }
    }
    s_.backward[0] = s_.weight[0] > 0.0 ? glm::vec3(s_.sum[0] / s_.weight[0]) : root_;
    if (observer_) observer_->OnHalfPass(PassKind::kBackward, iteration, s_.backward);
  }

  // Returns how far the farthest node moved; counts limited directions in `active`.
  float Forward(int& active) {
    float moved = 0.0f;
    for (std::size_t i = 1; i < n_; ++i) {
      const auto par = static_cast<std::size_t>(tree_.parent(i));
      const Frame& pf = s_.frames[par];
      const glm::vec3 d = ForwardLimit(tree_.constraint(i), pf,
                                       SafeNormalize(s_.backward[i] - p_[par], pf.forward), active);
      const glm::vec3 next = p_[par] + d * tree_.length(i);
      moved = std::max(moved, RobustLength(next - p_[i]));
      p_[i] = next;
      s_.frames[i] = TransportFrame(pf, d);
    }
    return moved;
  }

  Tree& tree_;
  Tree::Scratch& s_;
  std::span<glm::vec3> p_;
  std::size_t n_;
  glm::vec3 root_;
  std::span<const EffectorTarget> targets_;
  const SolveSettings& settings_;
  TreeObserver* observer_;
  TreeSolveResult& r_;
  float noise_;
};

// The result's distances, flags and limits for the final pose.
void FinishTreeSolve(Tree& tree, std::span<const EffectorTarget> targets,
                     const SolveSettings& settings, const PassAttempt& attempt,
                     TreeSolveOutputs outputs, TreeSolveResult& r) {
  std::span<const glm::vec3> p = tree.positions();
  Tree::Scratch& s = tree.scratch_for_solver();
  r.max_distance = 0.0f;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const float dist =
        RobustLength(p[static_cast<std::size_t>(targets[k].node)] - targets[k].position);
    r.max_distance = std::max(r.max_distance, dist);
    if (k < outputs.distances.size()) outputs.distances[k] = dist;
  }
  r.reached = r.max_distance <= settings.tolerance;
  ComputeFrames(tree, p, s.frames);
  r.joints_at_limit = AtLimitWith(tree, s.frames, outputs.at_limit, kAtLimitEpsilon);
  r.max_violation = MaxViolationWith(tree, s.frames, nullptr);
  r.limited = r.reachable && !r.reached && (r.joints_at_limit > 0 || attempt.active > 0);
}

}  // namespace

TreeSolveResult SolveTree(Tree& tree, std::span<const EffectorTarget> targets,
                          const SolveSettings& settings, TreeObserver* observer,
                          TreeSolveOutputs outputs) {
  TreeSolveResult r;
  Tree::Scratch& s = tree.scratch_for_solver();
  const char* error = ValidateSolveInput(glm::vec3(0.0f), settings);
  if (!error) error = ValidateTargets(tree, targets, s.target_of);
  if (error) {
    r.ok = false;
    r.error = error;
    return r;
  }
  std::span<glm::vec3> p = tree.pose_for_solver();
  if (observer) observer->OnBegin(p);
  r.reachable = true;
  for (const EffectorTarget& t : targets) {
    if (RobustLength(t.position - p[0]) > tree.reach(static_cast<std::size_t>(t.node))) {
      r.reachable = false;
    }
  }

  TreeIterations solve(tree, targets, settings, observer, r);
  ComputeFrames(tree, p, s.frames);
  const bool start_inside = MaxViolationWith(tree, s.frames, nullptr) <= kAtLimitEpsilon * 0.1f;
  const bool start_reached = solve.AllReached();
  if (!start_reached) {
    UnbendIfCollinear(tree);
    ComputeFrames(tree, p, s.frames);
  }
  bool any_limit = false;
  for (std::size_t i = 1; i < p.size(); ++i) {
    any_limit = any_limit || IsConstrained(tree.constraint(i));
  }

  PassAttempt attempt;
  if (!start_reached || !start_inside) {
    // As for chains (constrained_fabrik.h): a stalled, reachable solve with iterations left is
    // run once more from the rest pose, and the closer result is kept.
    attempt = IterateWithRestart(
        p, s.kept, r.reachable && any_limit, r.iterations, settings.max_iterations,
        [&](int first) { return solve.Iterate(first); }, [&] { return solve.Miss(); },
        [&] {
          RestPose(tree, p, s.frames);
          UnbendIfCollinear(tree);
          ComputeFrames(tree, p, s.frames);
        });
  }
  FinishTreeSolve(tree, targets, settings, attempt, outputs, r);
  return r;
}

float TreeMaxConstraintViolation(const Tree& tree, int* worst_node) {
  std::vector<Frame> frames(tree.node_count());
  ComputeFrames(tree, tree.positions(), frames);
  return MaxViolationWith(tree, frames, worst_node);
}

int TreeJointsAtLimit(const Tree& tree, std::span<std::uint8_t> at_limit, float epsilon) {
  std::vector<Frame> frames(tree.node_count());
  ComputeFrames(tree, tree.positions(), frames);
  return AtLimitWith(tree, frames, at_limit, epsilon);
}

}  // namespace fabrik
