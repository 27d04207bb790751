/* The plugin ABI as a C module for Swift plugins (CellHostSDK) and the host alike: exactly what
 * plugin.h declares, nothing of the host's. The contract itself stays in
 * SDK/include/cellhost/plugin.h, the path C authors include. */
#include "../../include/cellhost/plugin.h"
