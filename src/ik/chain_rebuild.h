// chain_rebuild.h - a new chain with other segment lengths that continues the old pose.
//
// Used when the user changes the joint count or the lengths: the root stays exactly where it
// was and each kept segment keeps its direction, so the chain does not jump; new segments
// continue straight along the last one. Fails (and nothing changes) on a length that is not
// finite and > 0, or on an empty list.
#pragma once

#include <span>
#include <vector>

#include "chain.h"

namespace fabrik {

Result<Chain> RebuildChain(const Chain& old, std::span<const float> lengths);

// `count` copies of `length`.
std::vector<float> UniformLengths(int count, float length);

}  // namespace fabrik
