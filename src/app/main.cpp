// fabrik-demo: the interactive FABRIK demonstration. See README.md for the controls and
// docs/options.md for the options.
#include "app/app.h"
#include "app/options.h"
#include "app/scene_shell.h"

int main(int argc, char** argv) {
  const fabrik::ParsedOptions parsed =
      fabrik::ParseOptions(argc, argv, fabrik::OptionScenes());
  if (parsed.exit_code) return *parsed.exit_code;
  return fabrik::RunApp(parsed.options);
}
