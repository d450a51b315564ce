// pose.h - a character's pose: bone transforms in model space, from the rest pose, the bind
// pose or an animation (model.h for the spaces and the skeleton's order).
//
// A pose is one BoneTransform per bone, model space (metres). A local pose is one per bone,
// relative to its parent (bone 0's: to model space). Every function here writes into spans
// the caller sized to skeleton.bone_count(); a span of another size makes it return false and
// write nothing. None allocates.
#pragma once

#include <span>

#include "character/model.h"

namespace fabrik::character {

// Model transforms from local ones: out[b] = out[parent[b]] * local[b]. `local` and `out`
// may be the same span.
bool LocalToModel(const Skeleton& skeleton, std::span<const BoneTransform> local,
                  std::span<BoneTransform> out);

// The rest pose (the file's node transforms), model space.
bool RestPose(const Skeleton& skeleton, std::span<BoneTransform> out);

// The bind pose: out[b] = inverse(inverse_bind[b]). Skinned with it, the mesh is as loaded.
bool BindPose(const Skeleton& skeleton, std::span<BoneTransform> out);

// The local pose of `animation` at `seconds`, clamped to [0, duration] (a non-finite time
// samples 0). Between keys translations are interpolated linearly and rotations by spherical
// interpolation along the shorter arc; before the first key and after the last a track holds
// its end key. A bone without a channel, or a channel without keys for a part, keeps its rest
// value for that part.
bool SampleAnimation(const Skeleton& skeleton, const Animation& animation, float seconds,
                     std::span<BoneTransform> local_out);

}  // namespace fabrik::character
