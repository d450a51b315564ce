// catmull_rom.h - the Catmull-Rom spline moved to the solver library (ik/catmull_rom.h), where
// spline IK uses it too; this header keeps older includes working.
#pragma once

#include "ik/catmull_rom.h"
