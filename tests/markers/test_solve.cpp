// Calibration and the per-frame solve on a synthetic subject whose joint centres are known
// (markers generated from CMU 01_01 with offsets and 1 mm noise), occlusion, rejection and
// the solve's invariants (src/markers/calibrate.h, solve.h, take_solve.h).
#include <gtest/gtest.h>

#include <cmath>

#include "markers/take_solve.h"
#include "markers_test_util.h"

namespace fabrik::markers {
namespace {

using testing::MakeSubject;
using testing::Subject;

constexpr int kFrames = 1200;  // 10 s

const Subject& SharedSubject() {
  static const Subject subject = MakeSubject(kFrames, 0.001f);
  return subject;
}

const TakeSolution& SharedSolution() {
  static const TakeSolution solution = [] {
    Result<TakeSolution> s = SolveTake(SharedSubject().take, SharedSubject().set);
    EXPECT_TRUE(s.ok()) << s.error();
    return std::move(s).value();
  }();
  return solution;
}

// The take solved a few frames at a time (the demo's export) is SolveTake's solution, frame
// for frame, and says how far it has got.
TEST(TakeSolveRun, InStepsGivesSolveTakesSolution) {
  const Subject& subject = SharedSubject();
  Result<BoundSet> bound = BindMarkerSet(subject.set, subject.take);
  ASSERT_TRUE(bound.ok()) << bound.error();
  Result<TakeSolveRun> run = TakeSolveRun::Start(subject.take, SharedSolution().calibration);
  ASSERT_TRUE(run.ok()) << run.error();
  TakeSolveRun& r = run.value();
  EXPECT_EQ(r.frame_count(), kFrames);
  int calls = 0;
  while (!r.Advance(97)) {
    ++calls;
    EXPECT_EQ(r.frames_done(), 97 * calls);
    ASSERT_LT(calls, kFrames);
  }
  EXPECT_EQ(calls, kFrames / 97);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.frames_done(), kFrames);
  const TakeSolution stepped = std::move(r).Release();
  const TakeSolution& whole = SharedSolution();
  ASSERT_EQ(stepped.joints.size(), whole.joints.size());
  for (std::size_t f = 0; f < whole.joints.size(); ++f) {
    for (int n = 0; n < kNodeCount; ++n) {
      ASSERT_EQ(stepped.joints[f][n], whole.joints[f][n]) << "frame " << f << " joint " << n;
    }
  }
  EXPECT_EQ(stepped.states, whole.states);
  EXPECT_EQ(stepped.filled.positions, whole.filled.positions);
  EXPECT_EQ(stepped.residual_rms, whole.residual_rms);
}

TEST(MarkerCalibration, LimbJointCentresAreFoundWhereTheClipHasThem) {
  const Subject& subject = SharedSubject();
  const TakeSolution& solution = SharedSolution();
  for (int n = 0; n < kNodeCount; ++n) {
    const std::string truth = testing::TrueJoint(n);
    if (truth.empty()) continue;
    double sum = 0.0;
    int count = 0;
    for (int f = 0; f < kFrames; f += 40) {
      sum += glm::distance(solution.joints[f][n], subject.JointAt(truth, f)), ++count;
    }
    // Knees and elbows move about one axis, so their centre along it is a guess: 4 cm;
    // the ball joints and wrists 2.5 cm.
    const bool hinge = n == kKneeL || n == kKneeR || n == kElbowL || n == kElbowR;
    EXPECT_LT(sum / count, hinge ? 0.04 : 0.025) << kNodeNames[n];
  }
}

TEST(MarkerSolve, ResidualsAreSmallAndBonesKeepTheirLengths) {
  const TakeSolution& solution = SharedSolution();
  const SolveSummary summary = Summarise(solution);
  EXPECT_LT(summary.residual_rms_mean, 0.010);
  EXPECT_LT(summary.bone_length_change_max, 1e-4);
  EXPECT_LT(summary.joint_jump_max, 0.04) << "frame " << summary.joint_jump_max_frame;
  for (const auto& frame : solution.joints) {
    for (const glm::vec3& p : frame) ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
  }
  EXPECT_TRUE(RejectedStretches(solution, 5).empty());
}

// Solves with the shared calibration; the take may differ from the one calibrated on.
std::vector<FrameSolution> SolveWith(const Take& take, int frames) {
  Result<MarkerSolver> solver =
      MarkerSolver::Create(SharedSolution().calibration, take.marker_count());
  EXPECT_TRUE(solver.ok()) << solver.error();
  std::vector<FrameSolution> out;
  for (int f = 0; f < frames; ++f) out.push_back(solver.value().Solve(take, f));
  return out;
}

TEST(MarkerSolve, IsCausal) {
  Take changed = SharedSubject().take;
  for (int f = 300; f < changed.frame_count; ++f) {
    for (int m = 0; m < changed.marker_count(); ++m)
      changed.positions[changed.index(f, m)] += glm::vec3(0.3f, 0, 0);
  }
  const auto a = SolveWith(SharedSubject().take, 300);
  const auto b = SolveWith(changed, 300);
  for (int f = 0; f < 300; ++f) {
    for (int n = 0; n < kNodeCount; ++n) ASSERT_EQ(a[f].joints[n], b[f].joints[n]) << f;
  }
}

// Hides `markers` over [from, from + 120) and returns the mean prediction error there.
double HiddenError(const std::vector<std::string>& names, int from) {
  const Take& recorded = SharedSubject().take;
  Take hidden = recorded;
  std::vector<int> markers;
  for (const std::string& name : names) markers.push_back(hidden.find(name));
  for (int f = from; f < from + 120; ++f) {
    for (int m : markers) hidden.seen[hidden.index(f, m)] = 0;
  }
  const auto solved = SolveWith(hidden, from + 120);
  double sum = 0.0;
  int count = 0;
  for (int f = from; f < from + 120; ++f) {
    for (int m : markers) {
      EXPECT_EQ(solved[f].state[m], MarkerState::kPredicted);
      sum += glm::distance(solved[f].estimate[m], recorded.position(f, m)), ++count;
    }
  }
  return sum / count;
}

TEST(MarkerSolve, OneHiddenMarkerIsPredictedFromItsSegment) {
  EXPECT_LT(HiddenError({"forearm_l_1"}, 400), 0.005);
  EXPECT_LT(HiddenError({"shank_r_0"}, 700), 0.005);
}

TEST(MarkerSolve, AWholeHiddenSegmentIsCarriedByItsParent) {
  const double hand = HiddenError({"hand_l_0", "hand_l_1", "hand_l_2"}, 500);
  const double foot = HiddenError({"foot_r_0", "foot_r_1", "foot_r_2"}, 800);
  EXPECT_LT(hand, 0.06);
  EXPECT_LT(foot, 0.06);
}

TEST(MarkerSolve, AMarkerThatLeavesItsSegmentIsRejectedWhileItDoes) {
  Take bad = SharedSubject().take;
  const int m = bad.find("thigh_l_1");
  for (int f = 200; f < 400; ++f) bad.positions[bad.index(f, m)] += glm::vec3(0.0f, 0.1f, 0.05f);
  const auto solved = SolveWith(bad, 600);
  int rejected_inside = 0, rejected_outside = 0;
  for (int f = 0; f < 600; ++f) {
    const bool rejected = solved[f].state[m] == MarkerState::kRejected;
    (f >= 200 && f < 400 ? rejected_inside : rejected_outside) += rejected ? 1 : 0;
  }
  EXPECT_GE(rejected_inside, 198);
  EXPECT_LE(rejected_outside, 2);
  // While rejected its estimate is the prediction, near where it should be.
  EXPECT_LT(glm::distance(solved[300].estimate[m], SharedSubject().take.position(300, m)), 0.02f);
}

TEST(MarkerSolve, ATakeWithTooFewConsistentFramesFailsCalibrationNamingTheSegment) {
  Take take = SharedSubject().take;
  take.frame_count = 5;
  take.positions.resize(5 * take.names.size());
  take.seen.resize(5 * take.names.size());
  Result<TakeSolution> s = SolveTake(take, SharedSubject().set);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("segment pelvis"), std::string::npos) << s.error();
}

}  // namespace
}  // namespace fabrik::markers
