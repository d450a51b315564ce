// Debian's stb_image implementation compiled into the terrain fuzzer itself, so that
// libFuzzer sees (and the sanitizers check) the PNG decoder's own code too. libstb.so, which
// the demo uses, is not instrumented; these definitions take precedence over it when linking.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
