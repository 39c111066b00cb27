#include "waymark_math.h"
