/* abi-version: built against a minor version newer than the host's. */
#define PLUGIN_ABI_MINOR (CELLHOST_ABI_MINOR + 1)
#include "base.h"
#include "tables.h"
