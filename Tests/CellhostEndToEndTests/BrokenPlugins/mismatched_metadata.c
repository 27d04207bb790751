/* metadata-section: the metadata section declares a version the descriptor does not have. */
#define PLUGIN_METADATA_VERSION "9.9.9"
#include "base.h"
#include "tables.h"
