// creature_draw.h - step 5 for the creature scene: its tree (joints, bones, effectors in their
// colour, joints at their limit in red) and the cone outline of every ball joint.
#pragma once

#include "app/systems.h"

namespace fabrik {

class CreatureScene;

// Draws `creature`'s tree with joints `base` world units across, through the drawer's
// scratch buffers. The creature's tree must be built (CreatureScene::tree set).
void DrawCreatureTree(SceneDrawer& drawer, const CreatureScene& creature, Renderer& renderer,
                      float base);

}  // namespace fabrik
