/* The control: every check passes. */
#include "base.h"
#include "tables.h"
