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

// Each segment's twist about its solved bone is the one that fits its markers best: turning it
// either way about the bone by half a degree makes its markers' squared residuals no smaller.
TEST(MarkerSolve, EachSegmentsTwistFitsItsMarkersBest) {
  const Subject& subject = SharedSubject();
  const TakeSolution& solution = SharedSolution();
  const Calibration& cal = solution.calibration;
  for (int f = 100; f < kFrames; f += 250) {
    for (int s = 0; s < kSegmentCount; ++s) {
      const Pose& pose = solution.segments[f][s];
      const glm::vec3 a = solution.joints[f][kSegmentProximal[s]];
      const glm::vec3 axis = glm::normalize(solution.joints[f][kSegmentDistal[s]] - a);
      auto residual = [&](float angle) {
        const glm::quat turn = glm::angleAxis(angle, axis);
        double sum = 0.0;
        for (std::size_t k = 0; k < cal.set.segments[s].size(); ++k) {
          const int m = cal.set.segments[s][k];
          const glm::vec3 p = a + turn * (pose.Apply(cal.offsets[s][k]) - a);
          const glm::vec3 d = p - subject.take.position(f, m);
          sum += glm::dot(d, d);
        }
        return sum;
      };
      const float step = glm::radians(0.5f);
      EXPECT_LE(residual(0.0f), residual(step) + 1e-6) << kSegmentNames[s] << " frame " << f;
      EXPECT_LE(residual(0.0f), residual(-step) + 1e-6) << kSegmentNames[s] << " frame " << f;
    }
  }
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
  // A marker hidden across frame 300, so that its prediction's memory is tested too.
  Take hidden = SharedSubject().take;
  const int m = hidden.find("forearm_l_1");
  for (int f = 250; f < 350; ++f)
    hidden.seen[hidden.index(f, m)] = changed.seen[changed.index(f, m)] = 0;
  const auto a = SolveWith(hidden, 300);
  const auto b = SolveWith(changed, 300);
  for (int f = 0; f < 300; ++f) {
    for (int n = 0; n < kNodeCount; ++n) ASSERT_EQ(a[f].joints[n], b[f].joints[n]) << f;
    for (int k = 0; k < hidden.marker_count(); ++k)
      ASSERT_EQ(a[f].estimate[k], b[f].estimate[k]) << f;
  }
}

TEST(MarkerSolve, ResetForgetsThePreviousFrames) {
  Take hidden = SharedSubject().take;
  const int m = hidden.find("shank_r_0");
  for (int f = 100; f < 200; ++f) hidden.seen[hidden.index(f, m)] = 0;
  Result<MarkerSolver> solver =
      MarkerSolver::Create(SharedSolution().calibration, hidden.marker_count());
  ASSERT_TRUE(solver.ok()) << solver.error();
  std::vector<glm::vec3> first;
  for (int f = 0; f < 200; ++f) first = solver.value().Solve(hidden, f).estimate;
  solver.value().Reset();
  std::vector<glm::vec3> second;
  for (int f = 0; f < 200; ++f) second = solver.value().Solve(hidden, f).estimate;
  EXPECT_EQ(first, second);
}

// Hides `markers` of `recorded` over [from, from + 120) and returns the mean prediction error
// there.
double HiddenError(const std::vector<std::string>& names, int from,
                   const Take& recorded = SharedSubject().take) {
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
  const double forearm = HiddenError({"forearm_l_1"}, 400), shank = HiddenError({"shank_r_0"}, 700);
  std::printf("hidden marker: forearm %.1f mm, shank %.1f mm\n", 1e3 * forearm, 1e3 * shank);
  EXPECT_LT(forearm, 0.005);
  EXPECT_LT(shank, 0.005);
}

// Soft tissue: a marker that slides slowly over its segment (20 mm back and forth over 8 s) is
// predicted, when hidden, from where it last sat on the segment, not from the calibration's
// average offset (which is 15-20 mm off there).
TEST(MarkerSolve, AHiddenMarkerThatSlidesOnItsSegmentIsPredictedFromWhereItLastSat) {
  Take sliding = SharedSubject().take;
  const float rate = sliding.rate;
  for (const char* name : {"forearm_l_1", "thigh_r_0"}) {
    const int m = sliding.find(name);
    // The slide along the line to the segment's first marker keeps it on the segment.
    const int anchor = sliding.find(std::string(name).substr(0, std::string(name).size() - 1) +
                                    (name[std::string(name).size() - 1] == '0' ? "1" : "0"));
    for (int f = 0; f < sliding.frame_count; ++f) {
      const glm::vec3 along = glm::normalize(sliding.position(f, anchor) - sliding.position(f, m));
      const float slide = 0.02f * std::sin(6.2831853f * f / (8.0f * rate));
      sliding.positions[sliding.index(f, m)] += slide * along;
    }
  }
  const int peak = static_cast<int>(2.0f * rate);  // a quarter of the slide's period
  const double forearm = HiddenError({"forearm_l_1"}, peak - 60, sliding);
  const double thigh = HiddenError({"thigh_r_0"}, peak - 60, sliding);
  std::printf("sliding marker hidden: forearm %.1f mm, thigh %.1f mm\n", 1e3 * forearm,
              1e3 * thigh);
  EXPECT_LT(forearm, 0.005);
  EXPECT_LT(thigh, 0.005);
}

TEST(MarkerSolve, AWholeHiddenSegmentIsCarriedByItsParent) {
  const double hand = HiddenError({"hand_l_0", "hand_l_1", "hand_l_2"}, 500);
  const double foot = HiddenError({"foot_r_0", "foot_r_1", "foot_r_2"}, 800);
  std::printf("hidden segment: hand %.1f mm, foot %.1f mm\n", 1e3 * hand, 1e3 * foot);
  // A hidden segment keeps its pose relative to its parent's markers from the frame before the
  // gap; the clip's foot turns on the shank more than its hand on the forearm.
  EXPECT_LT(hand, 0.025);
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
