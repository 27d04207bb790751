/* The plugin's name is a character array without a terminating NUL. */
#define X16 "xxxxxxxxxxxxxxxx"
#define X256 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16
#define X8192 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 \
              X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256 X256
static const char unterminated[8192] = X8192;
#define PLUGIN_NAME unterminated
#include "base.h"
#include "tables.h"
