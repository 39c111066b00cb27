// The trigonometry the core's geodesy uses, from the C library's libm, so that no Swift module
// outside WaymarkSystem imports Glibc for it (WaymarkMath wraps these).
#pragma once
#include <math.h>

static inline double waymark_sin(double x) { return sin(x); }
static inline double waymark_cos(double x) { return cos(x); }
static inline double waymark_tan(double x) { return tan(x); }
static inline double waymark_asin(double x) { return asin(x); }
static inline double waymark_atan(double x) { return atan(x); }
static inline double waymark_atan2(double y, double x) { return atan2(y, x); }
