// Tests of multi-effector trees (tree.h): structure, the centroid rule, convergence, limits,
// and the builders.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <map>
#include <numbers>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/chain.h"
#include "ik/constraints.h"
#include "ik/constraints_desc.h"
#include "ik/fabrik.h"
#include "ik/tree.h"

namespace fabrik {
namespace {

constexpr float kLimitSlack = 1e-3f;

using testing::Finite;
using testing::RandomUnit;
using testing::Uniform;

Tree MakeTree(const std::vector<TreeNodeSpec>& specs, const BaseFrame& base = {}) {
  Result<Tree> t = Tree::Create(specs, base);
  EXPECT_TRUE(t.ok()) << t.error();
  return std::move(t).value();
}

// root(0) -> 1 -> 2 (sub-base) -> 3 -> 4 (effector A)
//                              -> 5 -> 6 (effector B)
Tree TwoEffectorTree() {
  return MakeTree({{-1, {0, 0, 0}, {}},
                   {0, {0, 1, 0}, {}},
                   {1, {0, 2, 0}, {}},
                   {2, {-0.5f, 2.8f, 0}, {}},
                   {3, {-1.0f, 3.5f, 0.1f}, {}},
                   {2, {0.5f, 2.8f, 0}, {}},
                   {5, {1.0f, 3.6f, -0.1f}, {}}});
}

// Root fixed bitwise, lengths kept, finite, every limit held.
void ExpectTreeInvariants(const Tree& tree, const glm::vec3& root, const char* what, int index) {
  std::span<const glm::vec3> p = tree.positions();
  ASSERT_EQ(std::memcmp(&p[0], &root, sizeof(root)), 0) << what << " " << index << ": root moved";
  for (std::size_t i = 0; i < p.size(); ++i) {
    ASSERT_TRUE(Finite(p[i])) << what << " " << index << ": node " << i;
    if (i == 0) continue;
    const double l =
        glm::length(glm::dvec3(p[i]) - glm::dvec3(p[static_cast<std::size_t>(tree.parent(i))]));
    EXPECT_NEAR(l, tree.length(i), 1e-4 * tree.length(i)) << what << " " << index << ": node " << i;
  }
  int worst = -1;
  EXPECT_LT(TreeMaxConstraintViolation(tree, &worst), kLimitSlack)
      << what << " " << index << ": node " << worst << " outside its limit";
}

// A pose inside the limits: random directions moved into each node's limit, root outwards;
// with `interior`, pulled part of the way back to the cone axis (see test_constraints.cpp).
std::vector<glm::vec3> RandomValidPose(std::mt19937& rng, const Tree& tree, bool interior) {
  std::vector<glm::vec3> p(tree.node_count());
  std::vector<Frame> f(tree.node_count());
  p[0] = tree.root();
  f[0] = MakeFrame(tree.base());
  for (std::size_t i = 1; i < p.size(); ++i) {
    const auto par = static_cast<std::size_t>(tree.parent(i));
    glm::vec3 d = ConstrainDirection(tree.constraint(i), f[par], RandomUnit(rng));
    if (interior && IsConstrained(tree.constraint(i))) {
      const float u = Uniform(rng, 0.0f, 0.85f);
      d = glm::normalize(f[par].forward * (1.0f - u) + d * u);
    }
    p[i] = p[par] + d * tree.length(i);
    f[i] = TransportFrame(f[par], d);
  }
  return p;
}

std::vector<EffectorTarget> TargetsAt(const Tree& tree, const std::vector<glm::vec3>& pose) {
  std::vector<EffectorTarget> t;
  for (int e : tree.effectors()) t.push_back({e, pose[static_cast<std::size_t>(e)], 1.0f});
  return t;
}

// ---- Structure and builders -------------------------------------------------------------------

TEST(TreeBuild, StructureOfATwoEffectorTree) {
  const Tree t = TwoEffectorTree();
  EXPECT_EQ(t.node_count(), 7u);
  EXPECT_EQ(std::vector<int>(t.effectors().begin(), t.effectors().end()), (std::vector<int>{4, 6}));
  EXPECT_EQ(std::vector<int>(t.children(2).begin(), t.children(2).end()), (std::vector<int>{3, 5}));
  EXPECT_TRUE(t.children(4).empty());
  EXPECT_EQ(t.parent(0), -1);
  EXPECT_EQ(t.parent(5), 2);
  EXPECT_FLOAT_EQ(t.length(1), 1.0f);
  EXPECT_FLOAT_EQ(t.reach(2), 2.0f);
  EXPECT_NEAR(t.reach(4), 2.0f + std::sqrt(0.25f + 0.64f) + std::sqrt(0.25f + 0.49f + 0.01f),
              1e-5f);
  EXPECT_EQ(t.Specs().size(), 7u);
}

TEST(TreeBuild, CreateRejectsBadInput) {
  auto error_of = [](const std::vector<TreeNodeSpec>& s) {
    Result<Tree> t = Tree::Create(s);
    return t.ok() ? std::string() : t.error();
  };
  EXPECT_NE(error_of({{-1, {0, 0, 0}, {}}}).find("at least 2"), std::string::npos);
  EXPECT_NE(error_of({{0, {0, 0, 0}, {}}, {0, {0, 1, 0}, {}}}).find("parent must be -1"),
            std::string::npos);
  EXPECT_NE(error_of({{-1, {0, 0, 0}, {}}, {1, {0, 1, 0}, {}}}).find("nodes[1]: parent 1"),
            std::string::npos);
  EXPECT_NE(error_of({{-1, {0, 0, 0}, {}}, {0, {0, 0, 0}, {}}}).find("zero-length"),
            std::string::npos);
  EXPECT_NE(error_of({{-1, {0, 0, 0}, {}}, {0, {NAN, 0, 0}, {}}}).find("not finite"),
            std::string::npos);
  EXPECT_NE(
      error_of({{-1, {0, 0, 0}, JointConstraint::Cone(1.0f)}, {0, {0, 1, 0}, {}}}).find("root"),
      std::string::npos);
  EXPECT_NE(
      error_of({{-1, {0, 0, 0}, {}}, {0, {0, 1, 0}, JointConstraint::Cone(5.0f)}}).find("nodes[1]"),
      std::string::npos);
  EXPECT_FALSE(Tree::Create(TwoEffectorTree().Specs(), {{0, 0, 0}, {0, 0, 1}}).ok());
}

// Lengths are measured in double: 1e20 and 1e-25 are ordinary segments, not "zero-length"
// (in float the squared length overflows or underflows); only what float cannot hold fails.
TEST(TreeBuild, HugeAndTinySegmentsAreMeasuredRight) {
  for (float scale : {1e20f, 1e-25f, 1e30f, 1e-30f}) {
    Result<Tree> t = Tree::Create(std::vector<TreeNodeSpec>{
        {-1, {0, 0, 0}, {}}, {0, {0, scale, 0}, {}}, {1, {scale, scale, 0}, {}}});
    ASSERT_TRUE(t.ok()) << scale << ": " << t.error();
    EXPECT_FLOAT_EQ(t.value().total_length(), 2.0f * scale);
  }
  Result<Tree> subnormal =
      Tree::Create(std::vector<TreeNodeSpec>{{-1, {0, 0, 0}, {}}, {0, {0, 1e-40f, 0}, {}}});
  ASSERT_FALSE(subnormal.ok());
  EXPECT_NE(subnormal.error().find("too short"), std::string::npos) << subnormal.error();
  Result<Tree> huge =
      Tree::Create(std::vector<TreeNodeSpec>{{-1, {-3e38f, 0, 0}, {}}, {0, {3e38f, 0, 0}, {}}});
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().find("too long"), std::string::npos) << huge.error();
}

TEST(TreeBuild, SetPoseAndSetConstraintValidate) {
  Tree t = TwoEffectorTree();
  std::vector<glm::vec3> pose(t.positions().begin(), t.positions().end());
  EXPECT_TRUE(t.SetPose(pose).ok());
  pose[4] += glm::vec3(0.1f, 0, 0);
  EXPECT_FALSE(t.SetPose(pose).ok());
  pose = {t.positions().begin(), t.positions().end()};
  pose[0] += glm::vec3(0.1f, 0, 0);
  for (glm::vec3& q : pose) q += glm::vec3(0);
  EXPECT_FALSE(t.SetPose(pose).ok());
  EXPECT_FALSE(t.SetPose(std::vector<glm::vec3>(3)).ok());
  EXPECT_TRUE(t.SetConstraint(3, JointConstraint::Cone(0.4f)).ok());
  EXPECT_EQ(t.constraint(3).type, ConstraintType::kBall);
  EXPECT_FALSE(t.SetConstraint(0, JointConstraint::Cone(0.4f)).ok());
  EXPECT_FALSE(t.SetConstraint(9, {}).ok());
  EXPECT_FALSE(t.SetConstraint(3, JointConstraint::Hinge({0, 0, 0}, 0, 1)).ok());
}

TEST(TreeBuild, HandsAndCreaturesHaveThreeToFiveEffectorsAndStartInsideTheirLimits) {
  for (int n = 3; n <= 5; ++n) {
    for (bool constrained : {false, true}) {
      HandSpec hs;
      hs.fingers = n;
      hs.constrained = constrained;
      Result<Tree> hand = BuildHand(hs);
      ASSERT_TRUE(hand.ok()) << hand.error();
      EXPECT_EQ(hand.value().effectors().size(), static_cast<std::size_t>(n));
      EXPECT_EQ(hand.value().node_count(),
                3u + static_cast<std::size_t>(n * hs.segments_per_finger));
      EXPECT_LT(TreeMaxConstraintViolation(hand.value()), 1e-5f);
      // Nested sub-bases: the thumb's at mid-palm, the fingers' at the knuckle.
      EXPECT_EQ(hand.value().children(1).size(), 2u);
      EXPECT_EQ(hand.value().children(2).size(), static_cast<std::size_t>(n - 1));

      CreatureSpec cs;
      cs.effectors = n;
      cs.constrained = constrained;
      Result<Tree> creature = BuildCreature(cs);
      ASSERT_TRUE(creature.ok()) << creature.error();
      EXPECT_EQ(creature.value().effectors().size(), static_cast<std::size_t>(n));
      EXPECT_LT(TreeMaxConstraintViolation(creature.value()), 1e-5f);
    }
  }
  HandSpec bad;
  bad.fingers = 6;
  EXPECT_FALSE(BuildHand(bad).ok());
  bad.fingers = 4;
  bad.segment_length = 0.0f;
  EXPECT_FALSE(BuildHand(bad).ok());
  CreatureSpec bad_creature;
  bad_creature.effectors = 2;
  EXPECT_FALSE(BuildCreature(bad_creature).ok());
  bad_creature.effectors = 4;
  bad_creature.scale = -1.0f;
  EXPECT_FALSE(BuildCreature(bad_creature).ok());
}

TEST(TreeBuild, DescriptionsConvert) {
  std::vector<TreeNodeDesc> nodes(3);
  nodes[0] = {-1, {0, 0, 0}, std::nullopt};
  nodes[1] = {0, {0, 1, 0}, ConstraintDesc{}};
  nodes[1].constraint->type = "ball";
  nodes[1].constraint->angle = 0.6f;
  nodes[2] = {1, {0, 2, 0}, std::nullopt};
  Result<Tree> t = ToTree(nodes);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_FLOAT_EQ(t.value().constraint(1).cone.left, 0.6f);
  nodes[1].constraint->type = "hinge";
  Result<Tree> bad = ToTree(nodes);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("nodes[1].constraint"), std::string::npos) << bad.error();
}

// ---- The centroid rule ------------------------------------------------------------------------

class CentroidRecorder : public TreeObserver {
 public:
  struct Proposal {
    int child;
    glm::vec3 position;
    float weight;
  };
  void OnProposal(int iteration, int sub_base, int child, const glm::vec3& proposed,
                  float weight) override {
    if (iteration == 1) proposals[sub_base].push_back({child, proposed, weight});
  }
  void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> positions) override {
    kinds.push_back(kind);
    if (iteration == 1 && kind == PassKind::kBackward)
      backward.assign(positions.begin(), positions.end());
  }
  std::map<int, std::vector<Proposal>> proposals;
  std::vector<glm::vec3> backward;
  std::vector<PassKind> kinds;
};

// One FABRIK backward reach along the branch that leaves `sub_base` through `first` and ends
// at a leaf with `target`: where that branch wants the sub-base. Computed here independently.
glm::vec3 BranchProposal(const Tree& t, int sub_base, int first, const glm::vec3& target) {
  std::vector<int> path{first};
  while (!t.children(static_cast<std::size_t>(path.back())).empty()) {
    path.push_back(t.children(static_cast<std::size_t>(path.back()))[0]);
  }
  glm::vec3 placed = target;  // the leaf
  for (std::size_t k = path.size(); k-- > 0;) {
    const int node = path[k];
    const int towards = k == 0 ? sub_base : path[k - 1];
    const glm::vec3 old = t.positions()[static_cast<std::size_t>(towards)];
    placed = placed + glm::normalize(old - placed) * t.length(static_cast<std::size_t>(node));
  }
  return placed;
}

TEST(TreeSolve, SubBaseIsTheWeightedCentroidOfWhatItsBranchesPropose) {
  for (float wb : {1.0f, 3.0f}) {
    Tree t = TwoEffectorTree();
    const Tree before = t;
    const glm::vec3 ta(-1.5f, 2.5f, 0.5f);
    const glm::vec3 tb(1.2f, 3.9f, -0.4f);
    const std::vector<EffectorTarget> targets{{4, ta, 1.0f}, {6, tb, wb}};
    CentroidRecorder rec;
    SolveSettings settings;
    settings.max_iterations = 1;
    const TreeSolveResult r = SolveTree(t, targets, settings, &rec);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(rec.proposals[2].size(), 2u);
    const glm::vec3 pa = BranchProposal(before, 2, 3, ta);
    const glm::vec3 pb = BranchProposal(before, 2, 5, tb);
    for (const auto& p : rec.proposals[2]) {
      EXPECT_LT(glm::length(p.position - (p.child == 3 ? pa : pb)), 1e-5f);
      EXPECT_FLOAT_EQ(p.weight, p.child == 3 ? 1.0f : wb);
    }
    const glm::vec3 centroid = (pa * 1.0f + pb * wb) / (1.0f + wb);
    ASSERT_EQ(rec.backward.size(), 7u);
    EXPECT_LT(glm::length(rec.backward[2] - centroid), 1e-5f) << "weight " << wb;
    // The trunk continues from there: node 1 proposed by the sub-base alone, with both weights.
    ASSERT_EQ(rec.proposals[1].size(), 1u);
    EXPECT_FLOAT_EQ(rec.proposals[1][0].weight, 1.0f + wb);
    const glm::vec3 old1 = before.positions()[1];
    EXPECT_LT(glm::length(rec.proposals[1][0].position -
                          (centroid + glm::normalize(old1 - centroid) * before.length(2))),
              1e-5f);
    ExpectTreeInvariants(t, glm::vec3(0), "centroid", 0);
  }
}

TEST(TreeSolve, ObserverSeesBackwardThenForward) {
  Tree t = TwoEffectorTree();
  CentroidRecorder rec;
  SolveSettings settings;
  settings.max_iterations = 5;
  settings.tolerance = 1e-7f;
  const TreeSolveResult r = SolveTree(
      t, std::vector<EffectorTarget>{{4, {-1, 2, 1}, 1}, {6, {1, 2, 1}, 1}}, settings, &rec);
  ASSERT_EQ(rec.kinds.size(), 2u * static_cast<std::size_t>(r.iterations));
  for (std::size_t i = 0; i < rec.kinds.size(); ++i) {
    EXPECT_EQ(rec.kinds[i], i % 2 == 0 ? PassKind::kBackward : PassKind::kForward);
  }
}

// ---- Convergence and invariants ---------------------------------------------------------------

// Many sibling branches make the sum of all lengths far larger than any path. The tree's size
// for convergence is its longest path: a three-segment arm beside 50,000 unit stubs still
// converges to a tolerance of 1e-6 of its own length.
TEST(TreeSolve, ManySiblingBranchesDoNotLoosenConvergence) {
  std::vector<TreeNodeSpec> specs = {{-1, {0, 0, 0}, {}}};
  for (int i = 0; i < 50'000; ++i) {
    const float a = 2.0f * std::numbers::pi_v<float> * static_cast<float>(i) / 50'000.0f;
    specs.push_back({0, {std::cos(a), 0.0f, std::sin(a)}, {}});
  }
  const int arm = static_cast<int>(specs.size());
  specs.push_back({0, {0, 1, 0}, {}});
  specs.push_back({arm, {0, 2, 0}, {}});
  specs.push_back({arm + 1, {0, 3, 0}, {}});
  Tree t = MakeTree(specs);
  EXPECT_FLOAT_EQ(t.max_reach(), 3.0f);
  EXPECT_GT(t.total_length(), 50'000.0f);
  const std::vector<EffectorTarget> targets = {{arm + 2, {1.2f, 1.9f, 0.7f}, 1.0f}};
  SolveSettings settings;
  settings.tolerance = 3e-6f;
  settings.max_iterations = 1000;
  const TreeSolveResult r = SolveTree(t, targets, settings);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.reached) << r.max_distance;
  EXPECT_LE(r.max_distance, settings.tolerance);
  ExpectTreeInvariants(t, glm::vec3(0), "stubs", 0);
}

TEST(TreeSolve, ReachableTwoEffectorTargetsConverge) {
  std::mt19937 rng(51);
  const int cases = 300;
  int reached = 0;
  for (int c = 0; c < cases; ++c) {
    Tree t = TwoEffectorTree();
    const std::vector<glm::vec3> goal = RandomValidPose(rng, t, false);
    const std::vector<EffectorTarget> targets = TargetsAt(t, goal);
    SolveSettings settings;
    settings.tolerance = 1e-3f;
    settings.max_iterations = 300;
    std::vector<float> distances(2, -1.0f);
    const TreeSolveResult r = SolveTree(t, targets, settings, nullptr, {distances, {}});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.reachable);
    ExpectTreeInvariants(t, glm::vec3(0), "case", c);
    EXPECT_FLOAT_EQ(std::max(distances[0], distances[1]), r.max_distance);
    EXPECT_EQ(r.reached, r.max_distance <= settings.tolerance);
    reached += r.reached;
  }
  EXPECT_GE(reached, cases * 97 / 100) << reached << " of " << cases;
}

// Built hands and creatures (3-5 effectors), solved from their build pose towards the
// effectors of a random pose inside their limits. Returns how many of `cases` were reached.
int ReachBuiltModels(std::uint32_t seed, bool constrained, int cases) {
  std::mt19937 rng(seed);
  int reached = 0;
  for (int c = 0; c < cases; ++c) {
    Result<Tree> built = [&] {
      if (c % 2 == 0) {
        HandSpec hs;
        hs.fingers = 3 + c % 3;
        hs.constrained = constrained;
        return BuildHand(hs);
      }
      CreatureSpec cs;
      cs.effectors = 3 + c % 3;
      cs.constrained = constrained;
      return BuildCreature(cs);
    }();
    EXPECT_TRUE(built.ok());
    Tree t = std::move(built).value();
    const std::vector<glm::vec3> goal = RandomValidPose(rng, t, /*interior=*/true);
    SolveSettings settings;
    settings.tolerance = 1e-2f;
    settings.max_iterations = 300;
    const TreeSolveResult r = SolveTree(t, TargetsAt(t, goal), settings);
    EXPECT_TRUE(r.ok) << r.error;
    ExpectTreeInvariants(t, t.root(), "built", c);
    reached += r.reached;
  }
  return reached;
}

TEST(TreeSolve, BuiltModelsReachTargetsFromRandomPoses) {
  const int reached = ReachBuiltModels(52, /*constrained=*/false, 120);
  EXPECT_GE(reached, 120 * 97 / 100) << reached << " of 120";
}

// Several constrained branches pulling one constrained trunk are FABRIK's hardest case (the
// passes can settle in a compromise on the limits); most targets are still reached, and every
// solve keeps the invariants.
TEST(TreeSolve, ConstrainedBuiltModelsMostlyReachTargetsFromRandomPoses) {
  const int reached = ReachBuiltModels(53, /*constrained=*/true, 120);
  EXPECT_GE(reached, 120 * 70 / 100) << reached << " of 120";
}

// A random tree: each node hangs from a random earlier node.
Tree RandomTree(std::mt19937& rng, bool constrained) {
  const int n = std::uniform_int_distribution<int>(2, 14)(rng);
  std::vector<TreeNodeSpec> specs{{-1, RandomUnit(rng) * Uniform(rng, 0.0f, 3.0f), {}}};
  for (int i = 1; i < n; ++i) {
    TreeNodeSpec s;
    s.parent = std::uniform_int_distribution<int>(std::max(0, i - 3), i - 1)(rng);
    s.position = specs[static_cast<std::size_t>(s.parent)].position +
                 RandomUnit(rng) * Uniform(rng, 0.2f, 1.5f);
    if (constrained) {
      switch (rng() % 4) {
        case 0:
          break;
        case 1:
          s.constraint = JointConstraint::Ball(Uniform(rng, 0.0f, std::numbers::pi_v<float>),
                                               Uniform(rng, 0.0f, std::numbers::pi_v<float>),
                                               Uniform(rng, 0.0f, std::numbers::pi_v<float>),
                                               Uniform(rng, 0.0f, std::numbers::pi_v<float>));
          break;
        case 2:
          s.constraint = JointConstraint::Cone(rng() % 2 ? 0.0f : std::numbers::pi_v<float>);
          break;
        default: {
          float lo = Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>);
          float hi = Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>);
          if (lo > hi) std::swap(lo, hi);
          s.constraint = JointConstraint::Hinge(
              RandomUnit(rng), lo, hi, rng() % 2 ? HingeSpace::kParent : HingeSpace::kWorld,
              RandomUnit(rng));
        }
      }
    }
    specs.push_back(s);
  }
  return MakeTree(specs, {RandomUnit(rng), RandomUnit(rng)});
}

TEST(TreeSolve, RandomTreesKeepLimitsLengthsAndRoot) {
  std::mt19937 rng(53);
  int limited = 0;
  for (int c = 0; c < 400; ++c) {
    Tree t = RandomTree(rng, /*constrained=*/c % 5 != 0);
    const glm::vec3 root = t.root();
    std::vector<EffectorTarget> targets;
    for (int e : t.effectors()) {
      if (rng() % 4 == 0 && !targets.empty()) continue;  // some effectors just follow
      const float weight = rng() % 5 == 0 ? 0.0f : Uniform(rng, 0.2f, 3.0f);
      targets.push_back(
          {e,
           root + RandomUnit(rng) * Uniform(rng, 0.0f, 1.3f) * t.reach(static_cast<std::size_t>(e)),
           weight});
    }
    SolveSettings settings;
    settings.tolerance = 1e-3f;
    settings.max_iterations = 1 + c % 50;
    std::vector<std::uint8_t> at_limit(t.node_count(), 9);
    const TreeSolveResult r = SolveTree(t, targets, settings, nullptr, {{}, at_limit});
    ASSERT_TRUE(r.ok) << r.error;
    ExpectTreeInvariants(t, root, "case", c);
    EXPECT_LT(r.max_violation, kLimitSlack);
    EXPECT_EQ(at_limit[0], 0);
    int count = 0;
    for (std::uint8_t a : at_limit) {
      EXPECT_LE(a, 1);
      count += a;
    }
    EXPECT_EQ(count, r.joints_at_limit);
    limited += r.limited;
  }
  EXPECT_GT(limited, 10);
}

TEST(TreeSolve, ConstrainedRandomTreesReachTargetsInsideTheirReachableSet) {
  std::mt19937 rng(55);
  const int cases = 300;
  int reached = 0;
  for (int c = 0; c < cases; ++c) {
    const int n = std::uniform_int_distribution<int>(5, 12)(rng);
    std::vector<TreeNodeSpec> specs{{-1, glm::vec3(0), {}}};
    for (int i = 1; i < n; ++i) {
      TreeNodeSpec s;
      s.parent = std::uniform_int_distribution<int>(std::max(0, i - 2), i - 1)(rng);
      s.position = specs[static_cast<std::size_t>(s.parent)].position +
                   RandomUnit(rng) * Uniform(rng, 0.3f, 1.2f);
      s.constraint = JointConstraint::Ball(Uniform(rng, 0.5f, 1.5f), Uniform(rng, 0.5f, 1.5f),
                                           Uniform(rng, 0.5f, 1.5f), Uniform(rng, 0.5f, 1.5f));
      specs.push_back(s);
    }
    Tree t = MakeTree(specs);
    ASSERT_TRUE(t.SetPose(RandomValidPose(rng, t, false)).ok());
    const std::vector<glm::vec3> goal = RandomValidPose(rng, t, /*interior=*/true);
    SolveSettings settings;
    settings.tolerance = 1e-2f;
    settings.max_iterations = 300;
    const TreeSolveResult r = SolveTree(t, TargetsAt(t, goal), settings);
    ASSERT_TRUE(r.ok) << r.error;
    ExpectTreeInvariants(t, glm::vec3(0), "case", c);
    reached += r.reached;
  }
  EXPECT_GE(reached, cases * 90 / 100) << reached << " of " << cases;
}

TEST(TreeSolve, SingleBranchTreeIsPlainFabrik) {
  std::mt19937 rng(54);
  for (int c = 0; c < 50; ++c) {
    std::vector<glm::vec3> joints{glm::vec3(0)};
    for (int i = 0; i < 5; ++i)
      joints.push_back(joints.back() + RandomUnit(rng) * Uniform(rng, 0.3f, 1.0f));
    Chain chain = Chain::FromJoints(joints).value();
    std::vector<TreeNodeSpec> specs;
    for (std::size_t i = 0; i < joints.size(); ++i)
      specs.push_back({static_cast<int>(i) - 1, joints[i], {}});
    Tree tree = MakeTree(specs);
    const glm::vec3 target = RandomUnit(rng) * Uniform(rng, 0.0f, 0.9f) * chain.total_length();
    SolveSettings settings;
    settings.tolerance = 1e-6f;
    settings.max_iterations = 1 + c % 5;  // short: both run the same number of iterations
    const SolveResult a = SolveFabrik(chain, target, settings);
    const TreeSolveResult b =
        SolveTree(tree, std::vector<EffectorTarget>{{5, target, 1.0f}}, settings);
    ASSERT_TRUE(b.ok);
    if (a.iterations != b.iterations) continue;  // the tree stopped early for lack of progress
    for (std::size_t i = 0; i < joints.size(); ++i) {
      EXPECT_LT(glm::length(chain.joints()[i] - tree.positions()[i]), 1e-4f) << "case " << c;
    }
  }
}

TEST(TreeSolve, UntargetedAndZeroWeightBranchesFollowWithoutPulling) {
  Tree t = TwoEffectorTree();
  const glm::vec3 ta(-1.2f, 2.9f, 0.6f);
  SolveSettings settings;
  settings.tolerance = 1e-4f;
  settings.max_iterations = 200;
  // Only effector 4 is targeted: it is reached like a single chain would be.
  TreeSolveResult r = SolveTree(t, std::vector<EffectorTarget>{{4, ta, 1.0f}}, settings);
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.reached);
  ExpectTreeInvariants(t, glm::vec3(0), "untargeted", 0);
  // A zero weight on effector 6 changes nothing compared with no target at all.
  Tree a = TwoEffectorTree();
  Tree b = TwoEffectorTree();
  settings.max_iterations = 3;
  settings.tolerance = 1e-7f;
  (void)SolveTree(a, std::vector<EffectorTarget>{{4, ta, 1.0f}}, settings);
  const TreeSolveResult rb =
      SolveTree(b, std::vector<EffectorTarget>{{4, ta, 1.0f}, {6, {5, 5, 5}, 0.0f}}, settings);
  EXPECT_FALSE(rb.reached);  // effector 6 is nowhere near (5, 5, 5)
  EXPECT_EQ(std::memcmp(a.positions().data(), b.positions().data(), a.positions().size_bytes()), 0);
}

TEST(TreeSolve, RejectsBadTargetsAndSettingsAndLeavesTheTreeAlone) {
  Tree t = TwoEffectorTree();
  const std::vector<glm::vec3> before(t.positions().begin(), t.positions().end());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::vector<EffectorTarget>> bad = {
      {},
      {{2, {0, 1, 0}, 1}},  // a sub-base, not a leaf
      {{7, {0, 1, 0}, 1}},  // no such node
      {{-1, {0, 1, 0}, 1}},
      {{4, {0, 1, 0}, 1}, {4, {0, 2, 0}, 1}},  // twice
      {{4, {nan, 1, 0}, 1}},
      {{4, {0, 1, 0}, -1}},
      {{4, {0, 1, 0}, nan}}};
  for (const auto& targets : bad) {
    const TreeSolveResult r = SolveTree(t, targets, {});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error, nullptr);
  }
  SolveSettings s;
  s.max_iterations = 0;
  EXPECT_FALSE(SolveTree(t, std::vector<EffectorTarget>{{4, {0, 1, 0}, 1}}, s).ok);
  EXPECT_EQ(std::memcmp(t.positions().data(), before.data(), t.positions().size_bytes()), 0);
}

TEST(TreeSolve, UnreachableTargetsAreReportedAndStretchedFor) {
  Tree t = TwoEffectorTree();
  SolveSettings settings;
  settings.max_iterations = 100;
  const TreeSolveResult r =
      SolveTree(t, std::vector<EffectorTarget>{{4, {-20, 0, 0}, 1}, {6, {20, 0, 0}, 1}}, settings);
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(r.reachable);
  EXPECT_FALSE(r.reached);
  EXPECT_FALSE(r.limited);
  ExpectTreeInvariants(t, glm::vec3(0), "unreachable", 0);
  // Pulled apart: the effectors end on opposite sides.
  EXPECT_LT(t.positions()[4].x, -1.0f);
  EXPECT_GT(t.positions()[6].x, 1.0f);
}

TEST(TreeSolve, LockedTreeIsFlaggedLimited) {
  std::vector<TreeNodeSpec> specs = TwoEffectorTree().Specs();
  // Base forward +Y: the trunk is straight up; lock it there.
  specs[1].constraint = JointConstraint::Cone(0.0f);
  specs[2].constraint = JointConstraint::Cone(0.0f);
  Tree t = MakeTree(specs);
  std::vector<std::uint8_t> at_limit(t.node_count());
  SolveSettings settings;
  settings.max_iterations = 100;
  const TreeSolveResult r =
      SolveTree(t, std::vector<EffectorTarget>{{4, {-2.0f, 0.5f, 0}, 1}, {6, {2.0f, 0.5f, 0}, 1}},
                settings, nullptr, {{}, at_limit});
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.reachable);
  EXPECT_FALSE(r.reached);
  EXPECT_TRUE(r.limited);
  EXPECT_EQ(at_limit[1], 1);
  EXPECT_EQ(at_limit[2], 1);
  EXPECT_EQ(at_limit[4], 0);
  EXPECT_LT(glm::length(t.positions()[2] - glm::vec3(0, 2, 0)), 1e-4f);
}

TEST(TreeSolve, CollinearTreeUnfolds) {
  std::vector<TreeNodeSpec> specs;
  for (int i = 0; i < 5; ++i) specs.push_back({i - 1, {0.0f, static_cast<float>(i), 0.0f}, {}});
  Tree t = MakeTree(specs);
  SolveSettings settings;
  settings.max_iterations = 100;
  const TreeSolveResult r = SolveTree(t, std::vector<EffectorTarget>{{4, {0, 2, 0}, 1}}, settings);
  EXPECT_TRUE(r.reached) << r.max_distance;
  ExpectTreeInvariants(t, glm::vec3(0), "collinear", 0);
}

TEST(TreeSolve, AlreadySolvedTreeRunsNoIteration) {
  Tree t = TwoEffectorTree();
  const TreeSolveResult r =
      SolveTree(t, TargetsAt(t, {t.positions().begin(), t.positions().end()}), {});
  EXPECT_EQ(r.iterations, 0);
  EXPECT_TRUE(r.reached);
}

}  // namespace
}  // namespace fabrik
