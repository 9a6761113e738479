/* app.h: run the program with parsed options; returns the exit status. */
#ifndef RAYPICK_APP_H
#define RAYPICK_APP_H

#include "options.h"

int app_run(const app_options *opt);

#endif
