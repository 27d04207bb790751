/* entry-symbol: the entry is misspelt, so the host finds nothing to call. */
#define PLUGIN_ENTRY_NAME cellhost_plugin_entry_v1
#include "base.h"
#include "tables.h"
