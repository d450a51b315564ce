// project_context.h - the command context of the targets tests: paths found from the source
// tree, where the packaged splines and scripts are.
#pragma once

#include "lang/command.h"

namespace fabrik {

inline CommandContext ProjectContext() {
  CommandContext c;
  c.search_roots = {FABRIK_SOURCE_DIR};
  return c;
}

}  // namespace fabrik
