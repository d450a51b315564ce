// The free chain in the shell: no section or look of its own. It is listed by its name and
// drawn as a chain through its pose, with the CHAIN, solver, step view and race sections its
// controls name (ChainScene::controls).
#include "app/scene_shell.h"

namespace fabrik {

// Its registry line (scenes/registry.h).
SceneShell ChainShell() { return {}; }

}  // namespace fabrik
