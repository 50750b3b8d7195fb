/* The fuzz build compiles the library sources without configure. */
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "fuzz"
#endif
