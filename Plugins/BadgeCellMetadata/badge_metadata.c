/*
 * The Swift sample's metadata section (plugin.h, CELLHOST_METADATA): what `cellhost inspect
 * --no-load` reads without running the plugin. Swift's @section accepts only numeric and tuple
 * constants, not strings, so a Swift plugin declares its metadata in one small C file like this,
 * in a C target its plugin target depends on (the C target depends on CellHostSDK, which brings
 * CellHostPluginABI.h). The strings repeat those BadgeCell.swift passes
 * to export(…); `cellhost validate` fails the plugin when the two disagree.
 */
#include "CellHostPluginABI.h"

CELLHOST_METADATA("com.cellhost.samples.badges", "Badges", "1.0.0", "cellhost samples",
                  "A list row with a count badge, written in Swift with CellHostSDK.",
                  CELLHOST_METADATA_TYPES("com.cellhost.samples.badge"));
