// The panel's step-through and race sections, and the caption over the scene while stepping.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <string>

#include "app/panel_widgets.h"
#include "app/systems.h"
#include "core/step_view.h"

namespace fabrik::panel {

void StepSection(const AppState& state, CommandQueue& queue) {
  const StepState& s = state.step;
  auto step = [&](cmd::StepAction action) { queue.Push(Command(cmd::Step{action, 1})); };
  if (!ImGui::CollapsingHeader("Step through a solve (P)",
                               s.active ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    return;
  }
  bool active = s.active;
  if (ImGui::Checkbox("pause and step", &active)) {
    step(active ? cmd::StepAction::kOn : cmd::StepAction::kOff);
  }
  if (!s.active) {
    ImGui::TextColored(kDim, "Freezes the target and replays one solve reach by reach.");
    return;
  }
  const RecordingObserver& r = s.recording;
  ImGui::SameLine();
  ImGui::TextColored(kDim, "step %zu / %zu", s.step, s.total_steps());
  // |<  <<  <  >  >>  >|   iteration, half-pass and reach steps, both ways.
  if (ImGui::Button("|<")) step(cmd::StepAction::kStart);
  ImGui::SameLine();
  if (ImGui::Button("-it")) queue.Push(app::StepIterationBack{});
  ImGui::SameLine();
  if (ImGui::Button("-pass")) step(cmd::StepAction::kBack);
  ImGui::SameLine();
  if (ImGui::Button("-1")) step(cmd::StepAction::kPrev);
  ImGui::SameLine();
  if (ImGui::Button("+1")) step(cmd::StepAction::kNext);
  ImGui::SameLine();
  if (ImGui::Button("+pass")) step(cmd::StepAction::kPass);
  ImGui::SameLine();
  if (ImGui::Button("+it")) step(cmd::StepAction::kIteration);
  ImGui::SameLine();
  if (ImGui::Button(">|")) step(cmd::StepAction::kEnd);
  if (ImGui::Button(s.playing ? "Pause##step" : "Play##step")) {
    step(s.playing ? cmd::StepAction::kPause : cmd::StepAction::kPlay);
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  float rate = s.reaches_per_second;
  if (ImGui::SliderFloat("##rate", &rate, 0.5f, 60.0f, "%.1f reaches/s",
                         ImGuiSliderFlags_Logarithmic)) {
    queue.Push(app::StepRate{rate});
  }
  ImGui::TextWrapped("%s", DescribeStep(state).c_str());
  // Distance to the target after each iteration of the recorded solve.
  if (r.recorded() &&
      ImGui::BeginTable("iterations", 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY,
                        ImVec2(0, 110))) {
    ImGui::TableSetupColumn("iteration");
    ImGui::TableSetupColumn("after pass");
    ImGui::TableSetupColumn("distance");
    ImGui::TableHeadersRow();
    const std::size_t current = s.step == 0 || s.step > r.reach_count()
                                    ? static_cast<std::size_t>(-1)
                                    : r.reach(s.step - 1).half_pass;
    for (std::size_t h = 0; h < r.half_pass_count(); ++h) {
      const RecordingObserver::HalfPass pass = r.half_pass(h);
      ImGui::TableNextRow();
      const ImVec4 color = h == current ? ImVec4(1.0f, 0.92f, 0.3f, 1.0f) : kDim;
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(color, "%d", pass.iteration);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextColored(color, "%s", PassShortName(pass.kind));
      ImGui::TableSetColumnIndex(2);
      ImGui::TextColored(color, "%.5f", pass.distance);
    }
    ImGui::EndTable();
  }
  ImGui::TextColored(kDim, "Keys: Left/Right reach, Shift+Left/Right pass, Up/Down iteration,");
  ImGui::TextColored(kDim, "Home/End, Space play.");
}

void RaceSection(const AppState& state, CommandQueue& queue) {
  const RaceState& race = state.race;
  if (!ImGui::CollapsingHeader("Race the solvers",
                               race.active ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    return;
  }
  bool active = race.active;
  if (ImGui::Checkbox("run every solver on the same target", &active)) {
    queue.Push(Command(cmd::Race{active}));
  }
  if (!race.active) return;
  if (ImGui::BeginTable("race", 4, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("solver");
    ImGui::TableSetupColumn("iter");
    ImGui::TableSetupColumn("us");
    ImGui::TableSetupColumn("distance");
    ImGui::TableHeadersRow();
    for (const RaceEntry& e : race.entries) {
      const glm::vec4 c = RacerColor(e);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(ImVec4(c.r, c.g, c.b, 1.0f), "%s", RacerName(e));
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%d", e.last.iterations);
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%.1f", e.solve_us);
      ImGui::TableSetColumnIndex(3);
      ImGui::TextColored(e.last.reached ? kGood : kWarn, "%.4f", e.last.distance);
    }
    ImGui::EndTable();
  }
  const float width = ImGui::GetContentRegionAvail().x;
  for (const RaceEntry& e : race.entries) {
    const glm::vec4 c = RacerColor(e);
    char overlay[64];
    std::snprintf(overlay, sizeof(overlay), "%s iterations (mean %.1f)", RacerName(e),
                  e.iteration_history.mean());
    ImGui::PushStyleColor(ImGuiCol_PlotLines, ImVec4(c.r, c.g, c.b, 1.0f));
    const std::string id = std::string("##race_") + RacerName(e);
    ImGui::PlotLines(id.c_str(), e.iteration_history.data(), e.iteration_history.size(),
                     e.iteration_history.offset(), overlay, 0.0f,
                     std::max(2.0f, e.iteration_history.max()), ImVec2(width, 32));
    ImGui::PopStyleColor();
  }
}

// A caption over the scene while stepping: what the reach on screen does.
void StepCaption(const AppState& state) {
  if (!state.step.active) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float left = state.view.panel_width + 20.0f;
  const float width = std::max(200.0f, vp->Size.x - left - 10.0f);
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + left, vp->Pos.y + 10), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_AlwaysAutoResize;
  if (ImGui::Begin("##step_caption", nullptr, flags)) {
    ImGui::PushTextWrapPos(width - 16.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.92f, 0.3f, 1.0f), "STEP %zu / %zu", state.step.step,
                       state.step.total_steps());
    ImGui::SameLine();
    ImGui::TextColored(kDim,
                       "   yellow: the joint moved and the line it slides along;  "
                       "pink: the segment's length;  pale: the pose before");
    ImGui::TextUnformatted(DescribeStep(state).c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace fabrik::panel
