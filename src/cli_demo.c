/* ttx demo: placeholder until the demo lands. */
#include "cli.h"

int cmd_demo(int argc, char **argv)
{
	(void)argc, (void)argv;
	return usage_error("demo: %s", "not yet");
}
