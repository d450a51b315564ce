// text.h - moved to lang/text.h with the rest of the command language; this forwards the one
// include still written the old way (core/commands_tools.cpp).
#pragma once

#include "lang/text.h"
