// fabrik-demo: the interactive FABRIK demonstration. See README.md for options and controls.
#include "app/app.h"
#include "app/options.h"

int main(int argc, char** argv) {
  const fabrik::ParsedOptions parsed = fabrik::ParseOptions(argc, argv);
  if (parsed.exit_code) return *parsed.exit_code;
  return fabrik::RunApp(parsed.options);
}
