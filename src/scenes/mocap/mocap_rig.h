// mocap_rig.h - loading a clip for the mocap and crowd scenes: the path resolved like every
// file the demo reads, the clip read by the motion-capture library (mocap/clip.h) and its
// limbs and contacts found (mocap/character.h: MakeRig).
#pragma once

#include <memory>
#include <string>

#include "ik/result.h"
#include "mocap/character.h"

namespace fabrik {

// Reads the BVH at `resolved_path` with `scale` metres per file unit (0: the scale rule of
// mocap/clip.h) and makes its rig. Fails with one line naming the file and the problem (the
// loader's limits, or a skeleton without two legs); nothing is kept on failure.
Result<std::shared_ptr<const mocap::Rig>> LoadRig(const std::string& resolved_path, float scale);

}  // namespace fabrik
