/* Claims the host's own list content type id, which would replace the built-in cells. */
#define PLUGIN_TYPE_ID "com.cellhost.list-content"
#include "base.h"
#include "tables.h"
